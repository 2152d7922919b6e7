/**
 * Max^n search of the card play with every hand known, for the games where every seat
 * plays for itself (Hindersche, Hindersi-Jass, Vier-Anderle): each seat plays to make
 * its **own** final measure (`Game.searchGoal`: card points or tricks) best, fewer or
 * more as the game says, instead of the whole table playing against one seat as in the
 * paranoid reduction of solver.ts. A position's value is the vector of every seat's
 * final measure.
 *
 * ## Why
 *
 * Paranoid search (solver.ts) assumes that the others form a coalition against the
 * root seat. In the fewest-points games that is worst-case fiction: the others take
 * tricks they would never take, only to feed points to the root. Max^n models each
 * opponent as doing what is good for him, as real players (and `heuristic`) do. Ties
 * (a seat indifferent between moves: a discard onto another's trick; in Vier-Anderle a
 * seat that already has its trick) are broken against the root seat ("soft
 * paranoid"), then by the least vector, so a value never depends on move order.
 *
 * It did not make pimc stronger (bots/NOTES.md has the figures), so pimc keeps paranoid
 * search by default (`model=maxn` selects this): its predictions of the others are
 * sharper than paranoid's and so more often wrong against opponents who cannot see the
 * hands, and it affords less depth.
 *
 * ## Cost
 *
 * Max^n with more than two players admits no alpha-beta: every move of every seat is
 * searched (shallow pruning needs a bound on the sum of utilities that is useless
 * here). What keeps it affordable: the values are exact vectors, not bounds, so a
 * transposition table at trick boundaries (keyed on `State.searchKey`, holding the
 * measure still to come per seat) answers every later visit of a position, and
 * equivalent cards (`State.searchMoves`) are searched once. Still, solving all the
 * root's moves costs several times paranoid search's nodes with four to six tricks
 * left (bots/NOTES.md). Where the utilities are the outlook of a
 * trick count (Vier-Anderle), they are not additive, so the table's key also holds
 * every seat's count so far.
 *
 * ## Budgets and the horizon
 *
 * As in solver.ts: `nodeLimit` aborts (`aborted`), `horizon` stops after that many
 * tricks from the root and values the rest by a greedy playout in which each seat
 * plays a card player's rule of thumb for itself (playout.ts).
 *
 * Allocation-free after construction: a stack of preallocated states, typed arrays for
 * the vectors, moves and the table. Yes/no decisions met in the search are answered NO
 * (as in solver.ts).
 */
import { LANES, setFirst } from '../../src/core/cardset.js';
import { selfishMove } from './playout.js';
import { keyHash, nextStamp } from './transposition.js';
import {
  Decision,
  NO,
  SEARCH_KEY_WORDS,
  type Game,
  type SearchGoal,
  type State,
  type TableConfig,
} from '../../src/games/game.js';

const MAX_DEPTH = 160;
/** Room per seat in the utility table: more tricks than any deal has. */
const UTILITY_STRIDE = 32;

export interface MaxnOptions {
  /** log2 of the transposition table's entries (default 16). */
  readonly ttBits?: number;
}

export class MaxnSolver {
  readonly goal: SearchGoal;
  /** Nodes visited since the last `reset`. */
  nodes = 0;
  /** Abort a call after this many nodes (`aborted` is then set and the result is meaningless). */
  nodeLimit = Infinity;
  aborted = false;
  /** Tricks after which the search stops and estimates by a greedy playout (Infinity: to the end). */
  horizon = Infinity;

  private readonly seats: number;
  /** +1 when more of the measure is better, -1 when less. */
  private readonly sign: number;
  private readonly stack: State[] = [];
  /** Per depth: the value vector (every seat's final measure) of the position searched there. */
  private readonly vals: Int32Array;
  private readonly moves = new Int32Array(MAX_DEPTH * LANES);
  /** Words per depth in `keys`: the search key, and with `byOutlook` every seat's measure so far. */
  private readonly keyWords: number;
  private readonly keys: Int32Array;
  /**
   * Whether seats maximise `Game.outlook` of their own trick count rather than the
   * count itself (games whose measure is tricks and that give an outlook): see `utility`.
   */
  private readonly byOutlook: boolean;
  /** With `byOutlook`: `utility[seat * UTILITY_STRIDE + tricks]`, set at every `load`. */
  private readonly utility: Float64Array;
  private readonly rootMoves = new Int32Array(2 * LANES);
  private readonly tt: VectorTable;
  private root = 0;
  private limitAt = Infinity;
  private rootTricksLeft = 0;
  /** The root and horizon the table's entries were searched for (they depend on both). */
  private tableRoot = -1;
  private tableHorizon = -1;

