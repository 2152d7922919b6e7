/**
 * One Hindersi-Jass deal (RULES.md C, J-1 to J-5) on the trick kernel
 * (../trick/state.ts) for 3 or 4 seats, each playing for himself: the whole pack dealt
 * (12 or 9 cards each), the dealer's last card turned for trump, forehand leads any
 * card, and the J-4 following rules.
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
import { LANES } from '../../core/cardset.js';
import * as bits from '../../core/bits.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import * as layout from '../trick/layout.js';
import { TrickState } from '../trick/state.js';
import { dealFour } from '../trick/french.js';
import { relativeKey, valueKeys } from '../trick/interchangeable.js';
import { LAST_TRICK, PACK, PACK_POINTS, POINTS, PUUR_BIT, codeName } from './cards.js';
import { JassView } from './view.js';

// Module-local copies of the layout's offsets and helpers (see ../trick/state.ts: faster in the hot path).
const { POP16 } = bits;
const {
  BEST,
  GAME,
  HANDS,
  LED,
  MAX_SEATS,
  POS,
  SEAT_GAME,
  T_VALUE,
  TAKEN,
  TO_MOVE,
  TRICK,
  TRICK_WORTH,
  TRICKS,
  VOIDS,
  WON,
} = layout;
const EFFECTIVE = PACK.effective;

export const MIN_SEATS = 3;
/** Seats at most: the layout's rows of a Jass state are this long. */
export const MAX_PLAYERS = 4;
/** Moves in a deal: every card of the pack, nothing else. */
const MAX_PLIES = PACK_SIZE;
const VALUE_KEYS = valueKeys(POINTS);
/** The pack in order, copied into the deck before each shuffle (one copy, not a loop). */
const UNSHUFFLED = Uint8Array.from({ length: PACK_SIZE }, (_, i) => i);
/** The trump lane without the Puur. */
const NOT_PUUR = ~(1 << PUUR_BIT);

// The game's words of the layout (../trick/layout.ts).
/** Index of this deal within its Partie, and the Partie's deals (J-6). */
const PARTIE_DEAL = GAME;
const PARTIE_DEALS = GAME + 1;
/** At the end: the seat that took every trick (J-5), or -1. */
const ALL_TRICKS = GAME + 2;
/** Points charged to each seat in the Partie before this deal. */
const PARTIE_TOTALS = SEAT_GAME;
/** At the end: the points charged to each seat (J-5). */
const CHARGED = SEAT_GAME + MAX_SEATS;

/** Tricks (= cards per hand) at a table of `seats` (J-3): 9 with 4 players, 12 with 3. */
function tricksFor(seats: number): number {
  return PACK_SIZE / seats;
}

/** Playing order by table size and dealer: forehand (the seat after the dealer) first. */
const ORDERS = [3, 4].map((n) =>
  Array.from({ length: n }, (_, dealer) => Int8Array.from({ length: n }, (_, k) => (dealer + 1 + k) % n)),
);

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

export class JassState extends TrickState<JassView> {
  /** Card points taken by each seat, the last trick's 5 included (a window on the state). */
  readonly seatPoints: Int32Array;
  /** Tricks taken by each seat (a window on the state). */
  readonly seatTricks: Int32Array;
  /** At the end: the points charged to each seat (J-5; a window on the state). */
  readonly charged: Int32Array;
  /** Points charged to each seat in the Partie before this deal (a window on the state). */
  readonly partieTotals: Int32Array;
  private readonly orders: readonly Int8Array[];
  /** The hands of a deal as it is dealt, before `begin`. */
  private readonly deck = new Int32Array(MAX_PLAYERS * LANES);

