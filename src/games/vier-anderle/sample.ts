/**
 * Determinization for Vier-Anderle: a world drawn among the deals consistent with one
 * seat's view.
 *
 * The observer's starting hand is its hand now plus the cards it played; every other
 * seat started with the cards it played plus unseen cards up to 4; the unseen cards are
 * those not in the observer's hand and not played (the hands of seats that declared
 * out and the cards out of play are never seen).
 *
 * What the public history says about the unseen cards is, per seat, a set of cards it
 * cannot hold (`forbidden`): each card it played to a trick was legal, so it was
 * void in the suit led when it did not follow, void in tarocks when it did not play one
 * either, and held no card that would have headed the trick among those its duty
 * allowed when its card did not head. (A card it did not hold then, and that nobody has
 * played since, is not in its hand now.) A deal is consistent exactly when no seat gets
 * a card forbidden to it.
 *
 * Exact rejection first: the unseen cards are dealt uniformly at random (a partial
 * shuffle) and the deal is kept when it respects the forbidden sets, which is uniform
 * over the consistent deals. Hands are 4 cards, so this is nearly always quick. But with
 * a dozen players late in a hand, consistent deals can be one in millions of shuffles;
 * after `REJECTION_TRIES` the sampler builds a consistent deal by bipartite matching
 * (cards to seats that may hold them, up to each seat's count) and mixes it by
 * `MIX_SWAPS` random swaps of two cards between holders that keep it consistent (the
 * cards out of play are a holder with no constraint). The swap chain is symmetric, so
 * its worlds tend to the uniform; they are not exactly uniform.
 *
 * Speed. What the worlds of one view share (the seen cards, the pool, the forbidden
 * sets, the history played with the seen cards alone) is prepared once and kept while
 * the same view is sampled again, as search does hundreds of times a decision. A world
 * of the rejection step is then that history with each seat's unseen cards added: only
 * the hands and counts depend on the unseen cards, and a deal that keeps the forbidden
 * sets is legal (they are exact), so it needs no replay. With a watcher (it must see
 * every move in the world), and for a built deal, the history is replayed under `legal`
 * (the engine's own rules), which also checks the world.
 */
import { lowestBit, popcount } from '../../core/bits.js';
import { LANES } from '../../core/cardset.js';
import { shuffle, type Rng } from '../../core/rng.js';
import type { HistoryWatcher } from '../game.js';
import { SUIT_MASK, packLane } from './cards.js';
import { WORDS } from '../trick/layout.js';
import { HAND, MAX_PLAYERS, MAX_PLIES, type AnderleState, type DealContext } from './state.js';
import type { AnderleView } from './view.js';

/** Uniform proposals before a deal is built by matching (see the module doc). */
const REJECTION_TRIES = 4000;
/** Swaps that mix a built deal, per unseen card. */
const MIX_SWAPS = 64;
/** The holder of the cards out of play, after the seats (lane 0 holds the tarocks, lane 1 the suits: cards.ts). */
const OUT = MAX_PLAYERS;
/** Words of the view's key before the history (`sameView`). */
const KEY_HEAD = 8;

/** The view's key before its history: seat, seats, pips, dealer, pot, plies and hand. */
function writeHead(obs: AnderleView, key: Int32Array): void {
  key[0] = obs.seat;
  key[1] = obs.seats;
  key[2] = obs.pips ? 1 : 0;
  key[3] = obs.dealer;
  key[4] = obs.potBefore;
  key[5] = obs.plies;
  key[6] = obs.handLane(0);
  key[7] = obs.handLane(1);
}