  constructor(
    private readonly game: Game,
    private readonly table: TableConfig,
    options: MaxnOptions = {},
  ) {
    this.goal = game.searchGoal;
    this.seats = table.seats;
    this.sign = this.goal.more ? 1 : -1;
    this.byOutlook = this.goal.measure === 'tricks' && game.outlook !== undefined;
    this.utility = new Float64Array(this.byOutlook ? table.seats * UTILITY_STRIDE : 0);
    this.keyWords = SEARCH_KEY_WORDS + (this.byOutlook ? table.seats : 0);
    this.keys = new Int32Array(MAX_DEPTH * this.keyWords);
    this.vals = new Int32Array((MAX_DEPTH + 1) * table.seats);
    this.tt = new VectorTable(options.ttBits ?? 16, table.seats);
  }

  /** Forget the table and the node count. */
  reset(): void {
    this.tt.clear();
    this.nodes = 0;
    this.aborted = false;
  }

  /**
   * Every seat's final measure from `state` under max^n play, into `out[0 .. seats)`,
   * ties broken against `seat`.
   */
  value(state: State, seat: number, out: Float64Array | Int32Array): void {
    this.load(state, seat);
    this.search(0);
    for (let q = 0; q < this.seats; q++) out[q] = this.vals[q];
  }

  /**
   * `seat`'s final measure after each of its legal moves, `out[code]` (moves
   * interchangeable in this world share one search), the others then playing max^n.
   * `state.toMove` must be `seat` at a card decision.
   */
  moveValues(state: State, seat: number, out: Float64Array): void {
    const root = this.load(state, seat);
    const legal = this.rootMoves;
    root.legal(legal, 0);
    for (let l = 0; l < LANES; l++) legal[LANES + l] = legal[l];
    root.searchMoves(legal, LANES);
    const seats = this.seats;
    for (let l = 0; l < LANES; l++) {
      let current = 0;
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const bit = 31 - Math.clz32(m & -m);
        const code = (l << 5) | bit;
        if ((legal[LANES + l] >>> bit) & 1) {
          const child = this.at(1);
          child.copyFrom(root);
          child.apply(code);
          this.search(1);
          if (this.aborted) return;
          current = this.vals[seats + seat];
        }
        out[code] = current;
      }
    }
  }

  private load(state: State, seat: number): State {
    const root = this.at(0);
    root.copyFrom(state);
    // Entries hold values under the tie-break against one root, estimates depend on the horizon, utilities on the deal.
    if (seat !== this.tableRoot || this.horizon !== this.tableHorizon || this.horizon !== Infinity || this.byOutlook)
      this.tt.clear();
    this.tableRoot = seat;
    this.tableHorizon = this.horizon;
    this.root = seat;
    this.aborted = false;
    this.limitAt = this.nodes + this.nodeLimit;
    this.rootTricksLeft = root.tricksLeft();
    if (this.byOutlook) {
      const game = this.game;
      const top = Math.min(UTILITY_STRIDE - 1, root.inPlay());
      for (let q = 0; q < this.seats; q++) {
        const base = q * UTILITY_STRIDE;
        const taken = root.taken(q);
        for (let m = 0; m <= top; m++) this.utility[base + taken + m] = game.outlook!(root, q, taken + m, -1);
      }
    }
    return root;
  }

  private at(depth: number): State {
    while (this.stack.length <= depth) this.stack.push(this.game.newState(this.table));
    return this.stack[depth];
  }

  private takenInto(s: State, depth: number): void {
    const o = depth * this.seats;
    for (let q = 0; q < this.seats; q++) this.vals[o + q] = s.taken(q);
  }

  /** The value vector of `stack[depth]` into `vals[depth * seats ..)`. */
  private search(depth: number): void {
    const s = this.stack[depth];
    if (++this.nodes > this.limitAt) {
      this.aborted = true;
      return;
    }
    const seats = this.seats;
    const vals = this.vals;
    const o = depth * seats;
    const decision = s.decision;
    if (decision === Decision.None) {
      this.takenInto(s, depth);
      return;
    }
    const child = this.at(depth + 1);
    const co = o + seats;
    if (decision !== Decision.Card) {
      child.copyFrom(s);
      child.apply(NO);
      this.search(depth + 1);
      for (let q = 0; q < seats; q++) vals[o + q] = vals[co + q];
      return;
    }

    let slot = -1;
    let words = 0;
    const koff = depth * this.keyWords;
    if (s.trickCards === 0) {
      const tl = s.tricksLeft();
      if (tl === 1 || this.rootTricksLeft - tl >= this.horizon) {
        this.playout(s, child, tl === 1);
        this.takenInto(child, depth);
        return;
      }
      words = s.searchKey(this.keys, koff);
      // Utilities of the final count are not additive: the futures differ by what was taken.
      if (this.byOutlook) for (let q = 0; q < seats; q++) this.keys[koff + words++] = s.taken(q);
      slot = this.tt.slotOf(this.keys, koff, words);
      if (this.tt.holds(slot, this.keys, koff, words)) {
        for (let q = 0; q < seats; q++) vals[o + q] = s.taken(q) + this.tt.get(slot, q);
        return;
      }
    }

    const p = s.toMove;
    const root = this.root;
    const sign = this.sign;
    const moff = depth * LANES;
    const moves = this.moves;
    s.searchMoves(moves, moff);
    let bestOwn = -Infinity;
    let bestRoot = Infinity;
    let bestMove = 0;
    for (let l = 0; l < LANES; l++) {
      for (let m = moves[moff + l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | (31 - Math.clz32(m & -m));
        child.copyFrom(s);
        child.apply(code);
        this.search(depth + 1);
        if (this.aborted) return;
        const own = this.byOutlook ? this.utility[p * UTILITY_STRIDE + vals[co + p]] : sign * vals[co + p];
        const forRoot = this.byOutlook ? this.utility[root * UTILITY_STRIDE + vals[co + root]] : sign * vals[co + root];
        // Best for the seat to move; among equals, worst for the root; then the vector
        // least in seat order, so that the value never depends on the order of the moves.
        if (
          own > bestOwn ||
          (own === bestOwn && (forRoot < bestRoot || (forRoot === bestRoot && this.lessThan(co, o))))
        ) {
          bestOwn = own;
          bestRoot = forRoot;
          bestMove = code;
          for (let q = 0; q < seats; q++) vals[o + q] = vals[co + q];
        }
      }
    }
    if (slot >= 0) this.tt.store(slot, this.keys, koff, words, vals, o, s, bestMove);
  }

  /** Whether the vector at `a` is less than the one at `b`, in seat order (the final tie-break). */
  private lessThan(a: number, b: number): boolean {
    const vals = this.vals;
    for (let q = 0; q < this.seats; q++) {
      if (vals[a + q] !== vals[b + q]) return vals[a + q] < vals[b + q];
    }
    return false;
  }

  /**
   * Play `s` out into `scratch`: the last trick (nothing to choose), or beyond the
   * horizon each seat's rule-of-thumb card (`playoutMove`).
   */
  private playout(s: State, scratch: State, forced: boolean): void {
    scratch.copyFrom(s);
    const moves = this.moves;
    const off = (MAX_DEPTH - 1) * LANES;
    while (scratch.decision !== Decision.None) {
      if (scratch.decision !== Decision.Card) scratch.apply(NO);
      else if (forced) {
        scratch.legal(moves, off);
        scratch.apply(setFirst(moves, off));
      } else scratch.apply(selfishMove(scratch, this.goal, moves, off));
      this.nodes++;
    }
  }
}

