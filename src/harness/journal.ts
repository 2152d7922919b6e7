/**
 * The journal: the resumable, mergeable record of a run, in JSON Lines.
 *
 *   {"tafel":"journal","v":1,"run":{...},"files":{...}}      the header
 *   {"g":0,"deals":2,"dealSums":[...],"dealCounts":[...],"matchSums":[],"matchCounts":[]}
 *   {"g":1,"skipped":"bot ... threw ... (seed 1, deal 1, rotation 0)"}
 *   ...                                                      one line per group, in order
 *
 * `run` is what the results depend on (game, rules, seats, bots, seed, unit, number of
 * groups, rotations, shard); `files` is where this run writes (relative to `cwd`,
 * which is relative to the journal's own directory, so a journal can be resumed from
 * anywhere). A group line holds that group's `GroupTally`: small exact numbers, which
 * JSON carries without loss. Everything a run reports is computed from these lines
 * in group order, so a run split over workers, interruptions or machines reports
 * exactly what one uninterrupted run would.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { TafelError } from '../core/errors.js';
import type { Game, Params } from '../games/game.js';
import type { RowLayout } from './batch.js';
import { shardRange, type Shard } from './shard.js';
import type { GroupTally, Unit } from './table.js';

export interface RunIdentity {
  readonly game: string;
  readonly rules: Params;
  readonly seats: number;
  /** The --bots list as written, one label per name given. */
  readonly bots: readonly string[];
  /** Per distinct bot (in order of first appearance): whether it sees hidden cards. Lets a merge report without loading bots. */
  readonly cheats: readonly boolean[];
  readonly seed: string;
  readonly unit: Unit;
  /** Groups in the whole run (all shards). */
  readonly groups: number;
  readonly rotations: number;
  readonly shard: Shard | null;
  /** The --sprt spec in force (its canonical text), or null: a resumed run continues the same test. */
  readonly sprt: string | null;
  /** The game's deal and match metric keys when the journal was written: what its sums mean, column by column. */
  readonly metrics: { readonly deal: readonly string[]; readonly match: readonly string[] };
}

export interface JournalFiles {
  /** The run's working directory, relative to the journal's directory. */
  readonly cwd: string;
  readonly out: string | null;
  readonly records: string | null;
  readonly dealCsv: string | null;
}

export interface JournalHeader {
  readonly run: RunIdentity;
  readonly files: JournalFiles;
}

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
  | { readonly g: number; readonly skipped: string };

export function headerText(h: JournalHeader): string {
  const { run, files } = h;
  // Keys in a fixed order: journals of the same run must be equal byte for byte.
  const r = {
    game: run.game,
    rules: run.rules,
    seats: run.seats,
    bots: run.bots,
    cheats: run.cheats,
    seed: run.seed,
    unit: run.unit,
    groups: run.groups,
    rotations: run.rotations,
    shard: run.shard && { index: run.shard.index, count: run.shard.count },
    sprt: run.sprt,
    metrics: { deal: run.metrics.deal, match: run.metrics.match },
  };
  const f = { cwd: files.cwd, out: files.out, records: files.records, dealCsv: files.dealCsv };
  return JSON.stringify({ tafel: 'journal', v: 1, run: r, files: f }) + '\n';
}

export function groupText(g: number, t: GroupTally): string {
  return `{"g":${g},"deals":${t.deals},"dealSums":${nums(t.dealSums)},"dealCounts":${nums(t.dealCounts)},"matchSums":${nums(t.matchSums)},"matchCounts":${nums(t.matchCounts)}}\n`;
}

