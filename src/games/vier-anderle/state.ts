/**
 * One Vier-Anderle hand (RULES.md) on the trick kernel (../trick/state.ts)
 * for 2 to 13 seats, each for himself.
 *
 * The hand knows the pot before the dealer's ante (`potBefore`, public, from the
 * session). With an empty pot it is a type-1 hand: everyone plays. Otherwise it
 * is a type-2 hand: every seat from forehand round to the dealer answers
 * `Decision.Declare` (YES = in), then the seats in play (A-7: none in, the hand is
 * void; one in, he takes the pot without play; if forehand is out, the first seat in
 * after the dealer leads). Play is 4 tricks among the seats in, in seat order.
 *
 * Suits for the kernel: the strength table has a row for tarocks led (0) and one per
 * suit led (1 + suit, the suit's byte of lane 1, cards.ts): a tarock bids 64 + bit in
 * every row, a card of the suit led its bit, anything else cannot win.
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
 */
import { bitsAbove, popcount } from '../../core/bits.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import { Decision, NO, YES } from '../game.js';
import * as layout from '../trick/layout.js';
import { ROW, TrickState, type TrickTables } from '../trick/state.js';
import { SUIT_MASK, TAROCK_LANE, codeName, packCodes, packLane } from './cards.js';
import { AnderleView } from './view.js';

// Module-local copies of the layout's offsets (see ../trick/state.ts: faster in the hot path).
const {
  BEST,
  COUNT,
  DEALER,
  DEALT,
  DECISION,
  GAME,
  HANDS,
  LED,
  MAX_SEATS,
  PLAYERS,
  POS,
  SEAT_GAME,
  TO_MOVE,
  TRICK,
  TRICKS,
  VOIDS,
  WON,
} = layout;
const { Card: CARD, Declare: DECLARE } = Decision;

export const MIN_SEATS = 2;
export const MAX_PLAYERS = 13;
export const HAND = 4;
export const ANTE = 4;
/** Declarations (at most one per seat) and cards (4 per seat). */
export const MAX_PLIES = MAX_PLAYERS * (HAND + 1);
/** Each suit byte of lane 1 starts a new run of strength. */
const RUN_BREAKS = new Int32Array([0, 0x01010101, 0, 0]);

/** How a hand ended. */
export const Outcome = { Playing: 0, Played: 1, Void: 2, Sole: 3 } as const;

// The game's words of the layout (../trick/layout.ts).
/** 1 (empty pot, A-5) or 2. */
const TYPE = GAME;
const POT_BEFORE = GAME + 1;
/** The pot after the dealer's ante: each trick pays a quarter of it, each loser pays it. */
const POT = GAME + 2;
const OUTCOME = GAME + 3;
const SOLE_SEAT = GAME + 4;
/** -1 not yet declared, 0 out, 1 in (type-1 hands: everyone 1). */
const DECLARED = SEAT_GAME;
/** At the end: each seat's money change this hand (the dealer's ante included). */
const DELTA = SEAT_GAME + MAX_SEATS;

/** The Cego pack for the kernel: rows of tarocks led and of each suit led. */
const TABLES: TrickTables = (() => {
  const strength = new Int8Array(5 << ROW).fill(-1);
  const suit = new Int8Array(128);
  for (let code = 0; code < 128; code++) {
    const lane = code >>> 5;
    const bit = code & 31;
    if (lane === TAROCK_LANE) for (let row = 0; row < 5; row++) strength[(row << ROW) | code] = 64 + bit;
    if (lane === 1) {
      suit[code] = 1 + (bit >>> 3);
      strength[((1 + (bit >>> 3)) << ROW) | code] = bit;
    }
  }
  return { strength, suit, worth: new Uint8Array(128), packWorth: 0, runBreaks: RUN_BREAKS };
})();

/** What the session tells a hand, all public. */
export interface DealContext {
  dealer: number;
  /** The pot before the dealer's ante: 0 makes a type-1 hand. */
  potBefore: number;
}

export class AnderleState extends TrickState<AnderleView> {
  /** Whether the 16 pip cards are in the pack. */
  readonly pips: boolean;
  /** -1 not yet declared, 0 out, 1 in, by seat (a window on the state). */
  readonly declared: Int32Array;
  /** Tricks taken by each seat (a window on the state). */
  readonly seatTricks: Int32Array;
  /** At the end: each seat's money change this hand (a window on the state). */
  readonly delta: Int32Array;
  /** The seats from forehand round to the dealer, and the seats in play in that order. */
  private readonly around = new Int8Array(MAX_PLAYERS);
  private readonly playing = new Int8Array(MAX_PLAYERS);

  constructor(seats: number, pips: boolean) {
    if (!(seats >= MIN_SEATS && seats <= MAX_PLAYERS)) throw new RangeError(`vier-anderle: ${seats} seats`);
    if (!pips && seats * HAND > 38) throw new RangeError(`vier-anderle: ${seats} seats need the pips`);
    super({ seats, maxPlies: MAX_PLIES }, TABLES, (state: AnderleState, seat) => new AnderleView(state, seat));
    this.pips = pips;
    this.declared = this.m.subarray(DECLARED, DECLARED + seats);
    this.seatTricks = this.m.subarray(WON, WON + seats);
    this.delta = this.m.subarray(DELTA, DELTA + seats);
  }

