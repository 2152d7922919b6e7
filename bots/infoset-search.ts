/**
 * The seat's own next decisions searched once per information set across sampled
 * worlds, the other seats played by a model: the postponed evaluation of EPIMC
 * (Arjonilla, Saffidine and Cazenave 2024) for pimc's heuristic model.
 *
 * Plain PIMC values a move in each world as if the seat would know that world's hands
 * for the rest of the deal; any later decision it searches there is made with that
 * knowledge (strategy fusion). EPIMC postpones the perfect-information evaluation to a
 * depth d and solves the levels above it as the imperfect-information game they are.
 * Here the others' moves come from the model (policy.ts: the game's heuristic, on each
 * seat's own observation of the world), so the levels above the evaluation branch only
 * at the seat's decisions, and solving them is a maximum over the seat's information
 * sets:
 *
 * - the worlds are advanced together: after the seat's move, each world plays on with
 *   the model until the seat's next decision with a choice (or the end);
 * - worlds in which the seat has then seen the same moves (its observation: cards played
 *   and answers given, a face-down card as it saw it) are one information set, and the
 *   seat must make one choice for all of them: the move with the best sum of values
 *   over them, each world weighed by how often it was drawn;
 * - `levels` decisions deep (the root counts as the first), each world is valued by the
 *   evaluation pimc applies at the root (`leafDepth` own decisions searched in that world
 *   with its hands known, then the model to the end: PolicySearch; with 1, the model
 *   plays the seat too and nothing is fused).
 *
 * With `levels` = 1 this is pimc's heuristic model itself. Deepening, as everywhere in
 * bots/: levels 1, 2, ... within `share` nodes (a node is a move made, the model's, the
 * seat's or an evaluation's), a level begun only if what is left is at least `GROWTH`
 * times the last level's cost; the values of the deepest level kept. A level in which no
 * world was cut short is exact under the model and ends the deepening.
 *
 * Allocation-free per decision: every world of every level has a preallocated state.
 */
import { CODE_LIMIT, newSets, setCodesInto, setFirst } from '../src/core/cardset.js';
import type { Game, Observation, State, TableConfig } from '../src/games/game.js';
import type { PolicyModel } from './policy.js';
import type { PolicySearch } from './policy-search.js';

/** Start a deeper level only if the allowance left is at least this many times the last level's cost. */
const GROWTH = 3;

export class InfoSetSearch {
  /** Nodes (moves made) since construction; callers take differences. */
  used = 0;

  private readonly model: PolicyModel;
  private readonly leafSearch: PolicySearch;
  /** states[level][world]: the world at the seat's decision of that level. */
  private readonly states: State[][];
  /** order[level]: world indices, the members of each information set contiguous. */
  private readonly order: Int32Array[];
  /** Per world, at the level being grouped: two 32-bit hashes of the moves seen since the parent decision. */
  private readonly hashA: Int32Array;
  private readonly hashB: Int32Array;
  private readonly scratch: Int32Array;
  /** A legal-move set per level (the model's bots take a set at offset 0), and one for evaluations. */
  private readonly legal: Int32Array[];
  private readonly leafLegal = newSets(1);
  /** The seat's moves at each level (CODE_LIMIT per level). */
  private readonly moves: Int32Array;
  private readonly leafValues = new Float64Array(CODE_LIMIT);
  private readonly leafMoves = new Int32Array(CODE_LIMIT);
  private readonly playout: State;
  private readonly ret: Float64Array;
  private weights: Float64Array = new Float64Array(0);
  private seat = 0;
  private leafDepth = 1;
  private leafShare = 0;
  /** Whether a world was cut short at the current level's depth (its evaluation ran). */
  private cut = false;

  constructor(
    game: Game,
    table: TableConfig,
    model: PolicyModel,
    leafSearch: PolicySearch,
    readonly maxWorlds: number,
    readonly maxLevels: number,
  ) {
    this.model = model;
    this.leafSearch = leafSearch;
    this.states = Array.from({ length: maxLevels + 1 }, () =>
      Array.from({ length: maxWorlds }, () => game.newState(table)),
    );
    this.order = Array.from({ length: maxLevels + 1 }, () => new Int32Array(maxWorlds));
    this.hashA = new Int32Array(maxWorlds);
    this.hashB = new Int32Array(maxWorlds);
    this.scratch = new Int32Array(maxWorlds);
    this.legal = Array.from({ length: maxLevels + 1 }, () => newSets(1));
    this.moves = new Int32Array((maxLevels + 1) * CODE_LIMIT);
    this.playout = game.newState(table);
    this.ret = new Float64Array(table.seats);
  }

