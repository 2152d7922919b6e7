/**
 * Determinization for Vier-Anderle by exact rejection: a world drawn uniformly among
 * the deals consistent with one seat's view.
 *
 * The observer's starting hand is its hand now plus the cards it played; every other
 * seat started with the cards it played plus unseen cards up to 4; the unseen cards are
 * those not in the observer's hand and not played (the hands of seats that declared
 * out and the cards out of play are never seen). A proposal deals the unseen cards
 * uniformly at random (a shuffle) to fill the other hands; it is accepted when every
 * declaration and card of the public history is legal in it (checked by replaying the
 * history under `legal`, which covers the voids and the heading duty of A-3 alike),
 * otherwise a new proposal is drawn. Rejection from a uniform proposal is uniform over
 * the accepted worlds. The void flags are checked first as a cheap filter. Hands are
 * 4 cards, so acceptance is high; after `MAX_TRIES` proposals the sampler throws.
 */
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { HistoryWatcher } from '../game.js';
import { SUIT_MASK, fullPack } from './cards.js';
import { HAND, MAX_SEATS, type AnderleState, type DealContext } from './state.js';
import type { AnderleView } from './view.js';

const MAX_TRIES = 200000;

export class AnderleSampler {
  private readonly base = new Int32Array(MAX_SEATS * LANES);
  private readonly hands = new Int32Array(MAX_SEATS * LANES);
  private readonly need = new Int32Array(MAX_SEATS);
  private readonly pool = new Uint8Array(64);
  private readonly legal = new Int32Array(LANES);
  private readonly ctx: DealContext = { dealer: 0, potBefore: 0 };

  sample(obs: AnderleView, rng: Rng, out: AnderleState, watcher?: HistoryWatcher<AnderleState>): void {
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
    const [t, s] = fullPack(obs.pips);
    let unseenT = t;
    let unseenS = s;
    for (let seat = 0; seat < n; seat++) {
      unseenT &= ~base[seat * LANES];
      unseenS &= ~base[seat * LANES + 1];
    }
    let size = 0;
    for (let b = 0; b < 32; b++) if ((unseenT >>> b) & 1) this.pool[size++] = b;
    for (let b = 0; b < 32; b++) if ((unseenS >>> b) & 1) this.pool[size++] = 32 | b;
    let total = 0;
    for (let seat = 0; seat < n; seat++) {
      let have = 0;
      for (let l = 0; l < 2; l++) {
        for (let m = base[seat * LANES + l]; m !== 0; m &= m - 1) have++;
      }
      this.need[seat] = seat === me ? 0 : HAND - have;
      total += this.need[seat];
    }
    this.ctx.dealer = obs.dealer;
    this.ctx.potBefore = obs.potBefore;
    const pool = this.pool;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      // A partial Fisher-Yates: the first `total` cards of the pool, uniformly.
      for (let i = 0; i < total; i++) {
        const j = i + rng.below(size - i);
        const x = pool[i];
        pool[i] = pool[j];
        pool[j] = x;
      }
      this.hands.set(base);
      let k = 0;
      let ok = true;
      for (let seat = 0; seat < n && ok; seat++) {
        for (let i = 0; i < this.need[seat]; i++) {
          const c = pool[k++];
          this.hands[seat * LANES + (c >>> 5)] |= 1 << (c & 31);
        }
        ok = this.voidsOk(obs, seat);
      }
      if (ok && this.replay(obs, out, watcher)) return;
    }
    throw new Error(`vier-anderle sampler: no consistent world found for seat ${me} in ${MAX_TRIES} tries`);
  }

  /** The unseen part of `seat`'s starting hand respects its public void flags. */
  private voidsOk(obs: AnderleView, seat: number): boolean {
    const v = obs.voids(seat);
    if (v === 0 || obs.handSize(seat) === 0) return true;
    // The cards it holds now are its starting hand without the cards it played; a
    // void shown is a void of the hand from then on, and the hand now is a subset.
    let tNow = this.hands[seat * LANES];
    let sNow = this.hands[seat * LANES + 1];
    for (let ply = 0; ply < obs.plies; ply++) {
      if (obs.moveSeat(ply) !== seat) continue;
      const m = obs.move(ply);
      if (m >= 96) continue;
      if (m >>> 5 === 0) tNow &= ~(1 << (m & 31));
      else sNow &= ~(1 << (m & 31));
    }
    if ((v & 1) !== 0 && tNow !== 0) return false;
    for (let suit = 0; suit < 4; suit++) if ((v >>> (1 + suit)) & 1 && (sNow & SUIT_MASK[suit]) !== 0) return false;
    return true;
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
