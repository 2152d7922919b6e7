/**
 * Determinization for Hindersche (the skeleton of ../trick/sample.ts): the unseen
 * cards (not in the observer's hand, not played, not the turn-up) are dealt uniformly
 * to the holders that may have them: each other player of the deal, as many as he
 * holds now and none of a suit he has shown to be void in, and, when fewer than four
 * play, the stack out of play as one more holder that may take any card (it holds all
 * undealt cards but the turn-up, which is public). The turn-up goes back to the
 * dealer while he still holds it (four players) or to the stack (fewer). Holders are
 * taken in playing order. Every world is equally likely.
 */
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { HistoryWatcher } from '../game.js';
import { LaneSampler, OUT_OF_PLAY } from '../trick/sample.js';
import { CARD_LANES, PACK } from './cards.js';
import { SEATS, type DealContext, type HinderscheState } from './state.js';
import type { HinderscheView } from './view.js';

export class HinderscheSampler extends LaneSampler {
  private readonly slate = new Int8Array(SEATS);
  private readonly ctx: DealContext = {
    dealer: 0,
    mask: 15,
    phase: 1,
    kind: 0,
    slate: this.slate,
    playoffFor: 0,
    playoffPlaces: 0,
    schleipfen: false,
  };

  constructor() {
    super(SEATS);
  }

  sample(obs: HinderscheView, rng: Rng, out: HinderscheState, watcher?: HistoryWatcher<HinderscheState>): void {
    const me = obs.seat;
    const trump = obs.trump;
    const holder = obs.turnupHolder;
    this.seen(obs, PACK.full, trump * LANES);
    this.placeTurnup(me, obs.turnup, holder, obs.turnupHeld);
    for (let k = 0; k < obs.players; k++) {
      const seat = obs.player(k);
      if (seat === me) continue;
      const size = obs.handSize(seat) - (seat === holder && obs.turnupHeld ? 1 : 0);
      this.addHolder(seat, size, obs.voids(seat) & ((1 << CARD_LANES) - 1));
    }
    const stackUnknown = holder < 0 ? obs.stackSize - 1 : 0;
    if (stackUnknown > 0) this.addHolder(OUT_OF_PLAY, stackUnknown, 0);
    if (!this.dealUnseen(rng)) throw new Error(`hindersche sampler: no world is consistent with seat ${me}'s view`);
    this.merge();

    const ctx = this.ctx;
    ctx.dealer = obs.dealer;
    ctx.mask = obs.mask;
    ctx.phase = obs.phase;
    ctx.kind = obs.kind;
    for (let s = 0; s < SEATS; s++) this.slate[s] = obs.slate(s);
    ctx.playoffFor = obs.playoffFor;
    ctx.playoffPlaces = obs.playoffPlaces;
    ctx.schleipfen = obs.schleipfen;
    out.begin(ctx, trump, obs.turnup, this.hands, this.stack);
    this.replay(obs, out, watcher);
  }
}
