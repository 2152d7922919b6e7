/**
 * Numbers as the page prints them: an estimate to the precision its interval supports
 * (two significant digits of the half-width), plain ASCII so that a table pastes into a
 * spreadsheet as numbers.
 */
import { noIntervalNote } from '../harness/stats/interval-text.js';
import type { Degenerate } from '../harness/stats/stats.js';

/** Decimals that show two significant digits of `spread` (an interval's half-width), 0 to 6. */
function decimalsFor(spread: number): number {
  if (!(spread > 0) || !Number.isFinite(spread)) return 2;
  return Math.min(6, Math.max(0, 1 - Math.floor(Math.log10(spread))));
}

/** `x` to `digits` decimals; '' for a missing value, 'inf' or '-inf' for an unbounded one. */
export function fixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return '';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const text = x.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/**
 * An estimate's mean and bounds, each to the decimals its half-width supports; where the
 * sample gives no interval, the mean and in the low cell the words that say so
 * (interval-text.ts; `unit`: what n counts), the high cell empty.
 */
export function estimateCells(
  e: { mean: number; low: number; high: number; n?: number; degenerate?: Degenerate; bound?: number },
  scale = 1,
  unit = 'groups',
): [string, string, string] {
  if (e.degenerate) {
    const show = (x: number) => fixed(x * scale, 2);
    return [show(e.mean), noIntervalNote({ sd: NaN, n: NaN, ...e }, show, unit), ''];
  }
  const digits = decimalsFor(((e.high - e.low) / 2) * scale);
  return [fixed(e.mean * scale, digits), fixed(e.low * scale, digits), fixed(e.high * scale, digits)];
}

/** A count with thousands separated: 1,000,000. */
export function whole(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** A moment in UTC to the minute: `2026-12-02 10:15 UTC`. */
export function stamp(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The line an experiment's Markdown report holds to say when its results were made
 * (the CSV's file time is a checkout's, not the experiment's), and reading it back.
 */
export function writtenLine(d: Date): string {
  return `Results written ${stamp(d)}.`;
}

export function writtenIn(markdown: string): string | null {
  return /^Results written (\d{4}-\d\d-\d\d \d\d:\d\d UTC)\.$/m.exec(markdown)?.[1] ?? null;
}
