/** Statistics against published values (normal and t tables, Wilson's worked example). */
import { describe, expect, it } from 'vitest';
import {
  Moments,
  RatioMoments,
  normalCdf,
  normalQuantile,
  quantileRanks,
  tQuantile,
  wilson,
} from '../src/harness/stats/stats.js';
import { noIntervalNote } from '../src/harness/stats/interval-text.js';

describe('distributions', () => {
  it.each([
    [0.975, 1.959964],
    [0.95, 1.644854],
    [0.5, 0],
    [0.001, -3.090232],
    [0.9999, 3.719016],
  ])('normalQuantile(%f) = %f', (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 5);
    expect(normalCdf(z)).toBeCloseTo(p, 6);
  });

  // Two-sided 95% Student-t critical values from the standard table.
  it.each([
    [1, 12.7062],
    [2, 4.3027],
    [3, 3.1824],
    [5, 2.5706],
    [10, 2.2281],
    [30, 2.0423],
    [100, 1.984],
    [Infinity, 1.96],
  ])('tQuantile(df=%d) = %f', (df, t) => {
    expect(Math.abs(tQuantile(df) - t) / t).toBeLessThan(0.002);
  });
});

describe('Wilson interval', () => {
  it('matches the worked example: 8 of 10 gives [0.490, 0.943]', () => {
    const w = wilson(8, 10);
    expect(w.mean).toBe(0.8);
    expect(w.low).toBeCloseTo(0.4902, 3);
    expect(w.high).toBeCloseTo(0.9433, 3);
  });

  it('stays inside [0, 1] at the extremes', () => {
    const none = wilson(0, 20);
    expect(none.low).toBeCloseTo(0, 12);
    expect(none.high).toBeCloseTo(0.1611, 3);
    const all = wilson(20, 20);
    expect(all.high).toBeCloseTo(1, 12);
  });
});

describe('Moments', () => {
  it('gives the sample mean, variance and t interval', () => {
    const m = new Moments();
    for (const x of [2, 4, 4, 4, 5, 5, 7, 9]) m.add(x);
    const e = m.estimate();
    expect(e.mean).toBe(5);
    expect(m.variance).toBeCloseTo(32 / 7, 12);
    const half = (tQuantile(7) * Math.sqrt(32 / 7)) / Math.sqrt(8);
    expect(e.high - e.mean).toBeCloseTo(half, 12);
  });

  it('merges parts into exactly the whole (workers and shards rely on it)', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 100 + i / 7);
    const whole = new Moments();
    xs.forEach((x) => whole.add(x));
    const parts = [new Moments(), new Moments(), new Moments()];
    xs.forEach((x, i) => parts[i < 100 ? 0 : i < 700 ? 1 : 2].add(x));
    const merged = new Moments();
    parts.forEach((p) => merged.merge(p));
    expect(merged.n).toBe(whole.n);
    expect(merged.mean).toBeCloseTo(whole.mean, 10);
    expect(merged.variance).toBeCloseTo(whole.variance, 8);
  });
});

describe('degenerate samples give no interval, never a zero-width one', () => {
  it('Moments: fewer than two values, or all alike', () => {
    const one = new Moments();
    one.add(3);
    expect(one.estimate()).toMatchObject({ n: 1, mean: 3, low: NaN, high: NaN, degenerate: 'few' });
    const alike = new Moments();
    for (let i = 0; i < 20; i++) alike.add(1);
    expect(alike.estimate()).toMatchObject({ n: 20, mean: 1, low: NaN, high: NaN, degenerate: 'no-spread' });
    expect(noIntervalNote(alike.estimate(), (x) => x.toFixed(2))).toBe('20 groups alike; no interval');
  });
});

