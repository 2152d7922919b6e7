/**
 * Elo for the report: a head-to-head Elo difference with its interval, and a rating
 * table for more than two bots fitted by maximum likelihood. Pure functions of counts.
 *
 * Outcomes are per duplicate group, as everywhere in tafel: a group is a win, draw or
 * loss for bot A against bot B by the sign of their paired difference of a metric
 * (`outcomeOf`). So this Elo is the logistic Elo of *winning a duplicate group*
 * (expected group score = 1 / (1 + 10^(-Elo/400))). It is not the Elo of one deal and
 * is not comparable across metrics or games.
 *
 * Counts are `{ wins, draws, losses }` objects, not positional arguments (fastchess's
 * `Stats(wins, losses, draws)` shows how easily the order is confused); a draw scores 1/2.
 */
import { Z95, normalCdf, normalQuantile, wilson } from './stats.js';

/** A paired difference this close to 0 is a draw: it only absorbs the rounding of group means. */
const DRAW_EPSILON = 1e-9;

/** The group score of A from A's paired difference against B: 1 win, 1/2 draw, 0 loss. */
export function outcomeOf(difference: number): 1 | 0.5 | 0 {
  return difference > DRAW_EPSILON ? 1 : difference < -DRAW_EPSILON ? 0 : 0.5;
}

export interface Wdl {
  wins: number;
  draws: number;
  losses: number;
}

/** Natural-log strength per Elo point: p = 1 / (1 + e^(-C·Elo)). */
const C = Math.LN10 / 400;

/** Logistic Elo of an expected score: 400·log10(s / (1 - s)) (fastchess `scoreToEloDiff`). ±Infinity at 1 and 0. */
export function eloFromScore(score: number): number {
  if (!(score >= 0 && score <= 1)) return NaN;
  return 400 * Math.log10(score / (1 - score));
}

/** Expected score of an Elo difference: 1 / (1 + 10^(-elo/400)) (fastchess `leloToScore`). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/** Mean score and per-outcome variance of trinomial counts: s = (W + D/2)/N, var = Σ p̂(a - s)². */
export function scoreAndVariance(c: Wdl): { n: number; score: number; variance: number } {
  const n = c.wins + c.draws + c.losses;
  if (n <= 0) return { n: 0, score: NaN, variance: NaN };
  const score = (c.wins + c.draws / 2) / n;
  const variance = (c.wins * (1 - score) ** 2 + c.draws * (0.5 - score) ** 2 + c.losses * score ** 2) / n;
  return { n, score, variance };
}

export interface EloEstimate {
  /** Groups. */
  n: number;
  /** A's mean group score. */
  score: number;
  elo: number;
  /** Bounds of the interval: the score interval's ends mapped to Elo (asymmetric). */
  low: number;
  high: number;
  /** Half the interval's width: fastchess's "±" (`EloWDL::error_`). */
  error: number;
  /**
   * Likelihood of superiority: P(true score > 1/2) under the normal approximation; NaN when
   * every group went alike (no spread: the approximation would claim certainty from any n).
   */
  los: number;
}

/**
 * Elo difference of A over B with an interval, trinomial model, exactly as fastchess's
 * `EloWDL`: score s = (W + D/2)/N, var = Σ p̂(a - s)² from the observed frequencies,
 * score interval s ± z·sqrt(var/N) mapped through `eloFromScore`; LOS = Φ((s - 1/2)/sqrt(var/N)).
 * A score interval reaching 0 or 1 maps to ±Infinity.
 */
export function headToHeadElo(c: Wdl, level = 0.95): EloEstimate {
  const { n, score, variance } = scoreAndVariance(c);
  if (n === 0) return { n, score, elo: NaN, low: NaN, high: NaN, error: NaN, los: NaN };
  const z = level === 0.95 ? Z95 : normalQuantile(0.5 + level / 2);
  const sd = Math.sqrt(variance / n);
  const low = eloFromScore(Math.max(0, score - z * sd));
  const high = eloFromScore(Math.min(1, score + z * sd));
  const los = sd > 0 ? normalCdf((score - 0.5) / sd) : NaN;
  return { n, score, elo: eloFromScore(score), low, high, error: (high - low) / 2, los };
}

