/**
 * SPRT against known values: Wald's bounds, fastchess's published LLRs, independent
 * brute-force maximizations of the likelihoods, and error rates of seeded simulated tests.
 */
import { describe, expect, it } from 'vitest';
import { TafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { scoreFromElo, type Wdl } from '../src/harness/stats/rating.js';
import {
  MEAN_MIN_GROUPS,
  Sprt,
  llrMean,
  llrMeanApprox,
  llrTrinomial,
  llrTrinomialApprox,
  parseSprt,
  sprtBounds,
  type SprtSpec,
} from '../src/harness/stats/sprt.js';

/** Maximum of a concave function on [a, b] by golden-section search. */
function maximize(f: (x: number) => number, a: number, b: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = b - g * (b - a);
  let x2 = a + g * (b - a);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let i = 0; i < 300; i++) {
    if (f1 < f2) {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    } else {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    }
  }
  return Math.max(f1, f2);
}

/**
 * The trinomial GSPRT by brute force, sharing no code or algebra with sprt.ts: for each
 * hypothesis maximize W ln pW + D ln pD + L ln pL over the distributions with expected
 * score s (parametrized by pD: pW = s - pD/2, pL = 1 - s - pD/2), subtract the maxima.
 */
function bruteTrinomial(c: Wdl, elo0: number, elo1: number): number {
  const best = (s: number) =>
    maximize(
      (pD) => c.wins * Math.log(s - pD / 2) + c.draws * Math.log(pD) + c.losses * Math.log(1 - s - pD / 2),
      0,
      2 * Math.min(s, 1 - s),
    );
  return best(scoreFromElo(elo1)) - best(scoreFromElo(elo0));
}

/** The normal-mean GSPRT by brute force: maximize the log-likelihood over ln σ for each mean. */
function bruteMean(xs: number[], m0: number, m1: number): number {
  const best = (m: number) =>
    maximize((u) => xs.reduce((acc, x) => acc - u - (x - m) ** 2 / (2 * Math.exp(2 * u)), 0), -20, 20);
  return best(m1) - best(m0);
}

function momentsOf(xs: number[]): { n: number; mean: number; variance: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  return { n, mean, variance: xs.reduce((a, x) => a + (x - mean) ** 2, 0) / n };
}

describe('Wald bounds', () => {
  it('are ln(beta/(1-alpha)) and ln((1-beta)/alpha): ±ln 19 = ±2.944 for alpha = beta = 0.05', () => {
    const [lo, hi] = sprtBounds(0.05, 0.05);
    expect(lo).toBeCloseTo(-2.9444389791664403, 12);
    expect(hi).toBeCloseTo(2.9444389791664403, 12);
  });

  it('are ln(0.1/0.95) = -2.2513 and ln 18 = 2.8904 for alpha = 0.05, beta = 0.1', () => {
    const [lo, hi] = sprtBounds(0.05, 0.1);
    expect(lo).toBeCloseTo(-2.2512917986064953, 12);
    expect(hi).toBeCloseTo(2.8903717578961645, 12);
  });
});

