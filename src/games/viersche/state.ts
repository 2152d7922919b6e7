/**
 * One Viersche deal (RULES.md V-1 to V-9) on the trick kernel (../trick/state.ts):
 * four seats in two teams (seats 0+2 and 1+3, so a seat's team is `seat & 1`), the
 * forced trump lead and the face-down lead of the first trick, and the claims.
 *
 * Claims (V-8). A false claim changes nothing, so it is no real choice: the claim
 * question (YES claims, NO plays on) is put to the trick-winning seat only when its
 * team has reached its target, and only before the last trick (after it the deal is
 * counted anyway). Declining can be worth it: only a deal won by all nine tricks
 * erases two rungs (V-9).
 */
import * as cardset from '../../core/cardset.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { Decision, HIDDEN, NO, YES, type BoundTable } from '../game.js';
import * as layout from '../trick/layout.js';
import { dealFour } from '../trick/french.js';
import { TrickState, frenchFollow, frenchShown } from '../trick/state.js';
import { PACK, TRUMP_LANE, codeName } from './cards.js';
import { VierscheView } from './view.js';
import { boundaryKey, searchEndgame } from './endgame.js';
import { greedyPlayout, lastCard } from './playout.js';

// Module-local copies of the layout's offsets (see ../trick/state.ts: faster in the hot path).
const { BEST, DECISION, GAME, HIST, LED, LEADER, PLIES, POS, TAKEN, TO_MOVE, TRICK, TRICK_WORTH, VOIDS, WON } = layout;
const { Card: CARD, Claim: CLAIM } = Decision;
const { LANES } = cardset;
const EFFECTIVE = PACK.effective;

export const SEATS = 4;
export const TRICKS = 9;
export const PACK_POINTS = 140;
/** Moves in a deal: 36 cards and at most one claim answer after each of 8 tricks. */
const MAX_PLIES = PACK_SIZE + TRICKS;

// The game's words of the layout (../trick/layout.ts).
const SECOND_DEAL = GAME;
/** Points each team needs to win the game in this deal. */
const TARGET = GAME + 1;
/** The trick at which each team first reached its target, or -1. */
const REACHED = GAME + 3;
/** Forehand led face down (V-4): no trump in his hand at the first lead. */
const FACEDOWN = GAME + 5;
/** The team that won the game in this deal, or -1 (undecided first deal). */
const WINNER = GAME + 6;
/** Rungs the winner's game is worth: 2 for all nine tricks without a claim (V-9). */
const RUNGS = GAME + 7;
/** The trick after which the game was claimed, and by whom, or -1. */
const CLAIM_TRICK = GAME + 8;
const CLAIM_SEAT = GAME + 9;

/** What the match tells a deal: the targets, and whether a first deal can be undecided. */
export interface DealContext {
  dealer: number;
  /** Points each team needs to win the game in this deal: [100, 100] in a first deal. */
  targets: readonly [number, number];
  /** A second deal (after a carried score): it always decides the game (V-7). */
  secondDeal: boolean;
}

/** Playing order by dealer: forehand (the seat after the dealer) first. */
const ORDERS = [0, 1, 2, 3].map((dealer) => Int8Array.from([1, 2, 3, 4], (k) => (dealer + k) & 3));

export class VierscheState extends TrickState<VierscheView> {
  /** Card points each seat's tricks hold (a window on the state). */
  readonly seatPoints = this.m.subarray(TAKEN, TAKEN + SEATS);
  /** Points each team needs in this deal (a window on the state). */
  readonly targets = this.m.subarray(TARGET, TARGET + 2);
  /** The hands of a deal as it is dealt, before `begin`. */
  private readonly deck = new Int32Array(SEATS * LANES);

  constructor() {
    super({ seats: SEATS, maxPlies: MAX_PLIES }, PACK, (state: VierscheState, seat) => new VierscheView(state, seat));
  }

