/**
 * Sequential probability ratio tests for a head-to-head duplicate run: play groups until
 * the evidence says, with error rates alpha and beta, that bot A is at least "1" better
 * than bot B (H1) or at most "0" better (H0), then stop.
 *
 * The run loop feeds one number per duplicate group, in group order: the paired
 * difference of the headline metric (A's mean over the group's seat rotations minus
 * B's), signed so that positive means A did better (negate it for a lower-is-better
 * metric). Two tests read that stream:
 *
 *   --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05    (the fastchess / cutechess interface)
 *     Each group is a win, draw or loss for A by the sign of the difference (trinomial:
 *     group score 1, 1/2, 0), and the hypotheses are logistic Elo of that group score,
 *     E[score] = 1 / (1 + 10^(-elo/400)): fastchess's `model=logistic` (cutechess's SPRT
 *     uses BayesElo's draw model instead). This is the Elo of winning a duplicate group
 *     (see rating.ts), not of a single deal.
 *   --sprt mean0=0,mean1=5,alpha=0.05,beta=0.05
 *     The paired difference itself, a real number in the metric's units: H0 mean = mean0
 *     against H1 mean = mean1, variance unknown.
 *
 * alpha and beta default to 0.05. Both tests are generalized SPRTs: the LLR is the log of
 * the ratio of the maximum likelihood under H1 to the maximum under H0, the nuisance
 * parameters (draw rate, variance) refitted under each hypothesis. Wald's bounds
 * lower = ln(beta / (1 - alpha)) and upper = ln((1 - beta) / alpha): LLR >= upper accepts H1,
 * LLR <= lower accepts H0, and the first crossing is final.
 *
 * Both LLRs are computed exactly, not by their textbook quadratic approximation
 * N·(θ1 - θ0)·(2θ̂ - θ0 - θ1) / (2σ̂²) (exported as `llrTrinomialApprox`, `llrMeanApprox`).
 * The two agree near the hypotheses and on fastchess's published values, but the
 * approximation overshoots when the data lie far from both hypotheses, which is what
 * small samples do: in seeded scratch simulations (600-1000 tests each) it accepted a
 * false H1 9-14% of the time for elo0=0, elo1=100 and 19.6% for mean0=0, mean1=5 on
 * N(0, 20²) differences, where the exact LLRs gave about 6% and 5.0% (nominal 5%).
 */
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { Moments } from './stats.js';
import { outcomeOf, scoreFromElo, type Wdl } from './rating.js';
import type { GroupTally, Unit } from '../table/table.js';

interface SprtElo {
  readonly kind: 'elo';
  readonly elo0: number;
  readonly elo1: number;
  readonly alpha: number;
  readonly beta: number;
}

interface SprtMean {
  readonly kind: 'mean';
  readonly mean0: number;
  readonly mean1: number;
  readonly alpha: number;
  readonly beta: number;
}

export type SprtSpec = SprtElo | SprtMean;

export type SprtDecision = 'H0' | 'H1';

/**
 * The mean test decides nothing before this many groups. With a handful of groups the
 * variance estimate can be 0 or tiny by chance (a difference of a binary metric is
 * exactly 0 in two groups running), and the normal model then claims near certainty.
 * In seeded simulations of a difference in {0, ±1/2, ±1} (mean0=0, mean1=0.05 and 0.2)
 * a burn-in of 10 brought beta from 0.19 back to about 0.05. The Elo test needs none:
 * fastchess's regularized counts keep its LLR small until evidence accumulates.
 */
export const MEAN_MIN_GROUPS = 10;

/**
 * Floor of the mean test's variance estimate, as a fraction of (mean1 - mean0)²: an
 * all-equal stream (zero variance) then gives a large finite LLR instead of ±Infinity,
 * the continuous analogue of fastchess replacing zero counts by 1e-3.
 */
const MEAN_VARIANCE_FLOOR = 1e-6;

/** Wald's bounds [ln(beta / (1 - alpha)), ln((1 - beta) / alpha)]; ±2.944 for alpha = beta = 0.05. */
export function sprtBounds(alpha: number, beta: number): [number, number] {
  return [Math.log(beta / (1 - alpha)), Math.log((1 - beta) / alpha)];
}

