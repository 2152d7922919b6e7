/**
 * alpha-mu (Cazenave and Ventos, "The alpha-mu Search Algorithm for the Game of
 * Bridge", 2019) for pimc's solver models: the seat's next M card decisions searched
 * once for all the sampled worlds it cannot tell apart, the other seats playing each
 * world as if they knew it, and every world evaluated on its own only after those M
 * decisions (`pimc:alphamu=M`).
 *
 * Plain PIMC (M = 1) values a move in each world as if the seat would know that world's
 * hands for the rest of the deal (strategy fusion). alpha-mu keeps one strategy for all
 * the worlds: a node of its tree is a set of worlds in which the seat has seen the same
 * moves, and the value of a strategy is a vector, its outcome in each world. A node's
 * value is the Pareto front of the vectors its strategies can reach:
 *
 * - at the seat's own decision, the union of its moves' fronts (one move for every
 *   world of the node: no fusion);
 * - at another seat's decision, that seat is taken to know the world (the paper's
 *   defenders): in each world it plays what is worst for the seat (an opponent) or best
 *   for it (a partner), given the seat's strategy. A move the seat sees splits the worlds
 *   into children whose fronts combine as a product (every choice of one vector per
 *   child, combined world by world); a move it does not see (Viersche's face-down lead,
 *   V-4) keeps the worlds in one child, each world once per card it could play there,
 *   and the worst (best) of its copies is the world's value. When a hidden card is
 *   revealed, the worlds of a node that then differ in what the seat saw are separate
 *   decisions of the seat (a product over disjoint worlds);
 * - at the seat's M-th decision, each world is valued for each move by pimc's own
 *   evaluation (PerfectPlay.aimValues: the exact solver or its horizon search, by the
 *   deal's outlook where the game gives one); at the end of the deal, by its result.
 *   Yes/no questions inside the tree are answered no, as the solver answers them.
 *
 * Outcomes are points, not Bridge's made/down: a vector holds the seat's value in each
 * world (the scale of pimc's values), one vector dominates another when it is at least
 * as good in every world, and the root plays the move whose front holds the vector of
 * the best mean (worlds weighed as pimc weighs them). A front keeps at most
 * `FRONT_MAX` vectors, those of the best means: a bound on the cost that makes the
 * search keep the strategies that are best on average.
 *
 * The cuts (the paper's "mu"): a node whose every world has nothing left to change
 * (the end of the deal, no measure in play in a game valued by the measure) is valued
 * at once; below the root, an opponent's node whose front, as it shrinks with each move
 * tried, holds nothing better on average than the best move found so far is abandoned,
 * and below another decision of the seat, one whose every vector is dominated by the
 * front already found there.
 *
 * Budget: the tree is walked first without evaluations, to count its leaves (a world at
 * the seat's M-th decision); if that count times `LEAF_MIN` nodes does not fit in the
 * decision's budget, M is lowered (down to 1, which is pimc). Each leaf then gets what
 * is left of the budget over the leaves left. The walks' moves count as nodes.
 */
import { CODE_LIMIT, LANES, newSets, setCodesInto, setFirst, setHas } from '../src/core/cardset.js';
import { Decision, NO, type Game, type State, type TableConfig } from '../src/games/game.js';
import { hashSeen } from './infoset-search.js';
import type { PerfectPlay } from './perfect-play.js';

/** The most vectors a front keeps (those of the best means). */
const FRONT_MAX = 8;
/** The least nodes a leaf evaluation should get: the tree's leaves times this must fit in the budget. */
const LEAF_MIN = 250;

/** How a node combines its children, world by world. */
const enum Op {
  /** Disjoint worlds: each world's value comes from the one child that holds it. */
  Join,
  /** An opponent of the seat, who knows the world. */
  Min,
  /** The seat's partner, who knows the world. */
  Max,
}