export function skippedText(g: number, message: string): string {
  return JSON.stringify({ g, skipped: message }) + '\n';
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
  readonly header: JournalHeader;
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
  let header: JournalHeader | null = null;
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
      if (lineNo === 1) return bad('not a tafel journal (its first line is not a journal header)');
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
      if (isObject(value) && value.tafel === 'journal' && isObject(value.run) && value.run.metrics === undefined) {
        return bad(
          'written by an earlier tafel, before journals named their metrics, so its columns cannot be checked; run it again',
        );
      }
      header = parseHeader(value) ?? bad('not a tafel journal (its first line is not a journal header)');
      ({ from, to } = shardRange(header.run.groups, header.run.shard));
    } else {
      const line = parseGroup(value) ?? bad(`line ${lineNo} is not a group line (a corrupt journal)`);
      const expected = from + lines.length;
      if (line.g !== expected || line.g >= to)
        return bad(
          `line ${lineNo} is group ${line.g}, expected ${expected < to ? expected : 'the end'} (a corrupt journal)`,
        );
      lines.push(line);
    }
    ends.push(end);
  });
  if (!header) return bad('empty, not a tafel journal');
  return { header, lines, ends, torn };
}

/** The game's metric keys, as a journal records them (`RunIdentity.metrics`). */
export function metricKeys(game: Pick<Game, 'dealMetrics' | 'matchMetrics'>): RunIdentity['metrics'] {
  return { deal: game.dealMetrics.map((m) => m.key), match: game.matchMetrics.map((m) => m.key) };
}

/**
 * Check that the game still has the metrics, in the same order, that the journal's sums
 * were written for (a game may reorder or add metrics between versions of tafel).
 */
export function checkMetrics(path: string, run: RunIdentity, game: Pick<Game, 'dealMetrics' | 'matchMetrics'>): void {
  const now = metricKeys(game);
  for (const part of ['deal', 'match'] as const) {
    if (now[part].join() !== run.metrics[part].join()) {
      throw new TafelError(
        'bad-journal',
        `journal ${path}: written for ${part} metrics ${run.metrics[part].join(',')}, but this tafel's ${run.game} has ${now[part].join(',')}; run it again`,
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
  const { from, to } = shardRange(c.header.run.groups, c.header.run.shard);
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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNumbers = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
const isKeys = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function parseHeader(v: unknown): JournalHeader | null {
  if (!isObject(v) || v.tafel !== 'journal' || v.v !== 1 || !isObject(v.run) || !isObject(v.files)) return null;
  const r = v.run;
  const f = v.files;
  const str = (x: unknown): x is string => typeof x === 'string';
  const path = (x: unknown): x is string | null => x === null || str(x);
  const shard = r.shard;
  const shardOk =
    shard === null || (isObject(shard) && isCount(shard.index) && isCount(shard.count) && shard.index < shard.count);
  const rulesOk =
    isObject(r.rules) && Object.values(r.rules).every((x) => ['string', 'number', 'boolean'].includes(typeof x));
  if (
    !str(r.game) ||
    !rulesOk ||
    !isCount(r.seats) ||
    !Array.isArray(r.bots) ||
    !r.bots.every(str) ||
    r.bots.length === 0 ||
    !Array.isArray(r.cheats) ||
    !r.cheats.every((x) => typeof x === 'boolean') ||
    !str(r.seed) ||
    (r.unit !== 'deal' && r.unit !== 'match') ||
    !isCount(r.groups) ||
    !isCount(r.rotations) ||
    !shardOk ||
    !str(f.cwd) ||
    !path(f.out) ||
    !path(f.records) ||
    !path(f.dealCsv) ||
    !path(r.sprt ?? null) ||
    !isObject(r.metrics) ||
    !isKeys(r.metrics.deal) ||
    !isKeys(r.metrics.match)
  ) {
    return null;
  }
  return {
    run: {
      game: r.game,
      rules: r.rules as Params,
      seats: r.seats,
      bots: r.bots,
      cheats: r.cheats,
      seed: r.seed,
      unit: r.unit,
      groups: r.groups,
      rotations: r.rotations,
      shard:
        shard === null
          ? null
          : { index: (shard as { index: number }).index, count: (shard as { count: number }).count },
      sprt: (r.sprt ?? null) as string | null,
      metrics: { deal: r.metrics.deal, match: r.metrics.match },
    },
    files: { cwd: f.cwd, out: f.out, records: f.records, dealCsv: f.dealCsv },
  };
}

function parseGroup(v: unknown): GroupLine | null {
  if (!isObject(v) || !isCount(v.g)) return null;
  if (typeof v.skipped === 'string') return { g: v.g, skipped: v.skipped };
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
