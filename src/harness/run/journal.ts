/**
 * The journal: the resumable, mergeable record of a run, in JSON Lines.
 *
 *   {"tafel":"journal","v":2,"spec":{...}}                   the header: the run spec
 *   {"g":0,"deals":2,"dealSums":[...],"dealCounts":[...],"matchSums":[],"matchCounts":[]}
 *   {"g":1,"skipped":"bot ... threw ... (seed 1, deal 1, rotation 0)","fault":"threw","entrant":0,"rotation":0,"deal":0,"seat":2}
 *   ...                                                      one line per group, in order
 *
 * The header holds the run spec (spec.ts) as it was when the run began, its directory
 * relative to the journal's, so a journal can be resumed from anywhere. A group line
 * holds that group's `GroupTally`: small exact numbers, which JSON carries without
 * loss. Everything a run reports is computed from these lines in group order, so a run
 * split over workers, interruptions or machines reports exactly what one uninterrupted
 * run would.
 *
 * A skipped line says which fault dropped the group (its kind, the entrant at fault and
 * where), so that a resumed or merged run counts the faults of its whole length. Lines
 * written before faults had kinds hold only the message: their kind is read from the
 * message's words (a move timeout 'time', an illegal move 'illegal', else 'threw'),
 * their entrant from the label it begins with, their place is unknown.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import type { Failure, RowLayout } from './batch.js';
import { FAULT_KINDS, type FaultKind } from '../programs/fault.js';
import { shardRange } from './shard.js';
import { shellWord, specForJournal, specFromJournal, type RunSpec } from './spec.js';
import type { GroupTally } from '../table/table.js';

/** The journal format this tafel writes; others are refused. */
const JOURNAL_VERSION = 2;

/** One group line: its tally numbers, or why it was dropped. */
export type GroupLine =
  | {
      readonly g: number;
      readonly deals: number;
      readonly dealSums: number[];
      readonly dealCounts: number[];
      readonly matchSums: number[];
      readonly matchCounts: number[];
    }
  | { readonly g: number; readonly skipped: string; readonly failure: Failure };

/** The header line of the journal at `path` for `spec`. */
export function headerText(spec: RunSpec, path: string): string {
  return JSON.stringify({ tafel: 'journal', v: JOURNAL_VERSION, spec: specForJournal(spec, path) }) + '\n';
}

export function groupText(g: number, t: GroupTally): string {
  return `{"g":${g},"deals":${t.deals},"dealSums":${nums(t.dealSums)},"dealCounts":${nums(t.dealCounts)},"matchSums":${nums(t.matchSums)},"matchCounts":${nums(t.matchCounts)}}\n`;
}

/** The line of a group dropped after `f` (a bot's fault, so `f.fault` is set). */
export function skippedText(f: Failure): string {
  const at = f.at ? { rotation: f.at.rotation, deal: f.at.deal, seat: f.at.seat } : {};
  return (
    JSON.stringify({ g: f.group, skipped: f.message, fault: f.fault ?? 'threw', entrant: f.entrant, ...at }) + '\n'
  );
}

// Sums and counts are mostly small integers: their texts are made once.
const SMALL = Array.from({ length: 4096 }, (_, i) => String(i - 2048));

function nums(a: Float64Array): string {
  let s = '[';
  for (let i = 0; i < a.length; i++) {
    if (i) s += ',';
    const k = a[i] + 2048;
    s += k >= 0 && k < 4096 && Math.floor(k) === k ? SMALL[k] : String(a[i]);
  }
  return s + ']';
}

export function toGroupTally(line: GroupLine, into: GroupTally): void {
  if ('skipped' in line) throw new Error('toGroupTally: a skipped group has no tally');
  into.deals = line.deals;
  into.dealSums.set(line.dealSums);
  into.dealCounts.set(line.dealCounts);
  into.matchSums.set(line.matchSums);
  into.matchCounts.set(line.matchCounts);
}