/** fastchess `regularize`: a zero count becomes 1e-3, so every log below is finite. */
function regularize(count: number): number {
  return count === 0 ? 1e-3 : count;
}

/**
 * GSPRT log-likelihood ratio of trinomial counts under the logistic Elo model, computed
 * exactly as fastchess does for `--sprt ... model=logistic` (`SPRT::getLLR_logistic`),
 * after M. Van den Bergh, "Comments on Normalized Elo", Proposition 1.1
 * (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf):
 *
 *   the most likely outcome distribution with expected score s, given observed
 *   frequencies p̂_k of the scores a_k ∈ {0, 1/2, 1}, is p_k = p̂_k / (1 + θ(a_k - s)),
 *   θ the root of Σ p̂_k (a_k - s) / (1 + θ(a_k - s)) = 0 in (-1/(1 - s), 1/s);
 *   LLR = N Σ p̂_k ln(p1_k / p0_k), with s0, s1 the scores of elo0, elo1.
 *
 * The root is found by bisection (the sum decreases in θ) instead of fastchess's ITP to
 * 1e-3; zero counts are regularized to 1e-3 and N is the regularized total, as there.
 */
export function llrTrinomial(c: Wdl, elo0: number, elo1: number): number {
  const w = regularize(c.wins);
  const d = regularize(c.draws);
  const l = regularize(c.losses);
  const n = w + d + l;
  const p = [l / n, d / n, w / n];
  const s0 = scoreFromElo(elo0);
  const s1 = scoreFromElo(elo1);
  const t0 = vdbTheta(p, s0);
  const t1 = vdbTheta(p, s1);
  let llr = 0;
  for (let k = 0; k < 3; k++) {
    const a = k / 2;
    // ln(p1_k / p0_k) = ln(1 + θ0(a - s0)) - ln(1 + θ1(a - s1))
    llr += p[k] * (Math.log1p(t0 * (a - s0)) - Math.log1p(t1 * (a - s1)));
  }
  return n * llr;
}