describe('RatioMoments: a rate over independent groups', () => {
  it('is the pooled rate with a t interval over the groups from the linearized residuals', () => {
    // Groups 1/4, 2/4, 3/4: R = 0.5, residuals (k - R n) / mean(n) = -0.25, 0, 0.25 (sd 0.25).
    const r = new RatioMoments();
    for (const k of [1, 2, 3]) r.add(k, 4);
    const e = r.estimate();
    const half = (tQuantile(2) * 0.25) / Math.sqrt(3);
    expect(e.n).toBe(3);
    expect(e.mean).toBe(0.5);
    expect(e.low).toBeCloseTo(Math.max(0, 0.5 - half), 12);
    expect(e.high).toBeCloseTo(Math.min(1, 0.5 + half), 12);
    expect(e.degenerate).toBeUndefined();
  });

  it('with unequal groups weighs trials, and its n is the groups, not the trials', () => {
    const pairs = [
      [2, 10],
      [0, 3],
      [5, 7],
      [1, 12],
      [4, 4],
    ];
    const r = new RatioMoments();
    for (const [k, n] of pairs) r.add(k, n);
    const R = 12 / 36;
    const res = pairs.map(([k, n]) => k - R * n);
    const sd = Math.sqrt(res.reduce((s, x) => s + x * x, 0) / 4) / (36 / 5);
    const e = r.estimate();
    expect(e.n).toBe(5);
    expect(e.mean).toBeCloseTo(R, 15);
    expect(e.high - e.mean).toBeCloseTo((tQuantile(4) * sd) / Math.sqrt(5), 12);
  });

  it('every or no trial a success: no interval, the Wilson bound over the groups', () => {
    const all = new RatioMoments();
    const none = new RatioMoments();
    for (let g = 0; g < 20; g++) {
      all.add(4, 4);
      none.add(0, 4);
    }
    const a = all.estimate();
    expect(a).toMatchObject({ n: 20, mean: 1, low: NaN, high: NaN, degenerate: 'all' });
    expect(a.bound).toBeCloseTo(wilson(20, 20).low, 12);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    expect(noIntervalNote(a, pct)).toBe('20 of 20 groups; >= 83.9%, 95% Wilson bound');
    const z = none.estimate();
    expect(z).toMatchObject({ n: 20, mean: 0, degenerate: 'none' });
    // Groups without a trial are no evidence for the bound: n and the bound count the 20 with one.
    none.add(0, 0);
    expect(none.estimate()).toMatchObject({ n: 20, degenerate: 'none', bound: wilson(0, 20).high });
    expect(noIntervalNote(z, pct)).toBe('0 of 20 groups; <= 16.1%, 95% Wilson bound');
  });

  it('one group, or every group at the same rate: no interval', () => {
    const one = new RatioMoments();
    one.add(1, 4);
    expect(one.estimate()).toMatchObject({ n: 1, mean: 0.25, low: NaN, high: NaN, degenerate: 'few' });
    expect(noIntervalNote(one.estimate(), String)).toBe('1 group; no interval');
    // 1 of 3 and 2 of 6: the same rate, so no residual (2 rubbers at 50% gave [50.00, 50.00] before).
    const same = new RatioMoments();
    same.add(1, 3);
    same.add(2, 6);
    expect(same.estimate()).toMatchObject({ n: 2, low: NaN, high: NaN, degenerate: 'no-spread' });
  });
});

describe('quantileRanks: distribution-free intervals for a quantile', () => {
  /** P(a <= B <= b) for B ~ Binomial(n, q), by exact products (small n). */
  function binomialMass(n: number, q: number, a: number, b: number): number {
    let sum = 0;
    for (let k = Math.max(0, a); k <= Math.min(n, b); k++) {
      let c = 1;
      for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
      sum += c * q ** k * (1 - q) ** (n - k);
    }
    return sum;
  }

  it('gives the tabled order statistics for the median', () => {
    // Conover's table: the 6th and 15th of 20 (95.9%), the 40th and 61st of 100 (95.2%); indices from 0.
    expect(quantileRanks(20, 0.5)).toEqual({ low: 5, high: 14 });
    expect(quantileRanks(100, 0.5)).toEqual({ low: 39, high: 60 });
    // Five draws cannot bound a median at 95% (each side has probability 1/32 > 2.5%); twenty cannot bound a p90 from above.
    expect(quantileRanks(5, 0.5)).toEqual({ low: -1, high: 5 });
    expect(quantileRanks(20, 0.9)).toEqual({ low: 14, high: 20 });
    expect(() => quantileRanks(10, 1)).toThrow(RangeError);
  });

  it('covers the quantile with at least the level, and no narrower pair of its kind would', () => {
    for (const n of [1, 7, 20, 33, 60]) {
      for (const q of [0.1, 0.5, 0.9]) {
        const { low, high } = quantileRanks(n, q);
        // sorted[low] <= quantile <= sorted[high] when low < B <= high, B the draws below the quantile.
        const tailLow = low < 0 ? 0 : binomialMass(n, q, 0, low);
        const tailHigh = high >= n ? 0 : binomialMass(n, q, high + 1, n);
        expect(tailLow, `n ${n} q ${q}`).toBeLessThanOrEqual(0.025 + 1e-12);
        expect(tailHigh, `n ${n} q ${q}`).toBeLessThanOrEqual(0.025 + 1e-12);
        if (low + 1 < n) expect(binomialMass(n, q, 0, low + 1), `n ${n} q ${q}`).toBeGreaterThan(0.025);
        if (high - 1 >= 0 && high < n) expect(binomialMass(n, q, high, n), `n ${n} q ${q}`).toBeGreaterThan(0.025);
      }
    }
    // Large samples: no underflow, and the interval closes in on the middle.
    const big = quantileRanks(100_000, 0.5);
    expect(big.low).toBeGreaterThan(49_600);
    expect(big.high).toBeLessThan(50_400);
  });
});
