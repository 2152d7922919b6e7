/**
 * The trick-play kernel: what every game of tafel does the same way, once.
 *
 * A `TrickState` is one deal: hands, the trick in progress, the history of moves and
 * everything derived from it, in the one array of layout.ts. It plays cards by its
 * game's tables and asks the game only what really differs between games:
 *
 * - **Tables** (`TrickTables`): a card's strength against each suit that can be led
 *   (higher wins the trick; -1 cannot win), the suit a lead of it asks to follow, and
 *   its worth to the search measure (its points). A trick's winner, the points it
 *   holds and `heads` all follow from them.
 * - **Hooks**: `cards` (the legal cards: following and heading rules), `lead` (a game
 *   whose lead can be special, like Viersche's face-down card, overrides it), `shown`
 *   (what a card that does not follow reveals), `trickWon` (who takes a complete
 *   trick, claims, schleipfen, the end of the deal) and `answer` (the yes/no decisions).
 *
 * The kernel keeps the order of play (`NEXT`, so a deal of some of the seats plays in
 * the same loop), the history (`move | seat << 8` per ply), the tricks, what each seat
 * has taken and won, the turned card and who holds it, and the cards out of play. It
 * implements `State`'s play (`legal`, `apply`, `copyFrom`, `observe`) and the search
 * support that is the same for every game (`heads`, `worth`, `winning`, `inPlay`,
 * `sureTaken`, `searchMoves`); a game adds its keys, utility and names.
 *
 * Speed. `legal`, `apply` and a bot's choice run tens of millions of times a second,
 * and what costs there is mostly mispredicted branches and memory traffic, not
 * arithmetic: so the hot paths read one array, choose by table lookups and masks
 * rather than branches where the outcome is data (who wins, who must follow), and keep
 * rare work (a lead, a complete trick, a yes/no answer) in calls of its own. Nothing
 * here allocates after construction.
 */
import * as bits from '../../core/bits.js';
import * as cardset from '../../core/cardset.js';
import { Decision, NO, YES, type DecisionKind, type Observation, type State } from '../game.js';
import { keepOnePerRun, sureTopRun } from './interchangeable.js';
import * as layout from './layout.js';

// Module-local copies of the layout's offsets and the decisions: V8 loads an imported
// binding from its module's cell at every use (checking that it is initialised), while
// a local const is folded into the code. In the hot path that is a third of the time.
const {
  BEST,
  BEST_SEAT,
  COUNT,
  DEALER,
  DEALT,
  DECISION,
  FOREHAND,
  HANDS,
  HIST,
  LED,
  LEADER,
  MAX_SEATS,
  MAX_TRICKS,
  NEXT,
  PLAYED,
  PLAYERS,
  PLIES,
  POS,
  SEATS,
  STACK,
  T_LEADER,
  T_START,
  T_VALUE,
  T_WINNER,
  TAKEN,
  TO_MOVE,
  TRICK,
  TRICK_WORTH,
  TRICKS,
  TRUMP,
  TURNUP,
  TURNUP_HELD,
  TURNUP_HOLDER,
  VOIDS,
  WON,
  WORDS,
} = layout;
const { Card: CARD, None: NONE } = Decision;
const { LANES } = cardset;
const { popcount, POP16 } = bits;

/** Rows of 128 codes in the strength table: `strength[led << 7 | code]`. */
export const ROW = 7;
/** The two yes/no answers as the bits of lane 3. */
const YES_NO = (1 << (YES & 31)) | (1 << (NO & 31));

/** What a game's cards are in trick play. */
export interface TrickTables {
  /** `strength[led << 7 | code]`: how strongly `code` bids for a trick whose led row is `led`; -1 cannot win. */
  readonly strength: Int8Array;
  /** `suit[code]`: the row a lead of `code` makes the trick's (the suit to follow). */
  readonly suit: Int8Array;
  /** `worth[code]`: what the card adds to the search measure (its points; 0 when the measure is tricks). */
  readonly worth: Uint8Array;
  /** The worth of the whole pack (bonuses that some trick earns included). */
  readonly packWorth: number;
  /**
   * For `searchMoves`: by lane, bits that start a new run of strength whatever lies
   * below (the first bit of each suit where one lane holds several), or null.
   */
  readonly runBreaks: Int32Array | null;
}