export class AlphaMu {
  private readonly game: Game;
  private readonly table: TableConfig;
  private readonly play: PerfectPlay;
  private readonly teams: readonly number[] | null;
  private readonly sign: number;
  private readonly aims: boolean;
  /** Per level of the tree: the worlds' states (slots), each slot's parent slot and weight, the nodes' member order. */
  private readonly st: State[][] = [];
  private up: Int32Array[] = [];
  private wt: Float64Array[] = [];
  private ord: Int32Array[] = [];
  /** Per level: each slot's position in the node being searched at that level, and its key (a move as the seat saw it; an observation hash). */
  private pos: Int32Array[] = [];
  private key: Int32Array[] = [];
  private keyB: Int32Array[] = [];
  /** A seat's node: the two hashes of what the seat saw in each of its worlds. */
  private hashA = new Int32Array(64);
  private hashB = new Int32Array(64);
  /** The fronts: vectors stacked in one arena. */
  private arena = new Float64Array(1 << 16);
  private top = 0;
  private readonly legal = newSets(1);
  /** An opponent's node: each world's legal moves, and their union. */
  private lanes = new Int32Array(64 * LANES);
  private readonly union = newSets(1);
  private readonly moves = new Int32Array(CODE_LIMIT * 64);
  private readonly values = new Float64Array(CODE_LIMIT);
  private readonly ret: Float64Array;
  /** Scratch for Pareto reduction: the candidates' sums and order, the kept ones. */
  private sums = new Float64Array(256);
  private idx = new Int32Array(256);
  private seat = 0;
  private rootPlies = 0;
  /** Counting the leaves (no evaluation, no cuts), how many, the most allowed; evaluating, the leaves left. */
  private counting = false;
  private leaves = 0;
  private cap = 0;
  private aborted = false;

  constructor(game: Game, table: TableConfig, play: PerfectPlay) {
    this.game = game;
    this.table = table;
    this.play = play;
    this.teams = game.teams(table.seats);
    this.sign = game.searchGoal.more ? 1 : -1;
    this.aims = play.hasAims;
    this.ret = new Float64Array(table.seats);
  }

  /**
   * The value of each of `seat`'s `n` card moves `moves[0 .. n)` at its decision in the
   * `count` worlds `worlds[0 .. count)` (world k weighs `weight[k]`), written to
   * `out[i]` (by index): the weighted sum over the worlds of the best-mean vector of the
   * move's front when the seat makes up to `decisions` decisions (this one the first)
   * once for the worlds it cannot tell apart. `play.begin` must have been called: the
   * search uses what is left of its budget. Returns the depth searched: `decisions`, or
   * less where the tree did not fit.
   */
  search(
    worlds: readonly State[],
    weight: Float64Array,
    count: number,
    seat: number,
    moves: Int32Array,
    n: number,
    decisions: number,
    out: Float64Array,
  ): number {
    this.seat = seat;
    this.rootPlies = worlds[0].observe(seat).plies;
    this.ensure(0, count);
    for (let w = 0; w < count; w++) {
      this.st[0][w].copyFrom(worlds[w]);
      this.wt[0][w] = weight[w];
      this.ord[0][w] = w;
      this.up[0][w] = w;
    }
    for (let i = 0; i < n; i++) this.moves[i] = moves[i];
    let m = Math.max(1, decisions);
    for (; m > 1; m--) {
      this.counting = true;
      this.aborted = false;
      this.leaves = 0;
      this.cap = this.play.left / LEAF_MIN;
      this.root(count, n, m, out);
      this.counting = false;
      if (!this.aborted) break;
    }
    if (m === 1) this.leaves = count;
    this.root(count, n, m, out);
    return m;
  }

  /** The root: each move's best weighted sum into `out[i]`. */
  private root(count: number, n: number, m: number, out: Float64Array): void {
    this.top = 0;
    if (m === 1) {
      this.leafVectors(0, 0, count, this.moves, 0, n);
      for (let i = 0; i < n; i++) out[i] = this.sumOf(0, i * count, count, 0, true);
      return;
    }
    let best = -Infinity;
    for (let i = 0; i < n; i++) {
      this.child(0, 0, count, this.moves[i]);
      const k = this.node(1, 0, count, m - 1, -1, 0, best);
      if (this.aborted) return;
      let top = -Infinity;
      for (let v = 0; v < k; v++) top = Math.max(top, this.sumOf(1, v * count, count, 0, true));
      out[i] = top;
      if (top > best) best = top;
      this.top = 0;
    }
  }