/** `headToHeadElo`, with finite bounds wherever the data give them (`wilson` says where they came from). */
export interface BoundedElo extends EloEstimate {
  readonly wilson: boolean;
}

/**
 * Elo of A over B for reports: fastchess's estimate where its interval is finite. Where
 * it is not (every group won or lost, or a score interval reaching 0 or 1), the bounds
 * come from the Wilson interval of the group score (draws half), which stays inside
 * (0, 1) unless every group went one way: then only the bound on the other side is
 * finite and `elo` is infinite.
 */
export function headToHeadBound(c: Wdl, level = 0.95): BoundedElo {
  const h = headToHeadElo(c, level);
  if (h.n === 0 || (Number.isFinite(h.low) && Number.isFinite(h.high))) return { ...h, wilson: false };
  const w = wilson(c.wins + c.draws / 2, h.n, level);
  return { ...h, low: eloFromScore(w.low), high: eloFromScore(w.high), wilson: true };
}

/**
 * Wins and draws between every pair of bots, built from paired differences one group
 * at a time (the run loop calls `add` for each pair a < b of a group, then `endGroup`).
 *
 * The pairs of one group share its cards, so they are not independent: with three bots
 * the same deal decides a-b, a-c and b-c. Beside the counts it keeps the sums over groups
 * of every product of two pairs' scores, from which `fitRatings` takes a covariance that
 * treats the group, not the pairing, as the unit (`GroupMoments`).
 */
export class PairOutcomes {
  /** wins[i][j]: groups in which i beat j. */
  readonly wins: number[][];
  /** draws[i][j] = draws[j][i]. */
  readonly draws: number[][];
  /** Per group, the score of the pair's first bot; per pair of pairs, their sums over groups. */
  readonly groups: GroupMoments;
  private readonly current: Float64Array;

  constructor(readonly entrants: number) {
    this.wins = Array.from({ length: entrants }, () => new Array<number>(entrants).fill(0));
    this.draws = Array.from({ length: entrants }, () => new Array<number>(entrants).fill(0));
    this.groups = new GroupMoments(entrants);
    this.current = new Float64Array(this.groups.pairs.length).fill(NaN);
  }

  /** One pair of a group: `difference` is bot a's value minus bot b's (a < b), positive when a did better. */
  add(a: number, b: number, difference: number): void {
    const o = outcomeOf(difference);
    if (o === 1) this.wins[a][b]++;
    else if (o === 0) this.wins[b][a]++;
    else {
      this.draws[a][b]++;
      this.draws[b][a]++;
    }
    this.current[this.groups.pairIndex(a, b)] = o;
  }

  /** The group's pairs are all added. */
  endGroup(): void {
    this.groups.add(this.current);
    this.current.fill(NaN);
  }

  /** Counts of a against b. */
  wdl(a: number, b: number): Wdl {
    return { wins: this.wins[a][b], draws: this.draws[a][b], losses: this.wins[b][a] };
  }
}

/**
 * Sums over groups of the scores of every two pairs (i < j) that met in the same group:
 * for pairs p, q, the groups n, Σ o_p, Σ o_q and Σ o_p o_q over the groups that hold both
 * (o: 1, 1/2 or 0 for the pair's first bot). Enough for the cluster-robust covariance of
 * Bradley-Terry ratings, J = Σ_g U_g U_gᵀ with U_g the group's score-function vector.
 */
export class GroupMoments {
  /** The pairs i < j, in order. */
  readonly pairs: readonly (readonly [number, number])[];
  readonly n: Float64Array;
  readonly sumP: Float64Array;
  readonly sumQ: Float64Array;
  readonly sumPQ: Float64Array;