/** The shape of a game's deals, for the layout. */
export interface TrickShape {
  /** Seats at the table. */
  readonly seats: number;
  /** The most moves a deal of the game can take. */
  readonly maxPlies: number;
}

export abstract class TrickState<O extends Observation = Observation> implements State {
  /** The whole state (layout.ts). Read it through the accessors outside the game's own modules. */
  readonly m = new Int32Array(new ArrayBuffer(WORDS * 4));
  readonly seats: number;
  /** Current hands, LANES masks per seat (a window on `m`). */
  readonly hands: Int32Array;
  /** Hands at the start of play (a window on `m`). */
  readonly dealt: Int32Array;
  /** Cards out of play (a window on `m`). */
  readonly stack: Int32Array;
  /** Cards each seat holds now (a window on `m`). */
  readonly handCount: Int32Array;
  /** What each seat's play has shown of its hand, as the game defines it (a window on `m`). */
  readonly voids: Int32Array;
  /** Per trick: the ply of its first card, its leader, the seat whose card won it, and what it was worth to its taker (windows on `m`). */
  readonly trickStart: Int32Array;
  readonly trickLeader: Int32Array;
  readonly trickWinner: Int32Array;
  readonly trickValue: Int32Array;
  protected readonly strength: Int8Array;
  protected readonly suit: Int8Array;
  protected readonly worthOf: Uint8Array;
  private readonly packWorth: number;
  private readonly runBreaks: Int32Array | null;
  /** The part of `m` a copy needs: all but the moves the game can never reach. */
  private readonly used: Int32Array;
  private readonly views: O[];
  /** Scratch for `searchMoves`: every card still in a hand or in the trick, by lane. */
  private readonly live = new Int32Array(new ArrayBuffer(4 * LANES));

  protected constructor(shape: TrickShape, tables: TrickTables, view: (state: never, seat: number) => O) {
    if (!(shape.seats >= 1 && shape.seats <= MAX_SEATS)) throw new RangeError(`trick state: ${shape.seats} seats`);
    this.seats = shape.seats;
    this.m[SEATS] = shape.seats;
    this.hands = this.m.subarray(HANDS, HANDS + LANES * MAX_SEATS);
    this.dealt = this.m.subarray(DEALT, DEALT + LANES * MAX_SEATS);
    this.stack = this.m.subarray(STACK, STACK + LANES);
    this.handCount = this.m.subarray(COUNT, COUNT + shape.seats);
    this.voids = this.m.subarray(VOIDS, VOIDS + shape.seats);
    this.trickStart = this.m.subarray(T_START, T_START + MAX_TRICKS);
    this.trickLeader = this.m.subarray(T_LEADER, T_LEADER + MAX_TRICKS);
    this.trickWinner = this.m.subarray(T_WINNER, T_WINNER + MAX_TRICKS);
    this.trickValue = this.m.subarray(T_VALUE, T_VALUE + MAX_TRICKS);
    this.used = this.m.subarray(0, layout.wordsFor(shape.maxPlies));
    this.strength = tables.strength;
    this.suit = tables.suit;
    this.worthOf = tables.worth;
    this.packWorth = tables.packWorth;
    this.runBreaks = tables.runBreaks;
    this.m[DECISION] = NONE;
    this.m[TO_MOVE] = -1;
    for (let seat = 0; seat < MAX_SEATS; seat++) this.m[NEXT + seat] = -1;
    this.views = Array.from({ length: shape.seats }, (_, seat) => view(this as never, seat));
  }

  // ---- Starting a deal -----------------------------------------------------------

