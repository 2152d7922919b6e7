/**
 * Dropping candidate moves that cannot win across the worlds of a pimc decision
 * (successive elimination, the racing form of successive halving). pimc values every
 * move in the same worlds, so two moves' values pair up world by world; after `FIRST`
 * worlds and every `EVERY` worlds from then on, a move is dropped when the mean of its
 * paired difference to the leader (the move with the best mean so far) lies more than
 * `Z` standard errors below 0, or when it has had the leader's value in every world so
 * far (a twin: equivalent cards often are). Later worlds value only the moves left,
 * and the move played is the best mean among them, over all the worlds. A dropped move
 * would have been played only if it had overtaken the leader from that far behind.
 *
 * Why it pays: most decisions have one or two moves that matter, and the others fall
 * behind within the first worlds; each world then costs a playout (or a solve) per
 * move left instead of per legal move.
 */
import { CODE_LIMIT } from '../src/core/cardset.js';

/** Worlds before the first test, and between tests. */
const FIRST = 16;
const EVERY = 8;
/** Standard errors below 0 at which a move is dropped. */
const Z = 2.5;

export class MoveRace {
  /** Per world w and move index i, the value at `w * CODE_LIMIT + i`. */
  private readonly value: Float64Array;
  /** 1 for the moves still in the race, by index. */
  readonly alive = new Uint8Array(CODE_LIMIT);
  private readonly sum = new Float64Array(CODE_LIMIT);
  /** Worlds in which the move of index `i` was valued (fewer for a dropped move). */
  private readonly valued = new Uint32Array(CODE_LIMIT);
  private n = 0;
  private worlds = 0;
  private next = FIRST;

  constructor(maxWorlds: number) {
    this.value = new Float64Array(maxWorlds * CODE_LIMIT);
  }

  /** A decision with `n` moves, every one in the race. */
  begin(n: number): void {
    this.n = n;
    this.worlds = 0;
    this.next = FIRST;
    this.alive.fill(1, 0, n);
    this.sum.fill(0, 0, n);
    this.valued.fill(0, 0, n);
  }

  /** The value of the move of index `i` in the current world (only moves still alive). */
  record(i: number, v: number): void {
    this.value[this.worlds * CODE_LIMIT + i] = v;
    this.sum[i] += v;
    this.valued[i]++;
  }

  /** The mean value of the move of index `i` over the worlds it ran, and their number. */
  meanOf(i: number): number {
    return this.sum[i] / this.valued[i];
  }
  worldsOf(i: number): number {
    return this.valued[i];
  }

  /** The current world is valued: count it, and at a test, drop the moves far behind. */
  endWorld(): void {
    const k = ++this.worlds;
    if (k < this.next) return;
    this.next += EVERY;
    const { alive, sum, value, n } = this;
    let leader = -1;
    for (let i = 0; i < n; i++) if (alive[i] === 1 && (leader < 0 || sum[i] > sum[leader])) leader = i;
    for (let i = 0; i < n; i++) {
      if (alive[i] === 0 || i === leader) continue;
      const mean = (sum[i] - sum[leader]) / k;
      let ss = 0;
      for (let w = 0; w < k; w++) {
        const d = value[w * CODE_LIMIT + i] - value[w * CODE_LIMIT + leader] - mean;
        ss += d * d;
      }
      const se = Math.sqrt(ss / (k - 1) / k);
      // Behind beyond doubt, or never ahead nor apart (a twin of the leader so far).
      if (mean + Z * se < 0 || (se === 0 && mean <= 0)) alive[i] = 0;
    }
  }
}
