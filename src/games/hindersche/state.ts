/**
 * One Hindersche deal (RULES.md C, H-1, H-2, H-7): the card play of the seats taking
 * part, and the schleipfen decisions when that variant is on.
 *
 * Seats. The table has four seats; a deal is played by the seats in `mask` (all four
 * in phase 1, those still in during phase 2, the tied seats in a playoff). `toMove`
 * only ever names a seat of the deal, and a trick has as many cards as the deal has
 * players. With four players the whole pack is dealt and the dealer's last card is the
 * turn-up (C-4). With fewer, each gets 9 cards, the rest lie out of play face down
 * (the *stack*), and the stack's top card is turned: it belongs to nobody, it is
 * public, it fixes trump, and it is never played.
 *
 * Play (H-1): cards and strength as in Viersche (../viersche/cards.ts); the lead is
 * free; holding the suit led you follow or trump; void, anything; trumps led, holding
 * a trump you must play one. Undertrumping is allowed.
 *
 * Schleipfen (H-2, variant). After each trick (the ninth included: its points count),
 * the other players, in playing order from the winner, are asked `Decision.Schleipfe`
 * (YES: I take this trick) until one says YES. Every other player (the winner included,
 * the offerer not), in playing order from the offerer, is then asked `Decision.Object`
 * until one objects: an objection gives the trick to its winner, none gives it to the
 * offerer. The trick's *taker* keeps its points and leads next. Off, no decision but
 * cards is ever asked.
 * Decision: objections are asked from the seat after the offerer round to the seat
 * before him (H-2 says only "in playing order"). Decision: the ninth trick can be
 * taken over too, since it scores like any other.
 *
 * Utility (`returns`, for search): the mark consequences of the deal by the slate
 * rules (score.ts), relative to the other players of the deal, plus a small term for
 * card points:
 *
 *     u[s] = mean over the other players o of E[marks(o)] - E[marks(s)]
 *            + POINT_WEIGHT * (mean over o of points(o) - points(s)) / 140
 *
 * where marks are added (+) or erased (-) marks and E[] counts a tie left for a
 * playoff as a fair lottery over its places. The sum over the players is 0. A march
 * is thus worth its real consequences (in phase 1: +1 for the marcher, -1/3 for each
 * other); POINT_WEIGHT = 0.25 makes 140 points a quarter of a mark, so that among
 * deals with the same marks, fewer points are better. Seats outside the deal get 0.
 */
import { Slab } from '../../core/slab.js';
import { LANES, setSize } from '../../core/cardset.js';
import { popcount } from '../../core/bits.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { Decision, NO, YES, type DecisionKind, type State } from '../game.js';
import { POINTS, STRENGTH, TRUMP_LANE, codeName, toCode } from '../viersche/cards.js';
import { Kind, Settlement, TieFor, settle, type SlateContext } from './score.js';
import { HinderscheView } from './view.js';
import { keepOnePerRun, liveCards, relativeKey, sureTopRun, valueKeys } from '../interchangeable.js';

export const SEATS = 4;
export const TRICKS = 9;
const HAND_SIZE = 9;
export const PACK_POINTS = 140;
/** Relative card points (per 140) worth one mark in `returns`. */
export const POINT_WEIGHT = 0.25;
/** Moves in a deal: 36 cards at most, and per trick at most 3 offers and 3 objections. */
const MAX_PLIES = PACK_SIZE + TRICKS * 6;
const VALUE_KEYS = valueKeys(POINTS);

/** What the match tells a deal: who deals and plays, and the public slate context. */
export interface DealContext {
  dealer: number;
  /** The seats taking part, as a bit mask; it includes the dealer. */
  mask: number;
  /** 1 (Vier-Strich) or 2 (Butzen). */
  phase: number;
  /** Kind.Normal or Kind.Playoff. */
  kind: number;
  /** Marks by seat on the slate before the deal. */
  slate: ArrayLike<number>;
  /** For a playoff: TieFor.Most or TieFor.Fewest, and the places played for. */
  playoffFor: number;
  playoffPlaces: number;
  /** Variant H-2. */
  schleipfen: boolean;
}