  constructor(seats: number) {
    if (!(seats >= MIN_SEATS && seats <= MAX_PLAYERS)) throw new RangeError(`hindersi-jass: ${seats} seats`);
    super({ seats, maxPlies: MAX_PLIES }, PACK, (state: JassState, seat) => new JassView(state, seat));
    this.seatPoints = this.m.subarray(TAKEN, TAKEN + seats);
    this.seatTricks = this.m.subarray(WON, WON + seats);
    this.charged = this.m.subarray(CHARGED, CHARGED + seats);
    this.partieTotals = this.m.subarray(PARTIE_TOTALS, PARTIE_TOTALS + seats);
    this.orders = ORDERS[seats - MIN_SEATS];
  }

  /**
   * Shuffle and deal the whole pack (C-3, C-4, J-3): card i of the shuffled pack goes
   * to seat dealer+1+i, so the last (36 is a multiple of 3 and 4), the turn-up, is the
   * dealer's. Fisher-Yates runs from the top, where each position is final once
   * swapped, so trump is known first and every card is dealt as it is drawn.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    const n = this.seats;
    deck.set(UNSHUFFLED);
    rng.shuffle(deck, PACK_SIZE);
    const trump = suitOf(deck[PACK_SIZE - 1]);
    const codes = trump * PACK_SIZE;
    const dealt = this.deck;
    if (n === 4) {
      dealFour(deck, EFFECTIVE, codes, ctx.dealer + 1, dealt);
      this.begin(ctx, trump, EFFECTIVE[codes + deck[PACK_SIZE - 1]], dealt);
      return;
    }
    for (let i = 0; i < MAX_PLAYERS * LANES; i++) dealt[i] = 0;
    // Card i goes to seat dealer + 1 + i (mod n): the last, the turn-up, to the dealer.
    for (let i = 0, seat = (ctx.dealer + 1) % n; i < PACK_SIZE; i++, seat = seat + 1 === n ? 0 : seat + 1) {
      const code = EFFECTIVE[codes + deck[i]];
      dealt[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
    }
    this.begin(ctx, trump, EFFECTIVE[codes + deck[PACK_SIZE - 1]], dealt);
  }

  /** Start play from given hands (codes under `trump`), e.g. a sampled world or a test position. */
  begin(ctx: DealContext, trump: number, turnup: number, hands: ArrayLike<number>): void {
    const m = this.m;
    const n = this.seats;
    for (let seat = 0; seat < n; seat++) {
      m[CHARGED + seat] = 0;
      m[PARTIE_TOTALS + seat] = ctx.totals[seat];
    }
    m[PARTIE_DEAL] = ctx.partieDeal;
    m[PARTIE_DEALS] = ctx.partieDeals;
    m[ALL_TRICKS] = -1;
    this.startPlay(hands, null, ctx.dealer, this.orders[ctx.dealer], n, tricksFor(n), trump, turnup, ctx.dealer);
  }

  restart(): void {
    const ctx = {
      dealer: this.dealer,
      partieDeal: this.partieDeal,
      partieDeals: this.partieDeals,
      totals: Array.from(this.partieTotals),
    };
    this.begin(ctx, this.trump, this.turnup, this.dealt);
  }

  packLane(lane: number): number {
    return PACK.full[this.trump * LANES + lane];
  }

  // ---- Rules (hooks of the kernel) -----------------------------------------------

