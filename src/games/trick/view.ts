/**
 * The common part of a seat's window on a trick-play deal (game.ts, `Observation`):
 * what every game shows every seat. Each game's view extends it with what its players
 * see besides (trump, points, claims, the pot...) and its `fingerprint`.
 *
 * The state sits in an ECMAScript private field, out of reach of any code outside
 * this class; a game's view keeps its own private reference for its own getters, for
 * the same reason (a protected accessor would be an ordinary property, reachable by
 * reflection). Every method checks its argument's range: a seat, ply or trick outside
 * the deal answers the stated default (game.ts) instead of reading another part of
 * the state.
 */
import { LANES } from '../../core/cardset.js';
import { Decision, type DecisionKind, type Observation } from '../game.js';
import { BEST } from './layout.js';
import type { TrickState } from './state.js';

export class TrickView implements Observation {
  readonly #s: TrickState;
  readonly seats: number;

  constructor(
    state: TrickState,
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
  /** Lane `lane` of the observer's own hand as it was dealt (0 outside the lanes). */
  dealtLane(lane: number): number {
    return lane >>> 0 === lane && lane < LANES ? this.#s.dealt[this.seat * LANES + lane] : 0;
  }
  /**
   * Lane `lane` of every card played so far that this seat has seen (0 outside the
   * lanes): the history's cards at a glance, so a bot need not walk it at every move.
   */
  playedLane(lane: number): number {
    return lane >>> 0 === lane && lane < LANES ? this.#s.playedLane(lane) : 0;
  }
  moveSeat(ply: number): number {
    return this.isPly(ply) ? this.#s.moveSeat(ply) : -1;
  }
  move(ply: number): number {
    return this.isPly(ply) ? this.#s.move(ply) : -1;
  }
  get dealer(): number {
    return this.#s.dealer;
  }
  get forehand(): number {
    return this.#s.forehand;
  }
  /** Index of the current trick (the deal's tricks once it is over). */
  get trick(): number {
    return this.#s.trick;
  }
  /** Cards already played to the current trick. */
  get trickCards(): number {
    return this.#s.trickCards;
  }
  get leader(): number {
    return this.#s.leader;
  }
  /** The seat whose card wins the current trick so far; -1 before the lead or while no card can win. */
  get winningSeat(): number {
    return this.#s.winning();
  }
  /** Strength of the winning card so far (the game's strength table); -1 before the lead. */
  get winningStrength(): number {
    return this.#s.trickCards === 0 ? -1 : this.#s.m[BEST];
  }
  handSize(seat: number): number {
    return this.isSeat(seat) ? this.#s.handSize(seat) : 0;
  }
  /** What `seat`'s play has shown of its hand, as the game defines it (a lane mask in the French games). */
  voids(seat: number): number {
    return this.isSeat(seat) ? this.#s.voids[seat] : 0;
  }
  /** The leader of a trick that has begun; -1 otherwise. */
  trickLeader(trick: number): number {
    return this.begun(trick) ? this.#s.trickLeader[trick] : -1;
  }
  /** The ply of the first card of a trick that has begun; -1 otherwise. */
  trickStart(trick: number): number {
    return this.begun(trick) ? this.#s.trickStart[trick] : -1;
  }
  /** The seat whose card won a trick whose cards are all played; -1 otherwise. */
  trickWinner(trick: number): number {
    return this.complete(trick) ? this.#s.trickWinner[trick] : -1;
  }
  /** What a trick whose cards are all played is worth to its taker; -1 otherwise. */
  trickValue(trick: number): number {
    return this.complete(trick) ? this.#s.trickValue[trick] : -1;
  }

  /** A canonical text of everything the window shows, for tests (it allocates): each game writes its own. */
  fingerprint(): string {
    return [this.handLine(), this.movesLine()].join('\n');
  }

  /** The fingerprint's line of the seat's own hand. */
  protected handLine(): string {
    const hand: number[] = [];
    for (let l = 0; l < LANES; l++) hand.push(this.handLane(l));
    return `hand=${hand.join(',')}`;
  }
  /** The fingerprint's line of the history as this seat saw it. */
  protected movesLine(): string {
    const moves: string[] = [];
    for (let p = 0; p < this.plies; p++) moves.push(`${this.moveSeat(p)}:${this.move(p)}`);
    return `moves=${moves.join(' ')}`;
  }

  protected isSeat(seat: number): boolean {
    return seat >>> 0 === seat && seat < this.seats;
  }
  protected isPly(ply: number): boolean {
    return ply >>> 0 === ply && ply < this.#s.plies;
  }
  private begun(trick: number): boolean {
    const s = this.#s;
    return trick >>> 0 === trick && (trick < s.trick || (trick === s.trick && trick < s.tricks && s.trickCards > 0));
  }
  private complete(trick: number): boolean {
    const s = this.#s;
    const cards = s.trickCards;
    return trick >>> 0 === trick && (trick < s.trick || (trick === s.trick && cards > 0 && cards === s.players));
  }
}

/** A fingerprint's form of a per-seat quantity: its value for each of `seats` seats, comma-separated. */
export function perSeat(seats: number, f: (seat: number) => number): string {
  const out: number[] = [];
  for (let s = 0; s < seats; s++) out.push(f(s));
  return out.join(',');
}
