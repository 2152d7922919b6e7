/**
 * The statistics of a run: means with Student-t confidence intervals (Welford's
 * running moments), rates over independent units (the pooled ratio estimator over
 * groups, with a Student-t interval), Wilson score intervals, quantiles with intervals
 * from the order statistics. Pure functions and small accumulators, tested against
 * known values.
 *
 * A sample that cannot give an interval says so (`Estimate.degenerate`) instead of
 * printing a zero-width or a [0, 1] one: fewer than two units, no spread between them,
 * or (a rate) every or no trial a success, where a one-sided Wilson bound over the units
 * is what the data do give.
 */

import { ExactSum, exactComoment } from './exact.js';

/** Two-sided standard normal quantile for 95%. */
export const Z95 = 1.959963984540054;

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9 after one Newton step). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p=${p} outside (0, 1)`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  // One Newton step on the CDF sharpens the tails.
  const e = normalCdf(x) - p;
  return x - e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
}

/** Standard normal CDF (via erfc, Numerical Recipes' Chebyshev fit, |error| < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * Two-sided Student-t quantile: t such that P(|T_df| < t) = level. Cornish-Fisher
 * expansion around the normal quantile (Abramowitz & Stegun 26.7.5); exact enough
 * (< 0.2% for df >= 3) for confidence intervals. df = Infinity gives the normal.
 */
export function tQuantile(df: number, level = 0.95): number {
  const t = tTerms(level);
  if (!Number.isFinite(df)) return t.z;
  if (df === 1) return t.df1;
  if (df === 2) return t.df2;
  return t.z + t.g[0] / df + t.g[1] / df ** 2 + t.g[2] / df ** 3 + t.g[3] / df ** 4;
}

/**
 * The pieces of `tQuantile` at `level`: the normal quantile `z`, the exact values at
 * df 1 and 2, and the expansion's terms `g` (t = z + g1/df + g2/df^2 + ...), so that
 * another implementation (the database's SQL macros) computes the same numbers.
 */
export function tTerms(level = 0.95): { z: number; df1: number; df2: number; g: readonly number[] } {
  const z = normalQuantile(0.5 + level / 2);
  const z2 = z * z;
  return {
    z,
    df1: Math.tan((Math.PI * level) / 2),
    df2: Math.sqrt(2 / ((1 - level) * (2 - (1 - level))) - 2),
    g: [
      ((z2 + 1) * z) / 4,
      (((5 * z2 + 16) * z2 + 3) * z) / 96,
      ((((3 * z2 + 19) * z2 + 17) * z2 - 15) * z) / 384,
      (((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z) / 92160,
    ],
  };
}

/**
 * Why a sample gives no two-sided interval: fewer than two units (`few`), every unit
 * alike (`no-spread`), or a rate whose every trial (`all`) or none (`none`) succeeded.
 */
export type Degenerate = 'few' | 'no-spread' | 'all' | 'none';

/** A mean with its 95% confidence interval (`low` and `high` NaN when `degenerate`). */
export interface Estimate {
  n: number;
  mean: number;
  sd: number;
  low: number;
  high: number;
  degenerate?: Degenerate;
  /** With `all` or `none`: the 95% Wilson bound over the n units (below with `all`, above with `none`). */
  bound?: number;
}

/** Running mean and variance (Welford), mergeable (Chan et al.) for shards and workers. */
export class Moments {
  n = 0;
  mean = 0;
  m2 = 0;

  add(x: number): void {
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }

  merge(o: Moments): void {
    if (o.n === 0) return;
    const n = this.n + o.n;
    const d = o.mean - this.mean;
    this.mean += (d * o.n) / n;
    this.m2 += o.m2 + (d * d * this.n * o.n) / n;
    this.n = n;
  }

  get variance(): number {
    return this.n > 1 ? this.m2 / (this.n - 1) : NaN;
  }

  /** Mean with a Student-t 95% interval; none (`degenerate`) below two samples or when all are equal. */
  estimate(level = 0.95): Estimate {
    const sd = Math.sqrt(this.variance);
    const mean = this.n ? this.mean : NaN;
    // Welford's m2 stays exactly 0 while every value is the same.
    if (this.n < 2 || this.m2 === 0) {
      return { n: this.n, mean, sd, low: NaN, high: NaN, degenerate: this.n < 2 ? 'few' : 'no-spread' };
    }
    const half = (tQuantile(this.n - 1, level) * sd) / Math.sqrt(this.n);
    return { n: this.n, mean, sd, low: mean - half, high: mean + half };
  }
}

/**
 * Mean and variance from exact sums (exact.ts): the same numbers whatever the order the
 * values came in or the parts they were summed in, so a run split over sessions or
 * shards and added up states what one uninterrupted run does. The tally's moments.
 */
export class ExactMoments {
  n = 0;
  private readonly sum = new ExactSum();
  private readonly squares = new ExactSum();

  add(x: number): void {
    this.n++;
    this.sum.add(x);
    this.squares.addProduct(x, x);
  }

  merge(o: ExactMoments): void {
    this.n += o.n;
    this.sum.merge(o.sum);
    this.squares.merge(o.squares);
  }

  get mean(): number {
    return this.n ? this.sum.value() / this.n : 0;
  }

  /** Σ(x − mean)², from n·Σx² − (Σx)² summed exactly. */
  get m2(): number {
    return this.n ? exactComoment(this.n, this.squares, this.sum, this.sum) / this.n : 0;
  }

  /** As `Moments.estimate`. */
  estimate(level = 0.95): Estimate {
    const m2 = this.m2;
    const variance = this.n > 1 ? m2 / (this.n - 1) : NaN;
    const sd = Math.sqrt(variance);
    const mean = this.n ? this.mean : NaN;
    if (this.n < 2 || m2 === 0) {
      return { n: this.n, mean, sd, low: NaN, high: NaN, degenerate: this.n < 2 ? 'few' : 'no-spread' };
    }
    const half = (tQuantile(this.n - 1, level) * sd) / Math.sqrt(this.n);
    return { n: this.n, mean, sd, low: mean - half, high: mean + half };
  }

  toJSON(): unknown[] {
    return [this.n, this.sum, this.squares];
  }

  static fromJSON(v: unknown): ExactMoments {
    if (!Array.isArray(v) || v.length !== 3 || !isCount(v[0])) throw new RangeError('not exact moments');
    const m = new ExactMoments();
    m.n = v[0];
    m.sum.merge(ExactSum.fromJSON(v[1]));
    m.squares.merge(ExactSum.fromJSON(v[2]));
    return m;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * A rate over independent units (duplicate groups), each contributing k events in n
 * trials: the pooled rate R = sum(k) / sum(n) with a Student-t interval over the units
 * from the ratio estimator's linearized residuals (k_i - R n_i) / mean(n), clamped to
 * [0, 1]. Trials within a unit (seats, partners, deals of one match) may share their
 * outcome, so the unit, not the trial, is what is counted. Its co-moments come from
 * exact sums (exact.ts), so they do not depend on the order of the units, and equal the
 * database's `cluster_rate` (db-macros.ts) to the last printed digit.
 */
export class RatioMoments {
  /** Units (groups). */
  n = 0;
  /** Units with a trial. */
  tried = 0;
  private readonly k = new ExactSum();
  private readonly t = new ExactSum();
  private readonly kk = new ExactSum();
  private readonly tt = new ExactSum();
  private readonly kt = new ExactSum();
  private minRate = Infinity;
  private maxRate = -Infinity;

  add(k: number, n: number): void {
    this.n++;
    this.k.add(k);
    this.t.add(n);
    this.kk.addProduct(k, k);
    this.tt.addProduct(n, n);
    this.kt.addProduct(k, n);
    if (n > 0) {
      this.tried++;
      this.minRate = Math.min(this.minRate, k / n);
      this.maxRate = Math.max(this.maxRate, k / n);
    }
  }

  get sumK(): number {
    return this.k.value();
  }

  get sumN(): number {
    return this.t.value();
  }

  merge(o: RatioMoments): void {
    this.n += o.n;
    this.tried += o.tried;
    this.k.merge(o.k);
    this.t.merge(o.t);
    this.kk.merge(o.kk);
    this.tt.merge(o.tt);
    this.kt.merge(o.kt);
    this.minRate = Math.min(this.minRate, o.minRate);
    this.maxRate = Math.max(this.maxRate, o.maxRate);
  }

  estimate(level = 0.95): Estimate {
    const G = this.n;
    const sumK = this.sumK;
    const sumN = this.sumN;
    const r = sumN > 0 ? sumK / sumN : NaN;
    const none = { n: G, mean: r, sd: NaN, low: NaN, high: NaN };
    if (!(sumN > 0)) return { ...none, degenerate: 'few' };
    // Every or no trial a success: the groups with a trial are the evidence (n counts them), the bound is over them.
    const T = this.tried;
    if (sumK === sumN) return { ...none, n: T, degenerate: 'all', bound: wilson(T, T, level).low };
    if (sumK === 0) return { ...none, n: T, degenerate: 'none', bound: wilson(0, T, level).high };
    if (G < 2) return { ...none, degenerate: 'few' };
    // Every unit at the same rate leaves no residual (tested exactly, not as a rounded variance).
    if (this.minRate === this.maxRate) return { ...none, degenerate: 'no-spread' };
    const ckk = exactComoment(G, this.kk, this.k, this.k) / G;
    const cnn = exactComoment(G, this.tt, this.t, this.t) / G;
    const ckn = exactComoment(G, this.kt, this.k, this.t) / G;
    const variance = Math.max(0, (ckk + r * r * cnn - 2 * r * ckn) / (G - 1));
    const sd = Math.sqrt(variance) / (sumN / G);
    const half = (tQuantile(G - 1, level) * sd) / Math.sqrt(G);
    return { n: G, mean: r, sd, low: Math.max(0, r - half), high: Math.min(1, r + half) };
  }

  toJSON(): unknown[] {
    const rate = (x: number) => (Number.isFinite(x) ? x : null);
    return [this.n, this.tried, this.k, this.t, this.kk, this.tt, this.kt, rate(this.minRate), rate(this.maxRate)];
  }

  static fromJSON(v: unknown): RatioMoments {
    if (!Array.isArray(v) || v.length !== 9 || !isCount(v[0]) || !isCount(v[1])) throw new RangeError('not a rate');
    const m = new RatioMoments();
    m.n = v[0];
    m.tried = v[1];
    const sums = [m.k, m.t, m.kk, m.tt, m.kt];
    sums.forEach((s, i) => s.merge(ExactSum.fromJSON(v[2 + i])));
    const rate = (x: unknown, none: number) => {
      if (x === null) return none;
      if (typeof x !== 'number') throw new RangeError('not a rate');
      return x;
    };
    m.minRate = rate(v[7], Infinity);
    m.maxRate = rate(v[8], -Infinity);
    return m;
  }
}

/** Wilson score interval for `successes` out of `n` (successes may be fractional: half a win). */
export function wilson(successes: number, n: number, level = 0.95): Estimate {
  if (n <= 0) return { n, mean: NaN, sd: NaN, low: NaN, high: NaN };
  const z = normalQuantile(0.5 + level / 2);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n);
  // Clamped: at 0 or n successes rounding would put a bound a hair outside [0, 1].
  return { n, mean: p, sd: Math.sqrt(p * (1 - p)), low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The q-quantile (0..1) of ascending `sorted`, linearly interpolated between ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const r = q * (sorted.length - 1);
  const lo = Math.floor(r);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (r - lo);
}

/**
 * A distribution-free confidence interval for the q-quantile of what a sample of `n`
 * was drawn from, as indices into the sorted sample: the true quantile lies between
 * `sorted[low]` and `sorted[high]` with probability at least `level` (the number of
 * draws below it is Binomial(n, q)). `low` is -1 when the sample is too small to bound it
 * from below at that level, `high` is n when too small to bound it from above.
 */
export function quantileRanks(n: number, q: number, level = 0.95): { low: number; high: number } {
  if (!(q > 0 && q < 1)) throw new RangeError(`quantileRanks: q=${q} outside (0, 1)`);
  const tail = (1 - level) / 2;
  let low = -1;
  let high = n;
  // The binomial CDF term by term, the terms in logs (n * log(1 - q) underflows for large n).
  let logTerm = n * Math.log1p(-q);
  const odds = Math.log(q) - Math.log1p(-q);
  let cdf = 0;
  for (let i = 0; i < n; i++) {
    cdf += Math.exp(logTerm);
    if (cdf <= tail) low = i;
    if (cdf >= 1 - tail) {
      high = i;
      break;
    }
    logTerm += Math.log((n - i) / (i + 1)) + odds;
  }
  return { low, high };
}