  /**
   * J-4 (see the module doc), with masks where the outcome is data: `free` (the seat
   * holds nothing it must follow: neither the suit led, nor a trump besides the Puur
   * when trumps are led), `trumpLed`, and `over` (the trumps above the best in the
   * trick, all of them while none lies in it). Short in bytecode on purpose: the play
   * loop inlines it beside the random bot's choice only while both fit V8's budget.
   */
  protected cards(out: Int32Array, off: number): number {
    const m = this.m;
    const h = HANDS + (m[TO_MOVE] << 2);
    const t = m[h];
    let a0 = t;
    let a1 = m[h + 1];
    let a2 = m[h + 2];
    let a3 = m[h + 3];
    if (m[POS] !== 0) {
      const led = m[LED];
      const trumpLed = (led - 1) >> 31;
      // ~must: -1 when the seat may play any lane, else 0.
      const free = ~(-((t & NOT_PUUR & trumpLed) | (m[h + led] & ~trumpLed)) >> 31);
      const best = m[BEST];
      // `bitsAbove(best - 16)` written out (a trump's strength is 16 + its bit, at most 31;
      // below 16 the second term keeps every trump): fewer bytes for V8's inlining budget.
      const over = (-2 << (best - 16)) | ~((15 - best) >> 31);
      a0 = t & (free | trumpLed | over);
      a1 &= free | (((led ^ 1) - 1) >> 31);
      a2 &= free | (((led ^ 2) - 1) >> 31);
      a3 &= free | (((led ^ 3) - 1) >> 31);
    }
    out[off] = a0;
    out[off + 1] = a1;
    out[off + 2] = a2;
    out[off + 3] = a3;
    // Lookups written out (lanes of 16 bits or fewer), not calls: the play loop inlines this
    // beside the bot's choice only while their bytecode fits V8's inlining budget.
    const pop = POP16;
    return pop[a0] + pop[a1] + pop[a2] + pop[a3];
  }

  /**
   * A non-trump on a trump lead: no trump but possibly the Puur (bit 0). A discard or
   * an undertrump on a plain lead: void in it. Following or over-trumping shows nothing.
   */
  protected shown(seat: number, move: number, strength: number, best: number): void {
    const m = this.m;
    const lane = move >>> 5;
    const led = m[LED];
    const other = lane ^ led;
    const differs = (other | -other) >>> 31;
    const trumpLed = (led - 1) >>> 31;
    const discard = ((lane | -lane) >>> 31) | ((strength - best) >>> 31);
    m[VOIDS + seat] |= (differs & trumpLed) | ((differs & (trumpLed ^ 1) & discard) << led);
  }

  /** The winner takes the trick, the last one with its 5 (J-2). */
  protected trickWon(winner: number): void {
    const m = this.m;
    const t = m[TRICK];
    const value = m[TRICK_WORTH] + (t + 1 === m[TRICKS] ? LAST_TRICK : 0);
    m[T_VALUE + t] = value;
    this.take(winner, value);
  }

  protected answer(): void {
    throw new Error('hindersi-jass: no yes/no decisions');
  }

  /** J-5: the charges. A player with every trick is charged 0, every other player 157. */
  protected override finish(): void {
    const m = this.m;
    const n = this.seats;
    let all = -1;
    for (let seat = 0; seat < n; seat++) if (m[WON + seat] === m[TRICKS]) all = seat;
    m[ALL_TRICKS] = all;
    for (let seat = 0; seat < n; seat++) {
      m[CHARGED + seat] = all < 0 ? m[TAKEN + seat] : seat === all ? 0 : PACK_POINTS;
    }
    super.finish();
  }

  // ---- The deal as data --------------------------------------------------------------

  /** At the end: the seat that took every trick (J-5), or -1. */
  get allTricks(): number {
    return this.m[ALL_TRICKS];
  }
  get partieDeal(): number {
    return this.m[PARTIE_DEAL];
  }
  get partieDeals(): number {
    return this.m[PARTIE_DEALS];
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
    const m = this.m;
    const n = this.seats;
    let sum = 0;
    for (let seat = 0; seat < n; seat++) sum += m[CHARGED + seat];
    for (let seat = 0; seat < n; seat++) {
      const own = m[CHARGED + seat];
      out[seat] = ((sum - own) / (n - 1) - own) / PACK_POINTS;
    }
  }

  moveName(move: number): string {
    return codeName(this.trump, move);
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points, the last 5 included. ----

  /** The cards left by relative strength (see `relativeKey`, over four hands), then who acts. */
  searchKey(out: Int32Array, off: number): number {
    const n = relativeKey(this.hands, MAX_PLAYERS, LANES, VALUE_KEYS, out, off);
    out[off + n] = this.m[TO_MOVE] & 7;
    return n + 1;
  }
}
