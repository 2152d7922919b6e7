/**
 * One Hindersche deal (RULES.md C, H-1, H-2, H-7) on the trick kernel
 * (../trick/state.ts): the card play of the seats taking part, and the schleipfen
 * decisions when that variant is on.
 *
 * Seats. The table has four seats; a deal is played by the seats in `mask` (all four
 * in phase 1, those still in during phase 2, the tied seats in a playoff), in playing
 * order from forehand, and a trick has as many cards as the deal has players. With
 * four players the whole pack is dealt and the dealer's last card is the turn-up
 * (C-4). With fewer, each gets 9 cards, the rest lie out of play face down (the
 * *stack*), and the stack's top card is turned: it belongs to nobody, it is public, it
 * fixes trump, and it is never played.
 *
 * Play (H-1): cards and strength as in Viersche (the Alt-Kloei pack of
 * ../trick/alt-kloei.ts); the lead is free; holding the suit led you follow or trump;
 * void, anything; trumps led, holding a trump you must play one. Undertrumping is
 * allowed.
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
import { LANES, setSize } from '../../core/cardset.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { Decision, NO, YES } from '../game.js';
import * as layout from '../trick/layout.js';
import { TrickState, frenchFollow, frenchShown } from '../trick/state.js';
import { dealFour } from '../trick/french.js';
import { relativeKey, valueKeys } from '../trick/interchangeable.js';
import { PACK, POINTS, codeName } from './cards.js';
import { Kind, Settlement, TieFor, settle, type SlateContext } from './score.js';
import { HinderscheView } from './view.js';

// Module-local copies of the layout's offsets (see ../trick/state.ts: faster in the hot path).
const {
  DECISION,
  GAME,
  MAX_SEATS,
  MAX_TRICKS,
  NEXT,
  SEAT_GAME,
  T_VALUE,
  T_WINNER,
  TAKEN,
  TO_MOVE,
  TRICK,
  TRICK_GAME,
  WON,
} = layout;
const EFFECTIVE = PACK.effective;
const { Schleipfe: SCHLEIPFE, Object: OBJECT } = Decision;

export const SEATS = 4;
export const TRICKS = 9;
const HAND_SIZE = 9;
export const PACK_POINTS = 140;
/** Relative card points (per 140) worth one mark in `returns`. */
export const POINT_WEIGHT = 0.25;
/** Moves in a deal: 36 cards at most, and per trick at most 3 offers and 3 objections. */
const MAX_PLIES = PACK_SIZE + TRICKS * 6;
const VALUE_KEYS = valueKeys(POINTS);
/** The pack in order, copied into the deck before each shuffle (one copy, not a loop). */
const UNSHUFFLED = Uint8Array.from({ length: PACK_SIZE }, (_, i) => i);

// The game's words of the layout (../trick/layout.ts).
/** The seats taking part, as a bit mask. */
const MASK = GAME;
/** 1 (Vier-Strich) or 2 (Butzen). */
const PHASE = GAME + 1;
/** Kind.Normal or Kind.Playoff. */
const KIND = GAME + 2;
const PLAYOFF_FOR = GAME + 3;
const PLAYOFF_PLACES = GAME + 4;
/** Variant H-2 in force (1). */
const SCHLEIPFEN = GAME + 5;
/** During the objections of H-2: the seat that offered to take the trick; else -1. */
const OFFERER = GAME + 6;
/** Marks by seat on the slate before the deal. */
const SLATE = SEAT_GAME;
/** The deal's seats in playing order, forehand first. */
const ORDER = SEAT_GAME + MAX_SEATS;
/** Per trick: the seat that kept it, the seat that offered to take it (or -1), the seat that objected (or -1). */
const TAKER = TRICK_GAME;
const OFFERED = TRICK_GAME + MAX_TRICKS;
const OBJECTED = TRICK_GAME + 2 * MAX_TRICKS;

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

export class HinderscheState extends TrickState<HinderscheView> implements SlateContext {
  /** Card points kept by each seat (a window on the state). */
  readonly seatPoints = this.m.subarray(TAKEN, TAKEN + SEATS);
  /** Tricks kept by each seat, after any schleipfe (a window on the state). */
  readonly tricksKept = this.m.subarray(WON, WON + SEATS);
  /** Marks by seat on the slate before the deal (a window on the state). */
  readonly slate = this.m.subarray(SLATE, SLATE + SEATS);
  /** The deal's seats in playing order, forehand first (`players` of them; a window on the state). */
  readonly order = this.m.subarray(ORDER, ORDER + SEATS);
  /** Per trick: the seat that kept it, the seat that offered to take it (or -1), the seat that objected (or -1); windows on the state. */
  readonly trickTaker = this.m.subarray(TAKER, TAKER + TRICKS);
  readonly trickOfferer = this.m.subarray(OFFERED, OFFERED + TRICKS);
  readonly trickObjector = this.m.subarray(OBJECTED, OBJECTED + TRICKS);
  private readonly settlement = new Settlement();
  /** The hands and the stack of a deal as it is dealt, before `start`. */
  private readonly deck = new Int32Array(SEATS * LANES);
  private readonly undealt = new Int32Array(LANES);