  /**
   * The value of each of `seat`'s `n` moves `moves[0 .. n)` at its decision in the
   * `count` worlds `worlds[0 .. count)` (one information set of the seat's), written to
   * `out[move]`: the weighted mean over the worlds (world k weighs `weight[k]`) of the
   * seat's `returns()` when it makes its next decisions, up to `levels` in all, once per
   * information set, and the evaluation values each world beyond. Within about `share`
   * nodes (level 1 always runs). Returns the depth reached in levels (Infinity: exact
   * under the model).
   */
  values(
    worlds: readonly State[],
    weight: Float64Array,
    count: number,
    seat: number,
    moves: Int32Array,
    n: number,
    levels: number,
    leafDepth: number,
    share: number,
    out: Float64Array,
  ): number {
    if (count > this.maxWorlds) throw new Error(`InfoSetSearch: ${count} worlds, room for ${this.maxWorlds}`);
    this.seat = seat;
    this.weights = weight;
    this.leafDepth = leafDepth;
    let total = 0;
    for (let w = 0; w < count; w++) {
      this.states[0][w].copyFrom(worlds[w]);
      this.order[0][w] = w;
      total += weight[w];
    }
    for (let i = 0; i < n; i++) this.moves[i] = moves[i];
    const start = this.used;
    const top = Math.min(levels, this.maxLevels);
    let depth = 1;
    for (let k = 1; k <= top; k++) {
      const before = this.used;
      // Each evaluation (with leafDepth > 1) may deepen within an equal part of what is
      // left, counting n lines a decision: count * n^k evaluations at this level.
      this.leafShare = Math.max(1, (share - (before - start)) / (count * n ** k));
      this.cut = false;
      for (let i = 0; i < n; i++) out[moves[i]] = this.moveTotal(0, 0, count, i, k) / total;
      if (!this.cut) return Infinity;
      depth = k;
      const last = this.used - before;
      if (share - (this.used - start) < GROWTH * last) break;
    }
    return depth;
  }

  /**
   * The weighted sum over the members `order[level][from .. to)` of their values when
   * the seat plays its `i`-th move of this level (in `moves`) and then decides `k - 1`
   * more levels once per information set.
   */
  private moveTotal(level: number, from: number, to: number, i: number, k: number): number {
    const seat = this.seat;
    const move = this.moves[level * CODE_LIMIT + i];
    const here = this.order[level];
    const next = this.order[level + 1];
    const parents = this.states[level];
    const children = this.states[level + 1];
    const plies = parents[here[from]].observe(seat).plies;
    for (let j = from; j < to; j++) {
      const w = here[j];
      const c = children[w];
      c.copyFrom(parents[w]);
      c.apply(move);
      this.used++;
      this.advance(c, level + 1);
      this.hash(c, w, plies);
      next[j] = w;
    }
    this.sortByHash(next, from, to);
    let sum = 0;
    for (let g = from; g < to;) {
      let end = g + 1;
      while (end < to && this.hashA[next[end]] === this.hashA[next[g]] && this.hashB[next[end]] === this.hashB[next[g]])
        end++;
      sum += this.groupValue(level + 1, g, end, k - 1);
      g = end;
    }
    return sum;
  }

