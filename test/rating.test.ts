/**
 * Elo and ratings against known values: closed forms, fastchess's published Elo numbers,
 * Hunter's MM algorithm as an independent fit, and seeded simulated tournaments.
 */
import { describe, expect, it } from 'vitest';
import { Rng, seedKey } from '../src/core/rng.js';
import {
  PairOutcomes,
  eloFromScore,
  fitRatings,
  headToHeadBound,
  headToHeadElo,
  outcomeOf,
  ratingDifference,
  scoreAndVariance,
  scoreFromElo,
} from '../src/harness/stats/rating.js';
import { renderTable } from '../src/harness/run/report.js';
import type { RunSpec } from '../src/harness/run/spec.js';
import { GroupTally } from '../src/harness/table/table.js';
import { RunTally } from '../src/harness/stats/tally.js';

const C = Math.LN10 / 400;

describe('Elo and score', () => {
  it.each([
    [0.5, 0],
    [0.75, 190.848501887865], // 400 log10 3
    [0.9, 381.69700377573], // 400 log10 9
    [0.25, -190.848501887865],
    [10 / 11, 400],
  ])('eloFromScore(%f) = %f', (s, elo) => {
    expect(eloFromScore(s)).toBeCloseTo(elo, 9);
    expect(scoreFromElo(elo)).toBeCloseTo(s, 12);
  });

  it('maps the ends to ±Infinity and nonsense to NaN', () => {
    expect(eloFromScore(1)).toBe(Infinity);
    expect(eloFromScore(0)).toBe(-Infinity);
    expect(eloFromScore(1.2)).toBeNaN();
  });

  it('classifies a paired difference by its sign, tolerating rounding', () => {
    expect([outcomeOf(0.5), outcomeOf(-3), outcomeOf(0), outcomeOf(1e-12), outcomeOf(-1e-12)]).toEqual([
      1, 0, 0.5, 0.5, 0.5,
    ]);
  });
});

describe('head-to-head Elo (trinomial, as fastchess EloWDL)', () => {
  // fastchess app/tests/elo_test.cpp "EloWDL 2": Stats(wins 136, losses 96, draws 111):
  // diff 40.70, error 30.43, LOS 99.60 %.
  it('reproduces fastchess: W 136, D 111, L 96 -> 40.70 ± 30.43, LOS 99.60%', () => {
    const e = headToHeadElo({ wins: 136, draws: 111, losses: 96 });
    expect(e.n).toBe(343);
    expect(e.score).toBeCloseTo(191.5 / 343, 12);
    expect(e.elo).toBeCloseTo(40.7, 2);
    expect(e.error).toBeCloseTo(30.43, 2);
    expect(e.los).toBeCloseTo(0.996, 4);
    expect(e.low).toBeLessThan(e.elo);
    expect(e.high - e.elo).toBeGreaterThan(e.elo - e.low); // the logistic stretches the upper end
  });

  // "EloWDL 1": Stats(wins 76, losses 89, draws 123): LOS 15.53 %.
  it('reproduces fastchess: W 76, D 123, L 89 -> LOS 15.53%', () => {
    const e = headToHeadElo({ wins: 76, draws: 123, losses: 89 });
    expect(e.los).toBeCloseTo(0.1553, 4);
    expect(e.elo).toBeCloseTo(eloFromScore(137.5 / 288), 12);
  });

  it('uses the trinomial variance of the observed frequencies', () => {
    // W 60, D 20, L 20: s = 0.7, var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16.
    const v = scoreAndVariance({ wins: 60, draws: 20, losses: 20 });
    expect(v.score).toBeCloseTo(0.7, 12);
    expect(v.variance).toBeCloseTo(0.16, 12);
    const e = headToHeadElo({ wins: 60, draws: 20, losses: 20 });
    expect(e.low).toBeCloseTo(eloFromScore(0.7 - 1.959963984540054 * 0.04), 9);
    expect(e.high).toBeCloseTo(eloFromScore(0.7 + 1.959963984540054 * 0.04), 9);
  });

  it('gives an infinite end when the score interval reaches 1', () => {
    const e = headToHeadElo({ wins: 10, draws: 0, losses: 0 });
    expect(e.elo).toBe(Infinity);
    expect(headToHeadElo({ wins: 0, draws: 0, losses: 0 }).elo).toBeNaN();
  });
});

