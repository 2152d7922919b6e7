/**
 * One Viersche deal (RULES.md V-1 to V-9): the card play, the face-down lead and the
 * claims, for four seats in two teams (seats 0+2 and 1+3, so a seat's team is
 * `seat & 1`).
 *
 * Everything lives in numbers and typed arrays owned by the state; `apply` and
 * `legal` allocate nothing, and `copyFrom` copies the arrays in place.
 *
 * Claims (V-8). A false claim changes nothing, so it is no real choice: the claim
 * question (YES claims, NO plays on) is put to the trick-winning seat only when its
 * team has reached its target, and only before the last trick (after it the deal is
 * counted anyway). Declining can be worth it: only a deal won by all nine tricks
 * erases two rungs (V-9).
 */
import { LANES, setSize } from '../../core/cardset.js';
import { Slab } from '../../core/slab.js';
import { popcount } from '../../core/bits.js';
import { PACK_SIZE, suitOf } from '../../core/french.js';
import type { Rng } from '../../core/rng.js';
import { Decision, NO, YES, HIDDEN, type BoundTable, type DecisionKind, type State } from '../game.js';
import { POINTS, STRENGTH, TRUMP_LANE, codeName, toCode } from './cards.js';
import { VierscheView } from './view.js';
import { boundaryKey, searchEndgame } from './endgame.js';
import { keepOnePerRun, liveCards, sureTopRun } from '../interchangeable.js';

export const SEATS = 4;
export const TRICKS = 9;
export const PACK_POINTS = 140;
/** Moves in a deal: 36 cards and at most one claim answer after each of 8 tricks. */
const MAX_PLIES = PACK_SIZE + TRICKS;

/** What the match tells a deal: the targets, and whether a first deal can be undecided. */
export interface DealContext {
  dealer: number;
  /** Points each team needs to win the game in this deal: [100, 100] in a first deal. */
  targets: readonly [number, number];
  /** A second deal (after a carried score): it always decides the game (V-7). */
  secondDeal: boolean;
}

export class VierscheState implements State {
  readonly seats = SEATS;
  /** Every array below lives in this one buffer: copyFrom is one copy. */
  private readonly slab = new Slab();

  // The deal, public except the hands.
  dealer = 0;
  forehand = 1;
  trump = 0;
  /** The turn-up's code; public, and known to be in the dealer's hand while `turnupHeld`. */
  turnup = 0;
  turnupHeld = true;
  secondDeal = false;
  readonly targets = this.slab.int32(2);

  /** Current hands, LANES masks per seat. */
  readonly hands = this.slab.int32(SEATS * LANES);
  /** Hands at the start of play (for records). */
  readonly dealt = this.slab.int32(SEATS * LANES);
  /** Cards in each hand now. */
  readonly handCount = this.slab.int8(SEATS);

  // Play.
  toMove = -1;
  decision: DecisionKind = Decision.None;
  trick = 0;
  /** Cards already in the current trick. */
  pos = 0;
  leader = 0;
  ledLane = 0;
  bestStrength = -1;
  bestSeat = 0;
  trickPoints = 0;
  /** Forehand led face down (V-4): no trump in his hand at the first lead. */
  facedown = false;

  /** Every move of the deal in order, and who made it. */
  readonly moves = this.slab.int32(MAX_PLIES);
  readonly moveSeats = this.slab.int8(MAX_PLIES);
  plies = 0;
  /** Per trick: the ply of its first card, its leader, winner and points. */
  readonly trickStart = this.slab.int8(TRICKS);
  readonly trickLeader = this.slab.int8(TRICKS);
  readonly trickWinner = this.slab.int8(TRICKS);
  readonly trickValue = this.slab.int16(TRICKS);

  readonly teamPoints = this.slab.int32(2);
  readonly seatPoints = this.slab.int32(SEATS);
  readonly teamTricks = this.slab.int32(2);
  /** The trick at which each team first reached its target, or -1. */
  readonly reachedAt = this.slab.int32(2);
  /** Lanes each seat has shown to be void in (public inference from play). */
  readonly voids = this.slab.int32(SEATS);

  /** The team that won the game in this deal, or -1 (undecided first deal). */
  winner = -1;
  /** Rungs the winner's game is worth: 2 for all nine tricks without a claim (V-9). */
  gameRungs = 0;
  /** The trick after which the game was claimed, or -1. */
  claimTrick = -1;
  claimSeat = -1;

  private readonly views: VierscheView[];
  /** Scratch for searchMoves: every card still in a hand or the trick, by lane. */
  private readonly live = new Int32Array(LANES);

  constructor() {
    this.slab.seal();
    this.views = Array.from({ length: SEATS }, (_, seat) => new VierscheView(this, seat));
  }