  /**
   * Reset play to the start of a deal from `hands` (LANES masks per seat, `seats`
   * seats) and `stack`, with `players` seats in `order` (playing order, forehand
   * first), `turnup` held by `holder` (or -1 and -1) and `tricks` tricks. The game
   * sets its own scalars before or after.
   */
  protected startPlay(
    hands: ArrayLike<number>,
    stack: ArrayLike<number> | null,
    dealer: number,
    order: ArrayLike<number>,
    players: number,
    tricks: number,
    trump: number,
    turnup: number,
    holder: number,
  ): void {
    const m = this.m;
    const n = this.seats;
    for (let l = 0; l < LANES; l++) {
      m[STACK + l] = stack === null ? 0 : stack[l];
      m[PLAYED + l] = 0;
    }
    // Only the table's seats: the words of the others stay 0 (and NEXT -1) from construction.
    // A seat's four lanes in locals, stored twice and counted, in one pass.
    for (let s = 0; s < n; s++) {
      const i = s * LANES;
      const h0 = hands[i];
      const h1 = hands[i + 1];
      const h2 = hands[i + 2];
      const h3 = hands[i + 3];
      m[HANDS + i] = m[DEALT + i] = h0;
      m[HANDS + i + 1] = m[DEALT + i + 1] = h1;
      m[HANDS + i + 2] = m[DEALT + i + 2] = h2;
      m[HANDS + i + 3] = m[DEALT + i + 3] = h3;
      m[COUNT + s] = popcount(h0) + popcount(h1) + popcount(h2) + popcount(h3);
      m[TAKEN + s] = 0;
      m[WON + s] = 0;
      m[VOIDS + s] = 0;
      m[NEXT + s] = -1;
    }
    for (let k = 0; k < players; k++) m[NEXT + order[k]] = order[k + 1 === players ? 0 : k + 1];
    const forehand = order[0];
    m[PLAYERS] = players;
    m[TRICKS] = tricks;
    m[DEALER] = dealer;
    m[FOREHAND] = forehand;
    m[TRUMP] = trump;
    m[TURNUP] = turnup;
    m[TURNUP_HOLDER] = holder;
    m[TURNUP_HELD] = holder >= 0 ? 1 : 0;
    m[TO_MOVE] = forehand;
    m[DECISION] = CARD;
    m[TRICK] = 0;
    m[POS] = 0;
    m[LEADER] = forehand;
    m[LED] = 0;
    m[BEST] = -1;
    m[BEST_SEAT] = forehand;
    m[TRICK_WORTH] = 0;
    m[PLIES] = 0;
  }

  /** Let the seats in `order` (playing order) play, the first to move: after declarations. */
  protected seatPlayers(order: ArrayLike<number>, players: number): void {
    const m = this.m;
    for (let s = 0; s < this.seats; s++) m[NEXT + s] = -1;
    for (let k = 0; k < players; k++) m[NEXT + order[k]] = order[k + 1 === players ? 0 : k + 1];
    m[PLAYERS] = players;
    m[DECISION] = CARD;
    m[TO_MOVE] = m[LEADER] = m[BEST_SEAT] = order[0];
    m[BEST] = -1;
  }

  // ---- Play (State) ---------------------------------------------------------------

  get toMove(): number {
    return this.m[TO_MOVE];
  }

  get decision(): DecisionKind {
    return this.m[DECISION] as DecisionKind;
  }

  isTerminal(): boolean {
    return this.m[DECISION] === NONE;
  }

  legal(out: Int32Array, off: number): number {
    // Short on purpose: inlined into a play loop, it leaves enough of V8's inlining
    // budget for the game's following rule; the rare answers are a call of their own.
    return this.m[DECISION] === CARD ? this.cards(out, off) : this.answers(out, off);
  }

  /** `legal` when no card is to be played: the yes/no answers, or nothing at the end. */
  private answers(out: Int32Array, off: number): number {
    const d = this.m[DECISION];
    out[off] = out[off + 1] = out[off + 2] = 0;
    out[off + 3] = d === NONE ? 0 : YES_NO;
    return d === NONE ? 0 : 2;
  }

