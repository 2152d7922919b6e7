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
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import type { Failure, RowLayout } from './batch.js';
import { FAULT_KINDS, type FaultKind } from '../programs/fault.js';
import { headerTextOf, readJournalOf, type JournalKind, type JournalOf } from './journal-file.js';
import { shardRange } from './shard.js';
import { isObject, metricsOf, shellWord, specFromJournal, type RunSpec } from './spec.js';
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
  return headerTextOf(RUN_JOURNAL, spec, path);
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

/** A run's journal read: its spec, its group lines from the shard's first group. */
export type JournalContents = JournalOf<RunSpec, GroupLine>;

/** The run's journal as `readJournalOf` reads it. */
const RUN_JOURNAL: JournalKind<RunSpec, GroupLine> = {
  tag: 'journal',
  version: JOURNAL_VERSION,
  noun: 'journal',
  line: 'group',
  otherVersion: (v) =>
    `journal format ${String(v)}, written by another version of tafel (this one reads format ${JOURNAL_VERSION}); run it again`,
  otherFile,
  spec: specFromJournal,
  body: parseGroup,
  range: (spec) => shardRange(spec.groups, spec.shard),
  index: (line) => line.g,
};

/**
 * Read and check a journal. `layout` (from the game and the entrants, which only the
 * caller can resolve) is checked by `checkLines`; here the structure is checked:
 * one header, then group lines numbered consecutively from the shard's first group.
 */
export function readJournal(path: string, what = 'journal'): JournalContents {
  return readJournalOf(path, what, RUN_JOURNAL);
}

/**
 * Check that the game still has the metrics, in the same order, that the journal's sums
 * were written for (a game may reorder or add metrics between versions of tafel).
 */
export function checkMetrics(path: string, spec: RunSpec, game: Pick<Game, 'dealMetrics' | 'matchMetrics'>): void {
  const now = metricsOf(game);
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