  /** Shuffle the pack and deal 4 cards to each seat from forehand on; the rest is out of play. */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    const pack = packCodes(this.pips);
    const n = pack.length;
    const seats = this.seats;
    // A loop, not deck.set: for 38 or 54 bytes the builtin's call costs more than the copy.
    for (let i = 0; i < n; i++) deck[i] = pack[i];
    // Only the first seats x HAND positions are dealt; the rest of the pack is never read.
    rng.shuffleFirst(deck, n, seats * HAND);
    const dealt = this.dealt;
    for (let i = 0; i < seats * LANES; i++) dealt[i] = 0;
    for (let i = 0, seat = ctx.dealer + 1; i < seats * HAND; i++, seat++) {
      if (seat === seats) seat = 0;
      const c = deck[i];
      dealt[seat * LANES + (c >>> 5)] |= 1 << (c & 31);
    }
    this.begin(ctx, dealt);
  }

  /** Start the hand from given hands (a sampled world, a test position). */
  begin(ctx: DealContext, hands: ArrayLike<number>): void {
    const m = this.m;
    const n = this.seats;
    const type = ctx.potBefore === 0 ? 1 : 2;
    m[TYPE] = type;
    m[POT_BEFORE] = ctx.potBefore;
    m[POT] = ctx.potBefore + ANTE;
    m[OUTCOME] = Outcome.Playing;
    m[SOLE_SEAT] = -1;
    const declared = type === 1 ? 1 : -1;
    for (let seat = 0, next = ctx.dealer; seat < n; seat++) {
      next = next + 1 === n ? 0 : next + 1;
      m[DECLARED + seat] = declared;
      m[DELTA + seat] = 0;
      this.around[seat] = next;
    }
    this.startPlay(hands, null, ctx.dealer, this.around, n, HAND, -1, -1, -1);
    if (type === 1) {
      this.seatDeclared();
    } else {
      m[PLAYERS] = 0;
      m[DECISION] = DECLARE;
    }
  }

  /**
   * Give `seat` `count` more cards, `t` and `s` (lanes 0 and 1), that it held from the
   * start and has not played: the sampler's way to complete a world (sample.ts).
   */
  addUnseen(seat: number, t: number, s: number, count: number): void {
    const m = this.m;
    m[HANDS + seat * LANES] |= t;
    m[HANDS + seat * LANES + 1] |= s;
    m[DEALT + seat * LANES] |= t;
    m[DEALT + seat * LANES + 1] |= s;
    m[COUNT + seat] += count;
  }

  restart(): void {
    this.begin({ dealer: this.dealer, potBefore: this.potBefore }, this.dealt);
  }

  packLane(lane: number): number {
    return packLane(this.pips, lane);
  }

  /** After the declarations (or at once in a type-1 hand): play among the seats in, or end. */
  private seatDeclared(): void {
    const m = this.m;
    const n = this.seats;
    let count = 0;
    // From forehand round to the dealer (`around` is not used: `copyFrom` copies only `m`).
    for (let i = 0, seat = m[DEALER]; i < n; i++) {
      seat = seat + 1 === n ? 0 : seat + 1;
      if (m[DECLARED + seat] === 1) this.playing[count++] = seat;
    }
    if (count === 0) {
      m[OUTCOME] = Outcome.Void;
      m[PLAYERS] = 0;
      this.finish();
    } else if (count === 1) {
      m[OUTCOME] = Outcome.Sole;
      m[SOLE_SEAT] = this.playing[0];
      m[PLAYERS] = 1;
      this.finish();
    } else {
      this.seatPlayers(this.playing, count);
      m[LED] = 0;
    }
  }

  // ---- Rules (hooks of the kernel) -----------------------------------------------

  /** the duties, then among those, head the trick if any can. */
  protected cards(out: Int32Array, off: number): number {
    const m = this.m;
    if (m[POS] === 0) return this.anyCard(out, off);
    const h = HANDS + m[TO_MOVE] * LANES;
    const t = m[h];
    const s = m[h + 1];
    const led = m[LED] - 1; // -1: tarocks led; 0..3: that suit
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
    const best = m[BEST];
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
    out[off + 2] = out[off + 3] = 0;
    return popcount(a0) + popcount(a1);
  }

  protected shown(seat: number, move: number): void {
    const m = this.m;
    const row = m[LED];
    const lane = move >>> 5;
    if (row === 0) {
      if (lane !== TAROCK_LANE) m[VOIDS + seat] |= 1;
    } else if (lane === TAROCK_LANE) {
      m[VOIDS + seat] |= 1 << row;
    } else if (1 + ((move & 31) >>> 3) !== row) {
      m[VOIDS + seat] |= 1 | (1 << row);
    }
  }

  protected trickWon(winner: number): void {
    this.take(winner, 0);
  }

  /** in (YES) or out, from forehand round to the dealer. */
  protected answer(seat: number, move: number): void {
    const m = this.m;
    m[DECLARED + seat] = move === YES ? 1 : 0;
    if (seat === m[DEALER]) this.seatDeclared();
    else m[TO_MOVE] = seat + 1 === this.seats ? 0 : seat + 1;
  }

  /** The money of the hand, as each seat's change, the dealer's ante included. */
  protected override finish(): void {
    const m = this.m;
    if (m[OUTCOME] === Outcome.Playing) m[OUTCOME] = Outcome.Played;
    super.finish();
    const n = this.seats;
    for (let seat = 0; seat < n; seat++) m[DELTA + seat] = 0;
    m[DELTA + m[DEALER]] -= ANTE;
    const pot = m[POT];
    if (m[OUTCOME] === Outcome.Sole) {
      m[DELTA + m[SOLE_SEAT]] += pot;
    } else if (m[OUTCOME] === Outcome.Played) {
      const quarter = pot / 4;
      for (let seat = 0; seat < n; seat++) {
        if (m[DECLARED + seat] !== 1) continue;
        const k = m[WON + seat];
        if (k === 0) m[DELTA + seat] -= pot;
        else if (m[TYPE] === 2) m[DELTA + seat] += k * quarter;
      }
    }
  }

  // ---- The deal as data --------------------------------------------------------------

  /** 1 (empty pot before the ante, A-5) or 2. */
  get type(): number {
    return this.m[TYPE];
  }
  get potBefore(): number {
    return this.m[POT_BEFORE];
  }
  /** The pot after the dealer's ante: a trick pays a quarter, a loser pays all of it. */
  get pot(): number {
    return this.m[POT];
  }
  /** How the hand ended (`Outcome`). */
  get outcome(): number {
    return this.m[OUTCOME];
  }
  /** The one seat in, who took the pot without play, or -1. */
  get soleSeat(): number {
    return this.m[SOLE_SEAT];
  }

  /**
   * Utility for search: the seat's money change in this hand (the dealer's ante
   * included), divided by a quarter of the pot after the ante (so a trick taken in a
   * type-2 hand is worth +1 and failing to take one -4). Not zero-sum among the seats:
   * the pot is the other party (seats + pot sum to zero, A-4).
   */
  returns(out: Float64Array): void {
    const q = this.m[POT] / 4;
    for (let seat = 0; seat < this.seats; seat++) out[seat] = this.m[DELTA + seat] / q;
  }

  moveName(move: number): string {
    if (move === YES) return 'in';
    if (move === NO) return 'out';
    return codeName(move);
  }

  // ---- Exact search (game.ts, "Search support"): the measure is tricks. ----

  override tricksLeft(): number {
    const d = this.m[DECISION];
    return d === CARD || d === DECLARE ? this.m[TRICKS] - this.m[TRICK] : 0;
  }

  override taken(seat: number): number {
    return this.m[WON + seat];
  }

  override inPlay(): number {
    return this.tricksLeft();
  }

  /**
   * Tricks surely won: the run of top tarocks among the seats in play that one party
   * holds wins a trick with each card, and one seat's cards fall to different tricks,
   * so the party surely takes as many tricks as its longest holding in the run.
   */
  override sureTaken(inSide: Uint8Array, out: Int32Array): void {
    const m = this.m;
    let live = 0;
    for (let seat = 0; seat < this.seats; seat++)
      if (m[DECLARED + seat] === 1) live |= m[HANDS + seat * LANES + TAROCK_LANE];
    // The run: from the top down, while the holder is of the top card's party.
    let party = -1;
    let run = 0;
    while (live !== 0) {
      const top = 1 << (31 - Math.clz32(live));
      let owner = 0;
      while (m[DECLARED + owner] !== 1 || (m[HANDS + owner * LANES + TAROCK_LANE] & top) === 0) owner++;
      const p = inSide[owner] === 1 ? 0 : 1;
      if (party < 0) party = p;
      else if (p !== party) break;
      run |= top;
      live ^= top;
    }
    let most = 0;
    for (let seat = 0; seat < this.seats; seat++) {
      if (m[DECLARED + seat] === 1) most = Math.max(most, popcount(m[HANDS + seat * LANES + TAROCK_LANE] & run));
    }
    out[0] = party === 0 ? most : 0;
    out[1] = party === 1 ? most : 0;
  }

  /** The two lanes of every hand in play, then who acts, the decision and who is in. */
  searchKey(out: Int32Array, off: number): number {
    const m = this.m;
    const n = this.seats;
    let inMask = 0;
    for (let seat = 0; seat < n; seat++) {
      const playing = m[DECLARED + seat] === 1;
      if (playing) inMask |= 1 << seat;
      out[off + 2 * seat] = playing ? m[HANDS + seat * LANES] : 0;
      out[off + 2 * seat + 1] = playing ? m[HANDS + seat * LANES + 1] : 0;
    }
    out[off + 2 * n] = (m[TO_MOVE] & 15) | ((m[DECISION] & 7) << 4) | (inMask << 7);
    return 2 * n + 1;
  }
}