  apply(move: number): void {
    const m = this.m;
    const seat = m[TO_MOVE];
    const ply = m[PLIES];
    m[HIST + ply] = move | (seat << 8);
    m[PLIES] = ply + 1;
    if (m[DECISION] !== CARD) {
      this.answer(seat, move);
      return;
    }
    const bit = 1 << (move & 31);
    m[HANDS + (seat << 2) + (move >>> 5)] &= ~bit;
    m[PLAYED + (move >>> 5)] |= bit;
    m[COUNT + seat]--;
    if (move === m[TURNUP] && seat === m[TURNUP_HOLDER]) m[TURNUP_HELD] = 0;
    const pos = m[POS];
    if (pos === 0) {
      this.lead(seat, move, ply);
    } else {
      m[TRICK_WORTH] += this.worthOf[move];
      const best = m[BEST];
      const s = this.strength[(m[LED] << ROW) | move];
      this.shown(seat, move, s, best);
      // The higher strength wins; on equal strength (two cards that cannot win) the earlier card stays.
      const higher = (best - s) >> 31;
      m[BEST] = best ^ ((best ^ s) & higher);
      const bestSeat = m[BEST_SEAT];
      m[BEST_SEAT] = bestSeat ^ ((bestSeat ^ seat) & higher);
    }
    m[POS] = pos + 1;
    if (pos + 1 < m[PLAYERS]) {
      m[TO_MOVE] = m[NEXT + seat];
    } else {
      const t = m[TRICK];
      const winner = m[BEST_SEAT];
      m[T_WINNER + t] = winner;
      m[T_VALUE + t] = m[TRICK_WORTH];
      this.trickWon(winner);
    }
  }

  copyFrom(other: this): void {
    this.m.set(other.used);
  }

  observe(seat: number): O {
    return this.views[seat];
  }

  // ---- Hooks --------------------------------------------------------------------------

  /** Write the legal cards of the seat to move into `out[off ..]` and return their number. */
  protected abstract cards(out: Int32Array, off: number): number;

  /** Play the yes/no answer `move` of `seat` (already in the history). */
  protected abstract answer(seat: number, move: number): void;

  /**
   * The trick is complete and `winner`'s card won it (`T_WINNER`, `T_VALUE` written,
   * `POS` = players): give it to its taker (`take`) or put a question first.
   */
  protected abstract trickWon(winner: number): void;

  /**
   * `seat` played `move` to a trick led before it, where it bids `strength` against the
   * best so far, `best`: record in `VOIDS` what that shows of its hand.
   */
  protected abstract shown(seat: number, move: number, strength: number, best: number): void;

  /**
   * Begin this deal again from its starting hands as they are now in `dealt` (and
   * `stack`, the cards out of play): the same dealer, trump, turned card and context,
   * nothing played. Changing `dealt` first builds another world of the same deal, as
   * the contract tests do. Allocates: not for the play loop.
   */
  abstract restart(): void;

  /** Lane `lane` of the whole pack of this deal (every card, as codes of its layout). */
  abstract packLane(lane: number): number;

  /** Utility of each seat at a terminal state (game.ts). */
  abstract returns(out: Float64Array): void;

  /** The move as text for logs and errors. */
  abstract moveName(move: number): string;

  /** The position's key words at a trick boundary (game.ts, `State.searchKey`). */
  abstract searchKey(out: Int32Array, off: number): number;

  /** `seat` leads `move` at ply `ply`: the trick's row and best card are set from it. */
  protected lead(seat: number, move: number, ply: number): void {
    const m = this.m;
    const t = m[TRICK];
    m[LEADER] = seat;
    m[T_START + t] = ply;
    m[T_LEADER + t] = seat;
    m[TRICK_WORTH] = this.worthOf[move];
    m[BEST_SEAT] = seat;
    const led = this.suit[move];
    m[LED] = led;
    m[BEST] = this.strength[(led << ROW) | move];
  }

