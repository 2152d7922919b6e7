/**
 * The journal: the resumable, mergeable record of a run, in JSON Lines. Format 3:
 *
 *   {"tafel":"journal","v":3,"spec":{...}}                   the header: the run spec
 *   {"g":17,"skipped":"bot ... threw ... (seed 1, deal 17, rotation 0)","fault":"threw","entrant":0,"rotation":0,"deal":17,"seat":2}
 *   {"groups":4096,"deals":4060,"tally":{...},"sprt":null}   a checkpoint
 *   ...                                                      more skipped lines and checkpoints
 *
 * The header holds the run spec (spec.ts) as it was when the run began, its directory
 * relative to the journal's, so a journal can be resumed from anywhere.
 *
 * A checkpoint holds the whole state of the run after its first `groups` groups (of the
 * shard, played or skipped): the tally (stats/tally.ts: counts and exact sums, see
 * stats/exact.ts) and the SPRT's state. It is written when the run's outputs are
 * committed (collect.ts), every 1/64 of the run or 5 minutes, and when a session ends,
 * so the journal's size grows with the sessions, not with the groups. Exact sums make
 * the tally independent of the order groups were added in: the shards' last checkpoints
 * added up are the whole run's, and a run resumed from a checkpoint ends in the state an
 * uninterrupted run ends in. Where the checkpoints fall depends on timing, so two
 * journals of one run differ, but not in their final state.
 *
 * A skipped line says which fault dropped the group (its kind, the entrant at fault and
 * where), so that a resumed or merged run counts the faults of its whole length; the
 * skipped lines before a checkpoint are those of its groups. Lines written before faults
 * had kinds hold only the message: their kind is read from the message's words (a move
 * timeout 'time', an illegal move 'illegal', else 'threw'), their entrant from the label
 * it begins with, their place is unknown.
 *
 * Format 2 (a line per group: `{"g":0,"deals":2,"dealSums":[...],"dealCounts":[...],
 * "matchSums":[],"matchCounts":[]}`, and skipped lines) is still read: resumed, merged and
 * reported; a resumed format-2 journal is written again as format 3.
 */
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import type { Failure, RowLayout } from './batch.js';
import { FAULT_KINDS, type FaultKind } from '../programs/fault.js';
import { forEachLine, headerTextOf, readJournalOf, type JournalKind, type JournalOf } from './journal-file.js';
import { shardRange } from './shard.js';
import { isObject, metricsOf, shellWord, specFromJournal, type RunSpec } from './spec.js';
import type { GroupTally } from '../table/table.js';

/** The journal format this tafel writes; it reads format 2 too, and refuses others. */
const JOURNAL_VERSION = 3;
const OLD_VERSION = 2;

/** A format-3 body line: a skipped group, or a checkpoint of the run's state. */
type StateLine =
  | { readonly g: number; readonly skipped: string; readonly failure: Failure }
  | {
      readonly groups: number;
      readonly deals: number;
      /** `RunTally.toJSON()` and `Sprt.toJSON()`, checked when restored. */
      readonly tally: unknown;
      readonly sprt: unknown;
    };

export type Checkpoint = Extract<StateLine, { groups: number }> & {
  /** Byte offset after its line, and the skipped groups before it, in order. */
  readonly end: number;
  readonly skipped: readonly Failure[];
};

