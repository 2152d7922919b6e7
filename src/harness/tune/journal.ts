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
import { TafelError } from '../../core/errors.js';
import { forEachLine } from '../run/journal.js';
import { tuneSpecForJournal, tuneSpecFromJournal, type TuneSpec } from './spec.js';

const TUNE_JOURNAL_VERSION = 1;

export interface IterationLine {
  /** The iteration, from 1. */
  readonly i: number;
  readonly deals: number;
  readonly d: readonly number[];
  readonly theta: readonly number[];
}

export interface TuneJournal {
  readonly spec: TuneSpec;
  readonly lines: IterationLine[];
  /** Byte offset of the end of the header and of each iteration line. */
  readonly ends: number[];
}

export function tuneHeaderText(t: TuneSpec, path: string): string {
  return JSON.stringify({ tafel: 'tune-journal', v: TUNE_JOURNAL_VERSION, spec: tuneSpecForJournal(t, path) }) + '\n';
}

export function iterationText(line: IterationLine): string {
  return JSON.stringify(line) + '\n';
}

/** Read a tuning journal; `what` names it in messages (a resume file, or a report's input). */
export function readTuneJournal(path: string, what = 'resume file'): TuneJournal {
  const bad = (why: string): never => {
    throw new TafelError('bad-journal', `${what} ${path}: ${why}`);
  };
  const notJournal = 'not a tafel tuning journal (its first line is not a tuning journal header)';
  let spec: TuneSpec | null = null;
  const lines: IterationLine[] = [];
  const ends: number[] = [];
  let lineNo = 0;
  forEachLine(path, what, (text, end, complete) => {
    lineNo++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (lineNo === 1) return bad(notJournal);
      // A last line without its newline is a write cut short: its iteration is played again.
      if (!complete) return false;
      return bad(`line ${lineNo} is not JSON (a corrupt journal)`);
    }
    if (lineNo === 1) {
      if (!complete) return bad('its header line is cut off; tune again');
      if (!isObject(value) || value.tafel !== 'tune-journal') {
        const run = isObject(value) && value.tafel === 'journal';
        return bad(run ? 'the journal of a run, not of a tuning (continue it with tafel run --resume)' : notJournal);
      }
      if (value.v !== TUNE_JOURNAL_VERSION)
        return bad(`tuning journal format ${String(value.v)}, written by another version of tafel; tune again`);
      spec = tuneSpecFromJournal(value.spec, path) ?? bad(`${notJournal}: its tune spec is incomplete or malformed`);
    } else {
      if (!complete) return false;
      const line = parseIteration(value, spec!) ?? bad(`line ${lineNo} is not an iteration line (a corrupt journal)`);
      if (line.i !== lines.length + 1 || line.i > spec!.iterations)
        return bad(`line ${lineNo} is iteration ${line.i}, expected ${lines.length + 1} (a corrupt journal)`);
      lines.push(line);
    }
    ends.push(end);
  });
  if (!spec) return bad('empty, not a tafel tuning journal');
  return { spec, lines, ends };
}

function parseIteration(v: unknown, t: TuneSpec): IterationLine | null {
  const numbers = (x: unknown, n: number) =>
    Array.isArray(x) && x.length === n && x.every((y) => typeof y === 'number' && Number.isFinite(y));
  if (!isObject(v) || !Number.isSafeInteger(v.i) || !Number.isSafeInteger(v.deals)) return null;
  if (!numbers(v.d, t.pairs) || !numbers(v.theta, t.tune.length)) return null;
  return v as unknown as IterationLine;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
