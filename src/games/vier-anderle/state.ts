/**
 * One Vier-Anderle hand (RULES.md) for 2 to 13 seats, each for himself.
 *
 * The hand knows the pot before the dealer's ante (`potBefore`, public, from the
 * session). With an empty pot it is a type-1 hand: everyone plays. Otherwise it
 * is a type-2 hand: every seat from forehand round to the dealer answers
 * `Decision.Declare` (YES = in), then the seats in play (A-7: none in, the hand is
 * void; one in, he takes the pot without play; if forehand is out, the first seat in
 * after the dealer leads). Play is 4 tricks among the seats in, in seat order.
 *
 * ## Following, exactly as `legal` applies it
 *
 * The duties first: hold the suit led (tarocks led count as a suit), play it; void,
 * play a tarock; void in both, anything. Then, among the cards the duties allow, if any
 * heads the trick (is stronger than every card in it so far), only those that head are
 * legal. Strength: any tarock beats every suit card, a higher tarock a lower one; a card
 * of the suit led beats a lower card of that suit; a card of another suit never heads.
 * So holding the suit led after a tarock lies, any card of the suit is legal.
 *
 * ## What play shows (`voids`, public)
 *
 * Bit 0: no tarock (failed to play one on a tarock lead, or discarded a suit card on
 * a suit lead while void); bit 1 + s: void in suit s. The heading duty shows more (a
 * lower tarock played shows no tarock that would have headed); the sampler does not
 * rely on `voids` alone but replays every move under `legal` (sample.ts).
 *
 * Everything lives in numbers and typed arrays owned by the state; `apply` and `legal`
 * allocate nothing.
 */
import { bitsAbove, popcount } from '../../core/bits.js';
import { Slab } from '../../core/slab.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import { Decision, NO, YES, type DecisionKind, type State } from '../game.js';
import { SUIT_MASK, TAROCK_LANE, codeName, fullPack } from './cards.js';
import { AnderleView } from './view.js';
import { keepOnePerRun } from '../interchangeable.js';

export const MIN_SEATS = 2;
export const MAX_SEATS = 13;
export const HAND = 4;
export const ANTE = 4;
/** Declarations (at most one per seat) and cards (4 per seat). */
const MAX_PLIES = MAX_SEATS * (HAND + 1);
/** Lane-3 mask of the two yes/no answers. */
/** The search measure is tricks, so every card is worth the same to it. */
const NO_VALUE = new Uint8Array(128);
/** Each suit byte of lane 1 starts a new run of strength. */
const RUN_BREAKS = new Int32Array([0, 0x01010101, 0, 0]);
const YES_NO = (1 << (YES & 31)) | (1 << (NO & 31));

/** How a hand ended. */
export const Outcome = { Playing: 0, Played: 1, Void: 2, Sole: 3 } as const;

/** What the session tells a hand, all public. */
export interface DealContext {
  dealer: number;
  /** The pot before the dealer's ante: 0 makes a type-1 hand. */
  potBefore: number;
}

export class AnderleState implements State {
  /** Every array below lives in this one buffer: copyFrom is one copy. */
  private readonly slab = new Slab();
  readonly seats: number;
  /** Whether the 16 pip cards are in the pack. */
  readonly pips: boolean;

  dealer = 0;
  forehand = 1;
  /** 1 (empty pot, A-5) or 2. */
  type = 1;
  potBefore = 0;
  /** The pot after the dealer's ante: each trick pays a quarter of it, each loser pays it. */
  pot = ANTE;

  readonly hands = this.slab.int32(MAX_SEATS * LANES);
  readonly dealt = this.slab.int32(MAX_SEATS * LANES);
  readonly handCount = this.slab.int8(MAX_SEATS);
  /** -1 not yet declared, 0 out, 1 in (type-1 hands: everyone 1). */
  readonly declared = this.slab.int8(MAX_SEATS);
  /** Seats in play (after the declarations). */
  players = 0;

  toMove = -1;
  decision: DecisionKind = Decision.None;
  outcome: number = Outcome.Playing;
  soleSeat = -1;
  trick = 0;
  pos = 0;
  leader = 0;
  /** -1: tarocks led; 0..3: that suit. */
  ledSuit = -1;
  /** 64 + bit for a tarock, the lane-1 bit for a card of the suit led. */
  bestStrength = -1;
  bestSeat = 0;