  constructor(readonly entrants: number) {
    const pairs: [number, number][] = [];
    for (let i = 0; i < entrants; i++) for (let j = i + 1; j < entrants; j++) pairs.push([i, j]);
    this.pairs = pairs;
    const P = pairs.length;
    this.n = new Float64Array(P * P);
    this.sumP = new Float64Array(P * P);
    this.sumQ = new Float64Array(P * P);
    this.sumPQ = new Float64Array(P * P);
  }

  pairIndex(i: number, j: number): number {
    // Pairs (i, j), i < j, in row order: those of rows 0..i-1, then j - i - 1 into row i.
    const E = this.entrants;
    return (i * (2 * E - i - 1)) / 2 + (j - i - 1);
  }

  /** One group's scores by pair (NaN: the pair did not meet in it). */
  add(scores: Float64Array): void {
    const P = this.pairs.length;
    for (let p = 0; p < P; p++) {
      const op = scores[p];
      if (Number.isNaN(op)) continue;
      for (let q = 0; q < P; q++) {
        const oq = scores[q];
        if (Number.isNaN(oq)) continue;
        const at = p * P + q;
        this.n[at]++;
        this.sumP[at] += op;
        this.sumQ[at] += oq;
        this.sumPQ[at] += op * oq;
      }
    }
  }
}

interface BotRating {
  /** Elo relative to the mean of all bots (the ratings sum to 0). */
  elo: number;
  /** Standard error of `elo` (relative to the field's mean). */
  se: number;
  low: number;
  high: number;
  /** Groups played against anyone, and the mean group score over them. */
  games: number;
  score: number;
}

export interface RatingOptions {
  /** Interval level (default 0.95). */
  level?: number;
  /**
   * `robust` (default): sandwich covariance H⁺ J H⁺, J the observed variance of the score
   * function (the residuals Σ(x - p)² per pair). It sees that a draw varies less than a
   * win or a loss, so for two bots it equals the trinomial variance of `headToHeadElo`.
   * `observed`: H⁺, the inverse observed Fisher information of the half-point binomial
   * likelihood. Without draws J estimates H and the two agree (exactly for two bots); with
   * draws `observed` is larger, i.e. conservative.
   */
  covariance?: 'robust' | 'observed';
  /**
   * BayesElo's prior: this many virtual draws are added to every pair that met (BayesElo
   * `prior`, default 2 there; 0 here). Keeps ratings finite when a bot won or lost every
   * group, at the price of a pull towards 0.
   */
  virtualDraws?: number;
  /**
   * The groups' moments (`PairOutcomes.groups`): with them the robust covariance sums the
   * score function over each group before squaring, so pairs that shared a group's cards
   * are not counted as independent (cluster-robust sandwich; without them, every pairing
   * is its own unit). Ignored with `covariance: 'observed'`.
   */
  groups?: GroupMoments;
}

export interface RatingTable {
  /** False when the likelihood has no finite maximum (see `reason`); ratings are NaN then. */
  exists: boolean;
  reason: string;
  ratings: BotRating[];
  /** Covariance of the Elo ratings (Elo²), under the sum-to-zero anchoring. */
  covariance: number[][];
  /** Newton iterations used. */
  iterations: number;
}

