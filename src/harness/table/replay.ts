/**
 * One deal, looked at closely: `tafel replay`. A deal is found either in a records
 * file (`findRecord`) or by playing it again from the seed and the bots
 * (`regenerateRecord`, which works because every deal of a run depends only on
 * (seed, group, deal, rotation), see table.ts), then printed trick by trick
 * (`renderDeal`).
 *
 * `renderDeal` reads only the fields of ../shared/RECORD.md, so it prints the records
 * of any engine and game; fields it does not know are shown compactly at the end.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TafelError } from '../../core/errors.js';
import { findGame } from '../../games/index.js';
import type { LiveRun } from '../run/spec.js';
import { GroupTally, Table } from './table.js';

type DealRecord = Record<string, unknown>;

export interface DealAddress {
  /** The run's master seed; when given, records of other seeds are skipped. */
  readonly seed?: string;
  readonly match: number;
  readonly deal: number;
}

const CHUNK = 1 << 20;

function checkIndex(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TafelError('bad-option', `${what} must be a whole number from 0, not ${value}`);
}

/**
 * The record of deal `deal` of match `match` (and seed `seed`, if given) in the JSON
 * Lines file at `path`, read in chunks, so a file of any size can be searched; the
 * search stops at the first matching record. Blank lines are skipped.
 *
 * Parsing every line is slow (about 30 MB/s; the filtered scan runs at 150-250 MB/s),
 * so only the lines that mention `"match": M` and `"deal": D` are parsed; the others are checked only
 * to be one `{...}` each (a truncated or garbled line is still reported by its
 * number). If no record matches, a second pass parses every line, to report the first
 * malformed one or else which matches and deals the file holds.
 */
export function findRecord(path: string, where: DealAddress): DealRecord {
  checkIndex(where.match, 'the match');
  checkIndex(where.deal, 'the deal');
  const hasMatch = new RegExp(`"match"\\s*:\\s*${where.match}(?![\\d.eE])`);
  const hasDeal = new RegExp(`"deal"\\s*:\\s*${where.deal}(?![\\d.eE])`);
  const wanted = (r: DealRecord) =>
    r.match === where.match && r.deal === where.deal && (where.seed === undefined || String(r.seed) === where.seed);

  let found: DealRecord | null = null;
  scanLines(path, (line, lineNo) => {
    const first = line.charCodeAt(0);
    const last = line.charCodeAt(line.length - 1);
    if (first !== 0x7b || last !== 0x7d) {
      const t = line.trim();
      if (t === '') return false;
      if (!t.startsWith('{') || !t.endsWith('}')) parseRecord(path, lineNo, t); // throws: no JSON object
    }
    if (!hasMatch.test(line) || !hasDeal.test(line)) return false;
    const r = parseRecord(path, lineNo, line);
    if (!wanted(r)) return false;
    found = r;
    return true;
  });
  if (found) return found;

  // Not there: look at every line, for a precise message.
  let records = 0;
  let lo = Infinity;
  let hi = -Infinity;
  let dealsLo = Infinity;
  let dealsHi = -Infinity;
  const seeds = new Set<string>();
  scanLines(path, (line, lineNo) => {
    if (line.trim() === '') return false;
    const r = parseRecord(path, lineNo, line);
    records++;
    if (where.seed !== undefined && String(r.seed) !== where.seed) {
      seeds.add(String(r.seed));
      return false;
    }
    const m = r.match as number;
    lo = Math.min(lo, m);
    hi = Math.max(hi, m);
    if (m === where.match) {
      dealsLo = Math.min(dealsLo, r.deal as number);
      dealsHi = Math.max(dealsHi, r.deal as number);
    }
    return false;
  });
  const what = `no deal ${where.deal} of match ${where.match}${where.seed !== undefined ? ` with seed ${where.seed}` : ''} in ${path}`;
  let seen: string;
  if (records === 0) seen = 'it holds no deal records';
  else if (lo > hi) seen = `its seeds: ${[...seeds].slice(0, 5).join(', ')}${seeds.size > 5 ? ', ...' : ''}`;
  else if (dealsLo <= dealsHi) seen = `match ${where.match} has deals ${dealsLo}..${dealsHi}`;
  else seen = `matches ${lo}..${hi}`;
  throw new TafelError('no-deal', `${what} (${seen})`);
}

function malformed(path: string, lineNo: number): TafelError {
  return new TafelError('bad-record', `${path} line ${lineNo}: not JSON`);
}