export interface JournalContents {
  /** The run, as the header holds it (its directory made absolute). */
  readonly spec: RunSpec;
  /** The group lines, in order from the shard's first group. */
  readonly lines: GroupLine[];
  /** Byte offset of the end of the header and of each group line. */
  readonly ends: number[];
  /** Whether an unfinished last line (a write cut off) was left out. */
  readonly torn: boolean;
}

/**
 * Read and check a journal. `layout` (from the game and the entrants, which only the
 * caller can resolve) is checked by `checkLines`; here the structure is checked:
 * one header, then group lines numbered consecutively from the shard's first group.
 */
export function readJournal(path: string, what = 'journal'): JournalContents {
  const bad = (why: string): never => {
    throw new TafelError('bad-journal', `${what} ${path}: ${why}`);
  };
  const notJournal = 'not a tafel journal (its first line is not a journal header)';
  let spec: RunSpec | null = null;
  const lines: GroupLine[] = [];
  const ends: number[] = [];
  let torn = false;
  let lineNo = 0;
  let from = 0;
  let to = 0;
  forEachLine(path, what, (text, end, complete) => {
    lineNo++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (lineNo === 1) return bad(notJournal);
      // A last line without its newline is a write cut short: drop it, the group is replayed.
      if (!complete) {
        torn = true;
        return;
      }
      return bad(`line ${lineNo} is not JSON (a corrupt journal)`);
    }
    if (!complete && lineNo > 1) {
      torn = true;
      return;
    }
    if (lineNo === 1) {
      if (!isObject(value) || value.tafel !== 'journal') return bad(otherFile(value, path) ?? notJournal);
      if (value.v !== JOURNAL_VERSION) {
        return bad(
          `journal format ${String(value.v)}, written by another version of tafel (this one reads format ${JOURNAL_VERSION}); run it again`,
        );
      }
      const read = specFromJournal(value.spec, path);
      if (typeof read === 'string') return bad(`line 1: ${read}`);
      spec = read;
      ({ from, to } = shardRange(spec.groups, spec.shard));
    } else {
      const line = parseGroup(value, spec!) ?? bad(`line ${lineNo} is not a group line (a corrupt journal)`);
      const expected = from + lines.length;
      if (line.g !== expected || line.g >= to)
        return bad(
          `line ${lineNo} is group ${line.g}, expected ${expected < to ? expected : 'the end'} (a corrupt journal)`,
        );
      lines.push(line);
    }
    ends.push(end);
  });
  if (!spec) return bad('empty, not a tafel journal');
  return { spec, lines, ends, torn };
}

/**
 * Check that the game still has the metrics, in the same order, that the journal's sums
 * were written for (a game may reorder or add metrics between versions of tafel).
 */
export function checkMetrics(path: string, spec: RunSpec, game: Pick<Game, 'dealMetrics' | 'matchMetrics'>): void {
  const now = { deal: game.dealMetrics.map((m) => m.key), match: game.matchMetrics.map((m) => m.key) };
  for (const part of ['deal', 'match'] as const) {
    if (now[part].join() !== spec.metrics[part].join()) {
      throw new TafelError(
        'bad-journal',
        `journal ${path}: written for ${part} metrics ${spec.metrics[part].join(',')}, but this tafel's ${spec.game} has ${now[part].join(',')}; run it again`,
      );
    }
  }
}

/** Check the group lines' array lengths against the run's entrants and metrics. */
export function checkLines(path: string, lines: readonly GroupLine[], layout: RowLayout): void {
  const E = layout.entrants;
  for (const line of lines) {
    if ('skipped' in line) continue;
    const ok =
      line.dealSums.length === E * layout.dealMetrics &&
      line.dealCounts.length === E &&
      line.matchSums.length === E * layout.matchMetrics &&
      line.matchCounts.length === E;
    if (!ok)
      throw new TafelError(
        'bad-journal',
        `journal ${path}: group ${line.g} does not fit the run's bots and metrics (a corrupt journal)`,
      );
  }
}

/** Whether the journal holds every group of its run (or shard). */
export function isComplete(c: JournalContents): boolean {
  const { from, to } = shardRange(c.spec.groups, c.spec.shard);
  return c.lines.length === to - from;
}