/**
 * Bradley-Terry ratings on the logistic Elo scale, fitted by maximum likelihood.
 *
 * Model (Bradley & Terry 1952; Hunter 2004, "MM algorithms for generalized Bradley-Terry
 * models", Ann. Statist. 32): P(i beats j) = 1 / (1 + e^-(θi - θj)), Elo = θ/C with
 * C = ln10/400. A draw counts as half a win for each side (as fastchess, Ordo and the
 * head-to-head score do), so the log-likelihood is
 *   ℓ(θ) = Σ_{i<j} s_ij ln p_ij + (n_ij - s_ij) ln(1 - p_ij),  s_ij = w_ij + d_ij/2.
 * Anchoring: Σθ = 0 (ratings relative to the field's mean; then no bot is privileged).
 *
 * Fit: Newton's method on the concave ℓ with the anchoring built in (step (H + 11ᵀ/k)⁻¹ g,
 * backtracking if ℓ does not rise). Gradient g_i = Σ_j (s_ij - n_ij p_ij); Hessian
 * H = Laplacian with weights n_ij p_ij (1 - p_ij) (observed = expected information: the
 * logit link is canonical). Hunter's MM iteration γ_i ← S_i / Σ_j n_ij/(γ_i + γ_j) reaches
 * the same maximum (the test checks it) but only linearly.
 *
 * Existence (Hunter 2004, Assumption 1, after Ford 1957): a finite maximum exists iff the
 * digraph "i scored against j" (w_ij + d_ij > 0) is strongly connected; otherwise some
 * set of bots beat everyone outside it and its ratings run off to infinity.
 *
 * Covariance: for sum-to-zero anchoring the covariance is the pseudo-inverse
 * H⁺ = (H + 11ᵀ/k)⁻¹ - 11ᵀ/k of the (Laplacian) information, or the sandwich H⁺ J H⁺ with
 * J the Laplacian of the observed squared residuals Σ (x - p_ij)² per pair (see
 * `RatingOptions.covariance`). Intervals are elo ± z·se.
 */
export function fitRatings(
  wins: readonly (readonly number[])[],
  draws?: readonly (readonly number[])[],
  options: RatingOptions = {},
): RatingTable {
  const k = wins.length;
  const level = options.level ?? 0.95;
  const prior = options.virtualDraws ?? 0;
  checkCounts(wins, draws, prior);
  if (k === 0) return { exists: true, reason: '', ratings: [], covariance: [], iterations: 0 };
  const d = (i: number, j: number) => (draws ? draws[i][j] : 0);

  // Per pair i != j: games n, i's score s, and the counts with the prior folded in.
  const n = square(k);
  const s = square(k);
  const games = new Array<number>(k).fill(0);
  const points = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      const real = wins[i][j] + wins[j][i] + d(i, j);
      const extra = real > 0 ? prior : 0;
      n[i][j] = real + extra;
      s[i][j] = wins[i][j] + (d(i, j) + extra) / 2;
      games[i] += real;
      points[i] += wins[i][j] + d(i, j) / 2;
    }
  }

  const reason = k < 2 ? '' : existenceProblem(s);
  if (reason) {
    const nan = (i: number): BotRating => ({
      elo: NaN,
      se: NaN,
      low: NaN,
      high: NaN,
      games: games[i],
      score: points[i] / games[i],
    });
    return { exists: false, reason, ratings: wins.map((_, i) => nan(i)), covariance: square(k, NaN), iterations: 0 };
  }

  const theta = new Array<number>(k).fill(0);
  let iterations = 0;
  if (k >= 2) {
    let ll = logLikelihood(theta, n, s);
    while (iterations < 200) {
      iterations++;
      const { g, H } = derivatives(theta, n, s);
      const step = multiply(invert(anchored(H)), g);
      let t = 1;
      let next = theta.map((x, i) => x + step[i]);
      let nextLl = logLikelihood(next, n, s);
      while (!(nextLl >= ll - 1e-12 * (1 + Math.abs(ll))) && t > 1e-12) {
        t /= 2;
        next = theta.map((x, i) => x + t * step[i]);
        nextLl = logLikelihood(next, n, s);
      }
      const mean = next.reduce((a, b) => a + b, 0) / k;
      let moved = 0;
      for (let i = 0; i < k; i++) {
        moved = Math.max(moved, Math.abs(next[i] - mean - theta[i]));
        theta[i] = next[i] - mean;
      }
      ll = nextLl;
      if (moved < 1e-13) break;
    }
  }

  const { H } = derivatives(theta, n, s);
  const Hplus = invert(anchored(H)).map((row) => row.map((x) => x - 1 / k));
  let cov = Hplus;
  if ((options.covariance ?? 'robust') === 'robust') {
    const J = options.groups ? clusterScoreVariance(options.groups, theta) : square(k);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j || n[i][j] === 0) continue;
        const p = 1 / (1 + Math.exp(theta[j] - theta[i]));
        // Σ (x - p)² over i's groups against j: wins at 1, draws (virtual ones too) at 1/2, losses at 0;
        // with the groups' moments, only the virtual draws (each its own unit).
        const drew = options.groups ? (n[i][j] > 0 && prior > 0 ? prior : 0) : n[i][j] - wins[i][j] - wins[j][i];
        const r = options.groups
          ? drew * (0.5 - p) ** 2
          : wins[i][j] * (1 - p) ** 2 + drew * (0.5 - p) ** 2 + wins[j][i] * p * p;
        J[i][j] -= r;
        J[i][i] += r;
      }
    }
    cov = multiplyMatrices(multiplyMatrices(Hplus, J), Hplus);
  }
  const elo2 = 1 / (C * C);
  const covariance = cov.map((row) => row.map((x) => x * elo2));
  const z = level === 0.95 ? Z95 : normalQuantile(0.5 + level / 2);
  const ratings = theta.map((t, i): BotRating => {
    const elo = t / C;
    const se = Math.sqrt(Math.max(0, covariance[i][i]));
    return {
      elo,
      se,
      low: elo - z * se,
      high: elo + z * se,
      games: games[i],
      score: games[i] ? points[i] / games[i] : NaN,
    };
  });
  return { exists: true, reason: '', ratings, covariance, iterations };
}

