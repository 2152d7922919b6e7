/** Statistics against published values (normal and t tables, Wilson's worked example). */
import { describe, expect, it } from 'vitest';
import { Moments, normalCdf, normalQuantile, tQuantile, wilson } from '../src/harness/stats.js';

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