function parseRecord(path: string, lineNo: number, line: string): DealRecord {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    throw malformed(path, lineNo);
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
    throw new TafelError('bad-record', `${path} line ${lineNo}: not a JSON object`);
  }
  const r = rec as DealRecord;
  if (!Number.isSafeInteger(r.match) || !Number.isSafeInteger(r.deal)) {
    throw new TafelError(
      'bad-record',
      `${path} line ${lineNo}: not a deal record (no whole-number "match" and "deal")`,
    );
  }
  return r;
}

/**
 * Call `visit` with each line of the file (without its line ending; a byte-order mark
 * dropped) and its number from 1, until it returns true. Reads 1 MiB at a time and
 * decodes only whole lines (a newline byte never occurs inside a UTF-8 character); a
 * line longer than the buffer grows it.
 */
function scanLines(path: string, visit: (line: string, lineNo: number) => boolean): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw unreadable(path, e);
  }
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let held = 0; // bytes at the start of buf that belong to an unfinished line
    let lineNo = 0;
    const emit = (line: string): boolean => {
      lineNo++;
      if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
      return visit(line, lineNo);
    };
    for (;;) {
      if (held === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, held);
        buf = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, buf, held, buf.length - held, null);
      } catch (e) {
        throw unreadable(path, e);
      }
      const end = held + n;
      if (n === 0) {
        if (held > 0) emit(buf.toString('utf8', 0, held));
        return;
      }
      const lastNl = buf.lastIndexOf(0x0a, end - 1);
      if (lastNl < 0) {
        held = end;
        continue;
      }
      const text = buf.toString('utf8', 0, lastNl);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (emit(text.slice(start, nl))) return;
        start = nl + 1;
      }
      if (emit(text.slice(start))) return;
      buf.copy(buf, 0, lastNl + 1, end);
      held = end - lastNl - 1;
    }
  } finally {
    closeSync(fd);
  }
}

function unreadable(path: string, e: unknown): TafelError {
  const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new TafelError('unreadable', `${path}: cannot read (${code})`);
}

/** Thrown by the record sink to stop play once the wanted deal is recorded. */
class Found extends Error {
  constructor(readonly record: DealRecord) {
    super('found');
  }
}

/**
 * The record that a run with these settings wrote for deal `deal` of match `match`,
 * computed by playing only that match again. A run's match index is
 * `group * rotations + rotation` (table.ts), and every deal depends only on the seed
 * and its coordinates, so the rest of the run need not be played. Play stops (by
 * throwing from the record sink) as soon as the wanted deal is recorded.
 */
export function regenerateRecord(run: LiveRun, match: number, deal: number): DealRecord {
  const { game, lineup, spec } = run;
  checkIndex(match, 'the match');
  checkIndex(deal, 'the deal');
  if (spec.unit === 'deal' && deal !== 0) {
    throw new TafelError(
      'no-deal',
      `no deal ${deal} of match ${match}: in a run of single deals every match is deal 0 alone`,
    );
  }
  const g = Math.floor(match / lineup.rotations);
  const r = match % lineup.rotations;
  let last = -1;
  const sink = (rec: DealRecord): void => {
    if (rec.match !== match) return;
    last = rec.deal as number;
    if (last === deal) throw new Found(rec);
  };
  const player = new Table(run, sink);
  const tally = new GroupTally(lineup.entrants.length, game.dealMetrics.length, game.matchMetrics.length);
  try {
    player.playRotation(g, r, tally);
  } catch (e) {
    if (e instanceof Found) return e.record;
    throw e;
  }
  throw new TafelError(
    'no-deal',
    `no deal ${deal} of match ${match} (group ${g}, rotation ${r}): the match ended after deal ${last}`,
  );
}

// --- Rendering ---------------------------------------------------------------------

/** The fields `renderDeal` shows in their own place; everything else goes to "other". */
const SHOWN = new Set([
  'v',
  'game',
  'rules',
  'seed',
  'match',
  'deal',
  'rotation',
  'seats',
  'bots',
  'dealer',
  'players',
  'kind',
  'hands',
  'turnup',
  'trump',
  'tricks',
  'points',
  'before',
  'after',
  'events',
  'claims',
  'targets',
]);

/**
 * A deal record as text for people: the header (game, seed, match, deal, rotation,
 * dealer, bots by seat, trump, targets, the score before), the hands, each trick
 * (`*` marks the card that won it, `(7C)` a card led face down), claims, points by
 * seat and team, events and the score after.
 */