export class HinderscheState implements State, SlateContext {
  /** Every array below lives in this one buffer: copyFrom is one copy. */
  private readonly slab = new Slab();
  readonly seats = SEATS;

  // The deal, public except the hands and the stack.
  dealer = 0;
  forehand = 1;
  mask = 15;
  players = 4;
  /** The deal's seats in playing order, forehand first (players entries). */
  readonly order = this.slab.int8(SEATS);
  /** The next seat of the deal after each seat (-1 for a seat not taking part). */
  readonly nextSeat = this.slab.int8(SEATS);
  phase = 1;
  kind: number = Kind.Normal;
  playoffFor: number = TieFor.None;
  playoffPlaces = 0;
  schleipfen = false;
  readonly slate = this.slab.int8(SEATS);

  trump = 0;
  /** The turn-up's code: public; the dealer's with four players, else in the stack. */
  turnup = 0;
  /** The seat holding the turn-up (the dealer with four players), or -1 (out of play). */
  turnupHolder = 0;
  turnupHeld = true;

  /** Current hands, LANES masks per seat. */
  readonly hands = this.slab.int32(SEATS * LANES);
  /** Hands at the start of play (for records). */
  readonly dealt = this.slab.int32(SEATS * LANES);
  readonly handCount = this.slab.int8(SEATS);
  /** The cards out of play (the turn-up among them when fewer than four play). */
  readonly stack = this.slab.int32(LANES);

  // Play.
  toMove = -1;
  decision: DecisionKind = Decision.None;
  /** Index of the current trick; it advances once the trick's taker is settled. */
  trick = 0;
  /** Cards in the current trick. */
  pos = 0;
  leader = 0;
  ledLane = 0;
  bestStrength = -1;
  bestSeat = 0;
  trickPoints = 0;
  /** During the objections of H-2: the seat that offered to take the trick; else -1. */
  offerer = -1;

  readonly moves = this.slab.int32(MAX_PLIES);
  readonly moveSeats = this.slab.int8(MAX_PLIES);
  plies = 0;
  /** Per trick: the ply of its first card, its leader, winner, taker, points, and H-2. */
  readonly trickStart = this.slab.int8(TRICKS);
  readonly trickLeader = this.slab.int8(TRICKS);
  readonly trickWinner = this.slab.int8(TRICKS);
  readonly trickTaker = this.slab.int8(TRICKS);
  readonly trickValue = this.slab.int16(TRICKS);
  /** The seat that offered to take each trick, or -1; and the seat that objected, or -1. */
  readonly trickOfferer = this.slab.int8(TRICKS);
  readonly trickObjector = this.slab.int8(TRICKS);

  /** Card points kept by each seat (by taker). */
  readonly seatPoints = this.slab.int32(SEATS);
  /** Tricks kept by each seat (after any schleipfe). */
  readonly tricksKept = this.slab.int8(SEATS);
  /** Lanes each seat has shown to be void in. */
  readonly voids = this.slab.int32(SEATS);

  private readonly views: HinderscheView[];
  private readonly settlement = new Settlement();
  /** Scratch for searchMoves: every card still in a hand or the trick, by lane. */
  private readonly live = new Int32Array(LANES);

  constructor() {
    this.slab.seal();
    this.views = Array.from({ length: SEATS }, (_, seat) => new HinderscheView(this, seat));
  }

