/**
 * SPSA, simultaneous perturbation stochastic approximation (Spall 1992), as the chess
 * engine testers OpenBench and fishtest run it to tune engine parameters by play.
 *
 * Each iteration k (from 1 to N) draws a random flip of ±1 per parameter and plays
 * theta+ = theta + c_k * flip against theta- = theta - c_k * flip; with `result` the
 * iteration's outcome for theta+ (positive when it did better), every parameter moves
 * by r_k * c_k * result * flip, clipped to its bounds. The gains decay over the tuning:
 *
 *   c_k = c * k^-gamma              c = c_end * N^gamma            (c_N = c_end)
 *   a_k = a * (A + k)^-alpha        a = r_end * c_end^2 * (A + N)^alpha
 *   r_k = a_k / c_k^2                                               (r_N = r_end)
 *
 * so each parameter is set by the step at the end, c_end, and the learning rate at
 * the end, r_end, both in its own units, as OpenBench and fishtest ask for them; alpha
 * 0.602 and gamma 0.101 are Spall's asymptotically best practical values and A, the
 * stability constant that tempers the first steps, is 10% of the iterations.
 *
 * theta is real for every parameter. An integer parameter's values to play are rounded
 * probabilistically (floor(x + u), u uniform in [0, 1), one u per parameter for both
 * sides, as OpenBench does), so a fractional step still moves play in expectation; its
 * c_end must be at least 0.5, so that theta+ and theta- never round to one value.
 *
 * Everything here is a pure function of the iteration, theta and the random stream
 * (flips and rounding drawn from (key, k)), so a tuning is a function of its seed and
 * of the results of its games.
 */
import { Rng, type SeedKey } from '../../core/rng.js';

export interface SpsaParam {
  readonly key: string;
  /** Played as whole numbers (theta itself stays real). */
  readonly integer: boolean;
  readonly min: number;
  readonly max: number;
  /** The perturbation at the last iteration, in the parameter's units. */
  readonly cEnd: number;
  /** The learning rate at the last iteration. */
  readonly rEnd: number;
}

export interface SpsaSchedule {
  /** N, the number of iterations. */
  readonly iterations: number;
  readonly alpha: number;
  readonly gamma: number;
  /** The stability constant A, in iterations. */
  readonly A: number;
}

/** What iteration k plays and how it will move theta, parameter by parameter. */
export interface SpsaStep {
  readonly k: number;
  readonly c: readonly number[];
  readonly r: readonly number[];
  readonly flips: readonly number[];
  /** The values theta+ and theta- play (rounded for integers, within the bounds). */
  readonly plus: readonly number[];
  readonly minus: readonly number[];
}

function clip(x: number, p: SpsaParam): number {
  return Math.min(p.max, Math.max(p.min, x));
}

/** c_k and r_k of one parameter at iteration k (1-based). */
export function gains(p: SpsaParam, s: SpsaSchedule, k: number): { c: number; r: number } {
  const c = p.cEnd * (s.iterations / k) ** s.gamma;
  const a = p.rEnd * p.cEnd ** 2 * ((s.A + s.iterations) / (s.A + k)) ** s.alpha;
  return { c, r: a / c ** 2 };
}

/** Iteration k's flips, values to play and gains, from theta and the stream (key, k). */
export function stepOf(
  params: readonly SpsaParam[],
  s: SpsaSchedule,
  theta: readonly number[],
  k: number,
  key: SeedKey,
): SpsaStep {
  const rng = new Rng(key, k);
  const flips = params.map(() => (rng.next() < 0 ? -1 : 1));
  const c: number[] = [];
  const r: number[] = [];
  const plus: number[] = [];
  const minus: number[] = [];
  params.forEach((p, i) => {
    const g = gains(p, s, k);
    c.push(g.c);
    r.push(g.r);
    const u = rng.uniform();
    const played = (x: number) => clip(p.integer ? Math.floor(x + u) : x, p);
    plus.push(played(theta[i] + g.c * flips[i]));
    minus.push(played(theta[i] - g.c * flips[i]));
  });
  return { k, c, r, flips, plus, minus };
}

/** theta after an iteration whose outcome for theta+ was `result`. */
export function updated(
  params: readonly SpsaParam[],
  theta: readonly number[],
  step: SpsaStep,
  result: number,
): number[] {
  return params.map((p, i) => clip(theta[i] + step.r[i] * step.c[i] * result * step.flips[i], p));
}

/**
 * An iteration's outcome for theta+ from its duplicate groups' paired differences d
 * (theta+ minus theta-, positive when theta+ did better): their sum over their root
 * mean square, sum(d) / sqrt(mean(d^2)), 0 when every d is 0. It has no unit, so one
 * r_end means the same in every game and metric, and it lies in [-P, P] for P groups
 * (Cauchy-Schwarz), like the wins minus losses of P game pairs in chess: one group
 * gives the sign of its difference, and groups that all differ by as much give wins
 * minus losses exactly. With many groups it is about P times the mean difference in
 * standard deviations: a step of theta by the evidence, not by the metric's scale.
 */
export function scaledResult(d: readonly number[]): number {
  let sum = 0;
  let squares = 0;
  for (const x of d) {
    sum += x;
    squares += x * x;
  }
  return squares === 0 ? 0 : sum / Math.sqrt(squares / d.length);
}

/**
 * theta as the tuned bot plays it: a whole number rounded to the nearest, a number to
 * a hundredth of its c_end's order of magnitude (finer than any step the tuning took),
 * within the bounds.
 */
export function finalValue(p: SpsaParam, theta: number): number {
  if (p.integer) return clip(Math.round(theta), p);
  const decimals = Math.min(12, Math.max(0, -Math.floor(Math.log10(p.cEnd / 100))));
  return clip(Number(theta.toFixed(decimals)), p);
}