  /** Copy the node `ord[level][from .. to)` to level + 1 as slots 0 .. to - from, each with `move` made. */
  private child(level: number, from: number, to: number, move: number): void {
    const count = to - from;
    this.ensure(level + 1, count);
    const ord = this.ord[level];
    for (let j = 0; j < count; j++) {
      const s = ord[from + j];
      this.pos[level][s] = j;
      const c = this.st[level + 1][j];
      c.copyFrom(this.st[level][s]);
      c.apply(move);
      this.up[level + 1][j] = s;
      this.wt[level + 1][j] = this.wt[level][s];
      this.ord[level + 1][j] = j;
    }
    this.play.used += count;
  }

  /**
   * The front of the node `ord[level][from .. to)` with `m` decisions of the seat left
   * to search (this node's, if it is the seat's, included), written at the arena's top
   * as vectors over the node's positions (`to - from` values each). Returns how many.
   * `alpha` (an arena offset, or -1) with `alphaK` vectors: the front already found at
   * the seat's decision just above, over the same positions; `best`: the best weighted
   * sum found at the root when this node lies just below it (else -Infinity).
   */
  private node(
    level: number,
    from: number,
    to: number,
    m: number,
    alpha: number,
    alphaK: number,
    best: number,
  ): number {
    const count = to - from;
    const st = this.st[level];
    const ord = this.ord[level];
    // Forced moves and yes/no questions, in place: they branch nothing.
    for (let j = from; j < to; j++) {
      const s = st[ord[j]];
      while (!s.isTerminal() && s.decision !== Decision.Card) s.apply(NO);
    }
    const first = st[ord[from]];
    if (first.isTerminal() || (!this.aims && first.inPlay() === 0 && first.decision === Decision.Card)) {
      const at = this.reserve(1, count);
      for (let j = 0; j < count; j++) this.arena[at + j] = this.fixedValue(st[ord[from + j]]);
      return 1;
    }
    if (first.toMove === this.seat) return this.seatNode(level, from, to, m);
    return this.othersNode(level, from, to, m, alpha, alphaK, best);
  }

  /** The seat decides: once for all the worlds of each group it cannot tell apart. */
  private seatNode(level: number, from: number, to: number, m: number): number {
    const count = to - from;
    const st = this.st[level];
    const ord = this.ord[level];
    const ha = this.hashA;
    const hb = this.hashB;
    let split = false;
    for (let j = from; j < to; j++) {
      this.hash(st[ord[j]], j - from);
      if (ha[j - from] !== ha[0] || hb[j - from] !== hb[0]) split = true;
    }
    if (!split) return this.groupFront(level, from, to, m);
    // Worlds that differ in what the seat saw (a face-down card revealed) are separate
    // decisions: copied to the next level, grouped, joined.
    this.ensure(level + 1, count);
    const next = this.st[level + 1];
    for (let j = 0; j < count; j++) {
      const s = ord[from + j];
      this.pos[level][s] = j;
      next[j].copyFrom(st[s]);
      this.key[level + 1][j] = ha[j];
      this.keyB[level + 1][j] = hb[j];
      this.up[level + 1][j] = s;
      this.wt[level + 1][j] = this.wt[level][s];
      this.ord[level + 1][j] = j;
    }
    this.play.used += count;
    return this.childrenOf(level, count, count, m, Op.Join, -1, 0, -Infinity, from);
  }

