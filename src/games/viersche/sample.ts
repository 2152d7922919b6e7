/**
 * Determinization for Viersche (the skeleton of ../trick/sample.ts): the unseen cards
 * (not in the observer's hand, not played, not the turn-up while the dealer still
 * holds it) are dealt uniformly to the other seats, each getting as many as it holds
 * now and none of a suit it has shown to be void in. A face-down lead that the
 * observer has not seen is one more card of forehand's, who had no trump when he led
 * it (V-4): once forehand's hand is drawn, the face-down card is drawn uniformly from
 * it. Every world is equally likely.
 */
import { LANES, setSelect, setSize } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { HistoryWatcher } from '../game.js';
import { LaneSampler } from '../trick/sample.js';
import { CARD_LANES, PACK } from './cards.js';
import { SEATS, type VierscheState } from './state.js';
import type { VierscheView } from './view.js';

export class VierscheSampler extends LaneSampler {
  private readonly ctx: { dealer: number; targets: [number, number]; secondDeal: boolean } = {
    dealer: 0,
    targets: [100, 100],
    secondDeal: false,
  };

  constructor() {
    super(SEATS);
  }

  sample(obs: VierscheView, rng: Rng, out: VierscheState, watcher?: HistoryWatcher<VierscheState>): void {
    const me = obs.seat;
    const trump = obs.trump;
    this.seen(obs, PACK.full, trump * LANES);
    this.placeTurnup(me, obs.turnup, obs.dealer, obs.turnupHeld);
    const hiddenLead = this.hidden > 0;
    const dealerHoldsTurnup = obs.turnupHeld && obs.dealer !== me;
    for (let seat = 0; seat < SEATS; seat++) {
      if (seat === me) continue;
      let size = obs.handSize(seat);
      if (hiddenLead && seat === obs.forehand) size++;
      if (dealerHoldsTurnup && seat === obs.dealer) size--;
      this.addHolder(seat, size, obs.voids(seat) & ((1 << CARD_LANES) - 1));
    }
    if (!this.dealUnseen(rng)) throw new Error(`viersche sampler: no world is consistent with seat ${me}'s view`);
    this.merge();
    let facedownCard = -1;
    if (hiddenLead) {
      for (let h = 0; h < this.holders; h++) {
        if (this.holderSeat[h] !== obs.forehand) continue;
        const off = h * LANES;
        facedownCard = setSelect(this.unknown, off, rng.below(setSize(this.unknown, off)));
      }
    }
    const ctx = this.ctx;
    ctx.dealer = obs.dealer;
    ctx.targets[0] = obs.target(0);
    ctx.targets[1] = obs.target(1);
    ctx.secondDeal = obs.secondDeal;
    out.begin(ctx, trump, obs.turnup, this.hands);
    this.replay(obs, out, watcher, facedownCard);
  }
}