/**
 * J = Σ_g U_g U_gᵀ over the groups, U_g,i = Σ_j (o_ij - p_ij) the score function of the
 * group's pairings for bot i: U_g = A r_g with r_g,p = o_p - π_p per pair p = (a, b) and
 * A's column p +1 at a, -1 at b. So J = A R Aᵀ, R_pq = Σ_g (o_p - π_p)(o_q - π_q) over
 * the groups holding both, from the moments: Σ o_p o_q - π_q Σ o_p - π_p Σ o_q + n π_p π_q.
 */
function clusterScoreVariance(m: GroupMoments, theta: readonly number[]): number[][] {
  const k = theta.length;
  const P = m.pairs.length;
  const pi = m.pairs.map(([a, b]) => 1 / (1 + Math.exp(theta[b] - theta[a])));
  const J = square(k);
  for (let p = 0; p < P; p++) {
    for (let q = 0; q < P; q++) {
      const at = p * P + q;
      if (m.n[at] === 0) continue;
      const r = m.sumPQ[at] - pi[q] * m.sumP[at] - pi[p] * m.sumQ[at] + m.n[at] * pi[p] * pi[q];
      const [a, b] = m.pairs[p];
      const [c, d] = m.pairs[q];
      J[a][c] += r;
      J[a][d] -= r;
      J[b][c] -= r;
      J[b][d] += r;
    }
  }
  return J;
}

/** Elo of bot i over bot j from a rating table, with the interval from the covariance. */
export function ratingDifference(
  t: RatingTable,
  i: number,
  j: number,
  level = 0.95,
): { elo: number; se: number; low: number; high: number } {
  const elo = t.ratings[i].elo - t.ratings[j].elo;
  const c = t.covariance;
  const se = Math.sqrt(Math.max(0, c[i][i] + c[j][j] - 2 * c[i][j]));
  const z = level === 0.95 ? Z95 : normalQuantile(0.5 + level / 2);
  return { elo, se, low: elo - z * se, high: elo + z * se };
}

