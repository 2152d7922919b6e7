/**
 * The tuning journal, in JSON Lines, like a run's: a header that is the tune spec,
 * then one line per finished iteration, in order:
 *
 *   {"tafel":"tune-journal","v":1,"spec":{...}}
 *   {"i":1,"deals":32,"d":[12.5,-3,0,...],"theta":[0.93,0.12]}
 *
 * `d` holds the iteration's paired differences, one per duplicate group (theta+ minus
 * theta- on the headline metric, positive when theta+ did better): everything the
 * tuning's state depends on, since flips and rounding follow from the seed. `theta`
 * is theta after the iteration, written so that a resume can check that replaying the
 * differences gives back the same trajectory (a journal of another tafel's SPSA, or
 * a corrupt one, is refused rather than continued on another path). An unfinished
 * last line (a write cut off) is left out and its iteration played again.
 */
import { headerTextOf, readJournalOf, type JournalKind, type JournalOf } from '../run/journal-file.js';
import { isObject } from '../run/spec.js';
import { tuneSpecFromJournal, type TuneSpec } from './spec.js';

const TUNE_JOURNAL_VERSION = 1;

export interface IterationLine {
  /** The iteration, from 1. */
  readonly i: number;
  readonly deals: number;
  readonly d: readonly number[];
  readonly theta: readonly number[];
}

/** A tuning's journal read: its spec, its iteration lines from the first. */
export type TuneJournal = JournalOf<TuneSpec, IterationLine>;

/** The tuning's journal as `readJournalOf` reads it. */
const TUNE_JOURNAL: JournalKind<TuneSpec, IterationLine> = {
  tag: 'tune-journal',
  version: TUNE_JOURNAL_VERSION,
  noun: 'tuning journal',
  line: 'iteration',
  otherVersion: (v) => `tuning journal format ${String(v)}, written by another version of tafel; tune again`,
  otherFile: (first) =>
    isObject(first) && first.tafel === 'journal'
      ? 'the journal of a run, not of a tuning (continue it with tafel run --resume)'
      : null,
  cutHeader: 'its header line is cut off; tune again',
  spec: tuneSpecFromJournal,
  body: parseIteration,
  range: (t) => ({ from: 1, to: t.iterations + 1 }),
  index: (line) => line.i,
};

export function tuneHeaderText(t: TuneSpec, path: string): string {
  return headerTextOf(TUNE_JOURNAL, t, path);
}

export function iterationText(line: IterationLine): string {
  return JSON.stringify(line) + '\n';
}

/** Read a tuning journal; `what` names it in messages (a resume file, or a report's input). */
export function readTuneJournal(path: string, what = 'resume file'): TuneJournal {
  return readJournalOf(path, what, TUNE_JOURNAL);
}

function parseIteration(v: unknown, t: TuneSpec): IterationLine | null {
  const numbers = (x: unknown, n: number) =>
    Array.isArray(x) && x.length === n && x.every((y) => typeof y === 'number' && Number.isFinite(y));
  if (!isObject(v) || !Number.isSafeInteger(v.i) || !Number.isSafeInteger(v.deals)) return null;
  if (!numbers(v.d, t.pairs) || !numbers(v.theta, t.tune.length)) return null;
  return v as unknown as IterationLine;
}