describe('trinomial LLR (logistic Elo GSPRT)', () => {
  // fastchess app/tests/sprt_test.cpp, "logistic trinomial 1" and "2" (Stats(wins, losses,
  // draws), SPRT(alpha 0.05, beta 0.05, elo0, elo1, "logistic")), published to 2 decimals.
  it.each([
    [{ wins: 21404, draws: 40708, losses: 21184 }, 0.5, 2.5, -1.57],
    [{ wins: 57433, draws: 106593, losses: 57030 }, 0, 2, -2.59],
  ])('reproduces fastchess: %o, elo0=%d, elo1=%d gives LLR %d', (c, elo0, elo1, llr) => {
    expect(llrTrinomial(c, elo0, elo1)).toBeCloseTo(llr, 2);
    // The closed-form approximation agrees there too (small gap, many games).
    expect(llrTrinomialApprox(c, elo0, elo1)).toBeCloseTo(llr, 2);
  });

  it.each([
    [{ wins: 136, draws: 111, losses: 96 }, 0, 5],
    [{ wins: 30, draws: 5, losses: 12 }, 0, 50],
    [{ wins: 400, draws: 250, losses: 410 }, -10, 10],
    [{ wins: 3, draws: 1, losses: 2 }, 0, 100],
    [{ wins: 1000, draws: 10, losses: 100 }, 0, 5],
    [{ wins: 20, draws: 300, losses: 80 }, -300, -200],
  ])('equals the brute-force constrained maximum likelihood ratio: %o, elo0=%d, elo1=%d', (c, elo0, elo1) => {
    const brute = bruteTrinomial(c, elo0, elo1);
    expect(Math.abs(llrTrinomial(c, elo0, elo1) - brute)).toBeLessThan(1e-7 * (1 + Math.abs(brute)));
  });

  it('regularizes zero counts to 1e-3 as fastchess does, so the LLR is finite and small early', () => {
    const c = { wins: 3, draws: 0, losses: 0 };
    const llr = llrTrinomial(c, 0, 5);
    expect(llr).toBeCloseTo(bruteTrinomial({ wins: 3, draws: 1e-3, losses: 1e-3 }, 0, 5), 7);
    expect(llr).toBeGreaterThan(0);
    expect(llr).toBeLessThan(0.1);
    // One draw after nothing else says almost nothing.
    expect(Math.abs(llrTrinomial({ wins: 0, draws: 1, losses: 0 }, 0, 5))).toBeLessThan(0.05);
  });

  it('computes the closed form N(s1-s0)(2s-s0-s1)/(2 var) from its definition', () => {
    // W 136, D 111, L 96: N = 343, s = 191.5/343 = 0.558309, var = Σ p̂(a - s)² = 0.180617,
    // s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.507195: LLR = 343·0.007195·0.109423/0.361234.
    expect(llrTrinomialApprox({ wins: 136, draws: 111, losses: 96 }, 0, 5)).toBeCloseTo(0.81486, 4);
    // and is the second-order expansion of the exact LLR: close when s is near s0, s1 ...
    const near = { wins: 5100, draws: 3000, losses: 4900 };
    const exact = llrTrinomial(near, 0, 5);
    expect(Math.abs(llrTrinomialApprox(near, 0, 5) - exact)).toBeLessThan(0.01 * Math.abs(exact));
    // ... and overshooting far from them (the reason Sprt uses the exact LLR).
    expect(llrTrinomialApprox({ wins: 1000, draws: 10, losses: 100 }, 0, 5)).toBeGreaterThan(
      2 * llrTrinomial({ wins: 1000, draws: 10, losses: 100 }, 0, 5),
    );
  });

  it('is antisymmetric: swapping wins and losses and negating the hypotheses negates it', () => {
    const c = { wins: 70, draws: 20, losses: 50 };
    expect(llrTrinomial({ wins: 50, draws: 20, losses: 70 }, -5, 0)).toBeCloseTo(-llrTrinomial(c, 0, 5), 10);
  });
});