  /**
   * Shuffle and deal (C-3, C-4): card i of the shuffled pack goes to seat dealer+1+i,
   * so the last, the turn-up, is the dealer's.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    for (let i = 0; i < PACK_SIZE; i++) deck[i] = i;
    rng.shuffle(deck, PACK_SIZE);
    const trump = suitOf(deck[PACK_SIZE - 1]);
    const codes = trump * PACK_SIZE;
    // Card i goes to seat dealer + 1 + i.
    const dealt = this.deck;
    dealFour(deck, EFFECTIVE, codes, ctx.dealer + 1, dealt);
    this.begin(ctx, trump, EFFECTIVE[codes + deck[PACK_SIZE - 1]], dealt);
  }

  /** Start play from given hands (codes under `trump`), e.g. a sampled world or a test position. */
  begin(ctx: DealContext, trump: number, turnup: number, hands: ArrayLike<number>): void {
    const m = this.m;
    m[SECOND_DEAL] = ctx.secondDeal ? 1 : 0;
    m[TARGET] = ctx.targets[0];
    m[TARGET + 1] = ctx.targets[1];
    m[REACHED] = m[REACHED + 1] = -1;
    m[FACEDOWN] = 0;
    m[WINNER] = -1;
    m[RUNGS] = 0;
    m[CLAIM_TRICK] = m[CLAIM_SEAT] = -1;
    this.startPlay(hands, null, ctx.dealer, ORDERS[ctx.dealer], SEATS, TRICKS, trump, turnup, ctx.dealer);
  }

  restart(): void {
    const m = this.m;
    const ctx = { dealer: this.dealer, targets: [m[TARGET], m[TARGET + 1]] as const, secondDeal: this.secondDeal };
    this.begin(ctx, this.trump, this.turnup, this.dealt);
  }

  packLane(lane: number): number {
    return PACK.full[this.trump * LANES + lane];
  }

  // ---- Rules (hooks of the kernel) -----------------------------------------------

  /** V-4, V-5: the first lead a trump if any; then follow suit or trump. */
  protected cards(out: Int32Array, off: number): number {
    const m = this.m;
    return frenchFollow(m, out, off, m[TRICK] === 0);
  }

  /** V-4: without a trump to lead, the card goes face down, counts as a trump lead and cannot win. */
  protected override lead(seat: number, move: number, ply: number): void {
    super.lead(seat, move, ply);
    const m = this.m;
    if (m[TRICK] === 0 && move >>> 5 !== TRUMP_LANE) {
      m[FACEDOWN] = 1;
      m[VOIDS + seat] |= 1 << TRUMP_LANE;
      m[LED] = TRUMP_LANE;
      m[BEST] = -1;
    }
  }

  protected shown(seat: number, move: number): void {
    frenchShown(this.m, seat, move);
  }

  protected trickWon(winner: number): void {
    const m = this.m;
    const team = winner & 1;
    const t = m[TRICK];
    const value = m[TRICK_WORTH];
    const reached = this.teamPoints(team) + value >= m[TARGET + team];
    if (reached && m[REACHED + team] < 0) m[REACHED + team] = t;
    this.take(winner, value);
    if (reached && t + 1 < TRICKS) m[DECISION] = CLAIM;
  }

  protected answer(seat: number, move: number): void {
    const m = this.m;
    if (move === YES) {
      m[WINNER] = seat & 1;
      m[RUNGS] = 1; // a claim before the ninth trick forfeits the second rung
      m[CLAIM_TRICK] = m[TRICK] - 1;
      m[CLAIM_SEAT] = seat;
      super.finish();
    } else {
      m[DECISION] = CARD;
    }
  }

  /** V-7, V-8: a deal played to the end without a correct claim. */
  protected override finish(): void {
    const m = this.m;
    const r0 = m[REACHED];
    const r1 = m[REACHED + 1];
    // Both can have reached their targets only in a second deal: the earlier trick wins.
    if (r0 >= 0 && (r1 < 0 || r0 < r1)) m[WINNER] = 0;
    else if (r1 >= 0) m[WINNER] = 1;
    const winner = m[WINNER];
    if (winner >= 0) m[RUNGS] = this.teamTricks(winner) === TRICKS ? 2 : 1;
    super.finish();
  }

  // ---- The deal as data --------------------------------------------------------------