/**
 * Exact value vectors by trick-boundary key: direct-mapped, always-replace, full keys
 * compared (a hit is never a collision), cleared in O(1) by a stamp. Row layout:
 * [stamp, move, the measure still to come per seat..., key words...].
 */
class VectorTable {
  private readonly size: number;
  private readonly shift: number;
  private readonly head: number;
  private stride = 0;
  private rows = new Int32Array(0);
  private stamp = 1;

  constructor(
    bits: number,
    private readonly seats: number,
  ) {
    this.size = 1 << bits;
    this.shift = 32 - bits;
    this.head = 2 + seats;
  }

  clear(): void {
    this.stamp = nextStamp(this.stamp, this.rows);
  }

  slotOf(key: Int32Array, off: number, words: number): number {
    if (words + this.head !== this.stride) {
      // One table serves one game and table size, whose keys all have the same length.
      this.stride = words + this.head;
      this.rows = new Int32Array(this.size * this.stride);
      this.stamp = 1;
    }
    return (keyHash(key, off, words) >>> this.shift) * this.stride;
  }

  holds(slot: number, key: Int32Array, off: number, words: number): boolean {
    const rows = this.rows;
    if (rows[slot] !== this.stamp) return false;
    const base = slot + this.head;
    for (let i = 0; i < words; i++) if (rows[base + i] !== key[off + i]) return false;
    return true;
  }

  /** Seat `q`'s measure still to come. */
  get(slot: number, q: number): number {
    return this.rows[slot + 2 + q];
  }

  store(
    slot: number,
    key: Int32Array,
    off: number,
    words: number,
    vals: Int32Array,
    voff: number,
    s: State,
    move: number,
  ): void {
    const rows = this.rows;
    rows[slot] = this.stamp;
    rows[slot + 1] = move;
    for (let q = 0; q < this.seats; q++) rows[slot + 2 + q] = vals[voff + q] - s.taken(q);
    const base = slot + this.head;
    for (let i = 0; i < words; i++) rows[base + i] = key[off + i];
  }
}