  /**
   * Shuffle and deal (C-3, C-4, H-7). Fisher-Yates from the top fixes position 35
   * first: it is the turn-up, so trump is known before any other card is placed.
   * Position i < 9n goes to the i mod n-th player from forehand (with four players,
   * position 35 is then the dealer's last card); positions from 9n on are the stack.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    for (let i = 0; i < PACK_SIZE; i++) deck[i] = i;
    this.setup(ctx);
    const dealt = this.dealt;
    const stack = this.stack;
    for (let i = 0; i < SEATS * LANES; i++) dealt[i] = 0;
    for (let l = 0; l < LANES; l++) stack[l] = 0;
    const n = this.players;
    const inHands = n * HAND_SIZE;
    let trump = 0;
    for (let i = PACK_SIZE - 1; i >= 0; i--) {
      if (i > 0) {
        const j = rng.below(i + 1);
        const t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
      }
      if (i === PACK_SIZE - 1) trump = suitOf(deck[i]);
      const code = toCode(trump, deck[i]);
      if (i < inHands) dealt[this.order[i % n] * LANES + (code >>> 5)] |= 1 << (code & 31);
      else stack[code >>> 5] |= 1 << (code & 31);
    }
    this.start(trump, toCode(trump, deck[PACK_SIZE - 1]), dealt, stack);
  }

  /**
   * Start play from given hands and stack (codes under `trump`): a sampled world or a
   * test position. With four players `stack` is empty and `turnup` is in the dealer's
   * hand; with fewer it is in `stack`.
   */
  begin(ctx: DealContext, trump: number, turnup: number, hands: Int32Array, stack: Int32Array): void {
    this.setup(ctx);
    this.start(trump, turnup, hands, stack);
  }

  private setup(ctx: DealContext): void {
    const mask = ctx.mask & 15;
    if (((mask >>> ctx.dealer) & 1) === 0)
      throw new Error(`hindersche: dealer ${ctx.dealer} does not take part (mask ${mask})`);
    this.dealer = ctx.dealer;
    this.mask = mask;
    let n = 0;
    for (let k = 1; k <= SEATS; k++) {
      const s = (ctx.dealer + k) & 3;
      if ((mask >>> s) & 1) this.order[n++] = s;
    }
    if (n < 2) throw new Error('hindersche: a deal needs at least two players');
    this.players = n;
    for (let s = 0; s < SEATS; s++) this.nextSeat[s] = -1;
    for (let k = 0; k < n; k++) this.nextSeat[this.order[k]] = this.order[(k + 1) % n];
    this.forehand = this.order[0];
    this.phase = ctx.phase;
    this.kind = ctx.kind;
    this.playoffFor = ctx.kind === Kind.Playoff ? ctx.playoffFor : TieFor.None;
    this.playoffPlaces = ctx.kind === Kind.Playoff ? ctx.playoffPlaces : 0;
    this.schleipfen = ctx.schleipfen;
    for (let s = 0; s < SEATS; s++) this.slate[s] = ctx.slate[s];
  }

  private start(trump: number, turnup: number, hands: Int32Array, stack: Int32Array): void {
    for (let i = 0; i < SEATS * LANES; i++) this.hands[i] = this.dealt[i] = hands[i];
    for (let l = 0; l < LANES; l++) this.stack[l] = stack[l];
    for (let seat = 0; seat < SEATS; seat++) {
      this.handCount[seat] = setSize(this.hands, seat * LANES);
      this.seatPoints[seat] = 0;
      this.tricksKept[seat] = 0;
      this.voids[seat] = 0;
    }
    this.trump = trump;
    this.turnup = turnup;
    this.turnupHolder = this.players === SEATS ? this.dealer : -1;
    this.turnupHeld = this.players === SEATS;
    this.toMove = this.forehand;
    this.decision = Decision.Card;
    this.trick = 0;
    this.pos = 0;
    this.leader = this.forehand;
    this.ledLane = TRUMP_LANE;
    this.bestStrength = -1;
    this.bestSeat = this.forehand;
    this.trickPoints = 0;
    this.offerer = -1;
    this.plies = 0;
  }

  isTerminal(): boolean {
    return this.decision === Decision.None;
  }

  legal(out: Int32Array, off: number): number {
    if (this.decision !== Decision.Card) {
      const open = this.decision !== Decision.None;
      out[off] = out[off + 1] = out[off + 2] = 0;
      out[off + 3] = open ? (1 << (NO & 31)) | (1 << (YES & 31)) : 0;
      return open ? 2 : 0;
    }
    const hands = this.hands;
    const h = this.toMove * LANES;
    const trumps = hands[h];
    if (this.pos > 0) {
      const led = this.ledLane;
      const suit = hands[h + led];
      if (suit !== 0) {
        // H-1 (V-5): follow suit or trump; trumps led, a trump.
        out[off] = trumps;
        out[off + 1] = led === 1 ? suit : 0;
        out[off + 2] = led === 2 ? suit : 0;
        out[off + 3] = led === 3 ? suit : 0;
        return led === TRUMP_LANE ? popcount(trumps) : popcount(trumps) + popcount(suit);
      }
    }
    // H-1: any lead; void in the suit led, any card.
    out[off] = trumps;
    out[off + 1] = hands[h + 1];
    out[off + 2] = hands[h + 2];
    out[off + 3] = hands[h + 3];
    return this.handCount[this.toMove];
  }