  readonly moves = this.slab.int32(MAX_PLIES);
  readonly moveSeats = this.slab.int8(MAX_PLIES);
  plies = 0;
  readonly trickStart = this.slab.int8(HAND);
  readonly trickLeader = this.slab.int8(HAND);
  readonly trickWinner = this.slab.int8(HAND);
  readonly seatTricks = this.slab.int32(MAX_SEATS);
  readonly voids = this.slab.int32(MAX_SEATS);
  /** At the end: each seat's money change this hand (the dealer's ante included). */
  readonly delta = this.slab.int32(MAX_SEATS);

  private readonly views: AnderleView[];
  /** Scratch for searchMoves: every card still in a hand or the trick, by lane. */
  private readonly live = new Int32Array(LANES);

  constructor(seats: number, pips: boolean) {
    if (!(seats >= MIN_SEATS && seats <= MAX_SEATS)) throw new RangeError(`vier-anderle: ${seats} seats`);
    if (!pips && seats * HAND > 38) throw new RangeError(`vier-anderle: ${seats} seats need the pips`);
    this.seats = seats;
    this.pips = pips;
    this.slab.seal();
    this.views = Array.from({ length: seats }, (_, seat) => new AnderleView(this, seat));
  }

  /** Shuffle the pack and deal 4 cards to each seat from forehand on; the rest is out of play. */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    const [t, s] = fullPack(this.pips);
    let n = 0;
    for (let b = 0; b < 32; b++) if ((t >>> b) & 1) deck[n++] = b;
    for (let b = 0; b < 32; b++) if ((s >>> b) & 1) deck[n++] = 32 | b;
    for (let i = n - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const x = deck[i];
      deck[i] = deck[j];
      deck[j] = x;
    }
    const dealt = this.dealt;
    dealt.fill(0);
    const seats = this.seats;
    for (let i = 0; i < seats * HAND; i++) {
      const seat = (ctx.dealer + 1 + (i % seats)) % seats;
      const c = deck[i];
      dealt[seat * LANES + (c >>> 5)] |= 1 << (c & 31);
    }
    this.begin(ctx, dealt);
  }

  /** Start the hand from given hands (a sampled world, a test position). */
  begin(ctx: DealContext, hands: Int32Array): void {
    const n = this.seats;
    for (let i = 0; i < MAX_SEATS * LANES; i++) this.hands[i] = this.dealt[i] = i < n * LANES ? hands[i] : 0;
    this.dealer = ctx.dealer;
    this.forehand = (ctx.dealer + 1) % n;
    this.potBefore = ctx.potBefore;
    this.pot = ctx.potBefore + ANTE;
    this.type = ctx.potBefore === 0 ? 1 : 2;
    for (let seat = 0; seat < MAX_SEATS; seat++) {
      this.handCount[seat] = seat < n ? popcount(this.hands[seat * LANES]) + popcount(this.hands[seat * LANES + 1]) : 0;
      this.declared[seat] = this.type === 1 ? 1 : -1;
      this.seatTricks[seat] = 0;
      this.voids[seat] = 0;
      this.delta[seat] = 0;
    }
    this.outcome = Outcome.Playing;
    this.soleSeat = -1;
    this.plies = 0;
    this.trick = 0;
    this.pos = 0;
    this.toMove = this.leader = this.bestSeat = this.forehand;
    this.ledSuit = -1;
    this.bestStrength = -1;
    if (this.type === 1) {
      this.startPlay();
    } else {
      this.players = 0;
      this.decision = Decision.Declare;
    }
  }

  private startPlay(): void {
    const n = this.seats;
    let count = 0;
    let first = -1;
    for (let i = 1; i <= n; i++) {
      const seat = (this.dealer + i) % n;
      if (this.declared[seat] === 1) {
        count++;
        if (first < 0) first = seat;
      }
    }
    this.players = count;
    if (count === 0) {
      this.outcome = Outcome.Void;
      this.end();
    } else if (count === 1) {
      this.outcome = Outcome.Sole;
      this.soleSeat = first;
      this.end();
    } else {
      this.decision = Decision.Card;
      this.toMove = this.leader = this.bestSeat = first;
      this.ledSuit = -1;
      this.bestStrength = -1;
    }
  }

  isTerminal(): boolean {
    return this.decision === Decision.None;
  }

  legal(out: Int32Array, off: number): number {
    out[off] = out[off + 1] = out[off + 2] = out[off + 3] = 0;
    if (this.decision === Decision.None) return 0;
    if (this.decision === Decision.Declare) {
      out[off + 3] = YES_NO;
      return 2;
    }
    const h = this.toMove * LANES;
    const t = this.hands[h];
    const s = this.hands[h + 1];
    if (this.pos === 0) {
      out[off] = t;
      out[off + 1] = s;
      return this.handCount[this.toMove];
    }
    // the duties.
    const led = this.ledSuit;
    let a0 = 0;
    let a1 = 0;
    if (led < 0) {
      if (t !== 0) a0 = t;
      else a1 = s;
    } else {
      const follow = s & SUIT_MASK[led];
      if (follow !== 0) a1 = follow;
      else if (t !== 0) a0 = t;
      else a1 = s;
    }
    // among those, head the trick if any can.
    const best = this.bestStrength;
    let h0: number;
    let h1: number;
    if (best >= 64) {
      h0 = a0 & bitsAbove(best - 64);
      h1 = 0;
    } else {
      h0 = a0; // any tarock heads a trick of suit cards
      h1 = led >= 0 ? a1 & SUIT_MASK[led] & bitsAbove(best) : 0;
    }
    if ((h0 | h1) !== 0) {
      a0 = h0;
      a1 = h1;
    }
    out[off] = a0;
    out[off + 1] = a1;
    return popcount(a0) + popcount(a1);
  }

  /** Strength of `code` in the current trick: 64 + bit for a tarock, the bit for the suit led, else -1. */
  private strength(code: number): number {
    if (code >>> 5 === 0) return 64 + (code & 31);
    const bit = code & 31;
    return this.ledSuit >= 0 && bit >>> 3 === this.ledSuit ? bit : -1;
  }

  apply(move: number): void {
    const seat = this.toMove;
    this.moves[this.plies] = move;
    this.moveSeats[this.plies] = seat;
    this.plies++;
    const n = this.seats;
    if (this.decision === Decision.Declare) {
      this.declared[seat] = move === YES ? 1 : 0;
      if (seat === this.dealer) this.startPlay();
      else this.toMove = (seat + 1) % n;
      return;
    }
    const lane = move >>> 5;
    this.hands[seat * LANES + lane] &= ~(1 << (move & 31));
    this.handCount[seat]--;
    if (this.pos === 0) {
      this.leader = seat;
      this.trickStart[this.trick] = this.plies - 1;
      this.trickLeader[this.trick] = seat;
      this.ledSuit = lane === 0 ? -1 : (move & 31) >>> 3;
      this.bestSeat = seat;
      this.bestStrength = this.strength(move);
    } else {
      const led = this.ledSuit;
      if (led < 0) {
        if (lane !== 0) this.voids[seat] |= 1;
      } else if (lane === 0) {
        this.voids[seat] |= 1 << (1 + led);
      } else if ((move & 31) >>> 3 !== led) {
        this.voids[seat] |= 1 | (1 << (1 + led));
      }
      const st = this.strength(move);
      if (st > this.bestStrength) {
        this.bestStrength = st;
        this.bestSeat = seat;
      }
    }
    if (++this.pos < this.players) {
      let next = seat;
      do next = next + 1 === n ? 0 : next + 1;
      while (this.declared[next] !== 1);
      this.toMove = next;
    } else {
      const w = this.bestSeat;
      this.trickWinner[this.trick] = w;
      this.seatTricks[w]++;
      this.trick++;
      this.pos = 0;
      this.leader = w;
      if (this.trick === HAND) {
        this.outcome = Outcome.Played;
        this.end();
      } else {
        this.toMove = w;
      }
    }
  }

  /** The money of the hand, as each seat's change, the dealer's ante included. */
  private end(): void {
    this.decision = Decision.None;
    this.toMove = -1;
    const n = this.seats;
    for (let seat = 0; seat < n; seat++) this.delta[seat] = 0;
    this.delta[this.dealer] -= ANTE;
    const pot = this.pot;
    if (this.outcome === Outcome.Sole) {
      this.delta[this.soleSeat] += pot;
    } else if (this.outcome === Outcome.Played) {
      const quarter = pot / 4;
      for (let seat = 0; seat < n; seat++) {
        if (this.declared[seat] !== 1) continue;
        const k = this.seatTricks[seat];
        if (k === 0) this.delta[seat] -= pot;
        else if (this.type === 2) this.delta[seat] += k * quarter;
      }
    }
  }

  /**
   * Utility for search: the seat's money change in this hand (the dealer's ante
   * included), divided by a quarter of the pot after the ante (so a trick taken in a
   * type-2 hand is worth +1 and failing to take one -4). Not zero-sum among the seats:
   * the pot is the other party (seats + pot sum to zero, A-4).
   */
  returns(out: Float64Array): void {
    const q = this.pot / 4;
    for (let seat = 0; seat < this.seats; seat++) out[seat] = this.delta[seat] / q;
  }

  // ---- Exact search (game.ts, "Search support"): the measure is tricks. ----

  get trickCards(): number {
    return this.pos;
  }

  winning(): number {
    return this.pos === 0 || this.bestStrength < 0 ? -1 : this.bestSeat;
  }

  heads(move: number): boolean {
    return this.pos === 0 ? true : this.strength(move) > this.bestStrength;
  }

  /** The measure is tricks: no card is worth more than another. */
  worth(_move: number): number {
    return 0;
  }

  tricksLeft(): number {
    return this.decision === Decision.Card || this.decision === Decision.Declare ? HAND - this.trick : 0;
  }

  taken(seat: number): number {
    return this.seatTricks[seat];
  }

  inPlay(): number {
    return this.tricksLeft();
  }

  /**
   * Tricks surely won: the run of top tarocks among the seats in play that one party
   * holds wins a trick with each card, and one seat's cards fall to different tricks,
   * so the party surely takes as many tricks as its longest holding in the run.
   */
  sureTaken(inSide: Uint8Array, out: Int32Array): void {
    let live = 0;
    for (let seat = 0; seat < this.seats; seat++)
      if (this.declared[seat] === 1) live |= this.hands[seat * LANES + TAROCK_LANE];
    // The run: from the top down, while the holder is of the top card's party.
    let party = -1;
    let run = 0;
    while (live !== 0) {
      const top = 1 << (31 - Math.clz32(live));
      let owner = 0;
      while (this.declared[owner] !== 1 || (this.hands[owner * LANES + TAROCK_LANE] & top) === 0) owner++;
      const p = inSide[owner] === 1 ? 0 : 1;
      if (party < 0) party = p;
      else if (p !== party) break;
      run |= top;
      live ^= top;
    }
    let most = 0;
    for (let seat = 0; seat < this.seats; seat++) {
      if (this.declared[seat] === 1) most = Math.max(most, popcount(this.hands[seat * LANES + TAROCK_LANE] & run));
    }
    out[0] = party === 0 ? most : 0;
    out[1] = party === 1 ? most : 0;
  }

  searchMoves(out: Int32Array, off: number): number {
    const n = this.legal(out, off);
    if (n < 2 || this.decision !== Decision.Card) return n;
    const live = this.live;
    live[0] = live[1] = live[2] = live[3] = 0;
    for (let seat = 0; seat < this.seats; seat++) {
      if (this.declared[seat] !== 1) continue;
      live[0] |= this.hands[seat * LANES];
      live[1] |= this.hands[seat * LANES + 1];
    }
    for (let ply = this.plies - this.pos; ply < this.plies; ply++) {
      const c = this.moves[ply];
      live[c >>> 5] |= 1 << (c & 31);
    }
    return keepOnePerRun(out, off, live, NO_VALUE, RUN_BREAKS);
  }

  /** The two lanes of every hand in play, then who acts, the decision and who is in. */
  searchKey(out: Int32Array, off: number): number {
    const n = this.seats;
    let inMask = 0;
    for (let seat = 0; seat < n; seat++) {
      const playing = this.declared[seat] === 1;
      if (playing) inMask |= 1 << seat;
      out[off + 2 * seat] = playing ? this.hands[seat * LANES] : 0;
      out[off + 2 * seat + 1] = playing ? this.hands[seat * LANES + 1] : 0;
    }
    out[off + 2 * n] = (this.toMove & 15) | ((this.decision & 7) << 4) | (inMask << 7);
    return 2 * n + 1;
  }

  observe(seat: number): AnderleView {
    return this.views[seat];
  }

  copyFrom(o: AnderleState): void {
    this.slab.copyFrom(o.slab);
    this.dealer = o.dealer;
    this.forehand = o.forehand;
    this.type = o.type;
    this.potBefore = o.potBefore;
    this.pot = o.pot;
    this.players = o.players;
    this.toMove = o.toMove;
    this.decision = o.decision;
    this.outcome = o.outcome;
    this.soleSeat = o.soleSeat;
    this.trick = o.trick;
    this.pos = o.pos;
    this.leader = o.leader;
    this.ledSuit = o.ledSuit;
    this.bestStrength = o.bestStrength;
    this.bestSeat = o.bestSeat;
    this.plies = o.plies;
  }

  moveName(move: number): string {
    if (move === YES) return 'in';
    if (move === NO) return 'out';
    return codeName(move);
  }
}
