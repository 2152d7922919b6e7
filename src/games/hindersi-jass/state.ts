/**
 * One Hindersi-Jass deal (RULES.md C, J-1 to J-5) for 3 or 4 seats, each playing for
 * himself: the whole pack dealt (12 or 9 cards each), the dealer's last card turned
 * for trump, forehand leads any card, and the J-4 following rules.
 *
 * Everything lives in numbers and typed arrays owned by the state; `apply` and
 * `legal` allocate nothing, and `copyFrom` copies the arrays in place.
 *
 * ## Following (J-4), exactly as `legal` applies it
 *
 * Plain suit led:
 * - holding the suit led: any card of it, or a trump that is higher than every trump
 *   already in the trick (any trump while none lies in it);
 * - void in it: any card, an undertrump included.
 *
 * Trumps led:
 * - holding a trump other than the Puur: any trump (the Puur included: a player is
 *   never *forced* to play it, but may);
 * - holding no trump, or the Puur as the only trump: any card (the Puur included).
 *
 * **Decision** (the rule is silent): the Puur exception concerns trump leads only. On a
 * plain lead nobody is ever forced to trump, so it has nothing to excuse; the Puur may
 * over-trump like any trump (it always can: it is the highest card).
 *
 * ## What play reveals (the public `voids`)
 *
 * `voids[seat]` is a lane mask of what the seat's play has shown:
 * - a plain lane bit: void in that suit, shown by a discard on its lead or by an
 *   undertrump on its lead (illegal while holding the suit);
 * - the trump lane bit: **no trump except possibly the Puur**, shown by a non-trump on
 *   a trump lead. It is a full trump void once the Puur is placed elsewhere; the
 *   sampler (sample.ts) resolves it.
 * Over-trumping or following shows nothing.
 */
import { Slab } from '../../core/slab.js';
import { LANES, setSize } from '../../core/cardset.js';
import { bitsAbove, popcount } from '../../core/bits.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { Decision, type DecisionKind, type State } from '../game.js';
import { LAST_TRICK, PACK_POINTS, POINTS, PUUR_BIT, STRENGTH, TRUMP_LANE, codeName, toCode } from './cards.js';
import { JassView } from './view.js';
import { keepOnePerRun, liveCards, relativeKey, sureTopRun, valueKeys } from '../interchangeable.js';

export const MIN_SEATS = 3;
export const MAX_SEATS = 4;
/** Moves in a deal: every card of the pack, nothing else. */
const MAX_PLIES = PACK_SIZE;
const VALUE_KEYS = valueKeys(POINTS);
/** The trump lane without the Puur. */
const NOT_PUUR = ~(1 << PUUR_BIT);

/** Tricks (= cards per hand) at a table of `seats` (J-3): 9 with 4 players, 12 with 3. */
function tricksFor(seats: number): number {
  return PACK_SIZE / seats;
}

/**
 * What the match tells a deal, all public: the dealer and the Partie so far (J-6).
 * Play does not depend on it; bots may (the last deal of a Partie decides Striche).
 */
export interface DealContext {
  dealer: number;
  /** Index of this deal within its Partie (0 for the first). */
  partieDeal: number;
  /** Deals in a Partie: 4 with 4 players, 3 with 3. */
  partieDeals: number;
  /** Points charged to each seat in the Partie before this deal. */
  totals: ArrayLike<number>;
}

export class JassState implements State {
  /** Every array below lives in this one buffer: copyFrom is one copy. */
  private readonly slab = new Slab();
  readonly seats: number;
  /** Tricks in the deal, and cards in each hand at the start. */
  readonly tricks: number;

  // The deal, public except the hands.
  dealer = 0;
  forehand = 1;
  trump = 0;
  /** The turn-up's code; public, and known to be in the dealer's hand while `turnupHeld`. */
  turnup = 0;
  turnupHeld = true;
  partieDeal = 0;
  partieDeals = 4;
  readonly partieTotals = this.slab.int32(MAX_SEATS);

  /** Current hands, LANES masks per seat. */
  readonly hands = this.slab.int32(MAX_SEATS * LANES);
  /** Hands at the start of play (for records). */
  readonly dealt = this.slab.int32(MAX_SEATS * LANES);
  readonly handCount = this.slab.int8(MAX_SEATS);

  // Play.
  toMove = -1;
  decision: DecisionKind = Decision.None;
  trick = 0;
  /** Cards already in the current trick. */
  pos = 0;
  leader = 0;
  ledLane = 0;
  /** STRENGTH of the winning card so far: 16 + bit when a trump (the highest trump in the trick). */
  bestStrength = -1;
  bestSeat = 0;
  trickPoints = 0;

  /** Every card of the deal in order, and who played it. */
  readonly moves = this.slab.int32(MAX_PLIES);
  readonly moveSeats = this.slab.int8(MAX_PLIES);
  plies = 0;
  /** Per trick: the ply of its first card, its leader, winner and points (the last trick's 5 included). */
  readonly trickStart = this.slab.int8(12);
  readonly trickLeader = this.slab.int8(12);
  readonly trickWinner = this.slab.int8(12);
  readonly trickValue = this.slab.int16(12);