/** Build wins/draws matrices from { [i, j]: [W, D, L] } for i < j. */
function matrices(
  k: number,
  pairs: [number, number, number, number, number][],
): { wins: number[][]; draws: number[][] } {
  const o = new PairOutcomes(k);
  for (const [i, j, w, d, l] of pairs) {
    o.wins[i][j] += w;
    o.wins[j][i] += l;
    o.draws[i][j] += d;
    o.draws[j][i] += d;
  }
  return { wins: o.wins, draws: o.draws };
}

/** Hunter (2004) MM for Bradley-Terry with half-point draws: γ_i ← S_i / Σ_j n_ij/(γ_i + γ_j). */
function mm(wins: number[][], draws: number[][]): number[] {
  const k = wins.length;
  let gamma = new Array<number>(k).fill(1);
  for (let it = 0; it < 20000; it++) {
    const next = gamma.map((g, i) => {
      let score = 0;
      let denom = 0;
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        score += wins[i][j] + draws[i][j] / 2;
        denom += (wins[i][j] + wins[j][i] + draws[i][j]) / (g + gamma[j]);
      }
      return score / denom;
    });
    const logMean = next.reduce((a, g) => a + Math.log(g), 0) / k;
    gamma = next.map((g) => g / Math.exp(logMean));
  }
  return gamma.map((g) => Math.log(g) / C);
}

