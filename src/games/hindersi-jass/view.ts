/**
 * What one Hindersi-Jass seat may know: its own hand, the turn-up and whether the
 * dealer still holds it (C-4), every card played and by whom, the tricks and the
 * points each seat has taken, what play has shown about the hands (`voids`), and the
 * Partie so far. Nothing is played face down in this game. The state sits in a
 * private field that no bot can reach; every getter below filters by seat.
 */
import { LANES } from '../../core/cardset.js';
import { DECISION_NAMES, Decision, type DecisionKind, type Observation } from '../game.js';
import { codeName, toPhysical } from './cards.js';
import type { JassState } from './state.js';

export class JassView implements Observation {
  readonly #s: JassState;
  readonly seats: number;

  constructor(
    state: JassState,
    readonly seat: number,
  ) {
    this.#s = state;
    this.seats = state.seats;
  }

  get toMove(): number {
    return this.#s.toMove;
  }
  get decision(): DecisionKind {
    return this.#s.decision;
  }
  get terminal(): boolean {
    return this.#s.decision === Decision.None;
  }
  handLane(lane: number): number {
    // Checked: an index outside the seat's own lanes would read another seat's hand.
    return lane >>> 0 === lane && lane < LANES ? this.#s.hands[this.seat * LANES + lane] : 0;
  }
  get plies(): number {
    return this.#s.plies;
  }
  moveSeat(ply: number): number {
    return this.#inPlies(ply) ? this.#s.moveSeats[ply] : -1;
  }
  move(ply: number): number {
    return this.#inPlies(ply) ? this.#s.moves[ply] : -1;
  }
  #inPlies(ply: number): boolean {
    return ply >>> 0 === ply && ply < this.#s.plies;
  }
  #isSeat(seat: number): boolean {
    return seat >>> 0 === seat && seat < this.seats;
  }
  #isTrick(trick: number): boolean {
    return trick >>> 0 === trick && trick < this.#s.trick;
  }

  get dealer(): number {
    return this.#s.dealer;
  }
  get forehand(): number {
    return this.#s.forehand;
  }
  /** Trump suit (0..3, C S H D). */
  get trump(): number {
    return this.#s.trump;
  }
  /** The turn-up's code: trump, and the dealer's until he plays it (C-4). */
  get turnup(): number {
    return this.#s.turnup;
  }
  get turnupHeld(): boolean {
    return this.#s.turnupHeld;
  }
  /** Tricks in the deal (9 with 4 players, 12 with 3). */
  get tricks(): number {
    return this.#s.tricks;
  }
  /** Index of the current trick (`tricks` when the deal is over). */
  get trick(): number {
    return this.#s.trick;
  }
  /** Cards already played to the current trick. */
  get trickCards(): number {
    return this.#s.pos;
  }
  get leader(): number {
    return this.#s.leader;
  }
  /** The lane that must be followed; -1 before the lead. */
  get ledLane(): number {
    return this.#s.pos === 0 ? -1 : this.#s.ledLane;
  }
  /** The seat winning the current trick so far, or -1 before the lead. */
  get winningSeat(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestSeat;
  }
  /** Strength of the winning card so far (cards.ts STRENGTH), -1 before the lead. */
  get winningStrength(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestStrength;
  }
  /** Points of the cards in the current trick (without the last trick's 5). */
  get trickPointsSeen(): number {
    return this.#s.pos === 0 ? 0 : this.#s.trickPoints;
  }
  /** Card points `seat` has taken so far (J-2, the last trick's 5 included). */
  seatPoints(seat: number): number {
    return this.#isSeat(seat) ? this.#s.seatPoints[seat] : 0;
  }
  seatTricks(seat: number): number {
    return this.#isSeat(seat) ? this.#s.seatTricks[seat] : 0;
  }
  handSize(seat: number): number {
    return this.#isSeat(seat) ? this.#s.handCount[seat] : 0;
  }
  /**
   * What `seat`'s play has shown, as a lane mask: a plain lane bit is a void in that
   * suit; the trump lane bit means no trump except possibly the Puur (state.ts).
   */
  voids(seat: number): number {
    return this.#isSeat(seat) ? this.#s.voids[seat] : 0;
  }
  trickLeader(trick: number): number {
    return this.#isTrick(trick) ? this.#s.trickLeader[trick] : -1;
  }
  trickWinner(trick: number): number {
    return this.#isTrick(trick) ? this.#s.trickWinner[trick] : -1;
  }
  /** The ply of the first card of a trick (the current one included); -1 for a trick not begun. */
  trickStart(trick: number): number {
    const s = this.#s;
    return trick >>> 0 === trick && (trick < s.trick || (trick === s.trick && s.pos > 0)) ? s.trickStart[trick] : -1;
  }
  /** Points of a completed trick (the last trick's 5 included). */
  trickValue(trick: number): number {
    return this.#isTrick(trick) ? this.#s.trickValue[trick] : 0;
  }
  /** At the end: the seat that took every trick (J-5), or -1. */
  get allTricks(): number {
    return this.#s.allTricks;
  }
  /** At the end: the points charged to `seat` (J-5); 0 before. */
  charged(seat: number): number {
    return this.#isSeat(seat) ? this.#s.charged[seat] : 0;
  }
  /** Index of this deal in its Partie, and the Partie's deals (J-6). */
  get partieDeal(): number {
    return this.#s.partieDeal;
  }
  get partieDeals(): number {
    return this.#s.partieDeals;
  }
  /** Points charged to `seat` in the Partie before this deal. */
  partieTotal(seat: number): number {
    return this.#isSeat(seat) ? this.#s.partieTotals[seat] : 0;
  }

  /** The physical card (core/french.ts) of a code in this deal. */
  physical(code: number): number {
    return toPhysical(this.#s.trump, code);
  }
  codeName(code: number): string {
    return codeName(this.#s.trump, code);
  }

  fingerprint(): string {
    const hand: number[] = [];
    for (let l = 0; l < LANES; l++) hand.push(this.handLane(l));
    const moves: string[] = [];
    for (let p = 0; p < this.plies; p++) moves.push(`${this.moveSeat(p)}:${this.move(p)}`);
    const seats = Array.from({ length: this.seats }, (_, s) => s);
    const perSeat = (f: (s: number) => number) => seats.map(f).join(',');
    const tricks: string[] = [];
    for (let t = 0; t < this.trick; t++)
      tricks.push(`${this.trickLeader(t)}>${this.trickWinner(t)}/${this.trickValue(t)}`);
    return [
      `seat=${this.seat} seats=${this.seats} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]}`,
      `dealer=${this.dealer} forehand=${this.forehand} trump=${this.trump} turnup=${this.turnup} held=${this.turnupHeld}`,
      `partie=${this.partieDeal}/${this.partieDeals} totals=${perSeat((s) => this.partieTotal(s))}`,
      `hand=${hand.join(',')}`,
      `moves=${moves.join(' ')}`,
      `trick=${this.trick}/${this.tricks} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} start=${this.trickStart(this.trick)}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${perSeat((s) => this.seatPoints(s))} taken=${perSeat((s) => this.seatTricks(s))}`,
      `tricks=${tricks.join(' ')} sizes=${perSeat((s) => this.handSize(s))} voids=${perSeat((s) => this.voids(s))}`,
      `allTricks=${this.allTricks} charged=${perSeat((s) => this.charged(s))}`,
    ].join('\n');
  }
}