  /** Card points taken (J-2, the last trick's 5 included). */
  readonly seatPoints = this.slab.int32(MAX_SEATS);
  readonly seatTricks = this.slab.int32(MAX_SEATS);
  /** What each seat's play has shown (see the module doc). */
  readonly voids = this.slab.int32(MAX_SEATS);

  /** At the end: the seat that took every trick (J-5), or -1. */
  allTricks = -1;
  /** At the end: the points charged to each seat (J-5). */
  readonly charged = this.slab.int32(MAX_SEATS);

  private readonly views: JassView[];
  /** Scratch for searchMoves: every card still in a hand or the trick, by lane. */
  private readonly live = new Int32Array(LANES);

  constructor(seats: number) {
    if (!(seats >= MIN_SEATS && seats <= MAX_SEATS)) throw new RangeError(`hindersi-jass: ${seats} seats`);
    this.seats = seats;
    this.tricks = tricksFor(seats);
    this.slab.seal();
    this.views = Array.from({ length: seats }, (_, seat) => new JassView(this, seat));
  }

  /**
   * Shuffle and deal the whole pack (C-3, C-4, J-3): card i of the shuffled pack goes
   * to seat dealer+1+i, so the last (36 is a multiple of 3 and 4), the turn-up, is the
   * dealer's. Fisher-Yates runs from the top, where each position is final once
   * swapped, so trump is known first and every card is dealt as it is drawn.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    const n = this.seats;
    for (let i = 0; i < PACK_SIZE; i++) deck[i] = i;
    const dealt = this.dealt;
    for (let i = 0; i < MAX_SEATS * LANES; i++) dealt[i] = 0;
    let trump = 0;
    let seat = (ctx.dealer + PACK_SIZE) % n; // the seat of card 35: the dealer
    for (let i = PACK_SIZE - 1; i >= 0; i--) {
      if (i > 0) {
        const j = rng.below(i + 1);
        const t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
      }
      if (i === PACK_SIZE - 1) trump = suitOf(deck[i]);
      const code = toCode(trump, deck[i]);
      dealt[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
      seat = seat === 0 ? n - 1 : seat - 1;
    }
    this.begin(ctx, trump, toCode(trump, deck[PACK_SIZE - 1]), dealt);
  }

  /** Start play from given hands (codes under `trump`), e.g. a sampled world or a test position. */
  begin(ctx: DealContext, trump: number, turnup: number, hands: Int32Array): void {
    const n = this.seats;
    for (let i = 0; i < MAX_SEATS * LANES; i++) this.hands[i] = this.dealt[i] = i < n * LANES ? hands[i] : 0;
    for (let seat = 0; seat < MAX_SEATS; seat++) {
      this.handCount[seat] = seat < n ? setSize(this.hands, seat * LANES) : 0;
      this.seatPoints[seat] = 0;
      this.seatTricks[seat] = 0;
      this.voids[seat] = 0;
      this.charged[seat] = 0;
      this.partieTotals[seat] = seat < n ? ctx.totals[seat] : 0;
    }
    this.dealer = ctx.dealer;
    this.forehand = (ctx.dealer + 1) % n;
    this.trump = trump;
    this.turnup = turnup;
    this.turnupHeld = true;
    this.partieDeal = ctx.partieDeal;
    this.partieDeals = ctx.partieDeals;
    this.toMove = this.forehand;
    this.decision = Decision.Card;
    this.trick = 0;
    this.pos = 0;
    this.leader = this.forehand;
    this.ledLane = TRUMP_LANE;
    this.bestStrength = -1;
    this.bestSeat = this.forehand;
    this.trickPoints = 0;
    this.plies = 0;
    this.allTricks = -1;
  }

  isTerminal(): boolean {
    return this.decision === Decision.None;
  }