export function renderDeal(record: Readonly<DealRecord>): string {
  const rec = record as DealRecord;
  const out: string[] = [];
  const seats = typeof rec.seats === 'number' ? rec.seats : Array.isArray(rec.hands) ? rec.hands.length : 0;
  const bots = Array.isArray(rec.bots) ? (rec.bots as unknown[]).map(String) : [];
  const dealer = typeof rec.dealer === 'number' ? rec.dealer : -1;
  const players = Array.isArray(rec.players)
    ? (rec.players as number[])
    : Array.from({ length: seats }, (_, i) => (dealer + 1 + i) % seats);
  const teams = teamsOf(rec, seats);

  // Header.
  const id = [
    compact(rec.game ?? '?'),
    `seed ${compact(rec.seed ?? '?')}`,
    `match ${compact(rec.match ?? '?')}`,
    `deal ${compact(rec.deal ?? '?')}`,
  ];
  if (rec.rotation !== undefined) id.push(`rotation ${compact(rec.rotation)}`);
  if (rec.kind !== undefined && rec.kind !== 'normal') id.push(compact(rec.kind));
  if (rec.v !== undefined && rec.v !== 1) id.push(`format v${compact(rec.v)}`);
  out.push(id.join('  '));
  if (rec.rules && typeof rec.rules === 'object' && Object.keys(rec.rules).length)
    out.push(`rules: ${compact(rec.rules)}`);
  const deal: string[] = [];
  if (dealer >= 0) deal.push(`dealer ${dealer}`);
  if (rec.trump !== undefined)
    deal.push(`trump ${compact(rec.trump ?? 'none')}${rec.turnup ? ` (turn-up ${compact(rec.turnup)})` : ''}`);
  else if (rec.turnup) deal.push(`turn-up ${compact(rec.turnup)}`);
  if (Array.isArray(rec.targets)) deal.push(`targets ${(rec.targets as unknown[]).join('/')}`);
  if (Array.isArray(rec.players) && players.length !== seats) deal.push(`playing: ${players.join(' ')}`);
  if (deal.length) out.push(deal.join('   '));
  if (bots.length) out.push(`bots: ${bots.map((b, s) => `${s} ${b}`).join('   ')}`);
  if (teams) out.push(`teams: ${teamList(teams)}`);
  if (rec.before !== undefined) out.push(`before: ${compact(rec.before)}`);

  // Hands.
  const hands = Array.isArray(rec.hands) ? (rec.hands as unknown[][]) : [];
  if (hands.length) {
    out.push('', 'hands');
    const width = Math.max(...hands.map((_, s) => seatLabel(s, bots, dealer, teams).length));
    hands.forEach((h, s) => {
      const cards = Array.isArray(h) ? h.map(String) : [];
      out.push(
        `  ${seatLabel(s, bots, dealer, teams).padEnd(width)}  ${cards.length ? cards.join(' ') : '(not playing)'}`,
      );
    });
  }

  // Tricks, with the claims after the trick they follow.
  const tricks = Array.isArray(rec.tricks) ? (rec.tricks as DealRecord[]) : [];
  const claims = Array.isArray(rec.claims) ? (rec.claims as DealRecord[]) : [];
  const claimed = new Set<DealRecord>();
  if (tricks.length) out.push('', 'tricks');
  const played = new Map<string, number>();
  const tokens = tricks.map((t) => {
    const order = playingOrder(players, Number(t.leader), seats);
    const cards = Array.isArray(t.cards) ? (t.cards as unknown[]).map(String) : [];
    return cards.map((c, i) => {
      played.set(c, (played.get(c) ?? 0) + 1);
      const down = i === 0 && t.facedown === true;
      return (down ? `(${c})` : c) + (order[i] === t.winner ? '*' : '');
    });
  });
  // One column width for the whole deal, so that the cards of each seat line up.
  const width = Math.max(0, ...tokens.flat().map((x) => x.length));
  tricks.forEach((t, k) => {
    const text = tokens[k].map((x) => x.padEnd(width)).join(' ');
    const taker =
      t.taker !== undefined && t.taker !== t.winner
        ? `seat ${compact(t.winner)} wins, seat ${compact(t.taker)} takes`
        : `seat ${compact(t.winner)} takes`;
    const extra = Object.keys(t).filter(
      (key) => !['leader', 'cards', 'winner', 'taker', 'points', 'facedown'].includes(key),
    );
    out.push(
      `  trick ${k + 1}  leader ${compact(t.leader)}: ${text}  -> ${taker} ${compact(t.points)} points` +
        (t.facedown === true ? '  (led face down)' : '') +
        (extra.length ? `  ${extra.map((key) => field(key, t[key])).join(' ')}` : ''),
    );
    for (const c of claims) {
      if (c.trick === k) {
        claimed.add(c);
        out.push(
          `    seat ${compact(c.seat)} claims: ${c.correct === true ? 'correct' : c.correct === false ? 'wrong' : compact(c.correct)}`,
        );
      }
    }
  });
  for (const c of claims) if (!claimed.has(c)) out.push(`  claim: ${compact(c)}`);
  // Cards never played (a deal ended by a claim), by seat.
  if (tricks.length && hands.length) {
    const left: string[] = [];
    hands.forEach((h, s) => {
      const rest = (Array.isArray(h) ? h.map(String) : []).filter((c) => !played.has(c));
      if (rest.length) left.push(`${s}: ${rest.join(' ')}`);
    });
    if (left.length) out.push(`  not played: ${left.join('   ')}`);
  }

  // Results.
  out.push('');
  if (Array.isArray(rec.points)) {
    const pts = rec.points as (number | null)[];
    let line = `points: ${pts.map((p, s) => `${s} ${p ?? '-'}`).join('   ')}`;
    if (teams) {
      const sums = new Map<number, number>();
      pts.forEach((p, s) => sums.set(teams[s], (sums.get(teams[s]) ?? 0) + (p ?? 0)));
      line += `   teams: ${[...sums]
        .sort((a, b) => a[0] - b[0])
        .map(([t, p]) => `${t} ${p}`)
        .join('   ')}`;
    }
    out.push(line);
  }
  for (const key of ['ties', 'schleipfen', 'declarations', 'playoff']) {
    if (rec[key] !== undefined) out.push(`${key}: ${compact(rec[key])}`);
  }
  if (Array.isArray(rec.events)) {
    out.push(`events: ${rec.events.length ? (rec.events as unknown[]).map(eventText).join('; ') : 'none'}`);
  }
  if (rec.after !== undefined) out.push(`after: ${compact(rec.after)}`);
  const others = Object.keys(rec).filter(
    (key) => !SHOWN.has(key) && !['ties', 'schleipfen', 'declarations', 'playoff'].includes(key),
  );
  if (others.length) out.push(`other: ${others.map((key) => field(key, rec[key])).join(' ')}`);
  return out.join('\n') + '\n';
}