describe('fitRatings (Bradley-Terry / logistic Elo, maximum likelihood)', () => {
  it('for two bots equals the closed form 400 log10(s/(1-s)) and the trinomial interval', () => {
    // W 50, D 20, L 30: s = 0.6, Elo difference 400 log10 1.5 = 70.4365, ratings ±35.218.
    const { wins, draws } = matrices(2, [[0, 1, 50, 20, 30]]);
    const t = fitRatings(wins, draws);
    expect(t.exists).toBe(true);
    expect(t.ratings[0].elo).toBeCloseTo(35.21825, 4);
    expect(t.ratings[1].elo).toBeCloseTo(-35.21825, 4);
    const d = ratingDifference(t, 0, 1);
    expect(d.elo).toBeCloseTo(400 * Math.log10(1.5), 9);
    // Delta method on the trinomial: se = sqrt(var/N) / (C s(1-s)),
    // var = (50·0.4² + 20·0.1² + 30·0.6²)/100 = 0.19.
    const { variance } = scoreAndVariance({ wins: 50, draws: 20, losses: 30 });
    expect(variance).toBeCloseTo(0.19, 12);
    expect(d.se).toBeCloseTo(Math.sqrt(0.19 / 100) / (C * 0.6 * 0.4), 9);
    expect(t.ratings[0].se).toBeCloseTo(d.se / 2, 9);
    expect(t.ratings[0].games).toBe(100);
    expect(t.ratings[0].score).toBeCloseTo(0.6, 12);
  });

  it('has robust and observed-information covariances that agree without draws, and differ with them', () => {
    // Two bots without draws: identical (at the MLE p = s, so Σ(x - p)² = n p(1 - p)).
    const two = matrices(2, [[0, 1, 70, 0, 30]]);
    const r2 = fitRatings(two.wins, two.draws);
    const o2 = fitRatings(two.wins, two.draws, { covariance: 'observed' });
    expect(r2.ratings[0].se).toBeCloseTo(o2.ratings[0].se, 9);
    // Closed form: var(difference) = 1/(n s(1-s) C²).
    expect(ratingDifference(o2, 0, 1).se).toBeCloseTo(1 / Math.sqrt(100 * 0.7 * 0.3 * C * C), 9);
    // More bots without draws: equal in expectation, close on data that fit the model.
    const { wins, draws } = matrices(3, [
      [0, 1, 70, 0, 30],
      [1, 2, 55, 0, 45],
      [0, 2, 80, 0, 20],
    ]);
    const robust = fitRatings(wins, draws);
    const observed = fitRatings(wins, draws, { covariance: 'observed' });
    robust.ratings.forEach((r, i) => expect(Math.abs(r.se / observed.ratings[i].se - 1)).toBeLessThan(0.05));
    // With many draws, the half-point binomial information overstates the variance.
    const drawn = matrices(2, [[0, 1, 30, 60, 30]]);
    const seObserved = fitRatings(drawn.wins, drawn.draws, { covariance: 'observed' }).ratings[0].se;
    const seRobust = fitRatings(drawn.wins, drawn.draws).ratings[0].se;
    // s = 1/2: trinomial var (30·0.25 + 60·0 + 30·0.25)/120 = 0.125, binomial 0.25: ratio sqrt 2.
    expect(seObserved / seRobust).toBeCloseTo(Math.SQRT2, 9);
  });

  it('on a chain (A-B, B-C, no A-C) gives each link its closed form and adds the variances', () => {
    const { wins, draws } = matrices(3, [
      [0, 1, 75, 0, 25],
      [1, 2, 40, 20, 40],
    ]);
    const t = fitRatings(wins, draws, { covariance: 'observed' });
    expect(ratingDifference(t, 0, 1).elo).toBeCloseTo(eloFromScore(0.75), 8);
    expect(ratingDifference(t, 1, 2).elo).toBeCloseTo(0, 8);
    const vAB = 1 / (100 * 0.75 * 0.25 * C * C);
    const vBC = 1 / (100 * 0.25 * C * C);
    expect(ratingDifference(t, 0, 2).se ** 2).toBeCloseTo(vAB + vBC, 6);
    expect(t.ratings.reduce((a, r) => a + r.elo, 0)).toBeCloseTo(0, 9);
  });

  it('gives equal ratings and errors in symmetric tournaments', () => {
    // A rock-paper-scissors cycle: each beats the next 60-40.
    const cycle = matrices(3, [
      [0, 1, 60, 0, 40],
      [1, 2, 60, 0, 40],
      [0, 2, 40, 0, 60],
    ]);
    const t = fitRatings(cycle.wins, cycle.draws);
    for (const r of t.ratings) {
      expect(r.elo).toBeCloseTo(0, 9);
      expect(r.se).toBeCloseTo(t.ratings[0].se, 9);
    }
    // Four equal bots, every pair 30-40-30.
    const even = matrices(4, [
      [0, 1, 30, 40, 30],
      [0, 2, 30, 40, 30],
      [0, 3, 30, 40, 30],
      [1, 2, 30, 40, 30],
      [1, 3, 30, 40, 30],
      [2, 3, 30, 40, 30],
    ]);
    const u = fitRatings(even.wins, even.draws);
    for (const r of u.ratings) expect(r.elo).toBeCloseTo(0, 9);
  });

  it("reaches the same maximum as Hunter's MM algorithm", () => {
    const { wins, draws } = matrices(4, [
      [0, 1, 50, 10, 30],
      [0, 2, 70, 5, 20],
      [0, 3, 20, 2, 3],
      [1, 2, 33, 30, 27],
      [1, 3, 60, 0, 45],
      [2, 3, 12, 8, 30],
    ]);
    const t = fitRatings(wins, draws);
    const reference = mm(wins, draws);
    t.ratings.forEach((r, i) => expect(r.elo).toBeCloseTo(reference[i], 6));
    expect(t.iterations).toBeLessThan(20);
  });

  it('reports that no finite ratings exist when a bot won every group, unless given virtual draws', () => {
    const { wins, draws } = matrices(3, [
      [0, 1, 20, 0, 0],
      [0, 2, 15, 0, 0],
      [1, 2, 10, 5, 10],
    ]);
    const t = fitRatings(wins, draws);
    expect(t.exists).toBe(false);
    expect(t.reason).toMatch(/no finite ratings/);
    expect(t.ratings[0].elo).toBeNaN();
    const p = fitRatings(wins, draws, { virtualDraws: 2 });
    expect(p.exists).toBe(true);
    expect(p.ratings[0].elo).toBeGreaterThan(200);
    expect(Number.isFinite(p.ratings[0].se)).toBe(true);
    // Two groups of bots that never met have no common scale either.
    const apart = matrices(4, [
      [0, 1, 5, 0, 5],
      [2, 3, 5, 0, 5],
    ]);
    expect(fitRatings(apart.wins, apart.draws).exists).toBe(false);
  });

  it('rejects malformed counts', () => {
    expect(() => fitRatings([[0, 1], [1]])).toThrow(RangeError);
    expect(() =>
      fitRatings([
        [0, -1],
        [1, 0],
      ]),
    ).toThrow(RangeError);
    expect(() =>
      fitRatings(
        [
          [0, 1],
          [1, 0],
        ],
        [
          [0, 1],
          [2, 0],
        ],
      ),
    ).toThrow(RangeError);
  });

  it('shrinks the standard errors as 1/sqrt(n): four times the groups, half the error', () => {
    const base = matrices(3, [
      [0, 1, 40, 20, 30],
      [1, 2, 35, 25, 30],
      [0, 2, 50, 10, 20],
    ]);
    const times4 = (m: number[][]) => m.map((row) => row.map((x) => 4 * x));
    const t1 = fitRatings(base.wins, base.draws);
    const t4 = fitRatings(times4(base.wins), times4(base.draws));
    t1.ratings.forEach((r, i) => {
      expect(t4.ratings[i].elo).toBeCloseTo(r.elo, 8);
      expect(t4.ratings[i].se).toBeCloseTo(r.se / 2, 8);
    });
  });
});