function checkCounts(
  wins: readonly (readonly number[])[],
  draws: readonly (readonly number[])[] | undefined,
  prior: number,
): void {
  const k = wins.length;
  const ok = (x: number) => Number.isFinite(x) && x >= 0;
  if (!ok(prior)) throw new RangeError(`fitRatings: virtualDraws=${prior} must be a finite number >= 0`);
  for (let i = 0; i < k; i++) {
    if (wins[i].length !== k || (draws && (draws.length !== k || draws[i].length !== k))) {
      throw new RangeError('fitRatings: wins and draws must be square matrices of the same size');
    }
    for (let j = 0; j < k; j++) {
      if (!ok(wins[i][j]) || (draws && !ok(draws[i][j]))) throw new RangeError(`fitRatings: bad count at [${i}][${j}]`);
      if (draws && draws[i][j] !== draws[j][i])
        throw new RangeError(`fitRatings: draws[${i}][${j}] != draws[${j}][${i}]`);
    }
  }
}

/** '' if the "scored against" digraph is strongly connected, else why the MLE does not exist. */
function existenceProblem(s: number[][]): string {
  const k = s.length;
  const reach = (forward: boolean): boolean[] => {
    const seen = new Array<boolean>(k).fill(false);
    const stack = [0];
    seen[0] = true;
    while (stack.length) {
      const i = stack.pop()!;
      for (let j = 0; j < k; j++) {
        if (!seen[j] && (forward ? s[i][j] : s[j][i]) > 0) {
          seen[j] = true;
          stack.push(j);
        }
      }
    }
    return seen;
  };
  const from = reach(true);
  const to = reach(false);
  const lost = from.findIndex((x) => !x);
  const won = to.findIndex((x) => !x);
  if (lost < 0 && won < 0) return '';
  return (
    `no finite ratings: bot ${lost >= 0 ? lost : won} is not linked to bot 0 both ways by wins or draws ` +
    '(some bots won, or lost, every group against the others; try virtualDraws)'
  );
}

function logLikelihood(theta: number[], n: number[][], s: number[][]): number {
  let ll = 0;
  for (let i = 0; i < theta.length; i++) {
    for (let j = i + 1; j < theta.length; j++) {
      if (n[i][j] === 0) continue;
      const x = theta[i] - theta[j];
      // ln p = -log1p(e^-x), ln(1 - p) = -log1p(e^x), computed without overflow.
      ll -= s[i][j] * softplus(-x) + (n[i][j] - s[i][j]) * softplus(x);
    }
  }
  return ll;
}

function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

function derivatives(theta: number[], n: number[][], s: number[][]): { g: number[]; H: number[][] } {
  const k = theta.length;
  const g = new Array<number>(k).fill(0);
  const H = square(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j || n[i][j] === 0) continue;
      const p = 1 / (1 + Math.exp(theta[j] - theta[i]));
      g[i] += s[i][j] - n[i][j] * p;
      const w = n[i][j] * p * (1 - p);
      H[i][i] += w;
      H[i][j] -= w;
    }
  }
  return { g, H };
}

/** H + 11ᵀ/k: invertible for a connected Laplacian, its inverse is H⁺ + 11ᵀ/k. */
function anchored(H: number[][]): number[][] {
  const k = H.length;
  return H.map((row) => row.map((x) => x + 1 / k));
}

function square(k: number, value = 0): number[][] {
  return Array.from({ length: k }, () => new Array<number>(k).fill(value));
}

/** Gauss-Jordan inverse with partial pivoting (k is the number of bots: tiny). */
function invert(A: number[][]): number[][] {
  const k = A.length;
  const M = A.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const pivot = M[c][c];
    if (pivot === 0) throw new RangeError('fitRatings: singular information matrix');
    for (let j = 0; j < 2 * k; j++) M[c][j] /= pivot;
    for (let r = 0; r < k; r++) {
      if (r === c || M[r][c] === 0) continue;
      const f = M[r][c];
      for (let j = 0; j < 2 * k; j++) M[r][j] -= f * M[c][j];
    }
  }
  return M.map((row) => row.slice(k));
}

function multiply(A: number[][], v: number[]): number[] {
  return A.map((row) => row.reduce((acc, x, j) => acc + x * v[j], 0));
}

function multiplyMatrices(A: number[][], B: number[][]): number[][] {
  return A.map((row) => B[0].map((_, j) => row.reduce((acc, x, m) => acc + x * B[m][j], 0)));
}