  apply(move: number): void {
    const seat = this.toMove;
    this.moves[this.plies] = move;
    this.moveSeats[this.plies] = seat;
    this.plies++;
    const d = this.decision;
    if (d === Decision.Schleipfe) {
      const w = this.trickWinner[this.trick];
      if (move === YES) {
        this.offerer = seat;
        this.trickOfferer[this.trick] = seat;
        this.decision = Decision.Object;
        this.toMove = this.nextSeat[seat];
      } else {
        const next = this.nextSeat[seat];
        if (next === w) this.takeTrick(w);
        else this.toMove = next;
      }
      return;
    }
    if (d === Decision.Object) {
      if (move === YES) {
        this.trickObjector[this.trick] = seat;
        this.takeTrick(this.trickWinner[this.trick]);
      } else {
        const next = this.nextSeat[seat];
        if (next === this.offerer) this.takeTrick(this.offerer);
        else this.toMove = next;
      }
      return;
    }

    const lane = move >>> 5;
    this.hands[seat * LANES + lane] &= ~(1 << (move & 31));
    this.handCount[seat]--;
    if (seat === this.turnupHolder && move === this.turnup) this.turnupHeld = false;
    if (this.pos === 0) {
      this.leader = seat;
      this.trickStart[this.trick] = this.plies - 1;
      this.trickLeader[this.trick] = seat;
      this.trickPoints = POINTS[move];
      this.bestSeat = seat;
      this.ledLane = lane;
      this.bestStrength = STRENGTH[lane * 128 + move];
    } else {
      this.trickPoints += POINTS[move];
      const s = STRENGTH[this.ledLane * 128 + move];
      if (s > this.bestStrength) {
        this.bestStrength = s;
        this.bestSeat = seat;
      }
      // Neither following nor trumping shows a void in the suit led; anything else does.
      if (lane !== this.ledLane && lane !== TRUMP_LANE) this.voids[seat] |= 1 << this.ledLane;
    }
    if (++this.pos < this.players) {
      this.toMove = this.nextSeat[seat];
      return;
    }
    const t = this.trick;
    const w = this.bestSeat;
    this.trickWinner[t] = w;
    this.trickValue[t] = this.trickPoints;
    this.trickOfferer[t] = -1;
    this.trickObjector[t] = -1;
    if (this.schleipfen) {
      this.decision = Decision.Schleipfe;
      this.toMove = this.nextSeat[w];
    } else {
      this.takeTrick(w);
    }
  }

  private takeTrick(taker: number): void {
    const t = this.trick;
    this.trickTaker[t] = taker;
    this.seatPoints[taker] += this.trickValue[t];
    this.tricksKept[taker]++;
    this.offerer = -1;
    this.trick = t + 1;
    this.pos = 0;
    this.leader = taker;
    if (this.trick === TRICKS) {
      this.decision = Decision.None;
      this.toMove = -1;
    } else {
      this.decision = Decision.Card;
      this.toMove = taker;
    }
  }

  /** The slate consequences of the deal so far (final once terminal): see score.ts. */
  settle(out: Settlement): void {
    settle(this, this.seatPoints, this.tricksKept, out);
  }