  /** The front of one decision of the seat over the worlds `ord[level][from .. to)`. */
  private groupFront(level: number, from: number, to: number, m: number): number {
    const count = to - from;
    const s = this.st[level][this.ord[level][from]];
    const n = s.legal(this.legal, 0);
    if (n === 1) {
      this.child(level, from, to, setFirst(this.legal, 0));
      return this.node(level + 1, 0, count, m, -1, 0, -Infinity);
    }
    const off = (level + 1) * CODE_LIMIT;
    if (off + CODE_LIMIT > this.moves.length) throw new Error('alpha-mu: tree deeper than its move stack');
    setCodesInto(this.legal, 0, this.moves, off);
    const base = this.top;
    if (m === 1) {
      this.leafVectors(level, from, to, this.moves, off, n);
      return this.reduce(base, n, count, level, from);
    }
    let k = 0;
    for (let i = 0; i < n; i++) {
      this.child(level, from, to, this.moves[off + i]);
      const ck = this.node(level + 1, 0, count, m - 1, k > 0 ? base : -1, k, -Infinity);
      if (this.aborted) return 0;
      // The union: the child's vectors (same positions) follow the front's; reduced together.
      k = this.reduce(base, k + ck, count, level, from);
    }
    return k;
  }

  /**
   * Another seat moves, knowing the world: its moves as the seat sees them split the
   * worlds into children (a hidden card keeps them together, a world once per card).
   */
  private othersNode(
    level: number,
    from: number,
    to: number,
    m: number,
    alpha: number,
    alphaK: number,
    best: number,
  ): number {
    const st = this.st[level];
    const ord = this.ord[level];
    const mover = st[ord[from]].toMove;
    const op = this.teams !== null && this.teams[mover] === this.teams[this.seat] ? Op.Max : Op.Min;
    // Every (world, legal move) pair becomes a slot of level + 1, keyed by the move as the
    // seat sees it; made move by move, so that the keys come nearly in order.
    const count = to - from;
    if (this.lanes.length < count * LANES) this.lanes = new Int32Array(2 * count * LANES);
    const lanes = this.lanes;
    const union = this.union;
    union.fill(0);
    let slots = 0;
    for (let j = 0; j < count; j++) {
      const s = ord[from + j];
      this.pos[level][s] = j;
      slots += st[s].legal(lanes, j * LANES);
      for (let l = 0; l < LANES; l++) union[l] |= lanes[j * LANES + l];
    }
    this.ensure(level + 1, slots);
    const next = this.st[level + 1];
    const off = (level + 1) * CODE_LIMIT;
    if (off + CODE_LIMIT > this.moves.length) throw new Error('alpha-mu: tree deeper than its move stack');
    const n = setCodesInto(union, 0, this.moves, off);
    let c = 0;
    for (let i = 0; i < n; i++) {
      const move = this.moves[off + i];
      for (let j = 0; j < count; j++) {
        if (!setHas(lanes, j * LANES, move)) continue;
        const s = ord[from + j];
        const t = next[c];
        t.copyFrom(st[s]);
        t.apply(move);
        const obs = t.observe(this.seat);
        this.key[level + 1][c] = obs.move(obs.plies - 1);
        this.keyB[level + 1][c] = 0;
        this.up[level + 1][c] = s;
        this.wt[level + 1][c] = this.wt[level][s];
        this.ord[level + 1][c] = c;
        c++;
      }
    }
    this.play.used += slots;
    return this.childrenOf(level, count, slots, m, op, alpha, alphaK, best, from);
  }

  /**
   * The front of a node of `count` positions at `level` (from `from` in its order)
   * whose `slots` slots of level + 1 (in order 0 ..) are grouped by key into children,
   * combined by `op`; for an opponent, cut when the front can no longer matter above.
   */
  private childrenOf(
    level: number,
    count: number,
    slots: number,
    m: number,
    op: Op,
    alpha: number,
    alphaK: number,
    best: number,
    from: number,
  ): number {
    this.sortBy(level + 1, 0, slots);
    const nord = this.ord[level + 1];
    const key = this.key[level + 1];
    const keyB = this.keyB[level + 1];
    const base = this.reserve(1, count);
    this.arena.fill(op === Op.Max ? -Infinity : Infinity, base, base + count);
    let k = 1;
    for (let g = 0; g < slots;) {
      let e = g + 1;
      while (e < slots && key[nord[e]] === key[nord[g]] && keyB[nord[e]] === keyB[nord[g]]) e++;
      const at = this.top;
      const ck = this.node(level + 1, g, e, m, -1, 0, -Infinity);
      if (this.aborted) return 0;
      k = this.combine(base, k, count, level, from, at, ck, e - g, op, g);
      g = e;
      if (op === Op.Min && !this.counting && e < slots && this.cut(base, k, count, alpha, alphaK, best, level, from))
        break;
    }
    return k;
  }