describe('mean LLR (normal GSPRT, unknown variance)', () => {
  it('gives (N/2) ln((σ² + (x̄-m0)²)/(σ² + (x̄-m1)²)): 1..5, m0=0, m1=1 -> 2.5 ln(11/6) = 1.51534', () => {
    const xs = [1, 2, 3, 4, 5];
    const { n, mean, variance } = momentsOf(xs); // 5, 3, 2
    expect(llrMean(n, mean, variance, 0, 1)).toBeCloseTo(2.5 * Math.log(11 / 6), 12);
    expect(llrMean(n, mean, variance, 0, 1)).toBeCloseTo(1.51534, 5);
    // The quadratic form N(m1-m0)(2x̄-m0-m1)/(2σ²) = 5·1·5/4.
    expect(llrMeanApprox(n, mean, variance, 0, 1)).toBe(6.25);
  });

  it.each([
    [[0.3, -1.2, 2.5, 0.8, 0.1, -0.4, 1.9], 0, 1],
    [[10, 12, 9, 11, 13, 8, 10.5, 11.5], 10, 12],
    [[-3, -2.5, -4, -1, -3.5], -1, 0.5],
  ])('equals the brute-force profile likelihood ratio: %o, m0=%d, m1=%d', (xs, m0, m1) => {
    const { n, mean, variance } = momentsOf(xs);
    const brute = bruteMean(xs, m0, m1);
    expect(Math.abs(llrMean(n, mean, variance, m0, m1) - brute)).toBeLessThan(1e-7 * (1 + Math.abs(brute)));
  });

  it('agrees with the quadratic form near the hypotheses', () => {
    const exact = llrMean(2000, 0.11, 1, 0, 0.2);
    expect(Math.abs(llrMeanApprox(2000, 0.11, 1, 0, 0.2) - exact)).toBeLessThan(0.02 * Math.abs(exact));
  });

  it('is 0 below two groups and finite for a stream without spread', () => {
    expect(llrMean(1, 5, 0, 0, 1)).toBe(0);
    const allZero = llrMean(20, 0, 0, 0, 0.05);
    expect(Number.isFinite(allZero)).toBe(true);
    expect(allZero).toBeLessThan(-100);
  });
});

describe('Sprt', () => {
  const elo: SprtSpec = { kind: 'elo', elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 };

  it('counts groups by the sign of the paired difference and reports the LLR of the counts', () => {
    const t = new Sprt(elo);
    for (const d of [3.5, -1, 0, 2, 1e-12, -0.25, 7]) t.add(d);
    expect(t.counts).toEqual({ wins: 3, draws: 2, losses: 2 });
    expect(t.n).toBe(7);
    expect(t.llr).toBe(llrTrinomial({ wins: 3, draws: 2, losses: 2 }, 0, 5));
    expect(t.decision).toBeNull();
    expect(t.bounds[0]).toBeCloseTo(-2.944439, 6);
    expect(t.describe()).toBe(
      `SPRT: no decision yet (LLR ${t.llr.toFixed(2)}, bounds -2.94 and 2.94) after 7 groups [elo0=0, elo1=5, alpha=0.05, beta=0.05]`,
    );
  });

  it('accepts H1 at the first group whose LLR reaches the upper bound, then stops', () => {
    let first = 0;
    for (let n = 1; !first; n++)
      if (llrTrinomial({ wins: n, draws: 0, losses: 0 }, 0, 5) >= sprtBounds(0.05, 0.05)[1]) first = n;
    const t = new Sprt(elo);
    for (let i = 0; i < first - 1; i++) t.add(1);
    expect(t.decision).toBeNull();
    t.add(1);
    expect(t.decision).toBe('H1');
    expect(t.n).toBe(first);
    const llr = t.llr;
    for (let i = 0; i < 50; i++) t.add(-1);
    expect(t.decision).toBe('H1');
    expect(t.n).toBe(first);
    expect(t.llr).toBe(llr);
    expect(t.describe()).toMatch(
      /^SPRT: H1 accepted \(LLR 2\.9\d >= 2\.94\) after \d+ groups \[elo0=0, elo1=5, alpha=0.05, beta=0.05\]$/,
    );
  });

  it('accepts H0 when the LLR falls to the lower bound', () => {
    const t = new Sprt(elo);
    while (!t.decision) t.add(t.n % 2 ? 1 : -1); // exactly even: score 1/2 = elo0
    expect(t.decision).toBe('H0');
    expect(t.llr).toBeLessThanOrEqual(t.bounds[0]);
    expect(t.describe()).toMatch(/^SPRT: H0 accepted \(LLR -2\.9\d <= -2\.94\) after \d+ groups/);
  });

  it('decides nothing in the mean test before MEAN_MIN_GROUPS groups', () => {
    const t = new Sprt({ kind: 'mean', mean0: 0, mean1: 0.05, alpha: 0.05, beta: 0.05 });
    for (let i = 1; i < MEAN_MIN_GROUPS; i++) t.add(0);
    expect(t.llr).toBeLessThan(t.bounds[0]);
    expect(t.decision).toBeNull();
    t.add(0);
    expect(t.decision).toBe('H0');
    expect(t.describe()).toMatch(/after 10 groups \[mean0=0, mean1=0.05, alpha=0.05, beta=0.05\]$/);
  });

  it('feeds the mean test the maximum-likelihood variance of the differences', () => {
    const xs = [0.5, -0.5, 1, 0, 0.5, 1, -1, 0.5, 0, 0.5, 0.5, -0.5];
    const t = new Sprt({ kind: 'mean', mean0: 0, mean1: 0.5, alpha: 0.05, beta: 0.05 });
    for (const x of xs) t.add(x);
    const { n, mean, variance } = momentsOf(xs);
    expect(t.llr).toBeCloseTo(llrMean(n, mean, variance, 0, 0.5), 12);
  });

  it('rejects a non-finite difference (a bug upstream)', () => {
    expect(() => new Sprt(elo).add(NaN)).toThrow(RangeError);
  });
});

