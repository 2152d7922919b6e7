/**
 * `tafel replay`: finding a deal in a records file, playing it again from the seed and
 * the bots, and printing it. The records a real run writes are the reference: a found
 * record is the object on that line, and a regenerated one is byte for byte the line
 * the run wrote.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTafelError } from '../src/core/errors.js';
import { PACK_SIZE, cardName } from '../src/core/french.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveLineup, type Lineup } from '../src/harness/table/lineup.js';
import { findRecord, regenerateRecord, renderDeal } from '../src/harness/table/replay.js';
import { runTournament } from '../src/harness/run/run.js';
import { liveRunOf } from '../src/harness/run/spec.js';
import type { Unit } from '../src/harness/table/table.js';

type Rec = Record<string, unknown> & { match: number; deal: number; tricks: Trick[]; hands: string[][] };
interface Trick {
  leader: number;
  cards: string[];
  winner: number;
  taker: number;
  points: number;
  facedown?: boolean;
}

const dir = mkdtempSync(join(tmpdir(), 'tafel-replay-'));
const game = findGame('viersche') as Game;
const table: TableConfig = { seats: 4, rules: {} };
let lineup: Lineup;

interface Run {
  path: string;
  lines: string[];
  records: Rec[];
  seed: string;
  unit: Unit;
}
const runs: Record<string, Run> = {};

function run(name: string, seed: string, unit: Unit, groups: number): Run {
  const path = join(dir, `${name}.jsonl`);
  const result = runTournament(liveRunOf({ game, table, lineup, seed, unit, groups, files: { records: path } }));
  expect(result.failure).toBeUndefined();
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  return { path, lines, records: lines.map((l) => JSON.parse(l) as Rec), seed, unit };
}

function thrown(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (!isTafelError(e)) throw e;
    expect(e.message).not.toContain('\n');
    return { code: e.code, message: e.message };
  }
  throw new Error('did not throw');
}

beforeAll(async () => {
  lineup = await resolveLineup('heuristic,random', game, 4);
  runs.deals = run('deals', 'rp', 'deal', 30);
  runs.matches = run('matches', 'rpm', 'match', 3);
});

describe('findRecord', () => {
  it('returns the object on the line of that match and deal', () => {
    for (const name of ['deals', 'matches']) {
      const { path, lines, records } = runs[name];
      for (const i of [0, 1, lines.length >> 1, lines.length - 1]) {
        const { match, deal } = records[i];
        expect(findRecord(path, { match, deal })).toEqual(JSON.parse(lines[i]));
        expect(findRecord(path, { match, deal, seed: runs[name].seed })).toEqual(records[i]);
      }
    }
  });

  it('tells the seeds of concatenated runs apart', () => {
    const both = join(dir, 'both.jsonl');
    writeFileSync(both, readFileSync(runs.deals.path, 'utf8') + readFileSync(runs.matches.path, 'utf8'));
    expect(findRecord(both, { match: 1, deal: 0, seed: 'rpm' })).toEqual(
      runs.matches.records.find((r) => r.match === 1 && r.deal === 0),
    );
    expect(findRecord(both, { match: 1, deal: 0, seed: 'rp' })).toEqual(runs.deals.records[1]);
    expect(findRecord(both, { match: 1, deal: 0 })).toEqual(runs.deals.records[1]); // the first in the file
  });

  it('reads lines across chunk boundaries (also inside a UTF-8 character), CRLF endings, blank lines, no final newline', () => {
    const { lines, records } = runs.matches;
    const path = join(dir, 'crlf.jsonl');
    // A first line longer than the 1 MiB read chunk, of two-byte characters, one of them
    // straddling the chunk boundary (the prefix has an odd number of bytes).
    let prefix = '{"match":999,"deal":0,"pad":"';
    if (prefix.length % 2 === 0) prefix = prefix.replace('{', '{ ');
    const pad = 'ä'.repeat(600_000);
    writeFileSync(path, `${prefix}${pad}"}\r\n   \r\n${' '.repeat(1_100_000)}\n` + lines.join('\r\n\r\n'));
    const last = records.at(-1)!;
    expect(findRecord(path, { match: last.match, deal: last.deal })).toEqual(last);
    expect(findRecord(path, { match: 999, deal: 0 }).pad).toBe(pad);
  });

  it('says which deals exist when the deal is not there', () => {
    const { path, records } = runs.deals;
    const max = Math.max(...records.map((r) => r.match));
    expect(thrown(() => findRecord(path, { match: 12, deal: 3 }))).toEqual({
      code: 'no-deal',
      message: `no deal 3 of match 12 in ${path} (match 12 has deals 0..0)`,
    });
    expect(thrown(() => findRecord(path, { match: max + 1, deal: 0 })).message).toBe(
      `no deal 0 of match ${max + 1} in ${path} (matches 0..${max})`,
    );
    expect(thrown(() => findRecord(path, { match: 0, deal: 0, seed: 'other' })).message).toBe(
      `no deal 0 of match 0 with seed other in ${path} (its seeds: rp)`,
    );
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(thrown(() => findRecord(empty, { match: 0, deal: 0 })).message).toContain('holds no deal records');
  });

  it('names the file and line of a broken record, and an unreadable file', () => {
    const path = join(dir, 'broken.jsonl');
    writeFileSync(path, runs.deals.lines.slice(0, 16).join('\n') + '\n{"match": 16, "deal": 0,\n');
    appendFileSync(path, runs.deals.lines.slice(17).join('\n') + '\n');
    expect(thrown(() => findRecord(path, { match: 20, deal: 0 }))).toEqual({
      code: 'bad-record',
      message: `${path} line 17: not JSON`,
    });
    // A deal before the broken line is still found.
    expect(findRecord(path, { match: 3, deal: 0 })).toEqual(runs.deals.records[3]);
    // A line that looks whole but is not JSON is skipped while searching (only the lines
    // that mention the wanted match and deal are parsed) and reported when nothing is found.
    const subtle = join(dir, 'subtle.jsonl');
    writeFileSync(
      subtle,
      [...runs.deals.lines.slice(0, 4), '{"match": 4, oops}', ...runs.deals.lines.slice(5)].join('\n') + '\n',
    );
    expect(findRecord(subtle, { match: 9, deal: 0 })).toEqual(runs.deals.records[9]);
    expect(thrown(() => findRecord(subtle, { match: 4, deal: 0 })).message).toBe(`${subtle} line 5: not JSON`);
    expect(thrown(() => findRecord(subtle, { match: 99, deal: 0 })).message).toBe(`${subtle} line 5: not JSON`);
    const notRecord = join(dir, 'array.jsonl');
    writeFileSync(notRecord, '[1,2]\n');
    expect(thrown(() => findRecord(notRecord, { match: 0, deal: 0 })).message).toBe(
      `${notRecord} line 1: not a JSON object`,
    );
    writeFileSync(notRecord, '{"match":"0","deal":0}\n');
    expect(thrown(() => findRecord(notRecord, { match: 0, deal: 0 })).message).toMatch(/line 1: not a deal record/);
    expect(thrown(() => findRecord(join(dir, 'missing.jsonl'), { match: 0, deal: 0 })).message).toMatch(
      /missing\.jsonl: cannot read \(ENOENT\)$/,
    );
    expect(thrown(() => findRecord(dir, { match: 0, deal: 0 })).message).toMatch(/cannot read \(EISDIR\)$/);
    expect(thrown(() => findRecord(path, { match: -1, deal: 0 })).code).toBe('bad-option');
  });
});

describe('regenerateRecord', () => {
  it('plays a deal of a --deals run again, byte for byte the record the run wrote', () => {
    const { lines, records, seed, unit } = runs.deals;
    for (const i of [0, 1, 7, 30, 59]) {
      const { match, deal } = records[i];
      const again = regenerateRecord(liveRunOf({ game, table, lineup, seed, unit, groups: 100 }), match, deal);
      expect(again).toEqual(records[i]);
      expect(JSON.stringify(again)).toBe(lines[i]);
    }
  });

  it('plays a deal deep inside a match of a --matches run again', () => {
    const { lines, records, seed, unit } = runs.matches;
    const picks = [0, 1, records.length >> 1, records.length - 1];
    // The last deal of rotation 0 of group 1, and a deal of every match.
    for (let m = 0; m < 6; m++) picks.push(records.findLastIndex((r) => r.match === m));
    for (const i of picks) {
      const { match, deal } = records[i];
      expect(match).toBeLessThan(6);
      const again = regenerateRecord(liveRunOf({ game, table, lineup, seed, unit, groups: 100 }), match, deal);
      expect(JSON.stringify(again), `match ${match} deal ${deal}`).toBe(lines[i]);
    }
    expect(picks.some((i) => records[i].deal > 5)).toBe(true);
  });

  it('refuses a deal that the run never played', () => {
    const { records, seed } = runs.matches;
    const last = Math.max(...records.filter((r) => r.match === 2).map((r) => r.deal));
    expect(
      thrown(() => regenerateRecord(liveRunOf({ game, table, lineup, seed, unit: 'match', groups: 100 }), 2, last + 1))
        .message,
    ).toBe(`no deal ${last + 1} of match 2 (group 1, rotation 0): the match ended after deal ${last}`);
    expect(
      thrown(() => regenerateRecord(liveRunOf({ game, table, lineup, seed, unit: 'deal', groups: 100 }), 2, 1)).code,
    ).toBe('no-deal');
    expect(
      thrown(() => regenerateRecord(liveRunOf({ game, table, lineup, seed, unit: 'deal', groups: 100 }), 1.5, 0)).code,
    ).toBe('bad-option');
  });
});

// --- renderDeal --------------------------------------------------------------------

const CARD = /(?<![\w(])(?:10|[6-9JQKA])[CSHD](?!\w)|(?<=\()(?:10|[6-9JQKA])[CSHD](?=\))/g;

/** Which card of a trick wins by RULES.md V-1, V-2, V-4 (independent of the engine). */
function ruleWinner(trick: Trick, trump: string): number {
  const colour: Record<string, string> = { C: 'S', S: 'C', H: 'D', D: 'H' };
  const ranks = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
  const power = (card: string, led: string): number => {
    const rank = card.slice(0, -1);
    const suit = card.slice(-1);
    if (rank === 'J' && suit === trump) return 200;
    if (rank === 'J' && suit === colour[trump]) return 199;
    if (suit === trump) return 100 + ranks.indexOf(rank);
    return suit === led ? ranks.indexOf(rank) : -1;
  };
  const isTrump = (c: string) => power(c, '') >= 100;
  const led = trick.facedown || isTrump(trick.cards[0]) ? trump : trick.cards[0].slice(-1);
  let best = trick.facedown ? -1 : 0;
  trick.cards.forEach((c, i) => {
    if (i === 0 && trick.facedown) return;
    if (best < 0 || power(c, led) > power(trick.cards[best], led)) best = i;
  });
  return (trick.leader + best) % 4;
}