  get secondDeal(): boolean {
    return this.m[SECOND_DEAL] === 1;
  }
  get facedown(): boolean {
    return this.m[FACEDOWN] === 1;
  }
  /** The team that won the game in this deal, or -1. */
  get winner(): number {
    return this.m[WINNER];
  }
  /** Rungs the winner's game is worth (V-9). */
  get gameRungs(): number {
    return this.m[RUNGS];
  }
  /** The trick after which the game was claimed, or -1. */
  get claimTrick(): number {
    return this.m[CLAIM_TRICK];
  }
  get claimSeat(): number {
    return this.m[CLAIM_SEAT];
  }
  /** The trick at which `team` first reached its target, or -1. */
  reachedAt(team: number): number {
    return this.m[REACHED + team];
  }
  /** Card points of `team` (0 or 1). */
  teamPoints(team: number): number {
    return this.m[TAKEN + team] + this.m[TAKEN + team + 2];
  }
  /** Tricks taken by `team` (0 or 1). */
  teamTricks(team: number): number {
    return this.m[WON + team] + this.m[WON + team + 2];
  }

  /**
   * Utility for search, zero-sum by team: a game won is worth its rungs (1 or 2) to
   * the winners and the negative to the losers; an undecided first deal is worth
   * (team points - 70) / 100, so leading by more is better but never as good as a game.
   */
  returns(out: Float64Array): void {
    const winner = this.m[WINNER];
    const rungs = this.m[RUNGS];
    for (let seat = 0; seat < SEATS; seat++) {
      const team = seat & 1;
      out[seat] = winner < 0 ? (this.teamPoints(team) - PACK_POINTS / 2) / 100 : winner === team ? rungs : -rungs;
    }
  }

  moveName(move: number): string {
    if (move === YES) return 'claim';
    if (move === NO) return 'pass';
    if (move === HIDDEN) return 'face-down';
    return codeName(this.trump, move);
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points. ----

  /** The cards left by relative strength (`boundaryKey`, endgame.ts), then who acts, the decision and the first trick. */
  searchKey(out: Int32Array, off: number): number {
    const m = this.m;
    return boundaryKey(this.hands, m[TO_MOVE], ((m[DECISION] & 7) << 3) | (m[TRICK] === 0 ? 64 : 0), out, off);
  }

  /**
   * Inside a trick: the hands as they are (ten bits a lane: seats 0-2 in one word, seat
   * 3 in the next), then the cards of the trick in the order played, how many, who led,
   * and the first trick's face-down lead (V-4). Who acts follows from these.
   */
  trickKey(out: Int32Array, off: number): number {
    const m = this.m;
    const h = this.hands;
    for (let lane = 0; lane < LANES; lane++) {
      out[off + 2 * lane] = h[lane] | (h[LANES + lane] << 10) | (h[2 * LANES + lane] << 20);
      out[off + 2 * lane + 1] = h[3 * LANES + lane];
    }
    const pos = m[POS];
    const plies = m[PLIES];
    let trick = 0;
    for (let ply = plies - pos; ply < plies; ply++) trick = (trick << 7) | (m[HIST + ply] & 0xff);
    out[off + 2 * LANES] =
      trick | (pos << 21) | (m[LEADER] << 23) | (m[TRICK] === 0 ? 1 << 25 : 0) | (m[FACEDOWN] === 1 ? 1 << 26 : 0);
    return 2 * LANES + 1;
  }

  /** The last five tricks are searched on bare hands (endgame.ts). */
  readonly endgameTricks = 5;

  endgame(
    inSide: Uint8Array,
    maximizer: Uint8Array,
    alpha: number,
    beta: number,
    out: Int32Array,
    table?: BoundTable,
  ): void {
    searchEndgame(this.hands, this.m[TO_MOVE], this.inPlay(), inSide, maximizer, alpha, beta, out, table);
  }

  /** The solver's greedy playout on bare hands (playout.ts). */
  greedyPlayout(inSide: Uint8Array, maximizer: Uint8Array, history: Int32Array, out: Int32Array): void {
    const m = this.m;
    greedyPlayout(m, m[TARGET], m[TARGET + 1], inSide, maximizer, history, out);
  }

  /** The solver's last card before its horizon, on bare hands (playout.ts). */
  horizonCard(
    inSide: Uint8Array,
    maximizer: Uint8Array,
    history: Int32Array,
    ttMove: number,
    alpha: number,
    beta: number,
    room: number,
    out: Int32Array,
  ): void {
    const m = this.m;
    lastCard(m, m[TARGET], m[TARGET + 1], inSide, maximizer, history, ttMove, alpha, beta, room, out);
  }
}