describe('Sprt error rates on seeded simulated streams', () => {
  const key = seedKey('sprt-test');
  const runs = 200;

  /** Fraction of `runs` tests that accept H1, each fed by `draw` until it decides. */
  function acceptH1(spec: SprtSpec, stream: number, draw: (rng: Rng) => number): number {
    const rng = new Rng();
    let h1 = 0;
    for (let r = 0; r < runs; r++) {
      rng.reseed(key, r, stream);
      const t = new Sprt(spec);
      for (let g = 0; !t.decision && g < 100_000; g++) t.add(draw(rng));
      expect(t.decision).not.toBeNull();
      if (t.decision === 'H1') h1++;
    }
    return h1 / runs;
  }

  /** A group that A wins with probability s - draws/2, draws with probability `draws`. */
  const trinomial = (elo: number, draws: number) => {
    const s = scoreFromElo(elo);
    return (rng: Rng) => {
      const u = rng.uniform();
      return u < s - draws / 2 ? 1 : u < s + draws / 2 ? 0 : -1;
    };
  };

  it('elo0=0, elo1=50: H1 at elo 0 about alpha, at elo 50 about 1 - beta, well above elo1 always', () => {
    const spec: SprtSpec = { kind: 'elo', elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 };
    expect(acceptH1(spec, 1, trinomial(0, 0.3))).toBeLessThanOrEqual(0.1);
    expect(acceptH1(spec, 2, trinomial(50, 0.3))).toBeGreaterThanOrEqual(0.9);
    expect(acceptH1(spec, 3, trinomial(150, 0.3))).toBe(1);
    expect(acceptH1(spec, 4, trinomial(-100, 0.1))).toBe(0);
  });

  /** A difference in {-1, -1/2, 0, 1/2, 1} (a binary metric over two rotations) with the given mean. */
  const binaryDifference = (mean: number) => {
    const values = [-1, -0.5, 0, 0.5, 1];
    const base = [0.1, 0.2, 0.4, 0.2, 0.1];
    // Exponential tilt of `base` to the requested mean, by bisection on the tilt.
    let lo = -20;
    let hi = 20;
    let p = base;
    for (let i = 0; i < 100; i++) {
      const l = (lo + hi) / 2;
      const w = base.map((b, k) => b * Math.exp(l * values[k]));
      const z = w.reduce((a, b) => a + b, 0);
      p = w.map((x) => x / z);
      if (p.reduce((a, q, k) => a + q * values[k], 0) < mean) lo = l;
      else hi = l;
    }
    return (rng: Rng) => {
      let u = rng.uniform();
      for (let k = 0; k < 4; k++) if ((u -= p[k]) < 0) return values[k];
      return values[4];
    };
  };

  it('mean0=0, mean1=0.2 on a discrete difference: errors about alpha and beta', () => {
    const spec: SprtSpec = { kind: 'mean', mean0: 0, mean1: 0.2, alpha: 0.05, beta: 0.05 };
    expect(acceptH1(spec, 5, binaryDifference(0))).toBeLessThanOrEqual(0.1);
    expect(acceptH1(spec, 6, binaryDifference(0.2))).toBeGreaterThanOrEqual(0.9);
    expect(acceptH1(spec, 7, binaryDifference(0.5))).toBe(1);
  });

  it('mean0=0, mean1=5 on normal differences with sd 20: errors about alpha and beta', () => {
    const normal = (mean: number) => (rng: Rng) => {
      const u = 1 - rng.uniform();
      return mean + 20 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.uniform());
    };
    const spec: SprtSpec = { kind: 'mean', mean0: 0, mean1: 5, alpha: 0.05, beta: 0.05 };
    expect(acceptH1(spec, 8, normal(0))).toBeLessThanOrEqual(0.1);
    expect(acceptH1(spec, 9, normal(5))).toBeGreaterThanOrEqual(0.9);
  });
});