  /**
   * Shuffle and deal (C-3, C-4): card i of the shuffled pack goes to seat dealer+1+i,
   * so the last, the turn-up, is the dealer's. Fisher-Yates runs from the top, where
   * each position is final once swapped: the turn-up (and so trump) is known first and
   * every card is dealt as soon as it is drawn, in one pass.
   */
  deal(ctx: DealContext, rng: Rng, deck: Uint8Array): void {
    for (let i = 0; i < PACK_SIZE; i++) deck[i] = i;
    const dealt = this.dealt;
    for (let i = 0; i < SEATS * LANES; i++) dealt[i] = 0;
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
      dealt[((ctx.dealer + 1 + i) & 3) * LANES + (code >>> 5)] |= 1 << (code & 31);
    }
    this.begin(ctx, trump, toCode(trump, deck[PACK_SIZE - 1]), dealt);
  }

  /** Start play from given hands (codes under `trump`), e.g. a sampled world or a test position. */
  begin(ctx: DealContext, trump: number, turnup: number, hands: Int32Array): void {
    // Explicit loops: for arrays this small they beat the TypedArray.set/fill builtins.
    for (let i = 0; i < SEATS * LANES; i++) this.hands[i] = this.dealt[i] = hands[i];
    for (let seat = 0; seat < SEATS; seat++) {
      this.handCount[seat] = setSize(this.hands, seat * LANES);
      this.seatPoints[seat] = 0;
      this.voids[seat] = 0;
    }
    for (let team = 0; team < 2; team++) {
      this.teamPoints[team] = 0;
      this.teamTricks[team] = 0;
      this.reachedAt[team] = -1;
    }
    this.dealer = ctx.dealer;
    this.forehand = (ctx.dealer + 1) & 3;
    this.trump = trump;
    this.turnup = turnup;
    this.turnupHeld = true;
    this.secondDeal = ctx.secondDeal;
    this.targets[0] = ctx.targets[0];
    this.targets[1] = ctx.targets[1];
    this.toMove = this.forehand;
    this.decision = Decision.Card;
    this.trick = 0;
    this.pos = 0;
    this.leader = this.forehand;
    this.ledLane = TRUMP_LANE;
    this.bestStrength = -1;
    this.bestSeat = this.forehand;
    this.trickPoints = 0;
    this.facedown = false;
    this.plies = 0;
    this.winner = -1;
    this.gameRungs = 0;
    this.claimTrick = -1;
    this.claimSeat = -1;
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
    if (this.pos === 0) {
      if (this.trick === 0 && trumps !== 0) return onlyTrumps(out, off, trumps); // V-4: lead a trump
    } else {
      const led = this.ledLane;
      const suit = hands[h + led];
      if (suit !== 0) {
        // V-5: follow suit or trump.
        if (led === TRUMP_LANE) return onlyTrumps(out, off, trumps);
        out[off] = trumps;
        out[off + 1] = led === 1 ? suit : 0;
        out[off + 2] = led === 2 ? suit : 0;
        out[off + 3] = led === 3 ? suit : 0;
        return popcount(trumps) + popcount(suit);
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
    if (this.decision === Decision.Claim) {
      if (move === YES) {
        this.winner = seat & 1;
        this.gameRungs = 1; // a claim before the ninth trick forfeits the second rung
        this.claimTrick = this.trick - 1;
        this.claimSeat = seat;
        this.end();
      } else {
        this.decision = Decision.Card;
      }
      return;
    }

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
      if (this.trick === 0 && lane !== TRUMP_LANE) {
        // V-4: no trump to lead, so the card goes face down, counts as a trump lead and cannot win.
        this.facedown = true;
        this.voids[seat] |= 1 << TRUMP_LANE;
        this.ledLane = TRUMP_LANE;
        this.bestStrength = -1;
      } else {
        this.ledLane = lane;
        this.bestStrength = STRENGTH[lane * 128 + move];
      }
    } else {
      this.trickPoints += POINTS[move];
      const s = STRENGTH[this.ledLane * 128 + move];
      if (s > this.bestStrength) {
        this.bestStrength = s;
        this.bestSeat = seat;
      }
      // Neither following nor trumping shows a void in the suit led; trumping shows nothing.
      if (lane !== this.ledLane && lane !== TRUMP_LANE) this.voids[seat] |= 1 << this.ledLane;
    }
    if (++this.pos < SEATS) {
      this.toMove = (seat + 1) & 3;
    } else {
      this.completeTrick();
    }
  }

  private completeTrick(): void {
    const w = this.bestSeat;
    const team = w & 1;
    const t = this.trick;
    this.trickWinner[t] = w;
    this.trickValue[t] = this.trickPoints;
    this.teamPoints[team] += this.trickPoints;
    this.seatPoints[w] += this.trickPoints;
    this.teamTricks[team]++;
    const reached = this.teamPoints[team] >= this.targets[team];
    if (reached && this.reachedAt[team] < 0) this.reachedAt[team] = t;
    this.trick = t + 1;
    this.pos = 0;
    this.leader = w;
    this.toMove = w;
    if (this.trick === TRICKS) {
      this.countOut();
    } else {
      this.decision = reached ? Decision.Claim : Decision.Card;
    }
  }

  /** V-7, V-8: a deal played to the end without a correct claim. */
  private countOut(): void {
    const r0 = this.reachedAt[0];
    const r1 = this.reachedAt[1];
    // Both can have reached their targets only in a second deal: the earlier trick wins.
    if (r0 >= 0 && (r1 < 0 || r0 < r1)) this.winner = 0;
    else if (r1 >= 0) this.winner = 1;
    if (this.winner >= 0) this.gameRungs = this.teamTricks[this.winner] === TRICKS ? 2 : 1;
    this.end();
  }

  private end(): void {
    this.decision = Decision.None;
    this.toMove = -1;
  }

  /**
   * Utility for search, zero-sum by team: a game won is worth its rungs (1 or 2) to
   * the winners and the negative to the losers; an undecided first deal is worth
   * (team points - 70) / 100, so leading by more is better but never as good as a game.
   */
  returns(out: Float64Array): void {
    for (let seat = 0; seat < SEATS; seat++) {
      const team = seat & 1;
      out[seat] =
        this.winner < 0
          ? (this.teamPoints[team] - PACK_POINTS / 2) / 100
          : this.winner === team
            ? this.gameRungs
            : -this.gameRungs;
    }
  }

  observe(seat: number): VierscheView {
    return this.views[seat];
  }

  copyFrom(o: VierscheState): void {
    this.slab.copyFrom(o.slab);
    this.dealer = o.dealer;
    this.forehand = o.forehand;
    this.trump = o.trump;
    this.turnup = o.turnup;
    this.turnupHeld = o.turnupHeld;
    this.secondDeal = o.secondDeal;
    this.toMove = o.toMove;
    this.decision = o.decision;
    this.trick = o.trick;
    this.pos = o.pos;
    this.leader = o.leader;
    this.ledLane = o.ledLane;
    this.bestStrength = o.bestStrength;
    this.bestSeat = o.bestSeat;
    this.trickPoints = o.trickPoints;
    this.facedown = o.facedown;
    this.plies = o.plies;
    this.winner = o.winner;
    this.gameRungs = o.gameRungs;
    this.claimTrick = o.claimTrick;
    this.claimSeat = o.claimSeat;
  }

  moveName(move: number): string {
    if (move === YES) return 'claim';
    if (move === NO) return 'pass';
    if (move === HIDDEN) return 'face-down';
    return codeName(this.trump, move);
  }

  // ---- Exact search (game.ts, "Search support"): the measure is card points. ----

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

  inPlay(): number {
    return PACK_POINTS - this.teamPoints[0] - this.teamPoints[1];
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

  /** The cards left by relative strength (`boundaryKey`, endgame.ts), then who acts, the decision and the first trick. */
  searchKey(out: Int32Array, off: number): number {
    return boundaryKey(this.hands, this.toMove, ((this.decision & 7) << 3) | (this.trick === 0 ? 64 : 0), out, off);
  }

  /**
   * Inside a trick: the hands as they are (ten bits a lane: seats 0-2 in one word, seat
   * 3 in the next), then the cards of the trick in the order played, how many, who led,
   * and the first trick's face-down lead (V-4). Who acts follows from these.
   */
  trickKey(out: Int32Array, off: number): number {
    const h = this.hands;
    for (let lane = 0; lane < LANES; lane++) {
      out[off + 2 * lane] = h[lane] | (h[LANES + lane] << 10) | (h[2 * LANES + lane] << 20);
      out[off + 2 * lane + 1] = h[3 * LANES + lane];
    }
    let trick = 0;
    for (let ply = this.plies - this.pos; ply < this.plies; ply++) trick = (trick << 7) | this.moves[ply];
    out[off + 2 * LANES] =
      trick | (this.pos << 21) | (this.leader << 23) | (this.trick === 0 ? 1 << 25 : 0) | (this.facedown ? 1 << 26 : 0);
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
    searchEndgame(this.hands, this.toMove, this.inPlay(), inSide, maximizer, alpha, beta, out, table);
  }

  /** Cards each seat holds now. */
  handSize(seat: number): number {
    return this.handCount[seat];
  }
}

function onlyTrumps(out: Int32Array, off: number, trumps: number): number {
  out[off] = trumps;
  out[off + 1] = out[off + 2] = out[off + 3] = 0;
  return popcount(trumps);
}
