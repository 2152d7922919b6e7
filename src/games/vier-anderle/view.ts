/**
 * What one Vier-Anderle seat may know: the common window of the trick kernel (its own
 * hand, every declaration and card played and by whom, the tricks) and the pot and the
 * hand's type, the tricks taken, what play has shown (`voids`). The hands of seats
 * that declared out are discarded face down and never shown; the cards out of play are
 * never shown.
 */
import { DECISION_NAMES, Decision } from '../game.js';
import { TrickView, perSeat } from '../trick/view.js';
import { codeName } from './cards.js';
import type { AnderleState } from './state.js';

export class AnderleView extends TrickView {
  readonly #s: AnderleState;

  constructor(state: AnderleState, seat: number) {
    super(state, seat);
    this.#s = state;
  }

  get pips(): boolean {
    return this.#s.pips;
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
    return this.isSeat(seat) ? this.#s.declared[seat] : -1;
  }
  /** Seats in play; 0 while declarations are under way. */
  get players(): number {
    return this.#s.decision === Decision.Declare ? 0 : this.#s.players;
  }
  /** -2 before a lead, -1 tarocks led, 0..3 the suit led. */
  get ledSuit(): number {
    return this.#s.trickCards === 0 ? -2 : this.#s.led - 1;
  }
  seatTricks(seat: number): number {
    return this.isSeat(seat) ? this.#s.seatTricks[seat] : 0;
  }
  /** At the end: the seat's money change this hand. */
  delta(seat: number): number {
    return this.isSeat(seat) && this.terminal ? this.#s.delta[seat] : 0;
  }
  /** The RECORD.md name of a card code (`T22`, `KH`), as the other games' views give it. */
  codeName(code: number): string {
    return codeName(code);
  }

  override fingerprint(): string {
    const seats = (f: (i: number) => number) => perSeat(this.seats, f);
    const tricks: number[] = [];
    for (let t = 0; t < this.trick; t++) tricks.push(this.trickWinner(t));
    return [
      `seat=${this.seat} seats=${this.seats} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]} pips=${this.pips}`,
      `dealer=${this.dealer} forehand=${this.forehand} type=${this.type} pot=${this.potBefore}/${this.pot} players=${this.players}`,
      this.handLine(),
      this.movesLine(),
      `declared=${seats((s) => this.declared(s))}`,
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledSuit} winning=${this.winningSeat}/${this.winningStrength}`,
      `taken=${seats((s) => this.seatTricks(s))} sizes=${seats((s) => this.handSize(s))} voids=${seats((s) => this.voids(s))}`,
      `tricks=${tricks.join(',')} delta=${seats((s) => this.delta(s))}`,
    ].join('\n');
  }
}
