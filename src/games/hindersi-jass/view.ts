/**
 * What one Hindersi-Jass seat may know: the common window of the trick kernel (its own
 * hand, every card played and by whom, the tricks) and the turn-up and whether the
 * dealer still holds it (C-4), the points each seat has taken, what play has shown
 * about the hands (`voids`: a plain lane bit is a void in that suit; the trump lane
 * bit means no trump except possibly the Puur, state.ts), and the Partie so far.
 * Nothing is played face down in this game.
 */
import { DECISION_NAMES } from '../game.js';
import { TrickView, perSeat } from '../trick/view.js';
import { codeName, toPhysical } from './cards.js';
import type { JassState } from './state.js';

export class JassView extends TrickView {
  readonly #s: JassState;

  constructor(state: JassState, seat: number) {
    super(state, seat);
    this.#s = state;
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
  /** The lane that must be followed; -1 before the lead. */
  get ledLane(): number {
    return this.#s.trickCards === 0 ? -1 : this.#s.led;
  }
  /** Points of the cards in the current trick (without the last trick's 5). */
  get trickPointsSeen(): number {
    return this.#s.trickCards === 0 ? 0 : this.#s.trickWorth;
  }
  /** Card points `seat` has taken so far (J-2, the last trick's 5 included). */
  seatPoints(seat: number): number {
    return this.isSeat(seat) ? this.#s.seatPoints[seat] : 0;
  }
  seatTricks(seat: number): number {
    return this.isSeat(seat) ? this.#s.seatTricks[seat] : 0;
  }
  /** At the end: the seat that took every trick (J-5), or -1. */
  get allTricks(): number {
    return this.#s.allTricks;
  }
  /** At the end: the points charged to `seat` (J-5); 0 before. */
  charged(seat: number): number {
    return this.isSeat(seat) ? this.#s.charged[seat] : 0;
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
    return this.isSeat(seat) ? this.#s.partieTotals[seat] : 0;
  }

  /** The physical card (core/french.ts) of a code in this deal. */
  physical(code: number): number {
    return toPhysical(this.#s.trump, code);
  }
  codeName(code: number): string {
    return codeName(this.#s.trump, code);
  }

  override fingerprint(): string {
    const seats = (f: (i: number) => number) => perSeat(this.seats, f);
    const tricks: string[] = [];
    for (let t = 0; t < this.trick; t++)
      tricks.push(`${this.trickLeader(t)}>${this.trickWinner(t)}/${this.trickValue(t)}`);
    return [
      `seat=${this.seat} seats=${this.seats} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]}`,
      `dealer=${this.dealer} forehand=${this.forehand} trump=${this.trump} turnup=${this.turnup} held=${this.turnupHeld}`,
      `partie=${this.partieDeal}/${this.partieDeals} totals=${seats((s) => this.partieTotal(s))}`,
      this.handLine(),
      this.movesLine(),
      `trick=${this.trick}/${this.tricks} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} start=${this.trickStart(this.trick)}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${seats((s) => this.seatPoints(s))} taken=${seats((s) => this.seatTricks(s))}`,
      `tricks=${tricks.join(' ')} sizes=${seats((s) => this.handSize(s))} voids=${seats((s) => this.voids(s))}`,
      `allTricks=${this.allTricks} charged=${seats((s) => this.charged(s))}`,
    ].join('\n');
  }
}