describe('fitRatings on seeded simulated tournaments', () => {
  const key = seedKey('rating-test');
  const truth = [-150, -40, 60, 130];
  const mean = truth.reduce((a, b) => a + b, 0) / truth.length;

  /** Every pair plays `n` groups; a group is a draw with probability min(0.3, s, 1-s). */
  function tournament(n: number, stream: number): PairOutcomes {
    const rng = new Rng(key, stream);
    const o = new PairOutcomes(truth.length);
    for (let i = 0; i < truth.length; i++) {
      for (let j = i + 1; j < truth.length; j++) {
        const s = scoreFromElo(truth[i] - truth[j]);
        const d = Math.min(0.3, s, 1 - s);
        for (let g = 0; g < n; g++) {
          const u = rng.uniform();
          o.add(i, j, u < s - d / 2 ? 1 : u < s + d / 2 ? 0 : -1);
        }
      }
    }
    return o;
  }

  it('recovers the true ratings within their error bars', () => {
    const o = tournament(400, 0);
    const t = fitRatings(o.wins, o.draws);
    t.ratings.forEach((r, i) => expect(Math.abs(r.elo - (truth[i] - mean))).toBeLessThan(3 * r.se));
    const d = ratingDifference(t, 3, 0);
    expect(Math.abs(d.elo - (truth[3] - truth[0]))).toBeLessThan(3 * d.se);
  });

  it('has 95% intervals that cover the truth about 95% of the time (200 tournaments)', () => {
    let covered = 0;
    let total = 0;
    for (let r = 0; r < 200; r++) {
      const o = tournament(60, 1 + r);
      const t = fitRatings(o.wins, o.draws);
      expect(t.exists).toBe(true);
      t.ratings.forEach((x, i) => {
        total++;
        if (x.low <= truth[i] - mean && truth[i] - mean <= x.high) covered++;
      });
    }
    expect(covered / total).toBeGreaterThan(0.91);
    expect(covered / total).toBeLessThan(0.98);
  });

  it('has errors that shrink about as 1/sqrt(n) with simulated data (200 vs 3200 groups a pair: ratio 4)', () => {
    const a = tournament(200, 1000);
    const small = fitRatings(a.wins, a.draws);
    const b = tournament(3200, 1001);
    const large = fitRatings(b.wins, b.draws);
    small.ratings.forEach((r, i) => {
      const ratio = r.se / large.ratings[i].se;
      expect(ratio).toBeGreaterThan(3.5);
      expect(ratio).toBeLessThan(4.5);
    });
  });
});

describe('Elo with bounds a reader understands', () => {
  it('every group won: no estimate, a finite lower bound from the Wilson interval', () => {
    const h = headToHeadBound({ wins: 50, draws: 0, losses: 0 });
    expect(h.elo).toBe(Infinity);
    expect(h.wilson).toBe(true);
    // Wilson's lower bound at 50 of 50 is 50 / (50 + z^2).
    const z2 = 1.959963984540054 ** 2;
    expect(h.low).toBeCloseTo(eloFromScore(50 / (50 + z2)), 3);
    expect(h.high).toBe(Infinity);
    const lost = headToHeadBound({ wins: 0, draws: 0, losses: 20 });
    expect(lost.elo).toBe(-Infinity);
    expect(Number.isFinite(lost.high)).toBe(true);
  });

  it("fastchess's interval where it is finite; Wilson's where it reaches a bound", () => {
    const c = { wins: 30, draws: 10, losses: 20 };
    expect(headToHeadBound(c)).toEqual({ ...headToHeadElo(c), wilson: false });
    const edge = headToHeadBound({ wins: 9, draws: 0, losses: 1 });
    expect(edge.wilson).toBe(true);
    expect(Number.isFinite(edge.low) && Number.isFinite(edge.high)).toBe(true);
    expect(edge.low).toBeLessThan(edge.elo);
    expect(edge.high).toBeGreaterThan(edge.elo);
  });

  it('the table says "> +X (all N groups won)", never +inf', () => {
    const tally = new RunTally([{ key: 'points', description: '', higherIsBetter: true }], null, 2);
    const g = new GroupTally(2, 1, 0);
    for (let i = 0; i < 12; i++) {
      g.clear();
      g.dealSums[0] = 80 + i;
      g.dealSums[1] = 60;
      g.dealCounts[0] = g.dealCounts[1] = 2;
      g.deals = 2;
      tally.add(g);
    }
    const spec = {
      entrants: [
        { label: 'a', cheats: false },
        { label: 'b', cheats: false },
      ],
      unit: 'deal',
    } as unknown as RunSpec;
    const text = renderTable(spec, tally);
    expect(text).not.toContain('inf');
    expect(text).toMatch(
      /Elo of a over b per duplicate group on points: >= \+\d+\.\d \(12 of 12 groups won; 95% Wilson bound\)/,
    );
  });
});

