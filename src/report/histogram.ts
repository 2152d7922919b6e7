/**
 * Distributions that do not grow with the run: the values of a metric are counted as
 * they come (every metric of the games takes few distinct values: card points, marks,
 * stakes, and means of a handful of them), and binned only for the page, on one grid
 * for all bots so that their histograms line up.
 */
import type { Distribution } from './data.js';

/** How many times each value was seen. */
export class ValueCounts {
  readonly counts = new Map<number, number>();
  total = 0;

  add(value: number, times = 1): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + times);
    this.total += times;
  }
}

/** At most this many bins; fewer distinct values are shown one bar each. */
const MAX_BINS = 40;

/**
 * The counts of every bot on one grid: one bin per value when the values lie on a
 * grid of at most `maxBins` steps (integers, halves), else equal bins of a round width
 * (1, 2 or 5 times a power of ten) of which at most `maxBins` cover the range.
 */
export function binned(
  metric: string,
  per: Distribution['per'],
  bots: readonly { readonly bot: string; readonly values: ValueCounts }[],
  maxBins = MAX_BINS,
): Distribution {
  const totals = bots.map(({ bot, values }) => ({ bot, count: values.total }));
  const all = [...new Set(bots.flatMap(({ values }) => [...values.counts.keys()]))].sort((a, b) => a - b);
  if (all.length === 0) return { metric, per, discrete: true, bins: [], totals };
  const min = all[0];
  const max = all[all.length - 1];
  const step = all.length > 1 ? gridStep(all) : 1;
  const onGrid = step > 0 && (max - min) / step < maxBins;
  const width = onGrid ? step : roundWidth((max - min) / maxBins, Number.isInteger(step));
  const origin = onGrid ? min - width / 2 : Math.floor(min / width) * width;
  const bins: { bot: string; x0: number; x1: number; count: number }[] = [];
  for (const { bot, values } of bots) {
    const byBin = new Map<number, number>();
    for (const [value, count] of values.counts) {
      // The small slack keeps a value that is a whole number of widths from the origin in its own bin.
      const i = Math.floor((value - origin) / width + 1e-9);
      byBin.set(i, (byBin.get(i) ?? 0) + count);
    }
    for (const i of [...byBin.keys()].sort((a, b) => a - b)) {
      bins.push({ bot, x0: clean(origin + i * width), x1: clean(origin + (i + 1) * width), count: byBin.get(i)! });
    }
  }
  return { metric, per, discrete: onGrid, bins, totals };
}

/** The largest step of which every gap between neighbouring values is a whole multiple. */
function gridStep(sorted: readonly number[]): number {
  let step = 0;
  for (let i = 1; i < sorted.length; i++) step = gcd(step, sorted[i] - sorted[i - 1]);
  return step;
}

/** The greatest common divisor of two gaps, to a tolerance for values such as thirds. */
function gcd(a: number, b: number): number {
  const eps = 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  while (b > eps) [a, b] = [b, a % b];
  return a;
}

/** The least of 1, 2, 5 times a power of ten that is at least `w` (a whole number for whole values). */
function roundWidth(w: number, whole: boolean): number {
  const power = 10 ** Math.floor(Math.log10(w));
  const width = [1, 2, 5, 10].map((m) => m * power).find((x) => x >= w * (1 - 1e-12))!;
  return whole ? Math.max(1, Math.round(width)) : width;
}

/** Bin edges without the noise of binary fractions (0.30000000000000004). */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}
