/**
 * What one Vier-Anderle seat may know: its own hand, the pot and the hand's type, every
 * declaration and card played and by whom, the tricks taken, what play has shown
 * (`voids`). The hands of seats that declared out are discarded face down and never
 * shown; the cards out of play are never shown. The state sits in a private field.
 */
import { LANES } from '../../core/cardset.js';
import { DECISION_NAMES, Decision, type DecisionKind, type Observation } from '../game.js';
import type { AnderleState } from './state.js';

export class AnderleView implements Observation {
  readonly #s: AnderleState;
  readonly seats: number;

  constructor(
    state: AnderleState,
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

  get pips(): boolean {
    return this.#s.pips;
  }
  get dealer(): number {
    return this.#s.dealer;
  }
  get forehand(): number {
    return this.#s.forehand;
  }
  /** 1 (empty pot before the ante, A-5) or 2. */
  get type(): number {
    return this.#s.type;
  }
  get potBefore(): number {
    return this.#s.potBefore;
  }
  /** The pot after the dealer's ante: a trick pays a quarter, a loser pays all of it. */
  get pot(): number {
    return this.#s.pot;
  }
  /** -1 not yet declared, 0 out, 1 in (public as soon as made). */
  declared(seat: number): number {
    return this.#isSeat(seat) ? this.#s.declared[seat] : -1;
  }
  /** Seats in play; 0 while declarations are under way. */
  get players(): number {
    return this.#s.decision === Decision.Declare ? 0 : this.#s.players;
  }
  get trick(): number {
    return this.#s.trick;
  }
  get trickCards(): number {
    return this.#s.pos;
  }
  get leader(): number {
    return this.#s.leader;
  }
  /** -2 before a lead, -1 tarocks led, 0..3 the suit led. */
  get ledSuit(): number {
    return this.#s.pos === 0 ? -2 : this.#s.ledSuit;
  }
  get winningSeat(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestSeat;
  }
  /** 64 + bit for a tarock, the lane-1 bit of a card of the suit led; -1 before a lead. */
  get winningStrength(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestStrength;
  }
  seatTricks(seat: number): number {
    return this.#isSeat(seat) ? this.#s.seatTricks[seat] : 0;
  }
  handSize(seat: number): number {
    return this.#isSeat(seat) ? this.#s.handCount[seat] : 0;
  }
  voids(seat: number): number {
    return this.#isSeat(seat) ? this.#s.voids[seat] : 0;
  }
  trickWinner(trick: number): number {
    return trick >>> 0 === trick && trick < this.#s.trick ? this.#s.trickWinner[trick] : -1;
  }
  /** At the end: the seat's money change this hand. */
  delta(seat: number): number {
    return this.#isSeat(seat) && this.terminal ? this.#s.delta[seat] : 0;
  }

  fingerprint(): string {
    const hand: number[] = [];
    for (let l = 0; l < LANES; l++) hand.push(this.handLane(l));
    const moves: string[] = [];
    for (let p = 0; p < this.plies; p++) moves.push(`${this.moveSeat(p)}:${this.move(p)}`);
    const seats = Array.from({ length: this.seats }, (_, s) => s);
    const perSeat = (f: (s: number) => number) => seats.map(f).join(',');
    const tricks: number[] = [];
    for (let t = 0; t < this.trick; t++) tricks.push(this.trickWinner(t));
    return [
      `seat=${this.seat} seats=${this.seats} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]} pips=${this.pips}`,
      `dealer=${this.dealer} forehand=${this.forehand} type=${this.type} pot=${this.potBefore}/${this.pot} players=${this.players}`,
      `hand=${hand.join(',')}`,
      `moves=${moves.join(' ')}`,
      `declared=${perSeat((s) => this.declared(s))}`,
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledSuit} winning=${this.winningSeat}/${this.winningStrength}`,
      `taken=${perSeat((s) => this.seatTricks(s))} sizes=${perSeat((s) => this.handSize(s))} voids=${perSeat((s) => this.voids(s))}`,
      `tricks=${tricks.join(',')} delta=${perSeat((s) => this.delta(s))}`,
    ].join('\n');
  }
}