describe('parseSprt', () => {
  it('reads the elo and mean forms, alpha and beta defaulting to 0.05', () => {
    expect(parseSprt('elo0=0,elo1=5,alpha=0.05,beta=0.1')).toEqual({
      kind: 'elo',
      elo0: 0,
      elo1: 5,
      alpha: 0.05,
      beta: 0.1,
    });
    expect(parseSprt(' mean0 = -1.5 , mean1=2 ')).toEqual({
      kind: 'mean',
      mean0: -1.5,
      mean1: 2,
      alpha: 0.05,
      beta: 0.05,
    });
    expect(parseSprt('elo1=2.5,elo0=-1.75,beta=0.2')).toEqual({
      kind: 'elo',
      elo0: -1.75,
      elo1: 2.5,
      alpha: 0.05,
      beta: 0.2,
    });
  });

  it.each([
    ['elo0=0,elo1=5,gamma=1', /unknown key 'gamma'/],
    ['elo0=0,elo1=5,alpha', /'alpha' is not key=value/],
    ['elo0=0,,elo1=5', /empty item/],
    ['', /empty item/],
    ['elo0=0,elo1=five', /elo1='five' is not a number/],
    ['elo0=0,elo1=', /elo1='' is not a number/],
    ['elo0=0,elo1=5,elo0=1', /elo0 given twice/],
    ['elo0=5,elo1=5', /elo1 \(5\) must be greater than elo0 \(5\)/],
    ['elo0=5,elo1=0', /must be greater/],
    ['mean0=1,mean1=0.5', /mean1 \(0.5\) must be greater than mean0 \(1\)/],
    ['elo0=0,mean1=5', /mixes elo and mean keys/],
    ['alpha=0.05,beta=0.05', /needs elo0 and elo1, or mean0 and mean1/],
    ['elo0=0', /needs both elo0 and elo1/],
    ['elo0=0,elo1=5,alpha=0', /alpha=0 must be between 0 and 0.5/],
    ['elo0=0,elo1=5,alpha=0.5', /alpha=0.5 must be between 0 and 0.5/],
    ['mean0=0,mean1=5,beta=-0.1', /beta=-0.1 must be between/],
    ['elo0=0,elo1=Infinity', /is not a number/],
  ])('rejects %j with one clear line', (text, message) => {
    let caught: unknown;
    try {
      parseSprt(text);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TafelError);
    const e = caught as TafelError;
    expect(e.code).toBe('bad-sprt');
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`--sprt '${text}': `)).toBe(true);
    expect(e.message).not.toContain('\n');
  });
});