  constructor() {
    super(
      { seats: SEATS, maxPlies: MAX_PLIES },
      PACK,
      (state: HinderscheState, seat) => new HinderscheView(state, seat),
    );
  }

  /**
   * Shuffle and deal (C-3, C-4, H-7). Fisher-Yates from the top fixes position 35
   * first: it is the turn-up, so trump is known before any other card is placed.
   * Position i < 9n goes to the i mod n-th player from forehand (with four players,
   * position 35 is then the dealer's last card); positions from 9n on are the stack.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    deck.set(UNSHUFFLED);
    this.setup(ctx);
    rng.shuffle(deck, PACK_SIZE);
    const trump = suitOf(deck[PACK_SIZE - 1]);
    const codes = trump * PACK_SIZE;
    const dealt = this.deck;
    const stack = this.undealt;
    for (let l = 0; l < LANES; l++) stack[l] = 0;
    const m = this.m;
    const n = this.players;
    if (n === SEATS) {
      // Every seat plays (phase 1): the whole pack, card i to the i mod 4-th from forehand.
      dealFour(deck, EFFECTIVE, codes, m[layout.DEALER] + 1, dealt);
      this.start(trump, EFFECTIVE[codes + deck[PACK_SIZE - 1]], dealt, stack);
      return;
    }
    for (let i = 0; i < SEATS * LANES; i++) dealt[i] = 0;
    const inHands = n * HAND_SIZE;
    // Card i goes to the (i mod n)-th player in order (`k`), the rest to the stack.
    for (let i = 0, k = 0; i < inHands; i++, k = k + 1 === n ? 0 : k + 1) {
      const code = EFFECTIVE[codes + deck[i]];
      dealt[m[ORDER + k] * LANES + (code >>> 5)] |= 1 << (code & 31);
    }
    for (let i = inHands; i < PACK_SIZE; i++) {
      const code = EFFECTIVE[codes + deck[i]];
      stack[code >>> 5] |= 1 << (code & 31);
    }
    this.start(trump, EFFECTIVE[codes + deck[PACK_SIZE - 1]], dealt, stack);
  }

  /**
   * Start play from given hands and stack (codes under `trump`): a sampled world or a
   * test position. With four players `stack` is empty and `turnup` is in the dealer's
   * hand; with fewer it is in `stack`.
   */
  begin(ctx: DealContext, trump: number, turnup: number, hands: ArrayLike<number>, stack: ArrayLike<number>): void {
    this.setup(ctx);
    this.start(trump, turnup, hands, stack);
  }

  restart(): void {
    const ctx: DealContext = {
      dealer: this.dealer,
      mask: this.mask,
      phase: this.phase,
      kind: this.kind,
      slate: Array.from(this.slate),
      playoffFor: this.playoffFor,
      playoffPlaces: this.playoffPlaces,
      schleipfen: this.schleipfen,
    };
    this.begin(ctx, this.trump, this.turnup, this.dealt, this.stack);
  }

  packLane(lane: number): number {
    return PACK.full[this.trump * LANES + lane];
  }

  /** The deal's context and its playing order (the players count is kept for `start`). */
  private setup(ctx: DealContext): void {
    const m = this.m;
    const mask = ctx.mask & 15;
    if (((mask >>> ctx.dealer) & 1) === 0)
      throw new Error(`hindersche: dealer ${ctx.dealer} does not take part (mask ${mask})`);
    let n = 0;
    for (let k = 1; k <= SEATS; k++) {
      const s = (ctx.dealer + k) & 3;
      if ((mask >>> s) & 1) m[ORDER + n++] = s;
    }
    if (n < 2) throw new Error('hindersche: a deal needs at least two players');
    for (let k = n; k < SEATS; k++) m[ORDER + k] = 0;
    m[layout.PLAYERS] = n;
    m[layout.DEALER] = ctx.dealer;
    m[MASK] = mask;
    m[PHASE] = ctx.phase;
    m[KIND] = ctx.kind;
    m[PLAYOFF_FOR] = ctx.kind === Kind.Playoff ? ctx.playoffFor : TieFor.None;
    m[PLAYOFF_PLACES] = ctx.kind === Kind.Playoff ? ctx.playoffPlaces : 0;
    m[SCHLEIPFEN] = ctx.schleipfen ? 1 : 0;
    for (let s = 0; s < SEATS; s++) m[SLATE + s] = ctx.slate[s];
  }

