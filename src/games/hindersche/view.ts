/**
 * What one Hindersche seat may know: the common window of the trick kernel (its own
 * hand, the cards played and every schleipfen answer, the tricks) and who deals and
 * plays; the turn-up (and that the dealer holds it, with four players); the size of
 * the stack out of play (never its cards, except the turn-up); takers, points and
 * tricks kept; and the public slate context of the deal (phase, kind, marks, what a
 * playoff is for).
 */
import { DECISION_NAMES } from '../game.js';
import { TrickView, perSeat } from '../trick/view.js';
import { codeName, toPhysical } from './cards.js';
import type { HinderscheState } from './state.js';

export class HinderscheView extends TrickView {
  readonly #s: HinderscheState;

  constructor(state: HinderscheState, seat: number) {
    super(state, seat);
    this.#s = state;
  }

  // ---- who plays ------------------------------------------------------------

  /** The deal's seats as a bit mask. */
  get mask(): number {
    return this.#s.mask;
  }
  /** Number of players in this deal (2 to 4). */
  get players(): number {
    return this.#s.players;
  }
  /** Whether `seat` takes part in this deal. */
  plays(seat: number): boolean {
    return this.isSeat(seat) && ((this.#s.mask >>> seat) & 1) === 1;
  }
  /** The k-th player in playing order (0 = forehand); -1 beyond the players. */
  player(k: number): number {
    return k >>> 0 === k && k < this.#s.players ? this.#s.order[k] : -1;
  }
  /** The next player of the deal after `seat`; -1 for a seat not taking part. */
  nextPlayer(seat: number): number {
    return this.isSeat(seat) ? this.#s.nextSeat(seat) : -1;
  }

  // ---- slate context (public) -----------------------------------------------

  /** 1: Vier-Strich, 2: Butzen. */
  get phase(): number {
    return this.#s.phase;
  }
  /** Kind.Normal (0) or Kind.Playoff (1). */
  get kind(): number {
    return this.#s.kind;
  }
  /** For a playoff: TieFor.Most (1) or TieFor.Fewest (2); 0 otherwise. */
  get playoffFor(): number {
    return this.#s.playoffFor;
  }
  get playoffPlaces(): number {
    return this.#s.playoffPlaces;
  }
  /** Marks on `seat`'s corner of the slate before this deal. */
  slate(seat: number): number {
    return this.isSeat(seat) ? this.#s.slate[seat] : 0;
  }
  /** Whether the schleipfen variant (H-2) is in force. */
  get schleipfen(): boolean {
    return this.#s.schleipfen;
  }

  // ---- cards ------------------------------------------------------------------

  /** Trump suit (0..3, C S H D). */
  get trump(): number {
    return this.#s.trump;
  }
  /** The turn-up's code (C-4). */
  get turnup(): number {
    return this.#s.turnup;
  }
  /** The seat holding the turn-up (the dealer, with four players), or -1: out of play. */
  get turnupHolder(): number {
    return this.#s.turnupHolder;
  }
  /** Whether the turn-up is still in its holder's hand. */
  get turnupHeld(): boolean {
    return this.#s.turnupHeld;
  }
  /** Cards out of play, the turn-up included (0 with four players). */
  get stackSize(): number {
    return this.#s.stackSize;
  }

  // ---- play -------------------------------------------------------------------

  /** The lane that must be followed; -1 before the lead. */
  get ledLane(): number {
    return this.#s.trickCards === 0 ? -1 : this.#s.led;
  }
  /** Points of the cards in the current trick. */
  get trickPointsSeen(): number {
    return this.#s.trickCards === 0 ? 0 : this.#s.trickWorth;
  }
  /** During H-2 decisions: the seat that offered to take the trick, or -1. */
  get offerer(): number {
    return this.#s.offerer;
  }
  seatPoints(seat: number): number {
    return this.isSeat(seat) ? this.#s.seatPoints[seat] : 0;
  }
  /** Tricks `seat` kept (after any schleipfe). */
  tricksKept(seat: number): number {
    return this.isSeat(seat) ? this.#s.tricksKept[seat] : 0;
  }
  /** The seat that kept a settled trick; -1 otherwise. */
  trickTaker(trick: number): number {
    return trick >>> 0 === trick && trick < this.#s.trick ? this.#s.trickTaker[trick] : -1;
  }

  /** The physical card (core/french.ts) of a code in this deal. */
  physical(code: number): number {
    return toPhysical(this.#s.trump, code);
  }
  codeName(code: number): string {
    return codeName(this.#s.trump, code);
  }

  override fingerprint(): string {
    const four = (f: (i: number) => number) => perSeat(4, f);
    const tricks: string[] = [];
    for (let t = 0; t <= Math.min(this.trick, 8); t++) {
      tricks.push(
        `${this.trickStart(t)}:${this.trickLeader(t)}>${this.trickWinner(t)}/${this.trickTaker(t)}=${this.trickValue(t)}`,
      );
    }
    return [
      `seat=${this.seat} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]} terminal=${this.terminal}`,
      `dealer=${this.dealer} forehand=${this.forehand} mask=${this.mask} players=${this.players} order=${four((k) => this.player(k))} next=${four((s) => this.nextPlayer(s))}`,
      `phase=${this.phase} kind=${this.kind} for=${this.playoffFor}/${this.playoffPlaces} slate=${four((s) => this.slate(s))} schleipfen=${this.schleipfen}`,
      `trump=${this.trump} turnup=${this.turnup} holder=${this.turnupHolder} held=${this.turnupHeld} stack=${this.stackSize}`,
      this.handLine(),
      this.movesLine(),
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} offerer=${this.offerer}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${four((s) => this.seatPoints(s))} kept=${four((s) => this.tricksKept(s))}`,
      `tricks=${tricks.join(' ')} sizes=${four((s) => this.handSize(s))} voids=${four((s) => this.voids(s))}`,
    ].join('\n');
  }
}
