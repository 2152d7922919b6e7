/**
 * Determinization for Hindersche: a full deal consistent with one seat's view.
 *
 * The unseen cards (not in the observer's hand, not played, not the turn-up) are dealt
 * uniformly to the holders that may have them: each other player of the deal, as many
 * as he holds now and none of a suit he has shown to be void in, and, when fewer than
 * four play, the stack out of play as one more holder that may take any card (it
 * holds all undealt cards but the turn-up, which is public). The turn-up goes back to
 * the dealer while he still holds it (four players) or to the stack (fewer). The deal
 * is then rebuilt from the start and the public history (cards and schleipfen
 * answers) replayed, so every derived quantity is recomputed by the rules that made it.
 */
import { LANES, newSets } from '../../core/cardset.js';
import { PACK_SIZE } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { NO, type HistoryWatcher } from '../game.js';
import { HandSampler } from '../deal-sampler.js';
import { CARD_LANES, toCode } from '../viersche/cards.js';
import { SEATS, type DealContext, type HinderscheState } from './state.js';
import type { HinderscheView } from './view.js';

/** FULL[trump * LANES + lane]: every card of the pack, as codes under that trump. */
const FULL = new Int32Array(4 * LANES);
for (let trump = 0; trump < 4; trump++) {
  for (let p = 0; p < PACK_SIZE; p++) {
    const code = toCode(trump, p);
    FULL[trump * LANES + (code >>> 5)] |= 1 << (code & 31);
  }
}

/** Holder index of the stack in the sampler's arrays (after up to three players). */
const STACK_HOLDER = SEATS - 1;

export class HinderscheSampler {
  private readonly hands = newSets(SEATS);
  private readonly stack = newSets(1);
  private readonly pool = newSets(1);
  private readonly unknown = newSets(SEATS);
  private readonly sizes = new Int32Array(SEATS);
  private readonly forbidden = new Int32Array(SEATS);
  private readonly outOff = new Int32Array(SEATS);
  private readonly holderSeat = new Int32Array(SEATS);
  private readonly dealer = new HandSampler(SEATS);
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

  sample(obs: HinderscheView, rng: Rng, out: HinderscheState, watcher?: HistoryWatcher<HinderscheState>): void {
    const me = obs.seat;
    const trump = obs.trump;
    const { hands, pool, stack } = this;
    hands.fill(0);
    stack.fill(0);
    for (let l = 0; l < LANES; l++) {
      const own = obs.handLane(l);
      hands[me * LANES + l] = own;
      pool[l] = FULL[trump * LANES + l] & ~own;
    }
    // Every card played goes back to its seat's starting hand.
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      if (m < NO) {
        const bit = 1 << (m & 31);
        hands[obs.moveSeat(ply) * LANES + (m >>> 5)] |= bit;
        pool[m >>> 5] &= ~bit;
      }
    }
    const t = obs.turnup;
    const holder = obs.turnupHolder;
    const tBit = 1 << (t & 31);
    if (holder < 0) {
      stack[t >>> 5] |= tBit; // C-4: out of play, public
      pool[t >>> 5] &= ~tBit;
    } else if (obs.turnupHeld && holder !== me) {
      hands[holder * LANES + (t >>> 5)] |= tBit;
      pool[t >>> 5] &= ~tBit;
    }

    let holders = 0;
    for (let k = 0; k < obs.players; k++) {
      const seat = obs.player(k);
      if (seat === me) continue;
      let size = obs.handSize(seat);
      if (seat === holder && obs.turnupHeld) size--;
      this.holderSeat[holders] = seat;
      this.sizes[holders] = size;
      this.forbidden[holders] = obs.voids(seat) & ((1 << CARD_LANES) - 1);
      this.outOff[holders] = holders * LANES;
      holders++;
    }
    const stackUnknown = holder < 0 ? obs.stackSize - 1 : 0;
    if (stackUnknown > 0) {
      this.holderSeat[holders] = -1;
      this.sizes[holders] = stackUnknown;
      this.forbidden[holders] = 0;
      this.outOff[holders] = STACK_HOLDER * LANES;
      holders++;
    }
    if (!this.dealer.deal(pool, 0, holders, this.sizes, this.forbidden, this.unknown, this.outOff, rng)) {
      throw new Error(`hindersche sampler: no world is consistent with seat ${me}'s view`);
    }
    for (let h = 0; h < holders; h++) {
      const seat = this.holderSeat[h];
      const off = this.outOff[h];
      if (seat < 0) for (let l = 0; l < LANES; l++) stack[l] |= this.unknown[off + l];
      else for (let l = 0; l < LANES; l++) hands[seat * LANES + l] |= this.unknown[off + l];
    }

    const ctx = this.ctx;
    ctx.dealer = obs.dealer;
    ctx.mask = obs.mask;
    ctx.phase = obs.phase;
    ctx.kind = obs.kind;
    for (let s = 0; s < SEATS; s++) this.slate[s] = obs.slate(s);
    ctx.playoffFor = obs.playoffFor;
    ctx.playoffPlaces = obs.playoffPlaces;
    ctx.schleipfen = obs.schleipfen;
    out.begin(ctx, trump, t, hands, stack);
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      watcher?.before(out, ply, m);
      out.apply(m);
    }
  }
}