  /**
   * `taker` keeps the current trick, worth `value`: it leads the next trick, or the
   * deal ends after the last (`finish`).
   */
  protected take(taker: number, value: number): void {
    const m = this.m;
    const t = m[TRICK] + 1;
    m[TAKEN + taker] += value;
    m[WON + taker]++;
    m[TRICK] = t;
    m[POS] = 0;
    m[LEADER] = taker;
    if (t === m[TRICKS]) {
      this.finish();
    } else {
      m[DECISION] = CARD;
      m[TO_MOVE] = taker;
    }
  }

  /** End the deal: nobody acts. Games that score at the end override it and call it. */
  protected finish(): void {
    this.m[DECISION] = NONE;
    this.m[TO_MOVE] = -1;
  }

  // ---- The deal as data (for views, matches, records and tests) --------------------

  get dealer(): number {
    return this.m[DEALER];
  }
  get forehand(): number {
    return this.m[FOREHAND];
  }
  /** Seats taking part in this deal. */
  get players(): number {
    return this.m[PLAYERS];
  }
  /** Tricks in the deal. */
  get tricks(): number {
    return this.m[TRICKS];
  }
  /** Index of the current trick (`tricks` once the deal is over). */
  get trick(): number {
    return this.m[TRICK];
  }
  get leader(): number {
    return this.m[LEADER];
  }
  /** What the cards of the current trick are worth to the search measure (their points). */
  get trickWorth(): number {
    return this.m[TRICK_WORTH];
  }
  /** The row of the strength table the current trick's lead chose (the suit to follow). */
  get led(): number {
    return this.m[LED];
  }
  get plies(): number {
    return this.m[PLIES];
  }
  /** Trump suit (0..3, C S H D), or -1. */
  get trump(): number {
    return this.m[TRUMP];
  }
  /** The turned card's code, or -1. */
  get turnup(): number {
    return this.m[TURNUP];
  }
  /** The seat holding the turned card, or -1. */
  get turnupHolder(): number {
    return this.m[TURNUP_HOLDER];
  }
  /** Whether its holder still holds the turned card. */
  get turnupHeld(): boolean {
    return this.m[TURNUP_HELD] === 1;
  }
  /** Move `ply` (0 <= ply < plies). */
  move(ply: number): number {
    return this.m[HIST + ply] & 0xff;
  }
  /** The seat that made move `ply`. */
  moveSeat(ply: number): number {
    return this.m[HIST + ply] >> 8;
  }
  /** Lane `lane` of every card played so far. */
  playedLane(lane: number): number {
    return this.m[PLAYED + lane];
  }
  /** Cards `seat` holds now. */
  handSize(seat: number): number {
    return this.m[COUNT + seat];
  }
  /** Whether `seat` takes part in the deal (in play, for a deal after declarations). */
  plays(seat: number): boolean {
    return this.m[NEXT + seat] >= 0;
  }
  /** The seat after `seat` in playing order; -1 for a seat not taking part. */
  nextSeat(seat: number): number {
    return this.m[NEXT + seat];
  }
  /** Tricks `seat` has won (kept). */
  tricksWon(seat: number): number {
    return this.m[WON + seat];
  }

  // ---- Search support (game.ts) ----------------------------------------------------

  get trickCards(): number {
    return this.m[POS];
  }

  winning(): number {
    const m = this.m;
    return m[POS] === 0 || m[BEST] < 0 ? -1 : m[BEST_SEAT];
  }

  heads(move: number): boolean {
    const m = this.m;
    return m[POS] === 0 ? true : this.strength[(m[LED] << ROW) | move] > m[BEST];
  }

  worth(move: number): number {
    return this.worthOf[move];
  }

  tricksLeft(): number {
    return this.m[TRICKS] - this.m[TRICK];
  }

  taken(seat: number): number {
    return this.m[TAKEN + seat];
  }

  /** Everything not yet taken and not out of play (a trick awaiting its taker included). */
  inPlay(): number {
    const m = this.m;
    let out = 0;
    for (let l = 0; l < LANES; l++) {
      for (let x = m[STACK + l]; x !== 0; x &= x - 1) out += this.worthOf[(l << 5) | (31 - Math.clz32(x & -x))];
    }
    for (let s = 0; s < this.seats; s++) out += m[TAKEN + s];
    return this.packWorth - out;
  }