describe('LOS where every group went alike', () => {
  it('is not claimed (NaN), however few the groups: the normal approximation has no spread to work with', () => {
    expect(headToHeadElo({ wins: 1, draws: 0, losses: 0 }).los).toBeNaN();
    expect(headToHeadElo({ wins: 0, draws: 0, losses: 7 }).los).toBeNaN();
    expect(headToHeadElo({ wins: 0, draws: 3, losses: 0 }).los).toBeNaN();
    expect(headToHeadElo({ wins: 2, draws: 0, losses: 1 }).los).toBeGreaterThan(0.5);
  });
});

describe('rating intervals over groups, not pairings (a group decides every pair in it)', () => {
  /** Three bots; in each group one latent luck term moves all three pairings alike. */
  function correlated(groups: number, stream: number): { outcomes: PairOutcomes; rows: number[][] } {
    const rng = new Rng(seedKey('rating-clusters'), stream);
    const skill = [60, 0, -60];
    const outcomes = new PairOutcomes(3);
    const rows: number[][] = [];
    for (let g = 0; g < groups; g++) {
      // The group's cards favour the lower seats' bots by `luck` Elo: shared by its pairings.
      const luck = (rng.uniform() - 0.5) * 2000;
      const row: number[] = [];
      for (const [a, b] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ]) {
        const won = rng.uniform() < scoreFromElo(skill[a] - skill[b] + luck) ? 1 : -1;
        outcomes.add(a, b, won);
        row.push(won);
      }
      outcomes.endGroup();
      rows.push(row);
    }
    return { outcomes, rows };
  }

  it('equals the per-pairing sandwich when every group holds one pairing', () => {
    const rng = new Rng(seedKey('rating-single'), 0);
    const o = new PairOutcomes(3);
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
    ];
    for (let g = 0; g < 600; g++) {
      const [a, b] = pairs[g % 3];
      const u = rng.uniform();
      o.add(a, b, u < 0.5 + 0.1 * (b - a) ? 1 : u < 0.7 + 0.1 * (b - a) ? -1 : 0);
      o.endGroup();
    }
    const clustered = fitRatings(o.wins, o.draws, { groups: o.groups });
    const pairwise = fitRatings(o.wins, o.draws);
    clustered.ratings.forEach((r, i) => {
      expect(r.elo).toBeCloseTo(pairwise.ratings[i].elo, 9);
      expect(r.se).toBeCloseTo(pairwise.ratings[i].se, 9);
    });
  });

  it('matches a bootstrap over groups where the pairings of a group are correlated, and the per-pairing one does not', () => {
    const { outcomes, rows } = correlated(1500, 1);
    const clustered = fitRatings(outcomes.wins, outcomes.draws, { groups: outcomes.groups });
    const pairwise = fitRatings(outcomes.wins, outcomes.draws);
    // Bootstrap: resample whole groups, refit, take the spread of bot 0's rating.
    const rng = new Rng(seedKey('rating-bootstrap'), 0);
    const elos: number[] = [];
    for (let b = 0; b < 300; b++) {
      const o = new PairOutcomes(3);
      for (let g = 0; g < rows.length; g++) {
        const row = rows[rng.below(rows.length)];
        o.add(0, 1, row[0]);
        o.add(0, 2, row[1]);
        o.add(1, 2, row[2]);
      }
      elos.push(fitRatings(o.wins, o.draws).ratings[0].elo);
    }
    const m = elos.reduce((a, x) => a + x, 0) / elos.length;
    const sd = Math.sqrt(elos.reduce((a, x) => a + (x - m) ** 2, 0) / (elos.length - 1));
    expect(Math.abs(clustered.ratings[0].se / sd - 1)).toBeLessThan(0.15);
    expect(pairwise.ratings[0].se / sd).toBeLessThan(0.85);
  });
});