  private start(trump: number, turnup: number, hands: ArrayLike<number>, stack: ArrayLike<number>): void {
    const m = this.m;
    const n = m[layout.PLAYERS];
    m[OFFERER] = -1;
    this.startPlay(
      hands,
      stack,
      m[layout.DEALER],
      this.order,
      n,
      TRICKS,
      trump,
      turnup,
      n === SEATS ? m[layout.DEALER] : -1,
    );
  }

  // ---- Rules (hooks of the kernel) -----------------------------------------------

  /** H-1 (V-5): any lead; follow suit or trump; trumps led, a trump; void, anything. */
  protected cards(out: Int32Array, off: number): number {
    return frenchFollow(this.m, out, off, false);
  }

  protected shown(seat: number, move: number): void {
    frenchShown(this.m, seat, move);
  }

  protected trickWon(winner: number): void {
    const m = this.m;
    const t = m[TRICK];
    m[OFFERED + t] = -1;
    m[OBJECTED + t] = -1;
    if (m[SCHLEIPFEN] === 1) {
      m[DECISION] = SCHLEIPFE;
      m[TO_MOVE] = m[NEXT + winner];
    } else {
      this.takeTrick(winner);
    }
  }

  /** H-2: an offer to take the trick, or an objection to one. */
  protected answer(seat: number, move: number): void {
    const m = this.m;
    const t = m[TRICK];
    const next = m[NEXT + seat];
    if (m[DECISION] === SCHLEIPFE) {
      if (move === YES) {
        m[OFFERER] = seat;
        m[OFFERED + t] = seat;
        m[DECISION] = OBJECT;
        m[TO_MOVE] = next;
      } else if (next === m[T_WINNER + t]) {
        this.takeTrick(m[T_WINNER + t]);
      } else {
        m[TO_MOVE] = next;
      }
      return;
    }
    if (move === YES) {
      m[OBJECTED + t] = seat;
      this.takeTrick(m[T_WINNER + t]);
    } else if (next === m[OFFERER]) {
      this.takeTrick(m[OFFERER]);
    } else {
      m[TO_MOVE] = next;
    }
  }

  private takeTrick(taker: number): void {
    const m = this.m;
    const t = m[TRICK];
    m[TAKER + t] = taker;
    m[OFFERER] = -1;
    this.take(taker, m[T_VALUE + t]);
  }

  // ---- The deal as data --------------------------------------------------------------

  get mask(): number {
    return this.m[MASK];
  }
  get phase(): number {
    return this.m[PHASE];
  }
  get kind(): number {
    return this.m[KIND];
  }
  get playoffFor(): number {
    return this.m[PLAYOFF_FOR];
  }
  get playoffPlaces(): number {
    return this.m[PLAYOFF_PLACES];
  }
  get schleipfen(): boolean {
    return this.m[SCHLEIPFEN] === 1;
  }
  /** During H-2 decisions: the seat that offered to take the trick, or -1. */
  get offerer(): number {
    return this.m[OFFERER];
  }
  /** Cards out of play (the turn-up included when fewer than four play). */
  get stackSize(): number {
    return setSize(this.stack, 0);
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
    const mask = this.m[MASK];
    let marks = 0;
    let points = 0;
    for (let s = 0; s < SEATS; s++) {
      if (((mask >>> s) & 1) === 0) continue;
      marks += st.expected(s);
      points += this.seatPoints[s];
    }
    for (let s = 0; s < SEATS; s++) {
      if (((mask >>> s) & 1) === 0) {
        out[s] = 0;
        continue;
      }
      const e = st.expected(s);
      const p = this.seatPoints[s];
      out[s] = (marks - e) / (n - 1) - e + (POINT_WEIGHT * ((points - p) / (n - 1) - p)) / PACK_POINTS;
    }
  }

  moveName(move: number): string {
    const d = this.m[DECISION];
    if (move === YES) return d === OBJECT ? 'object' : d === SCHLEIPFE ? 'schleipfe' : 'yes';
    if (move === NO) return d === OBJECT ? 'accept' : d === SCHLEIPFE ? 'pass' : 'no';
    return codeName(this.trump, move);
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points kept. ----

  /** The cards left by relative strength (see `relativeKey`), then who acts. */
  searchKey(out: Int32Array, off: number): number {
    const n = relativeKey(this.hands, SEATS, LANES, VALUE_KEYS, out, off);
    out[off + n] = (this.m[TO_MOVE] & 7) | ((this.m[DECISION] & 7) << 3);
    return n + 1;
  }
}
