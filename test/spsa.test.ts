/**
 * The SPSA arithmetic (src/harness/tune/spsa.ts): the gain schedule reaches c_end and r_end
 * at the last iteration, the flips and probabilistic rounding are a function of the
 * stream alone and unbiased, updates are clipped, the scaled result is unitless and
 * bounded like wins minus losses; and on a noisy quadratic with a known optimum SPSA
 * gets there, for one parameter and for three.
 */
import { describe, expect, it } from 'vitest';
import { Rng, seedKey } from '../src/core/rng.js';
import {
  finalValue,
  gains,
  scaledResult,
  stepOf,
  updated,
  type SpsaParam,
  type SpsaSchedule,
} from '../src/harness/tune/spsa.js';

const X: SpsaParam = { key: 'x', integer: false, min: 0, max: 10, cEnd: 0.5, rEnd: 0.01 };
const N: SpsaParam = { key: 'n', integer: true, min: 0, max: 20, cEnd: 1.5, rEnd: 0.01 };
const SCHEDULE: SpsaSchedule = { iterations: 1000, alpha: 0.602, gamma: 0.101, A: 100 };
const KEY = seedKey('spsa-test');

describe('the gain schedule', () => {
  it('starts at c_end N^gamma and ends at c_end and r_end, as OpenBench and fishtest define them', () => {
    const first = gains(X, SCHEDULE, 1);
    expect(first.c).toBeCloseTo(0.5 * 1000 ** 0.101, 12);
    const a = 0.01 * 0.5 ** 2 * (100 + 1000) ** 0.602;
    expect(first.r).toBeCloseTo(a / (100 + 1) ** 0.602 / first.c ** 2, 12);
    const last = gains(X, SCHEDULE, 1000);
    expect(last.c).toBeCloseTo(0.5, 12);
    expect(last.r).toBeCloseTo(0.01, 12);
    // Both decay monotonically in between.
    let before = first;
    for (let k = 2; k <= 1000; k++) {
      const g = gains(X, SCHEDULE, k);
      expect(g.c).toBeLessThan(before.c);
      expect(g.r * g.c ** 2).toBeLessThan(before.r * before.c ** 2);
      before = g;
    }
  });
});

describe('a step', () => {
  it('is a function of the key and the iteration, with balanced flips', () => {
    const theta = [5, 10];
    expect(stepOf([X, N], SCHEDULE, theta, 7, KEY)).toEqual(stepOf([X, N], SCHEDULE, theta, 7, KEY));
    expect(stepOf([X, N], SCHEDULE, theta, 7, seedKey('other'))).not.toEqual(stepOf([X, N], SCHEDULE, theta, 7, KEY));
    let up = 0;
    for (let k = 1; k <= 1000; k++) {
      const s = stepOf([X, N], SCHEDULE, theta, k, KEY);
      for (const f of s.flips) expect(Math.abs(f)).toBe(1);
      up += s.flips[0] > 0 ? 1 : 0;
    }
    expect(up).toBeGreaterThan(440);
    expect(up).toBeLessThan(560);
  });

  it('plays theta +- c for a number, clipped to the bounds', () => {
    const s = stepOf([X], SCHEDULE, [5], 1000, KEY);
    expect(s.plus[0]).toBeCloseTo(5 + 0.5 * s.flips[0], 12);
    expect(s.minus[0]).toBeCloseTo(5 - 0.5 * s.flips[0], 12);
    const edge = stepOf([X], SCHEDULE, [10], 1, KEY);
    expect(Math.max(edge.plus[0], edge.minus[0])).toBe(10);
    expect(Math.min(edge.plus[0], edge.minus[0])).toBeCloseTo(10 - edge.c[0], 12);
  });

  it('rounds a whole number probabilistically: whole values, unbiased, 2c apart on average', () => {
    let centre = 0;
    let apart = 0;
    const K = 1000;
    for (let k = 1; k <= K; k++) {
      const s = stepOf([N], SCHEDULE, [10.3], k, KEY);
      expect(Number.isInteger(s.plus[0]) && Number.isInteger(s.minus[0])).toBe(true);
      // One u for both sides: the two values differ by floor(2c) or ceil(2c).
      expect([Math.floor(2 * s.c[0]), Math.ceil(2 * s.c[0])]).toContain(Math.abs(s.plus[0] - s.minus[0]));
      centre += (s.plus[0] + s.minus[0]) / 2 - 10.3;
      apart += (s.plus[0] - s.minus[0]) * s.flips[0] - 2 * s.c[0];
    }
    expect(Math.abs(centre / K)).toBeLessThan(0.05);
    expect(Math.abs(apart / K)).toBeLessThan(0.05);
  });

  it('moves theta by r c result flip, clipped', () => {
    const s = stepOf([X, N], SCHEDULE, [5, 10], 500, KEY);
    const next = updated([X, N], [5, 10], s, 3);
    for (let i = 0; i < 2; i++) expect(next[i]).toBeCloseTo([5, 10][i] + s.r[i] * s.c[i] * 3 * s.flips[i], 12);
    const far = updated([X, N], [5, 10], s, 1e9);
    expect(far).toEqual(s.flips.map((f, i) => (f > 0 ? [X, N][i].max : [X, N][i].min)));
  });
});