  /** See the module doc: relative expected marks plus a small card-point term. */
  returns(out: Float64Array): void {
    const st = this.settlement;
    settle(this, this.seatPoints, this.tricksKept, st);
    const n = this.players;
    let marks = 0;
    let points = 0;
    for (let s = 0; s < SEATS; s++) {
      if (((this.mask >>> s) & 1) === 0) continue;
      marks += st.expected(s);
      points += this.seatPoints[s];
    }
    for (let s = 0; s < SEATS; s++) {
      if (((this.mask >>> s) & 1) === 0) {
        out[s] = 0;
        continue;
      }
      const e = st.expected(s);
      const p = this.seatPoints[s];
      out[s] = (marks - e) / (n - 1) - e + (POINT_WEIGHT * ((points - p) / (n - 1) - p)) / PACK_POINTS;
    }
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points kept. ----

  get trickCards(): number {
    return this.pos;
  }

  winning(): number {
    return this.pos === 0 || this.bestStrength < 0 ? -1 : this.bestSeat;
  }

  heads(move: number): boolean {
    return this.pos === 0 ? true : STRENGTH[this.ledLane * 128 + move] > this.bestStrength;
  }

  worth(move: number): number {
    return POINTS[move];
  }

  tricksLeft(): number {
    return TRICKS - this.trick;
  }

  taken(seat: number): number {
    return this.seatPoints[seat];
  }

  /** Everything not yet kept and not in the stack (a trick awaiting its taker included). */
  inPlay(): number {
    let out = 0;
    for (let l = 0; l < LANES; l++) {
      for (let m = this.stack[l]; m !== 0; m &= m - 1) out += POINTS[(l << 5) | (31 - Math.clz32(m & -m))];
    }
    let kept = 0;
    for (let s = 0; s < SEATS; s++) kept += this.seatPoints[s];
    return PACK_POINTS - out - kept;
  }

  /** The run of top trumps that one party holds (`sureTopRun`). */
  sureTaken(inSide: Uint8Array, out: Int32Array): void {
    sureTopRun(this.hands, SEATS, TRUMP_LANE, inSide, POINTS, out);
  }

  searchMoves(out: Int32Array, off: number): number {
    const n = this.legal(out, off);
    if (n < 2 || this.decision !== Decision.Card) return n;
    liveCards(this.live, this.hands, this.moves, this.plies - this.pos, this.plies);
    return keepOnePerRun(out, off, this.live, POINTS, null);
  }

  /** The cards left by relative strength (see `relativeKey`), then who acts. */
  searchKey(out: Int32Array, off: number): number {
    const n = relativeKey(this.hands, SEATS, LANES, VALUE_KEYS, out, off);
    out[off + n] = (this.toMove & 7) | ((this.decision & 7) << 3);
    return n + 1;
  }

  observe(seat: number): HinderscheView {
    return this.views[seat];
  }

  copyFrom(o: HinderscheState): void {
    this.slab.copyFrom(o.slab);
    this.dealer = o.dealer;
    this.forehand = o.forehand;
    this.mask = o.mask;
    this.players = o.players;
    this.phase = o.phase;
    this.kind = o.kind;
    this.playoffFor = o.playoffFor;
    this.playoffPlaces = o.playoffPlaces;
    this.schleipfen = o.schleipfen;
    this.trump = o.trump;
    this.turnup = o.turnup;
    this.turnupHolder = o.turnupHolder;
    this.turnupHeld = o.turnupHeld;
    this.toMove = o.toMove;
    this.decision = o.decision;
    this.trick = o.trick;
    this.pos = o.pos;
    this.leader = o.leader;
    this.ledLane = o.ledLane;
    this.bestStrength = o.bestStrength;
    this.bestSeat = o.bestSeat;
    this.trickPoints = o.trickPoints;
    this.offerer = o.offerer;
    this.plies = o.plies;
  }

  moveName(move: number): string {
    if (move === YES)
      return this.decision === Decision.Object ? 'object' : this.decision === Decision.Schleipfe ? 'schleipfe' : 'yes';
    if (move === NO)
      return this.decision === Decision.Object ? 'accept' : this.decision === Decision.Schleipfe ? 'pass' : 'no';
    return codeName(this.trump, move);
  }

  handSize(seat: number): number {
    return this.handCount[seat];
  }

  /** Whether `seat` takes part in this deal. */
  plays(seat: number): boolean {
    return ((this.mask >>> seat) & 1) === 1;
  }

  /** Cards out of play (the turn-up included when fewer than four play). */
  get stackSize(): number {
    return setSize(this.stack, 0);
  }
}
