/**
 * Perfect-information search against a model of the others (`model=heuristic` of pimc
 * and the oracle): in a world with every hand known, the value of each of a seat's
 * moves when every other seat plays the `PolicyModel` (policy.ts: the game's heuristic)
 * and the seat plays its own later decisions as well as it can.
 *
 * With the others' moves fixed by the model, the tree branches only at the seat's own
 * decisions, so it is a maximum, not a minimax: a depth-first search over the seat's
 * next `d` decisions (forced ones do not count), the others' moves between them made by
 * the model, and beyond those `d` the model playing the seat too, to the end of the
 * deal. A leaf's value is the seat's `returns()`, the game's real result (rungs, marks,
 * charged points, stakes), not the card measure that the solver's models optimise.
 *
 * Deepening, as in perfect-play.ts: `d` = 1, 2, ... within the world's share of the
 * node budget (a node is one move made in the search, the model's and the seat's), a
 * level started only if what is left is at least `GROWTH` times the last level's
 * cost; the values of the deepest level kept. A level that no own decision cut short is
 * exact under the model, and the search stops there.
 *
 * Why a model and not the solver's paranoid coalition or max^n: in the games without
 * teams, what the others will really do matters more than perfect play by an imagined
 * coalition; against `heuristic` players the paranoid cheating oracle scored far less
 * than ismcts, whose playouts put the heuristic in every seat (bots/NOTES.md).
 */
import { CODE_LIMIT, newSets, setCodesInto, setFirst } from '../src/core/cardset.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import type { PolicyModel } from './policy.js';

/** Start a deeper level only if the allowance left is at least this many times the last level's cost. */
const GROWTH = 3;
/** The most levels of own decisions searched (a deal has fewer decisions per seat than this). */
const MAX_LEVELS = 40;

export class PolicySearch {
  /** Nodes (moves made) since the last `reset`. */
  used = 0;

  private readonly model: PolicyModel;
  private readonly stack: State[];
  /** A legal-move set per level (the model's bots take a set at offset 0). */
  private readonly legal: Int32Array[];
  private readonly moves: Int32Array;
  private readonly ret: Float64Array;
  private readonly best = new Float64Array(CODE_LIMIT);
  /** Whether the current level's search cut some line short at its depth. */
  private cut = false;

  constructor(game: Game, table: TableConfig, model: PolicyModel) {
    this.model = model;
    this.stack = Array.from({ length: MAX_LEVELS + 1 }, () => game.newState(table));
    this.legal = Array.from({ length: MAX_LEVELS + 1 }, () => newSets(1));
    this.moves = new Int32Array((MAX_LEVELS + 1) * CODE_LIMIT);
    this.ret = new Float64Array(table.seats);
  }

  /**
   * The value (the seat's `returns()`, higher is better) of each of the `n` moves
   * `moves[0 .. n)` of `seat`, who is to act in `world`, written to `out[move]`, within
   * about `share` nodes and at most `maxDepth` own decisions deep (the move itself
   * counts as the first). Returns the depth of the values in own decisions (Infinity:
   * exact under the model).
   */
  values(
    world: State,
    seat: number,
    moves: Int32Array,
    n: number,
    share: number,
    out: Float64Array,
    maxDepth = MAX_LEVELS - 1,
  ): number {
    const start = this.used;
    const top = Math.min(maxDepth, MAX_LEVELS - 1);
    for (let d = 1; d <= top; d++) {
      const before = this.used;
      this.cut = false;
      for (let i = 0; i < n; i++) {
        const s = this.stack[0];
        s.copyFrom(world);
        s.apply(moves[i]);
        this.used++;
        this.best[i] = this.search(0, seat, d - 1);
      }
      for (let i = 0; i < n; i++) out[moves[i]] = this.best[i];
      if (!this.cut) return Infinity;
      const last = this.used - before;
      if (d === top || share - (this.used - start) < GROWTH * last) return d;
    }
    return top;
  }

  /** The seat's best return from `stack[level]` with `depth` more own decisions searched. */
  private search(level: number, seat: number, depth: number): number {
    const s = this.stack[level];
    const legal = this.legal[level];
    for (;;) {
      if (s.isTerminal()) {
        s.returns(this.ret);
        return this.ret[seat];
      }
      const n = s.legal(legal, 0);
      if (n === 1) {
        s.apply(setFirst(legal, 0));
      } else if (s.toMove !== seat) {
        s.apply(this.model.move(s, legal, n));
      } else if (depth === 0) {
        this.cut = true;
        s.apply(this.model.move(s, legal, n));
      } else {
        break;
      }
      this.used++;
    }
    // The seat's own decision: the best of its moves, each searched one level down.
    const base = level * CODE_LIMIT;
    const count = setCodesInto(legal, 0, this.moves, base);
    let best = -Infinity;
    const child = this.stack[level + 1];
    for (let i = 0; i < count; i++) {
      child.copyFrom(s);
      child.apply(this.moves[base + i]);
      this.used++;
      const v = this.search(level + 1, seat, depth - 1);
      if (v > best) best = v;
    }
    return best;
  }
}