/** θ of Van den Bergh's Proposition 1.1 for scores 0, 1/2, 1 with frequencies p. */
function vdbTheta(p: readonly number[], s: number): number {
  let lo = -1 / (1 - s);
  let hi = 1 / s;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    let f = 0;
    for (let k = 0; k < 3; k++) f += (p[k] * (k / 2 - s)) / (1 + mid * (k / 2 - s));
    if (f > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The classic closed form of the same test: LLR ≈ N (s1 - s0)(2s - s0 - s1) / (2 var) with
 * s = (W + D/2)/N and var = Σ p̂_k (a_k - s)² (fishtest's original trinomial LLR; the
 * Chess Programming Wiki, "Match Statistics"; many runners). The second-order expansion of
 * `llrTrinomial` around s0, s1; 0 when var = 0. Kept for comparison, not used by `Sprt`.
 */
export function llrTrinomialApprox(c: Wdl, elo0: number, elo1: number): number {
  const n = c.wins + c.draws + c.losses;
  if (n === 0) return 0;
  const s = (c.wins + c.draws / 2) / n;
  const v = (c.wins * (1 - s) ** 2 + c.draws * (0.5 - s) ** 2 + c.losses * s * s) / n;
  if (v === 0) return 0;
  const s0 = scoreFromElo(elo0);
  const s1 = scoreFromElo(elo1);
  return (n * (s1 - s0) * (2 * s - s0 - s1)) / (2 * v);
}

/**
 * GSPRT for the mean of normal observations with unknown variance. With x̄ and the
 * maximum-likelihood variance σ̂² = Σ(x - x̄)²/N, the likelihood at mean m is largest at
 * σ_m² = σ̂² + (x̄ - m)², so
 *
 *   LLR = (N/2) ln[(σ̂² + (x̄ - m0)²) / (σ̂² + (x̄ - m1)²)].
 *
 * This is the normal profile likelihood; fastchess computed its trinomial LLR in exactly
 * this form, 0.5·N·ln(var0/var1), before adopting Van den Bergh's exact MLE (its comment
 * cites hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf). Expanded for x̄ near
 * m0, m1 it is N (m1 - m0)(2x̄ - m0 - m1) / (2σ̂²) (`llrMeanApprox`). 0 for N < 2.
 */
export function llrMean(n: number, mean: number, variance: number, mean0: number, mean1: number): number {
  if (n < 2) return 0;
  const v = Math.max(variance, MEAN_VARIANCE_FLOOR * (mean1 - mean0) ** 2);
  return (n / 2) * Math.log((v + (mean - mean0) ** 2) / (v + (mean - mean1) ** 2));
}

/** N (m1 - m0)(2x̄ - m0 - m1) / (2σ̂²), σ̂² the maximum-likelihood variance; 0 when N < 2 or σ̂² = 0. */
export function llrMeanApprox(n: number, mean: number, variance: number, mean0: number, mean1: number): number {
  if (n < 2 || !(variance > 0)) return 0;
  return (n * (mean1 - mean0) * (2 * mean - mean0 - mean1)) / (2 * variance);
}

/**
 * One running test. Call `add` once per finished group, in group order; after the first
 * bound crossing the decision is final and further groups are ignored, so the state (and
 * `describe`) is the test at its stopping time.
 */
export class Sprt {
  /** Group outcomes for A by the sign of the difference (kept in both kinds of test). */
  readonly counts: Wdl = { wins: 0, draws: 0, losses: 0 };
  /** The paired differences: n, mean, variance. */
  readonly differences = new Moments();
  private readonly range: [number, number];
  private current = 0;
  private verdict: SprtDecision | null = null;

  constructor(readonly spec: SprtSpec) {
    this.range = sprtBounds(spec.alpha, spec.beta);
  }

  add(pairedDifference: number): void {
    if (!Number.isFinite(pairedDifference))
      throw new RangeError(`Sprt.add: paired difference ${pairedDifference} is not finite`);
    if (this.verdict) return;
    const o = outcomeOf(pairedDifference);
    if (o === 1) this.counts.wins++;
    else if (o === 0) this.counts.losses++;
    else this.counts.draws++;
    const m = this.differences;
    m.add(pairedDifference);
    const spec = this.spec;
    if (spec.kind === 'elo') {
      this.current = llrTrinomial(this.counts, spec.elo0, spec.elo1);
    } else {
      this.current = llrMean(m.n, m.mean, m.m2 / m.n, spec.mean0, spec.mean1);
      if (m.n < MEAN_MIN_GROUPS) return;
    }
    if (this.current >= this.range[1]) this.verdict = 'H1';
    else if (this.current <= this.range[0]) this.verdict = 'H0';
  }

  /** The whole state (exact: counts and Welford's doubles), for a journal's checkpoint. */
  toJSON(): unknown {
    const m = this.differences;
    return { counts: this.counts, differences: [m.n, m.mean, m.m2], llr: this.current, decision: this.verdict };
  }

  /** The state `toJSON` wrote, in place of this one's; a RangeError when it is not a test's state. */
  restore(v: unknown): void {
    const s = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const c = s.counts as Record<string, unknown> | undefined;
    const d = s.differences;
    const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
    if (
      !c ||
      !num(c.wins) ||
      !num(c.draws) ||
      !num(c.losses) ||
      !Array.isArray(d) ||
      d.length !== 3 ||
      !d.every(num) ||
      !num(s.llr) ||
      !(s.decision === null || s.decision === 'H0' || s.decision === 'H1')
    )
      throw new RangeError('not an SPRT state');
    Object.assign(this.counts, { wins: c.wins, draws: c.draws, losses: c.losses });
    [this.differences.n, this.differences.mean, this.differences.m2] = d;
    this.current = s.llr;
    this.verdict = s.decision;
  }

  /** Groups counted (up to the decision). */
  get n(): number {
    return this.differences.n;
  }

  /** The log-likelihood ratio now (at the decision once there is one). */
  get llr(): number {
    return this.current;
  }

  get decision(): SprtDecision | null {
    return this.verdict;
  }

  /** [lower, upper]: LLR <= lower accepts H0, LLR >= upper accepts H1. */
  get bounds(): [number, number] {
    return [this.range[0], this.range[1]];
  }

  /**
   * One line for the progress display and the report, e.g.
   * `SPRT: H1 accepted (LLR 2.95 >= 2.94) after 1234 groups [elo0=0, elo1=5, alpha=0.05, beta=0.05]`
   * `SPRT: no decision yet (LLR 1.23, bounds -2.94 and 2.94) after 120 groups [...]`
   */
  describe(): string {
    const [lower, upper] = this.range;
    const llr = this.current.toFixed(2);
    const state =
      this.verdict === 'H1'
        ? `H1 accepted (LLR ${llr} >= ${upper.toFixed(2)})`
        : this.verdict === 'H0'
          ? `H0 accepted (LLR ${llr} <= ${lower.toFixed(2)})`
          : `no decision yet (LLR ${llr}, bounds ${lower.toFixed(2)} and ${upper.toFixed(2)})`;
    const groups = `${this.n} group${this.n === 1 ? '' : 's'}`;
    return `SPRT: ${state} after ${groups} [${specText(this.spec)}]`;
  }
}

/**
 * The test's input from one group: the first bot's value minus the second's on the
 * headline metric (per match with --matches), oriented so that positive is better;
 * null when one of them took no part in the group.
 */
export function groupDifference(game: Game, unit: Unit): (g: GroupTally) => number | null {
  const byMatch = unit === 'match';
  const metric = byMatch ? game.matchMetrics[0] : game.dealMetrics[0];
  const k = byMatch ? game.matchMetrics.length : game.dealMetrics.length;
  return (g) => {
    const sums = byMatch ? g.matchSums : g.dealSums;
    const counts = byMatch ? g.matchCounts : g.dealCounts;
    if (counts[0] === 0 || counts[1] === 0) return null;
    const d = sums[0] / counts[0] - sums[k] / counts[1];
    return metric.higherIsBetter ? d : -d;
  };
}

/** The spec as `--sprt` would take it. */
export function specText(spec: SprtSpec): string {
  const h = spec.kind === 'elo' ? `elo0=${spec.elo0}, elo1=${spec.elo1}` : `mean0=${spec.mean0}, mean1=${spec.mean1}`;
  return `${h}, alpha=${spec.alpha}, beta=${spec.beta}`;
}

const KEYS = ['elo0', 'elo1', 'mean0', 'mean1', 'alpha', 'beta'] as const;
type Key = (typeof KEYS)[number];

/**
 * Parse `--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05` or `--sprt mean0=0,mean1=2[,alpha=..][,beta=..]`.
 * Throws a TafelError ('bad-sprt') whose one-line message names the problem.
 */
export function parseSprt(text: string): SprtSpec {
  function fail(why: string): never {
    throw new TafelError('bad-sprt', `--sprt '${text}': ${why}`);
  }
  const values = new Map<Key, number>();
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') fail('empty item (expected e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)');
    const eq = item.indexOf('=');
    if (eq <= 0) fail(`'${item}' is not key=value`);
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    if (!isKey(key)) fail(`unknown key '${key}' (known: ${KEYS.join(', ')})`);
    if (values.has(key)) fail(`${key} given twice`);
    const value = raw === '' ? NaN : Number(raw);
    if (!Number.isFinite(value)) fail(`${key}='${raw}' is not a number`);
    values.set(key, value);
  }
  const elo = values.has('elo0') || values.has('elo1');
  const mean = values.has('mean0') || values.has('mean1');
  if (elo && mean) fail('mixes elo and mean keys: test either elo0,elo1 or mean0,mean1');
  if (!elo && !mean) fail('needs elo0 and elo1, or mean0 and mean1');
  const [k0, k1] = elo ? (['elo0', 'elo1'] as const) : (['mean0', 'mean1'] as const);
  const h0 = values.get(k0);
  const h1 = values.get(k1);
  if (h0 === undefined || h1 === undefined) fail(`needs both ${k0} and ${k1}`);
  if (!(h1 > h0)) fail(`${k1} (${h1}) must be greater than ${k0} (${h0})`);
  const alpha = values.get('alpha') ?? 0.05;
  const beta = values.get('beta') ?? 0.05;
  for (const [name, x] of [
    ['alpha', alpha],
    ['beta', beta],
  ] as const) {
    if (!(x > 0 && x < 0.5)) fail(`${name}=${x} must be between 0 and 0.5 (exclusive)`);
  }
  return elo ? { kind: 'elo', elo0: h0, elo1: h1, alpha, beta } : { kind: 'mean', mean0: h0, mean1: h1, alpha, beta };
}

function isKey(key: string): key is Key {
  return (KEYS as readonly string[]).includes(key);
}
