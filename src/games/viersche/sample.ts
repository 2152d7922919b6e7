/**
 * Determinization for Viersche: a full deal consistent with one seat's view.
 *
 * The unseen cards (not in the observer's hand, not played, not the turn-up while the
 * dealer still holds it) are dealt uniformly to the other seats, each getting as many
 * as it holds now and none of a suit it has shown to be void in. A face-down lead that
 * the observer has not seen is one more card of forehand's, who had no trump when he
 * led it (V-4). The deal is then rebuilt from the start and the public history
 * replayed, so every derived quantity (points, voids, claims) is recomputed by the
 * same rules that produced it.
 */
import { LANES, newSets, setSelect, setSize } from '../../core/cardset.js';
import { PACK_SIZE } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { HIDDEN, NO, type HistoryWatcher } from '../game.js';
import { HandSampler } from '../deal-sampler.js';
import { CARD_LANES, toCode } from './cards.js';
import { SEATS, type VierscheState } from './state.js';
import type { VierscheView } from './view.js';

/** FULL[trump * LANES + lane]: every card of the pack, as codes under that trump. */
const FULL = new Int32Array(4 * LANES);
for (let trump = 0; trump < 4; trump++) {
  for (let p = 0; p < PACK_SIZE; p++) {
    const code = toCode(trump, p);
    FULL[trump * LANES + (code >>> 5)] |= 1 << (code & 31);
  }
}

export class VierscheSampler {
  private readonly hands = newSets(SEATS);
  private readonly pool = newSets(1);
  private readonly unknown = newSets(SEATS);
  private readonly sizes = new Int32Array(SEATS);
  private readonly forbidden = new Int32Array(SEATS);
  private readonly outOff = new Int32Array(SEATS);
  private readonly holderSeat = new Int32Array(SEATS);
  private readonly dealer = new HandSampler(SEATS);
  private readonly ctx: { dealer: number; targets: [number, number]; secondDeal: boolean } = {
    dealer: 0,
    targets: [100, 100],
    secondDeal: false,
  };

  sample(obs: VierscheView, rng: Rng, out: VierscheState, watcher?: HistoryWatcher<VierscheState>): void {
    const me = obs.seat;
    const trump = obs.trump;
    const hands = this.hands;
    const pool = this.pool;
    hands.fill(0);
    for (let l = 0; l < LANES; l++) {
      const own = obs.handLane(l);
      hands[me * LANES + l] = own;
      pool[l] = FULL[trump * LANES + l] & ~own;
    }
    // Every card seen played goes back to its seat's starting hand.
    let hiddenLead = false;
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      if (m === HIDDEN) hiddenLead = true;
      else if (m < NO) {
        const bit = 1 << (m & 31);
        hands[obs.moveSeat(ply) * LANES + (m >>> 5)] |= bit;
        pool[m >>> 5] &= ~bit;
      }
    }
    const dealerHoldsTurnup = obs.turnupHeld && obs.dealer !== me;
    if (dealerHoldsTurnup) {
      const t = obs.turnup;
      hands[obs.dealer * LANES + (t >>> 5)] |= 1 << (t & 31);
      pool[t >>> 5] &= ~(1 << (t & 31));
    }

    let holders = 0;
    for (let seat = 0; seat < SEATS; seat++) {
      if (seat === me) continue;
      let size = obs.handSize(seat);
      if (hiddenLead && seat === obs.forehand) size++;
      if (dealerHoldsTurnup && seat === obs.dealer) size--;
      this.holderSeat[holders] = seat;
      this.sizes[holders] = size;
      this.forbidden[holders] = obs.voids(seat) & ((1 << CARD_LANES) - 1);
      this.outOff[holders] = holders * LANES;
      holders++;
    }
    if (!this.dealer.deal(pool, 0, holders, this.sizes, this.forbidden, this.unknown, this.outOff, rng)) {
      throw new Error(`viersche sampler: no world is consistent with seat ${me}'s view`);
    }
    let facedownCard = -1;
    for (let h = 0; h < holders; h++) {
      const seat = this.holderSeat[h];
      for (let l = 0; l < LANES; l++) hands[seat * LANES + l] |= this.unknown[h * LANES + l];
      if (hiddenLead && seat === obs.forehand) {
        const off = h * LANES;
        facedownCard = setSelect(this.unknown, off, rng.below(setSize(this.unknown, off)));
      }
    }

    const ctx = this.ctx;
    ctx.dealer = obs.dealer;
    ctx.targets[0] = obs.target(0);
    ctx.targets[1] = obs.target(1);
    ctx.secondDeal = obs.secondDeal;
    out.begin(ctx, trump, obs.turnup, hands);
    for (let ply = 0; ply < obs.plies; ply++) {
      let m = obs.move(ply);
      if (m === HIDDEN) m = facedownCard;
      watcher?.before(out, ply, m);
      out.apply(m);
    }
  }
}