  /** The weighted sum of the values of the information set `order[level][from .. to)`, `k` levels left. */
  private groupValue(level: number, from: number, to: number, k: number): number {
    const members = this.order[level];
    const states = this.states[level];
    const first = states[members[from]];
    let sum = 0;
    if (first.isTerminal()) {
      for (let j = from; j < to; j++) {
        const w = members[j];
        states[w].returns(this.ret);
        sum += this.weights[w] * this.ret[this.seat];
      }
      return sum;
    }
    if (k === 0) {
      this.cut = true;
      for (let j = from; j < to; j++) sum += this.weights[members[j]] * this.evaluate(states[members[j]]);
      return sum;
    }
    // The seat decides here, once for every member.
    const legal = this.legal[level];
    first.legal(legal, 0);
    const n = setCodesInto(legal, 0, this.moves, level * CODE_LIMIT);
    let best = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = this.moveTotal(level, from, to, i, k);
      if (v > best) best = v;
    }
    return best;
  }

  /** Play `s` on with the model (and the seat's forced moves) to the seat's next choice or the end. */
  private advance(s: State, level: number): void {
    const legal = this.legal[level];
    while (!s.isTerminal()) {
      const n = s.legal(legal, 0);
      if (n > 1 && s.toMove === this.seat) return;
      s.apply(n === 1 ? setFirst(legal, 0) : this.model.move(s, legal, n));
      this.used++;
    }
  }

  /** Hash the moves the seat has seen in `s` since ply `from` into world `w`'s two hashes. */
  private hash(s: State, w: number, from: number): void {
    hashSeen(s.observe(this.seat), from, s.isTerminal() ? 0x2545f491 : 0x9e3779b9, this.hashA, this.hashB, w);
  }

  /** Sort `idx[from .. to)` by the worlds' hashes (bottom-up merge sort through `scratch`). */
  private sortByHash(idx: Int32Array, from: number, to: number): void {
    const tmp = this.scratch;
    const A = this.hashA;
    const B = this.hashB;
    for (let width = 1; width < to - from; width *= 2) {
      for (let lo = from; lo < to; lo += 2 * width) {
        const mid = Math.min(lo + width, to);
        const hi = Math.min(lo + 2 * width, to);
        let i = lo;
        let j = mid;
        let o = lo;
        while (i < mid && j < hi) {
          const x = idx[i];
          const y = idx[j];
          const le = A[x] < A[y] || (A[x] === A[y] && B[x] <= B[y]);
          tmp[o++] = le ? idx[i++] : idx[j++];
        }
        while (i < mid) tmp[o++] = idx[i++];
        while (j < hi) tmp[o++] = idx[j++];
      }
      for (let p = from; p < to; p++) idx[p] = tmp[p];
    }
  }

  /** A world's value at the seat's decision below the last level: pimc's evaluation of it. */
  private evaluate(s: State): number {
    if (this.leafDepth <= 1) {
      const p = this.playout;
      p.copyFrom(s);
      const legal = this.leafLegal;
      while (!p.isTerminal()) {
        const n = p.legal(legal, 0);
        p.apply(n === 1 ? setFirst(legal, 0) : this.model.move(p, legal, n));
        this.used++;
      }
      p.returns(this.ret);
      return this.ret[this.seat];
    }
    s.legal(this.leafLegal, 0);
    const n = setCodesInto(this.leafLegal, 0, this.leafMoves);
    const before = this.leafSearch.used;
    this.leafSearch.values(s, this.seat, this.leafMoves, n, this.leafShare, this.leafValues, this.leafDepth - 1);
    this.used += this.leafSearch.used - before;
    let best = -Infinity;
    for (let i = 0; i < n; i++)
      if (this.leafValues[this.leafMoves[i]] > best) best = this.leafValues[this.leafMoves[i]];
    return best;
  }
}

/**
 * Two 32-bit hashes of the moves `obs` shows from ply `from` on (who moved, and the card
 * as the seat saw it), into `a[at]` and `b[at]`; `seed` starts the second. Worlds whose
 * hashes agree are, for the seat, the same information set (both hashes must collide
 * for two sets to be taken as one).
 */
export function hashSeen(obs: Observation, from: number, seed: number, a: Int32Array, b: Int32Array, at: number): void {
  let x = 0x811c9dc5 | 0;
  let y = seed | 0;
  for (let p = from; p < obs.plies; p++) {
    const m = (obs.moveSeat(p) << 8) | (obs.move(p) & 0xff);
    x = Math.imul(x ^ m, 0x01000193);
    y = Math.imul((y ^ m) + p, 0x85ebca6b) ^ (y >>> 15);
  }
  a[at] = x;
  b[at] = y;
}