describe('the scaled result', () => {
  it('is the sign for one group, wins minus losses for equal differences, 0 for none', () => {
    expect(scaledResult([0, 0, 0])).toBe(0);
    expect(scaledResult([7.5])).toBe(1);
    expect(scaledResult([-0.2])).toBe(-1);
    expect(scaledResult([2, 2, -2, 2])).toBeCloseTo(2, 12);
  });

  it('has no unit and lies within [-P, P]', () => {
    const rng = new Rng(KEY, 1);
    for (let trial = 0; trial < 200; trial++) {
      const P = 1 + rng.below(20);
      const d = Array.from({ length: P }, () => rng.uniform() * 40 - 15);
      const r = scaledResult(d);
      expect(Math.abs(r)).toBeLessThanOrEqual(P + 1e-9);
      expect(scaledResult(d.map((x) => x * 37.5))).toBeCloseTo(r, 9);
    }
  });
});

describe('the tuned values', () => {
  it('round whole numbers to the nearest, numbers to a hundredth of the order of c_end', () => {
    expect(finalValue(N, 11.5)).toBe(12);
    expect(finalValue(N, 25)).toBe(20);
    expect(finalValue(X, 3.14159)).toBe(3.142);
    expect(finalValue({ ...X, cEnd: 0.05 }, 0.123456)).toBe(0.1235);
    expect(finalValue({ ...X, cEnd: 50, max: 1000 }, 123.456)).toBe(123.5);
  });
});

/**
 * A noisy quadratic: a group's paired difference is f(theta+) - f(theta-) plus normal
 * noise of standard deviation 1, f(theta) = -0.05 sum (theta_i - optimum_i)^2: a step of
 * c_end = 1 at the optimum costs 0.05 standard deviations, measurable in the ~1600 groups
 * of a tuning (two standard errors are 0.05).
 */
function tuneQuadratic(params: SpsaParam[], optimum: number[], start: number[], seed: string): number[] {
  const schedule: SpsaSchedule = { iterations: 200, alpha: 0.602, gamma: 0.101, A: 20 };
  const noise = new Rng(seedKey(`${seed}/noise`));
  const normal = () => Math.sqrt(-2 * Math.log(1 - noise.uniform())) * Math.cos(2 * Math.PI * noise.uniform());
  const f = (v: readonly number[]) => -0.05 * v.reduce((a, x, i) => a + (x - optimum[i]) ** 2, 0);
  let theta = start;
  for (let k = 1; k <= schedule.iterations; k++) {
    const step = stepOf(params, schedule, theta, k, seedKey(seed));
    const d = Array.from({ length: 8 }, () => f(step.plus) - f(step.minus) + normal());
    theta = updated(params, theta, step, scaledResult(d));
  }
  return theta;
}

describe('SPSA on a noisy quadratic with a known optimum', () => {
  // r_end = 0.5 / sqrt(200 x 8), the tuner's default.
  const p = (key: string): SpsaParam => ({ key, integer: false, min: 0, max: 10, cEnd: 1, rEnd: 0.0125 });

  it('brings one parameter from 5 away to within 0.5 of the optimum in 200 iterations of 8 groups', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const [x] = tuneQuadratic([p('x')], [7], [2], seed);
      expect(Math.abs(x - 7), `seed ${seed}: x=${x}`).toBeLessThan(0.5);
    }
  });

  it('brings three parameters from 5 away each to within 0.75 of the optimum', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const theta = tuneQuadratic([p('x'), p('y'), p('z')], [7, 3, 6], [2, 8, 1], seed);
      theta.forEach((v, i) => expect(Math.abs(v - [7, 3, 6][i]), `seed ${seed}: ${theta}`).toBeLessThan(0.75));
    }
  });

  it('stays where it was with r_end = 0 (the test can fail)', () => {
    const [x] = tuneQuadratic([{ ...p('x'), rEnd: 0 }], [7], [2], 'a');
    expect(x).toBe(2);
  });
});
