/**
 * What one Viersche seat may know: its own hand, the turn-up and who holds it, every
 * card played (the face-down lead only once its trick is complete, except to the seat
 * that led it), the tricks, points, targets and claims. The state sits in a private
 * field that no bot can reach; every getter below filters by seat.
 */
import { LANES } from '../../core/cardset.js';
import { DECISION_NAMES, Decision, HIDDEN, type DecisionKind, type Observation } from '../game.js';
import { POINTS, codeName, toPhysical } from './cards.js';
import type { VierscheState } from './state.js';

export class VierscheView implements Observation {
  readonly #s: VierscheState;
  readonly seats = 4;

  constructor(
    state: VierscheState,
    readonly seat: number,
  ) {
    this.#s = state;
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
    return this.#s.moveSeats[ply];
  }
  move(ply: number): number {
    return this.hidden(ply) ? HIDDEN : this.#s.moves[ply];
  }

  /** The face-down lead is hidden from the other seats until its trick is complete (V-4). */
  private hidden(ply: number): boolean {
    const s = this.#s;
    return ply === 0 && s.facedown && s.trick === 0 && this.seat !== s.forehand;
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
  get secondDeal(): boolean {
    return this.#s.secondDeal;
  }
  target(team: number): number {
    return this.#s.targets[team];
  }
  /** Index of the current trick (9 when the deal was played out). */
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
  /** The lane that must be followed (lane 0 after a face-down lead); -1 before the lead. */
  get ledLane(): number {
    return this.#s.pos === 0 ? -1 : this.#s.ledLane;
  }
  get facedown(): boolean {
    return this.#s.facedown;
  }
  /** The seat winning the current trick so far, or -1 if only a face-down card lies. */
  get winningSeat(): number {
    const s = this.#s;
    return s.pos === 0 || s.bestStrength < 0 ? -1 : s.bestSeat;
  }
  /** Strength of the winning card so far (cards.ts STRENGTH), -1 if none can win yet. */
  get winningStrength(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestStrength;
  }
  /** Points of the cards this seat can see in the current trick. */
  get trickPointsSeen(): number {
    const s = this.#s;
    if (s.pos === 0) return 0;
    let p = 0;
    for (let ply = s.plies - s.pos; ply < s.plies; ply++) if (!this.hidden(ply)) p += POINTS[s.moves[ply]];
    return p;
  }
  teamPoints(team: number): number {
    return this.#s.teamPoints[team];
  }
  seatPoints(seat: number): number {
    return this.#s.seatPoints[seat];
  }
  teamTricks(team: number): number {
    return this.#s.teamTricks[team];
  }
  handSize(seat: number): number {
    return this.#s.handCount[seat];
  }
  /** Lanes `seat` has shown to be void in, as a lane mask. */
  voids(seat: number): number {
    return this.#s.voids[seat];
  }
  trickLeader(trick: number): number {
    return this.#s.trickLeader[trick];
  }
  trickWinner(trick: number): number {
    return this.#s.trickWinner[trick];
  }
  /** The ply of the first card of `trick`. */
  trickStart(trick: number): number {
    return this.#s.trickStart[trick];
  }
  /** The team that won the game in this deal, or -1. */
  get winner(): number {
    return this.#s.winner;
  }
  get gameRungs(): number {
    return this.#s.gameRungs;
  }
  get claimTrick(): number {
    return this.#s.claimTrick;
  }

  /** The physical card (core/french.ts) of a code in this deal. */
  physical(code: number): number {
    return toPhysical(this.#s.trump, code);
  }
  codeName(code: number): string {
    return code === HIDDEN ? '??' : codeName(this.#s.trump, code);
  }

  fingerprint(): string {
    const hand: number[] = [];
    for (let l = 0; l < LANES; l++) hand.push(this.handLane(l));
    const moves: string[] = [];
    for (let p = 0; p < this.plies; p++) moves.push(`${this.moveSeat(p)}:${this.move(p)}`);
    const perSeat = (f: (s: number) => number) => [0, 1, 2, 3].map(f).join(',');
    const tricks: string[] = [];
    for (let t = 0; t < this.trick; t++) tricks.push(`${this.trickLeader(t)}>${this.trickWinner(t)}`);
    return [
      `seat=${this.seat} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]}`,
      `dealer=${this.dealer} trump=${this.trump} turnup=${this.turnup} held=${this.turnupHeld}`,
      `targets=${this.target(0)},${this.target(1)} second=${this.secondDeal}`,
      `hand=${hand.join(',')}`,
      `moves=${moves.join(' ')}`,
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} facedown=${this.facedown}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${this.teamPoints(0)},${this.teamPoints(1)} seatPoints=${perSeat((s) => this.seatPoints(s))}`,
      `tricks=${tricks.join(' ')} sizes=${perSeat((s) => this.handSize(s))} voids=${perSeat((s) => this.voids(s))}`,
      `winner=${this.winner} rungs=${this.gameRungs} claim=${this.claimTrick}`,
    ].join('\n');
  }
}