  /** Whether an opponent's front so far (it can only shrink) cannot change the decision above. */
  private cut(
    base: number,
    k: number,
    count: number,
    alpha: number,
    alphaK: number,
    best: number,
    level: number,
    from: number,
  ): boolean {
    const a = this.arena;
    if (best > -Infinity) {
      for (let v = 0; v < k; v++) if (this.sumOf(level, base + v * count, count, from, false) > best) return false;
      return true;
    }
    if (alpha < 0) return false;
    for (let v = 0; v < k; v++) {
      let dominated = false;
      for (let u = 0; u < alphaK && !dominated; u++) {
        let ge = true;
        for (let j = 0; j < count && ge; j++) if (a[alpha + u * count + j] < a[base + v * count + j]) ge = false;
        dominated = ge;
      }
      if (!dominated) return false;
    }
    return true;
  }

  /**
   * Combine the front at `base` (`k` vectors over the `count` positions of the node at
   * `level` from `from`) with a child's at `at` (`ck` vectors over its `len` slots of
   * level + 1, `ord[level + 1][g ..)`): every pair, each child value going to the
   * position of its slot's parent (`op` where several meet), then reduced. The result
   * replaces the front at `base`; returns its size.
   */
  private combine(
    base: number,
    k: number,
    count: number,
    level: number,
    from: number,
    at: number,
    ck: number,
    len: number,
    op: Op,
    g: number,
  ): number {
    const out = this.reserve(k * ck, count);
    const a = this.arena;
    const ord = this.ord[level + 1];
    const up = this.up[level + 1];
    const pos = this.pos[level];
    let o = out;
    for (let x = 0; x < k; x++) {
      for (let y = 0; y < ck; y++) {
        for (let j = 0; j < count; j++) a[o + j] = a[base + x * count + j];
        for (let j = 0; j < len; j++) {
          const p = o + pos[up[ord[g + j]]];
          const v = a[at + y * len + j];
          if (op === Op.Join) a[p] = v;
          else if (op === Op.Min ? v < a[p] : v > a[p]) a[p] = v;
        }
        o += count;
      }
    }
    a.copyWithin(base, out, o);
    this.top = base + k * ck * count;
    return this.reduce(base, k * ck, count, level, from);
  }

  /** Reserve `k` vectors of `count` at the arena's top; returns their offset. */
  private reserve(k: number, count: number): number {
    const at = this.top;
    const need = at + k * count;
    if (need > this.arena.length) {
      const bigger = new Float64Array(Math.max(need, 2 * this.arena.length));
      bigger.set(this.arena.subarray(0, at));
      this.arena = bigger;
    }
    this.top = need;
    return at;
  }

  /**
   * Keep the Pareto front of the `k` vectors at `base` (over the positions of the node
   * at `level` from `from`), at most `FRONT_MAX` of them, those of the best weighted sums;
   * left at `base`, the top just after them.
   */
  private reduce(base: number, k: number, count: number, level: number, from: number): number {
    const a = this.arena;
    if (this.sums.length < k) {
      this.sums = new Float64Array(2 * k);
      this.idx = new Int32Array(2 * k);
    }
    const { sums, idx } = this;
    for (let v = 0; v < k; v++) {
      sums[v] = this.sumOf(level, base + v * count, count, from, true);
      let p = v;
      while (p > 0 && sums[idx[p - 1]] < sums[v]) {
        idx[p] = idx[p - 1];
        p--;
      }
      idx[p] = v;
    }
    // A vector can be dominated only by one of a sum at least its own: keep in order of sums.
    const out = this.reserve(Math.min(k, FRONT_MAX), count);
    let kept = 0;
    for (let r = 0; r < k && kept < FRONT_MAX; r++) {
      const v = base + idx[r] * count;
      let dominated = false;
      for (let u = 0; u < kept && !dominated; u++) {
        let ge = true;
        for (let j = 0; j < count && ge; j++) if (a[out + u * count + j] < a[v + j]) ge = false;
        dominated = ge;
      }
      if (dominated) continue;
      for (let j = 0; j < count; j++) a[out + kept * count + j] = a[v + j];
      kept++;
    }
    a.copyWithin(base, out, out + kept * count);
    this.top = base + kept * count;
    return kept;
  }

