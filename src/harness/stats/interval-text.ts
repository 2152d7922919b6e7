/**
 * One wording, everywhere (table, summary CSV, HTML report, experiments), for an estimate
 * whose sample gives no interval (stats.ts, `Estimate.degenerate`): the value, then in
 * parentheses how many units and what the data do give, e.g.
 *
 *   100.0% (20 of 20 groups; >= 83.9%, 95% Wilson bound)
 *   0.0% (0 of 20 groups; <= 16.1%, 95% Wilson bound)
 *   +1.00 (20 groups alike; no interval)
 *   0.512 (1 group; no interval)
 *
 * In a CSV the interval kind says it: `wilson-bound` (the bound in ci95_low with every
 * trial a success, in ci95_high with none) or `none` (both empty).
 */
import type { Degenerate, Estimate } from './stats.js';

/** The words in the parentheses; `show` formats the bound as the value is shown, `unit` names the units (plural). */
export function noIntervalNote(e: Estimate, show: (x: number) => string, unit = 'groups'): string {
  const units = e.n === 1 ? unit.replace(/s$/, '') : unit;
  switch (e.degenerate) {
    case 'all':
      return `${e.n} of ${e.n} ${units}; >= ${show(e.bound ?? NaN)}, 95% Wilson bound`;
    case 'none':
      return `0 of ${e.n} ${units}; <= ${show(e.bound ?? NaN)}, 95% Wilson bound`;
    case 'no-spread':
      return `${e.n} ${units} alike; no interval`;
    default:
      return `${e.n} ${units}; no interval`;
  }
}

/** The CSV's `interval` column for an estimate of interval kind `kind`. */
export function intervalKind(e: Estimate, kind: string): string {
  if (!e.degenerate) return kind;
  return e.degenerate === 'all' || e.degenerate === 'none' ? 'wilson-bound' : 'none';
}

/** The CSV's `ci95_low` and `ci95_high`: the interval, or the one-sided bound on its side. */
export function csvBounds(e: Estimate): { low: number; high: number } {
  if (e.degenerate === 'all') return { low: e.bound ?? NaN, high: NaN };
  if (e.degenerate === 'none') return { low: NaN, high: e.bound ?? NaN };
  return { low: e.low, high: e.high };
}

/** The reverse of `intervalKind` and `csvBounds`: what a CSV row's interval columns say. */
export function degenerateOf(interval: string, n: number, low: number, high: number): Partial<Estimate> {
  let degenerate: Degenerate | undefined;
  if (interval === 'wilson-bound') degenerate = Number.isFinite(low) ? 'all' : 'none';
  else if (interval === 'none') degenerate = n < 2 ? 'few' : 'no-spread';
  else return {};
  const bound = degenerate === 'all' ? low : degenerate === 'none' ? high : undefined;
  return { degenerate, low: NaN, high: NaN, ...(bound === undefined ? {} : { bound }) };
}

/** `mean [low, high]`, or `mean (words)` where the sample gives no interval (just `mean` for an estimate that has none by kind). */
export function estimateText(e: Estimate, show: (x: number) => string, unit = 'groups'): string {
  if (e.degenerate) return `${show(e.mean)} (${noIntervalNote(e, show, unit)})`;
  if (!Number.isFinite(e.low) || !Number.isFinite(e.high)) return show(e.mean);
  return `${show(e.mean)} [${show(e.low)}, ${show(e.high)}]`;
}