export class AnderleSampler {
  private readonly base = new Int32Array(MAX_PLAYERS * LANES);
  private readonly hands = new Int32Array(MAX_PLAYERS * LANES);
  private readonly need = new Int32Array(MAX_PLAYERS);
  private readonly pool = new Uint8Array(64);
  /** The pool of unseen cards in code order, `size` of them; `total` go to the seats. */
  private readonly sorted = new Uint8Array(64);
  private size = 0;
  private total = 0;
  /** `out` after the history with only the seen cards (`prepare`). */
  private readonly played = new Int32Array(WORDS);
  /** The view `prepare` saw last: seat, seats, pips, dealer, pot, plies, hand, then each ply's move and seat. */
  private readonly key = new Int32Array(KEY_HEAD + MAX_PLIES).fill(-1);
  /** Scratch: the head of the view being compared (`sameView`). */
  private readonly head = new Int32Array(KEY_HEAD);
  private readonly legal = new Int32Array(LANES);
  /** Per seat, lanes 0 and 1: the unseen cards it cannot hold. */
  private readonly forbidden = new Int32Array(MAX_PLAYERS * 2);
  /** The matching's state: each pool card's holder, and each holder's load, capacity and mark. */
  private readonly holder = new Int32Array(64);
  private readonly load = new Int32Array(MAX_PLAYERS + 1);
  private readonly cap = new Int32Array(MAX_PLAYERS + 1);
  private readonly seen = new Uint8Array(MAX_PLAYERS + 1);
  private readonly ctx: DealContext = { dealer: 0, potBefore: 0 };

  /** Worlds built by matching so far (rejection gave up on them). */
  built = 0;

  /** `rejectionTries`: uniform proposals before a deal is built (0 builds at once; for tests). */
  constructor(private readonly rejectionTries = REJECTION_TRIES) {}

  /** The unseen cards in `lane` (0 tarocks, 1 suits) that `seat` cannot hold, as of the last `sample`. */
  forbiddenIn(seat: number, lane: number): number {
    return this.forbidden[seat * 2 + lane];
  }

  sample(obs: AnderleView, rng: Rng, out: AnderleState, watcher?: HistoryWatcher<AnderleState>): void {
    if (!this.sameView(obs)) this.prepare(obs, out);
    const n = obs.seats;
    const size = this.size;
    const total = this.total;
    const pool = this.pool;
    const need = this.need;
    const forbidden = this.forbidden;
    // Every call draws from the pool in increasing code order, as if prepared afresh.
    pool.set(this.sorted);
    for (let tries = 0; tries < this.rejectionTries; tries++) {
      // A partial Fisher-Yates: the first `total` cards of the pool, uniformly. Each card
      // is checked against the seat it goes to as soon as it is drawn; the shuffle still
      // runs to the end, so that the pool and the stream go on exactly as before.
      let ok = true;
      for (let seat = 0, left = need[0], i = 0; i < total; i++) {
        while (left === 0) left = need[++seat];
        left--;
        const j = i + rng.below(size - i);
        const c = pool[j];
        pool[j] = pool[i];
        pool[i] = c;
        if (((forbidden[seat * 2 + (c >>> 5)] >>> (c & 31)) & 1) !== 0) ok = false;
      }
      if (!ok) continue;
      if (watcher === undefined) {
        this.build(n, out);
        return;
      }
      this.dealHands(n);
      if (this.replay(obs, out, watcher)) return;
    }
    this.built++;
    const me = obs.seat;
    if (!this.match(n, size, rng)) throw new Error(`vier-anderle sampler: no deal fits what seat ${me} has seen`);
    this.mix(size, rng);
    const base = this.base;
    this.hands.set(base);
    for (let i = 0; i < size; i++) {
      const h = this.holder[i];
      if (h !== OUT) this.hands[h * LANES + (pool[i] >>> 5)] |= 1 << (pool[i] & 31);
    }
    if (!this.replay(obs, out, watcher))
      throw new Error(`vier-anderle sampler: a built deal for seat ${me} does not replay`);
  }

  /**
   * Whether `obs` shows what the view of the last `prepare` showed: the same seat, deal
   * context, hand and history (so the same seen cards, pool and forbidden sets). Search
   * bots sample one view many times in a row; this compares it in a few dozen reads.
   */
  private sameView(obs: AnderleView): boolean {
    const key = this.key;
    const head = this.head;
    writeHead(obs, head);
    for (let i = 0; i < KEY_HEAD; i++) if (key[i] !== head[i]) return false;
    const plies = obs.plies;
    for (let ply = 0; ply < plies; ply++)
      if (key[KEY_HEAD + ply] !== (obs.move(ply) | (obs.moveSeat(ply) << 8))) return false;
    return true;
  }