/**
 * Calls `f` with each line of the file (without its newline), the byte offset after
 * it and whether it ended with a newline; `f` returns false to stop early.
 */
export function forEachLine(
  path: string,
  what: string,
  f: (text: string, end: number, complete: boolean) => boolean | void,
): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new TafelError(
      'unreadable',
      `${what} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  try {
    const buf = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let pendingBytes = 0;
    let offset = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw new TafelError(
          'unreadable',
          `${what} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        );
      }
      if (n === 0) break;
      let start = 0;
      for (let i = buf.indexOf(10, 0); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) {
        const text = pending + decoder.write(buf.subarray(start, i));
        offset += pendingBytes + (i - start) + 1;
        pending = '';
        pendingBytes = 0;
        if (f(text, offset, true) === false) return;
        start = i + 1;
      }
      pending += decoder.write(buf.subarray(start, n));
      pendingBytes += n - start;
    }
    pending += decoder.end();
    if (pending !== '') f(pending, offset + pendingBytes, false);
  } finally {
    closeSync(fd);
  }
}

/**
 * What a JSON Lines file that is not a run's journal is, from its first line, and the
 * command that takes it (null when it is nothing tafel writes).
 */
function otherFile(first: unknown, path: string): string | null {
  if (isObject(first) && first.tafel === 'tune-journal')
    return `the journal of a tuning, not of a run (continue it with tafel tune --resume ${shellWord(path)})`;
  if (isDealRecord(first))
    return `a file of deal records (RECORD.md), not a journal (show a deal of it with tafel replay --records ${shellWord(path)} --match M)`;
  return null;
}

/** Whether a line's value is a deal record (RECORD.md), as `--records` files hold one a line. */
export function isDealRecord(v: unknown): boolean {
  return isObject(v) && typeof v.game === 'string' && typeof v.match === 'number' && Array.isArray(v.hands);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNumbers = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));

function parseGroup(v: unknown, spec: RunSpec): GroupLine | null {
  if (!isObject(v) || !isCount(v.g)) return null;
  if (typeof v.skipped === 'string')
    return { g: v.g, skipped: v.skipped, failure: skippedFailure(v, v.g, v.skipped, spec) };
  if (
    !isCount(v.deals) ||
    !isNumbers(v.dealSums) ||
    !isNumbers(v.dealCounts) ||
    !isNumbers(v.matchSums) ||
    !isNumbers(v.matchCounts)
  )
    return null;
  return {
    g: v.g,
    deals: v.deals,
    dealSums: v.dealSums,
    dealCounts: v.dealCounts,
    matchSums: v.matchSums,
    matchCounts: v.matchCounts,
  };
}

/** The fault of a skipped line: as the line says, or read from the message of a line written before kinds (see the header). */
function skippedFailure(v: Record<string, unknown>, g: number, message: string, spec: RunSpec): Failure {
  const kind = FAULT_KINDS.find((k) => k === v.fault);
  const fault: FaultKind = kind ?? oldKind(message);
  const entrant =
    typeof v.entrant === 'number' && Number.isInteger(v.entrant) && v.entrant >= -1 && v.entrant < spec.entrants.length
      ? v.entrant
      : entrantNamed(message, spec);
  const at =
    isCount(v.rotation) && isCount(v.deal) && isCount(v.seat)
      ? { group: g, rotation: v.rotation, deal: v.deal, seat: v.seat }
      : null;
  return { code: 'bot-failed', message, group: g, fault, entrant, at };
}

function oldKind(message: string): FaultKind {
  if (/ (did not answer within|took longer than) the move timeout /.test(message)) return 'time';
  if (/ played an illegal move /.test(message)) return 'illegal';
  return 'threw';
}

/** The entrant whose label the message `bot LABEL at seat ...` names (the longest that fits), or -1. */
function entrantNamed(message: string, spec: RunSpec): number {
  let best = -1;
  spec.entrants.forEach((e, i) => {
    if (
      message.startsWith(`bot ${e.label} at seat `) &&
      (best < 0 || e.label.length > spec.entrants[best].label.length)
    )
      best = i;
  });
  return best;
}