/** A checkpoint line. */
export function checkpointText(groups: number, tally: unknown, deals: number, sprt: unknown): string {
  return JSON.stringify({ groups, deals, tally, sprt }) + '\n';
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
  | { readonly g: number; readonly skipped: string; readonly failure: Failure };

/** The header line of the journal at `path` for `spec`. */
export function headerText(spec: RunSpec, path: string): string {
  return headerTextOf(RUN_JOURNAL, spec, path);
}

/** The line of a group dropped after `f` (a bot's fault, so `f.fault` is set). */
export function skippedText(f: Failure): string {
  const at = f.at ? { rotation: f.at.rotation, deal: f.at.deal, seat: f.at.seat } : {};
  return (
    JSON.stringify({ g: f.group, skipped: f.message, fault: f.fault ?? 'threw', entrant: f.entrant, ...at }) + '\n'
  );
}

export function toGroupTally(line: GroupLine, into: GroupTally): void {
  if ('skipped' in line) throw new Error('toGroupTally: a skipped group has no tally');
  into.deals = line.deals;
  into.dealSums.set(line.dealSums);
  into.dealCounts.set(line.dealCounts);
  into.matchSums.set(line.matchSums);
  into.matchCounts.set(line.matchCounts);
}

/**
 * A run's journal read: its spec and body lines. Format 2: group lines from the shard's
 * first group; format 3: skipped lines and checkpoints (`checkpoints`).
 */
export type JournalContents =
  | (JournalOf<RunSpec, GroupLine> & { readonly version: 2 })
  | (JournalOf<RunSpec, StateLine> & { readonly version: 3; readonly checkpoints: readonly Checkpoint[] });

const otherVersion = (v: unknown) =>
  `journal format ${String(v)}, written by another version of tafel (this one reads formats ${OLD_VERSION} and ${JOURNAL_VERSION}); run it again`;

/** A format-2 journal as `readJournalOf` reads it. */
const OLD_JOURNAL: JournalKind<RunSpec, GroupLine> = {
  tag: 'journal',
  version: OLD_VERSION,
  noun: 'journal',
  line: 'group',
  otherVersion,
  otherFile,
  spec: specFromJournal,
  body: parseGroup,
  range: (spec) => shardRange(spec.groups, spec.shard),
  index: (line) => line.g,
};

/** The run's journal (format 3) as `readJournalOf` reads it. */
const RUN_JOURNAL: JournalKind<RunSpec, StateLine> = {
  ...(OLD_JOURNAL as unknown as JournalKind<RunSpec, StateLine>),
  version: JOURNAL_VERSION,
  line: 'skipped group or checkpoint',
  body: parseStateLine,
  index: (line) => ('g' in line ? line.g : line.groups),
  follows: (line, before, { from, to }) => {
    let last: StateLine | undefined;
    for (let i = before.length - 1; i >= 0 && !last; i--) last = before[i];
    const groupsBefore = (() => {
      for (let i = before.length - 1; i >= 0; i--) {
        const b = before[i];
        if ('groups' in b) return b.groups;
      }
      return 0;
    })();
    const lastSkipped = last && 'g' in last ? last.g - from + 1 : 0;
    if ('g' in line) {
      if (line.g < from + Math.max(groupsBefore, lastSkipped) || line.g >= to)
        return `is skipped group ${line.g}, out of order`;
      return null;
    }
    if (line.groups < Math.max(groupsBefore, lastSkipped) || line.groups > to - from)
      return `is a checkpoint after ${line.groups} groups, out of order`;
    return null;
  },
};

/**
 * Read and check a journal. `layout` (from the game and the entrants, which only the
 * caller can resolve) is checked by `checkLines`; here the structure is checked:
 * one header, then (format 2) group lines numbered consecutively from the shard's first
 * group, or (format 3) skipped lines in order and checkpoints that follow them.
 */
export function readJournal(path: string, what = 'journal'): JournalContents {
  let version: unknown = null;
  forEachLine(path, what, (text) => {
    try {
      const v = JSON.parse(text) as unknown;
      if (isObject(v) && v.tafel === 'journal') version = v.v;
    } catch {
      // Not JSON: the full reader says what it is.
    }
    return false;
  });
  if (version === OLD_VERSION) return { ...readJournalOf(path, what, OLD_JOURNAL), version: OLD_VERSION };
  const c = readJournalOf(path, what, RUN_JOURNAL);
  const checkpoints: Checkpoint[] = [];
  const skipped: Failure[] = [];
  c.lines.forEach((line, i) => {
    if ('g' in line) skipped.push(line.failure);
    else checkpoints.push({ ...line, end: c.ends[i + 1], skipped: skipped.slice() });
  });
  return { ...c, version: JOURNAL_VERSION, checkpoints };
}

/** Groups (played or skipped) the journal holds: all its lines (format 2), or its last checkpoint's. */
export function groupsDone(c: JournalContents): number {
  return c.version === OLD_VERSION ? c.lines.length : (c.checkpoints.at(-1)?.groups ?? 0);
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

/** Check the group lines' array lengths against the run's entrants and metrics (format 2; format 3's checkpoints are checked when restored). */
export function checkLines(path: string, c: Pick<JournalContents, 'version' | 'lines'>, layout: RowLayout): void {
  if (c.version !== OLD_VERSION) return;
  const E = layout.entrants;
  for (const line of c.lines as readonly GroupLine[]) {
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
  return groupsDone(c) === to - from;
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

function parseStateLine(v: unknown, spec: RunSpec): StateLine | null {
  if (!isObject(v)) return null;
  if ('g' in v) {
    const line = parseGroup(v, spec);
    return line && 'skipped' in line ? line : null;
  }
  if (!isCount(v.groups) || !isCount(v.deals) || !isObject(v.tally) || !(v.sprt === null || isObject(v.sprt)))
    return null;
  return { groups: v.groups, deals: v.deals, tally: v.tally, sprt: v.sprt };
}

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