  legal(out: Int32Array, off: number): number {
    if (this.decision === Decision.None) {
      out[off] = out[off + 1] = out[off + 2] = out[off + 3] = 0;
      return 0;
    }
    const hands = this.hands;
    const h = this.toMove * LANES;
    const trumps = hands[h];
    if (this.pos > 0) {
      const led = this.ledLane;
      if (led === TRUMP_LANE) {
        // J-4: trumps led. A trump besides the Puur obliges (any trump); the Puur alone does not.
        if ((trumps & NOT_PUUR) !== 0) {
          out[off] = trumps;
          out[off + 1] = out[off + 2] = out[off + 3] = 0;
          return popcount(trumps);
        }
      } else {
        const suit = hands[h + led];
        if (suit !== 0) {
          // J-4: follow suit, or trump above every trump already in the trick.
          const best = this.bestStrength;
          const over = best >= 16 ? trumps & bitsAbove(best - 16) : trumps;
          out[off] = over;
          out[off + 1] = led === 1 ? suit : 0;
          out[off + 2] = led === 2 ? suit : 0;
          out[off + 3] = led === 3 ? suit : 0;
          return popcount(over) + popcount(suit);
        }
      }
    }
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
    const lane = move >>> 5;
    this.hands[seat * LANES + lane] &= ~(1 << (move & 31));
    this.handCount[seat]--;
    if (seat === this.dealer && move === this.turnup) this.turnupHeld = false;
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
      const led = this.ledLane;
      const s = STRENGTH[led * 128 + move];
      if (lane !== led) {
        // A non-trump on a trump lead: no trump but possibly the Puur. A discard or an
        // undertrump on a plain lead: void in it. An over-trump shows nothing.
        if (led === TRUMP_LANE) this.voids[seat] |= 1;
        else if (lane !== TRUMP_LANE || s < this.bestStrength) this.voids[seat] |= 1 << led;
      }
      if (s > this.bestStrength) {
        this.bestStrength = s;
        this.bestSeat = seat;
      }
    }
    if (++this.pos < this.seats) {
      this.toMove = seat + 1 === this.seats ? 0 : seat + 1;
    } else {
      this.completeTrick();
    }
  }

  private completeTrick(): void {
    const w = this.bestSeat;
    const t = this.trick;
    const last = t + 1 === this.tricks;
    const value = this.trickPoints + (last ? LAST_TRICK : 0);
    this.trickWinner[t] = w;
    this.trickValue[t] = value;
    this.seatPoints[w] += value;
    this.seatTricks[w]++;
    this.trick = t + 1;
    this.pos = 0;
    this.leader = w;
    if (last) {
      this.end();
    } else {
      this.toMove = w;
    }
  }

  /** J-5: the charges. A player with every trick is charged 0, every other player 157. */
  private end(): void {
    this.decision = Decision.None;
    this.toMove = -1;
    this.allTricks = -1;
    for (let seat = 0; seat < this.seats; seat++) if (this.seatTricks[seat] === this.tricks) this.allTricks = seat;
    for (let seat = 0; seat < this.seats; seat++) {
      this.charged[seat] = this.allTricks < 0 ? this.seatPoints[seat] : seat === this.allTricks ? 0 : PACK_POINTS;
    }
  }

  /**
   * Utility for search: (the mean charge of the other seats - own charge) / 157.
   * Zero-sum and within [-1, 1]. In a normal deal the charges sum to 157, so this is
   * (157 - n x) / ((n - 1) 157) for own points x: every point taken costs the same,
   * and 0 points is worth 1/(n-1). Taking every trick is the big swing: +1 for the
   * taker (better than any normal deal), -1/(n-1) for each other seat (as bad as
   * taking 157/2 points with 4 players). The Partie totals are not considered: the
   * utility is the deal's alone.
   */
  returns(out: Float64Array): void {
    const n = this.seats;
    let sum = 0;
    for (let seat = 0; seat < n; seat++) sum += this.charged[seat];
    for (let seat = 0; seat < n; seat++) {
      const own = this.charged[seat];
      out[seat] = ((sum - own) / (n - 1) - own) / PACK_POINTS;
    }
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points, the last 5 included. ----

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
    return this.tricks - this.trick;
  }

  taken(seat: number): number {
    return this.seatPoints[seat];
  }

  inPlay(): number {
    let kept = 0;
    for (let s = 0; s < this.seats; s++) kept += this.seatPoints[s];
    return PACK_POINTS - kept;
  }

  /** The run of top trumps that one party holds (`sureTopRun`). */
  sureTaken(inSide: Uint8Array, out: Int32Array): void {
    sureTopRun(this.hands, MAX_SEATS, TRUMP_LANE, inSide, POINTS, out);
  }

  searchMoves(out: Int32Array, off: number): number {
    const n = this.legal(out, off);
    if (n < 2) return n;
    liveCards(this.live, this.hands, this.moves, this.plies - this.pos, this.plies);
    return keepOnePerRun(out, off, this.live, POINTS, null);
  }

  /** The cards left by relative strength (see `relativeKey`), then who acts. */
  searchKey(out: Int32Array, off: number): number {
    const n = relativeKey(this.hands, MAX_SEATS, LANES, VALUE_KEYS, out, off);
    out[off + n] = this.toMove & 7;
    return n + 1;
  }

  observe(seat: number): JassView {
    return this.views[seat];
  }

  copyFrom(o: JassState): void {
    this.slab.copyFrom(o.slab);
    this.dealer = o.dealer;
    this.forehand = o.forehand;
    this.trump = o.trump;
    this.turnup = o.turnup;
    this.turnupHeld = o.turnupHeld;
    this.partieDeal = o.partieDeal;
    this.partieDeals = o.partieDeals;
    this.toMove = o.toMove;
    this.decision = o.decision;
    this.trick = o.trick;
    this.pos = o.pos;
    this.leader = o.leader;
    this.ledLane = o.ledLane;
    this.bestStrength = o.bestStrength;
    this.bestSeat = o.bestSeat;
    this.trickPoints = o.trickPoints;
    this.plies = o.plies;
    this.allTricks = o.allTricks;
  }

  moveName(move: number): string {
    return codeName(this.trump, move);
  }

  /** Cards each seat holds now. */
  handSize(seat: number): number {
    return this.handCount[seat];
  }
}