/** The game's teams by seat, if the game is known and has teams. */
function teamsOf(rec: DealRecord, seats: number): readonly number[] | null {
  const game = typeof rec.game === 'string' ? findGame(rec.game) : undefined;
  if (!game || seats < game.minSeats || seats > game.maxSeats) return null;
  return game.teams(seats);
}

function teamList(teams: readonly number[]): string {
  const by = new Map<number, number[]>();
  teams.forEach((t, s) => by.set(t, [...(by.get(t) ?? []), s]));
  return [...by]
    .sort((a, b) => a[0] - b[0])
    .map(([t, s]) => `${t} = seats ${s.join('+')}`)
    .join(', ');
}

function seatLabel(seat: number, bots: readonly string[], dealer: number, teams: readonly number[] | null): string {
  const notes = [bots[seat], teams ? `team ${teams[seat]}` : undefined, seat === dealer ? 'dealer' : undefined].filter(
    Boolean,
  );
  return `seat ${seat}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/** Seats in the order they play to a trick led by `leader`. */
function playingOrder(players: readonly number[], leader: number, seats: number): number[] {
  const at = players.indexOf(leader);
  if (at < 0) return Array.from({ length: seats }, (_, i) => (leader + i) % seats);
  return players.map((_, i) => players[(at + i) % players.length]);
}

/** `game team=0 rungs=1`: the type first, then the other fields. */
function eventText(e: unknown): string {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return compact(e);
  const { type, ...rest } = e as DealRecord;
  const fields = Object.entries(rest).map(([k, v]) => field(k, v));
  return [type === undefined ? '?' : compact(type), ...fields].join(' ');
}

/** JSON without quotes around keys and simple strings: `rungs=[4,4] carry=null`. */
function compact(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'string') return /^[\w.:+-]*$/.test(v) && v !== '' ? v : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(nested).join(',')}]`;
  if (typeof v === 'object') {
    return Object.entries(v as DealRecord)
      .map(([k, x]) => field(k, x))
      .join(' ');
  }
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : '?';
}

/** `key=value`, with an object value in braces: `carry={team=0 points=60}`. */
function field(key: string, v: unknown): string {
  return `${key}=${nested(v)}`;
}

function nested(v: unknown): string {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? `{${compact(v)}}` : compact(v);
}