  /** The run of top trumps (lane 0) that one party holds (`sureTopRun`). */
  sureTaken(inSide: Uint8Array, out: Int32Array): void {
    sureTopRun(this.hands, this.seats, 0, inSide, this.worthOf, out);
  }

  searchMoves(out: Int32Array, off: number): number {
    const n = this.legal(out, off);
    const m = this.m;
    if (n < 2 || m[DECISION] !== CARD) return n;
    const live = this.live;
    live[0] = live[1] = live[2] = live[3] = 0;
    for (let s = 0; s < this.seats; s++) {
      if (m[NEXT + s] < 0) continue;
      const h = HANDS + s * LANES;
      live[0] |= m[h];
      live[1] |= m[h + 1];
      live[2] |= m[h + 2];
      live[3] |= m[h + 3];
    }
    const plies = m[PLIES];
    for (let ply = plies - m[POS]; ply < plies; ply++) {
      const c = m[HIST + ply] & 0xff;
      live[c >>> 5] |= 1 << (c & 31);
    }
    return keepOnePerRun(out, off, live, this.worthOf, this.runBreaks);
  }

  /** The legal cards when any card of the hand may be played. */
  protected anyCard(out: Int32Array, off: number): number {
    const m = this.m;
    const seat = m[TO_MOVE];
    const h = HANDS + seat * LANES;
    out[off] = m[h];
    out[off + 1] = m[h + 1];
    out[off + 2] = m[h + 2];
    out[off + 3] = m[h + 3];
    return m[COUNT + seat];
  }
}

/**
 * The following rule of the French games (V-5, H-1): holding the suit led, play it or
 * a trump; trumps led, a trump; void, anything. `leadTrumps` restricts a lead to the
 * trumps when the hand has any (V-4's first lead). Suits are lanes, trumps lane 0, and
 * every lane fits 16 bits. Whether the seat must follow, and which lane was led, are
 * data: they become masks, not branches. Its bytecode is kept short: a random playout
 * loop (montecarlo's) inlines it only while it fits V8's inlining budget together with
 * `legal`, the generator and `setSelect`.
 */
export function frenchFollow(m: Int32Array, out: Int32Array, off: number, leadTrumps: boolean): number {
  const h = HANDS + (m[TO_MOVE] << 2);
  const t = m[h];
  let led = m[LED];
  // -1 when the lanes other than the trumps and `led` are barred.
  let must: number;
  if (m[POS] !== 0) must = -m[h + led] >> 31;
  else {
    led = 0;
    must = leadTrumps ? -t >> 31 : 0;
  }
  // Bit l set: lane l barred (every lane but the trumps and the lane led, when the seat must).
  const bar = must & 14 & ~(1 << led);
  const a1 = m[h + 1] & ~((bar << 30) >> 31);
  const a2 = m[h + 2] & ~((bar << 29) >> 31);
  const a3 = m[h + 3] & ~((bar << 28) >> 31);
  out[off] = t;
  out[off + 1] = a1;
  out[off + 2] = a2;
  out[off + 3] = a3;
  // Lookups written out (lanes of 16 bits or fewer), not a call: fewer bytes for V8's inlining budget.
  const pop = POP16;
  return pop[t] + pop[a1] + pop[a2] + pop[a3];
}

/**
 * What a card shows in the French games (V-5, H-1): neither following nor trumping
 * shows a void in the suit led (lane `m[LED]`); trumping shows nothing.
 */
export function frenchShown(m: Int32Array, seat: number, move: number): void {
  const lane = move >>> 5;
  const led = m[LED];
  const other = lane ^ led;
  // 1 when lane !== led and lane !== 0 (trumps), as the sign bits of nonzero numbers.
  m[VOIDS + seat] |= (((other | -other) & (lane | -lane)) >>> 31) << led;
}