  /**
   * What every world of `obs` shares: the cards seen, the pool of unseen cards in code
   * order, each seat's number of unseen cards, the forbidden sets, and `out` after the
   * history with only the seen cards in the hands (`played`: play never looks at the
   * other cards), from which `build` makes each world.
   */
  private prepare(obs: AnderleView, out: AnderleState): void {
    const me = obs.seat;
    const n = obs.seats;
    const base = this.base;
    base.fill(0);
    for (let l = 0; l < LANES; l++) base[me * LANES + l] = obs.handLane(l);
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      if (m >= 96) continue; // a declaration
      base[obs.moveSeat(ply) * LANES + (m >>> 5)] |= 1 << (m & 31);
    }
    const t = packLane(obs.pips, 0);
    const s = packLane(obs.pips, 1);
    let unseenT = t;
    let unseenS = s;
    for (let seat = 0; seat < n; seat++) {
      unseenT &= ~base[seat * LANES];
      unseenS &= ~base[seat * LANES + 1];
    }
    // The pool in increasing code order, by the set bits alone.
    let size = 0;
    for (let m = unseenT; m !== 0; m &= m - 1) this.sorted[size++] = lowestBit(m);
    for (let m = unseenS; m !== 0; m &= m - 1) this.sorted[size++] = 32 | lowestBit(m);
    let total = 0;
    for (let seat = 0; seat < n; seat++) {
      const have = popcount(base[seat * LANES]) + popcount(base[seat * LANES + 1]);
      this.need[seat] = seat === me ? 0 : HAND - have;
      total += this.need[seat];
    }
    this.size = size;
    this.total = total;
    this.ctx.dealer = obs.dealer;
    this.ctx.potBefore = obs.potBefore;
    this.findForbidden(obs, out, unseenT, unseenS);
    this.played.set(out.m);
    const key = this.key;
    writeHead(obs, key);
    for (let ply = 0; ply < obs.plies; ply++) key[KEY_HEAD + ply] = obs.move(ply) | (obs.moveSeat(ply) << 8);
  }

  /** `hands`: the seen cards plus the first `total` cards of the pool, dealt seat by seat. */
  private dealHands(n: number): void {
    const { hands, pool, need } = this;
    hands.set(this.base);
    for (let seat = 0, k = 0; seat < n; seat++) {
      for (let i = 0; i < need[seat]; i++, k++) hands[seat * LANES + (pool[k] >>> 5)] |= 1 << (pool[k] & 31);
    }
  }

  /**
   * The world of the first `total` cards of the pool, dealt seat by seat, in `out`,
   * without replaying the history: `out` after the history with the seen cards
   * (`played`), with each seat's unseen cards added to its hand now, its starting hand
   * and its count (the unseen cards were never played). These are the only words of
   * the state that depend on the hands, so `out` is what the replay would make; and the
   * replay's check is not needed, as a deal that keeps the forbidden sets replays.
   */
  private build(n: number, out: AnderleState): void {
    const { pool, need } = this;
    out.m.set(this.played);
    for (let seat = 0, k = 0; seat < n; seat++) {
      let t = 0;
      let s = 0;
      for (let i = need[seat]; i > 0; i--, k++) {
        const c = pool[k];
        const bit = 1 << (c & 31);
        const suit = -(c >>> 5); // -1 for a suit card: lane 1
        t |= bit & ~suit;
        s |= bit & suit;
      }
      out.addUnseen(seat, t, s, need[seat]);
    }
  }

  /**
   * The forbidden sets (see the module doc), by seat and lane, from the public history
   * replayed in `out` with only the cards seen (play never looks at the other cards).
   */
  private findForbidden(obs: AnderleView, out: AnderleState, unseenT: number, unseenS: number): void {
    const forbidden = this.forbidden;
    forbidden.fill(0);
    out.begin(this.ctx, this.base);
    let led = -1; // the suit led, or -1 for tarocks
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      if (m < 96) {
        const seat = obs.moveSeat(ply);
        const lane = m >>> 5;
        if (out.trickCards === 0) {
          led = lane === 0 ? -1 : (m & 31) >>> 3;
        } else {
          const suit = lane === 0 ? -1 : (m & 31) >>> 3;
          const ledCards = led < 0 ? 0 : unseenS & SUIT_MASK[led];
          let t = 0;
          let s = 0;
          if (suit === led) {
            // Followed: no card of the lane that would have headed, if this one did not.
            if (!out.heads(m)) {
              if (led < 0) t = this.heading(out, 0, unseenT);
              else s = this.heading(out, 1, ledCards);
            }
          } else if (lane === 0) {
            // A tarock on a suit: void in the suit, and no higher tarock if this one did not head.
            s = ledCards;
            if (!out.heads(m)) t = this.heading(out, 0, unseenT);
          } else {
            // Another suit: void in the suit led and in tarocks.
            s = ledCards;
            t = unseenT;
          }
          forbidden[seat * 2] |= t;
          forbidden[seat * 2 + 1] |= s;
        }
      }
      out.apply(m);
    }
  }

  /** The cards of `mask` in `lane` that would now head the trick in `out`. */
  private heading(out: AnderleState, lane: number, mask: number): number {
    let heads = 0;
    for (let m = mask; m !== 0; m &= m - 1) {
      if (out.heads((lane << 5) | lowestBit(m))) heads |= m & -m;
    }
    return heads;
  }

  /**
   * Give every unseen card `pool[0 .. size)` a holder (`holder[i]`: a seat, or `OUT`)
   * so that each seat gets `need` cards none of them forbidden to it (augmenting paths,
   * cards in random order); false if no such deal exists.
   */
  private match(n: number, size: number, rng: Rng): boolean {
    const { holder, load, cap } = this;
    let total = 0;
    for (let h = 0; h < n; h++) {
      cap[h] = this.need[h];
      total += cap[h];
      load[h] = 0;
    }
    cap[OUT] = size - total;
    load[OUT] = 0;
    holder.fill(-1, 0, size);
    shuffle(this.pool, size, rng);
    for (let i = 0; i < size; i++) {
      this.seen.fill(0);
      if (!this.augment(i, n, size)) return false;
    }
    return true;
  }

  /** Find card i a holder, moving other cards along an augmenting path if need be. */
  private augment(i: number, n: number, size: number): boolean {
    const { holder, load, cap, seen } = this;
    for (let h = 0; h <= OUT; h++) {
      if ((h >= n && h !== OUT) || seen[h] === 1 || cap[h] === 0 || !this.allowed(this.pool[i], h)) continue;
      seen[h] = 1;
      if (load[h] < cap[h]) {
        holder[i] = h;
        load[h]++;
        return true;
      }
      for (let j = 0; j < size; j++) {
        if (holder[j] === h && this.augment(j, n, size)) {
          holder[i] = h; // card j moved on: card i takes its place, h's load unchanged
          return true;
        }
      }
    }
    return false;
  }

  /** Random swaps of two cards between holders that both may hold the other's card. */
  private mix(size: number, rng: Rng): void {
    const { holder, pool } = this;
    for (let k = MIX_SWAPS * size; k > 0; k--) {
      const i = rng.below(size);
      const j = rng.below(size);
      const a = holder[i];
      const b = holder[j];
      if (a !== b && this.allowed(pool[i], b) && this.allowed(pool[j], a)) {
        holder[i] = b;
        holder[j] = a;
      }
    }
  }

  /** Whether holder `h` (a seat, or `OUT`) may hold card `c`. */
  private allowed(c: number, h: number): boolean {
    return h === OUT || ((this.forbidden[h * 2 + (c >>> 5)] >>> (c & 31)) & 1) === 0;
  }

  /** Begin the world and replay the history; false as soon as a move is illegal in it. */
  private replay(obs: AnderleView, out: AnderleState, watcher: HistoryWatcher<AnderleState> | undefined): boolean {
    out.begin(this.ctx, this.hands);
    const legal = this.legal;
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      out.legal(legal, 0);
      if (((legal[m >>> 5] >>> (m & 31)) & 1) === 0) return false;
      watcher?.before(out, ply, m);
      out.apply(m);
    }
    return true;
  }
}
