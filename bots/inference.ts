/**
 * Inference from the others' play: how likely is a sampled world, given what the other
 * seats did in it?
 *
 * A determinizing bot draws worlds uniformly among those consistent with what its seat
 * saw (known cards, revealed voids). But the others' moves say more than their voids: a
 * player who led a low trump probably has no high one to spare. `PolicyInference` models
 * the other seats by a `PolicyModel` (policy.ts: the game's heuristic) and, as the
 * sampler replays a world's history (`HistoryWatcher`), asks the model at each of their
 * past decisions what it would have done with the world's hands: each move the model
 * would not have made multiplies the world's weight by `deviate` (so 1 is no inference
 * and near 0 keeps only worlds where the model explains every move). Forced moves and the
 * observer's own moves say nothing and are skipped.
 *
 * A single deterministic policy is a crude likelihood (real players deviate for reasons
 * of their own, hence a `deviate` well above 0), but it is cheap, one model call per
 * past decision of the others, and it sees what voids do not: who kept which high cards,
 * and who declared in (Vier-Anderle) on what.
 */
import type { HistoryWatcher, State } from '../src/games/game.js';
import { newSets } from '../src/core/cardset.js';
import type { PolicyModel } from './policy.js';

export class PolicyInference implements HistoryWatcher {
  /** The log of the weight of the world being replayed (0 until a move is unexplained). */
  logWeight = 0;
  /** The seat whose worlds are weighed: its own moves are not evidence. */
  observer = -1;

  private readonly model: PolicyModel;
  private readonly legal = newSets(1);
  private readonly logDeviate: number;

  constructor(model: PolicyModel, deviate: number) {
    this.model = model;
    this.logDeviate = Math.log(deviate);
  }

  before(state: State, ply: number, move: number): void {
    if (ply === 0) this.logWeight = 0;
    if (state.toMove === this.observer) return;
    const n = state.legal(this.legal, 0);
    if (n > 1 && this.model.move(state, this.legal, n) !== move) this.logWeight += this.logDeviate;
  }
}

/**
 * Systematic resampling: `n` draws among `weight[0 .. total)` (not all 0), in proportion
 * to the weights, with `u` uniform in [0, 1): item k is drawn `out[k]` times, the floor or
 * the ceiling of its expected `n * weight[k] / sum`, never when its weight is 0. (Low
 * variance, and one random number per decision.) Returns how many items were drawn at all.
 */
export function resample(weight: Float64Array, total: number, n: number, u: number, out: Int32Array): number {
  let sum = 0;
  for (let k = 0; k < total; k++) sum += weight[k];
  out.fill(0, 0, total);
  const step = sum / n;
  let k = 0;
  let acc = weight[0];
  let distinct = 0;
  for (let j = 0; j < n; j++) {
    const point = (u + j) * step;
    // Past rounding at the very end, the last item of positive weight takes the draw.
    while (point >= acc && k < total - 1) acc += weight[++k];
    while (weight[k] === 0) k--;
    if (out[k]++ === 0) distinct++;
  }
  return distinct;
}