function sections(text: string): string[] {
  return text.split('\n\n');
}

describe('renderDeal', () => {
  it('shows every card once in the hands and once in the play, with the right winner of every trick', () => {
    const all = [...runs.deals.records, ...runs.matches.records];
    let claims = 0;
    let facedown = 0;
    for (const rec of all) {
      const text = renderDeal(rec);
      const [, hands, tricks, results] = sections(text);
      const everyCard = Array.from({ length: PACK_SIZE }, (_, p) => cardName(p)).sort();
      expect((hands.match(CARD) ?? []).sort()).toEqual(everyCard);
      expect((tricks.match(CARD) ?? []).sort()).toEqual(everyCard);
      const lines = tricks.split('\n').filter((l) => /^ {2}trick \d/.test(l));
      expect(lines).toHaveLength(rec.tricks.length);
      rec.tricks.forEach((t, k) => {
        const line = lines[k];
        // Tricks are numbered from 1, as `tafel play` numbers them (the record counts from 0).
        expect(line.startsWith(`  trick ${k + 1}  leader ${t.leader}: `)).toBe(true);
        expect(line).toContain(`-> seat ${t.winner} takes ${t.points} points`);
        expect(ruleWinner(t, rec.trump as string)).toBe(t.winner);
        // The starred card is the winner's: its place from the leader.
        const starred = line.split(': ')[1].split('  ->')[0].trim().split(/\s+/);
        const at = starred.findIndex((x) => x.endsWith('*'));
        expect(starred[at].replace(/[()*]/g, '')).toBe(t.cards[(t.winner - t.leader + 4) % 4]);
        expect(starred.filter((x) => x.endsWith('*'))).toHaveLength(1);
        if (t.facedown) {
          facedown++;
          expect(starred[0]).toBe(`(${t.cards[0]})`);
          expect(line).toContain('(led face down)');
        }
      });
      if (rec.claims) {
        claims++;
        expect(tricks).toMatch(/seat \d claims: correct/);
        expect(tricks).toMatch(/not played: /);
      } else {
        expect(tricks).not.toMatch(/not played/);
      }
      expect(results).toMatch(/^points: 0 \d+ {3}1 \d+ {3}2 \d+ {3}3 \d+ {3}teams: 0 \d+ {3}1 \d+$/m);
      const pts = rec.points as number[];
      expect(results).toContain(`teams: 0 ${pts[0] + pts[2]}   1 ${pts[1] + pts[3]}`);
    }
    // The sample covers the special cases.
    expect(claims).toBeGreaterThan(0);
    expect(facedown).toBeGreaterThan(0);
  });

  it('prints the header, the score before and after, events, and unknown fields compactly', () => {
    const rec = runs.matches.records.find((r) =>
      (r.events as unknown[]).some((e) => (e as { type: string }).type === 'set'),
    )!;
    const text = renderDeal({ ...rec, extra: { a: 1, b: [2, 3] } });
    const header = sections(text)[0];
    expect(header).toContain(`viersche  seed rpm  match ${rec.match}  deal ${rec.deal}  rotation ${rec.rotation}`);
    expect(header).toContain(
      `dealer ${rec.dealer}   trump ${rec.trump} (turn-up ${rec.turnup})   targets ${(rec.targets as number[]).join('/')}`,
    );
    expect(header).toMatch(/bots: 0 (heuristic|random) {3}1 /);
    expect(header).toContain('teams: 0 = seats 0+2, 1 = seats 1+3');
    expect(header).toMatch(/^before: rungs=\[\d,\d\] carry=(null|\{team=\d points=\d+\}) frame=\[\d,\d\]$/m);
    expect(text).toMatch(/^events: game team=\d rungs=\d; set loser=\d marks=\d/m);
    expect(text).toMatch(/^after: rungs=\[4,4\]/m);
    expect(text).toMatch(/^other: extra=\{a=1 b=\[2,3\]\}$/m);
    expect(text).not.toMatch(/^other: .*targets/m);
  });
});