  /**
   * The weighted sum of the vector at `at` over the positions of the node at `level`
   * from `from` in its order. `finite`: leave out the positions no child has reached
   * yet (infinite in every vector of the front alike), for ranking; else they make it
   * infinite, for a bound.
   */
  private sumOf(level: number, at: number, count: number, from: number, finite: boolean): number {
    const a = this.arena;
    const ord = this.ord[level];
    const wt = this.wt[level];
    let sum = 0;
    for (let j = 0; j < count; j++) {
      const v = a[at + j];
      if (!finite || Number.isFinite(v)) sum += wt[ord[from + j]] * v;
    }
    return sum;
  }

  /**
   * Leaves: for each world of the node `ord[level][from .. to)`, every one of the `n`
   * moves `moves[off ..]` valued as pimc values them; written as `n` vectors at the top.
   */
  private leafVectors(level: number, from: number, to: number, moves: Int32Array, off: number, n: number): void {
    const count = to - from;
    const at = this.reserve(n, count);
    if (this.counting) {
      this.arena.fill(0, at, at + n * count);
      this.leaves += count;
      if (this.leaves > this.cap) this.aborted = true;
      return;
    }
    const play = this.play;
    for (let j = 0; j < count; j++) {
      const s = this.st[level][this.ord[level][from + j]];
      const share = play.left / Math.max(1, this.leaves--);
      play.aimValues(s, this.seat, share, this.values);
      for (let i = 0; i < n; i++) this.arena[at + i * count + j] = this.values[moves[off + i]];
    }
  }

  /** The value of a world with nothing left to search: its result (the outlook's scale) or its measure. */
  private fixedValue(s: State): number {
    if (this.aims && s.isTerminal()) {
      s.returns(this.ret);
      return this.ret[this.seat];
    }
    return this.sign * this.play.solver.takenBy(s, this.seat);
  }

  /** Hash what the seat saw in `s` since the root into `hashA[i]`, `hashB[i]`. */
  private hash(s: State, i: number): void {
    if (i >= this.hashA.length) {
      this.hashA = new Int32Array(2 * i + 2);
      this.hashB = new Int32Array(2 * i + 2);
    }
    hashSeen(s.observe(this.seat), this.rootPlies, 0x9e3779b9, this.hashA, this.hashB, i);
  }

  /** Sort `ord[level][from .. to)` by key (insertion sort: stable, and the ranges are small). */
  private sortBy(level: number, from: number, to: number): void {
    const ord = this.ord[level];
    const key = this.key[level];
    const kb = this.keyB[level];
    for (let i = from + 1; i < to; i++) {
      const x = ord[i];
      let p = i;
      while (p > from && (key[ord[p - 1]] > key[x] || (key[ord[p - 1]] === key[x] && kb[ord[p - 1]] > kb[x]))) {
        ord[p] = ord[p - 1];
        p--;
      }
      ord[p] = x;
    }
  }

  /** Room for `count` slots at `level` (grows once, then reused). */
  private ensure(level: number, count: number): void {
    while (this.st.length <= level) {
      this.st.push([]);
      this.up.push(new Int32Array(0));
      this.wt.push(new Float64Array(0));
      this.ord.push(new Int32Array(0));
      this.pos.push(new Int32Array(0));
      this.key.push(new Int32Array(0));
      this.keyB.push(new Int32Array(0));
    }
    const st = this.st[level];
    while (st.length < count) st.push(this.game.newState(this.table));
    if (this.up[level].length < count) {
      const size = Math.max(count, 2 * this.up[level].length);
      this.up[level] = new Int32Array(size);
      this.wt[level] = new Float64Array(size);
      this.ord[level] = new Int32Array(size);
      this.pos[level] = new Int32Array(size);
      this.key[level] = new Int32Array(size);
      this.keyB[level] = new Int32Array(size);
    }
  }
}
