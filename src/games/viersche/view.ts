/**
 * What one Viersche seat may know: the common window of the trick kernel (its own
 * hand, the cards played, the tricks) and the turn-up and who holds it, the targets,
 * points, tricks and claims. The face-down lead is shown only once its trick is
 * complete, except to the seat that led it (V-4).
 */
import { DECISION_NAMES, HIDDEN } from '../game.js';
import { TrickView, perSeat } from '../trick/view.js';
import { POINTS, codeName, toPhysical } from './cards.js';
import type { VierscheState } from './state.js';

export class VierscheView extends TrickView {
  readonly #s: VierscheState;

  constructor(state: VierscheState, seat: number) {
    super(state, seat);
    this.#s = state;
  }

  override move(ply: number): number {
    return this.hidden(ply) ? HIDDEN : super.move(ply);
  }

  override playedLane(lane: number): number {
    const played = super.playedLane(lane);
    if (!this.hidden(0)) return played;
    const facedown = this.#s.move(0);
    return facedown >>> 5 === lane ? played & ~(1 << (facedown & 31)) : played;
  }

  /** The face-down lead is hidden from the other seats until its trick is complete (V-4). */
  private hidden(ply: number): boolean {
    const s = this.#s;
    return ply === 0 && s.facedown && s.trick === 0 && this.seat !== s.forehand;
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
  /** Points `team` (0 or 1) needs in this deal. */
  target(team: number): number {
    return isTeam(team) ? this.#s.targets[team] : 0;
  }
  /** The lane that must be followed (lane 0 after a face-down lead); -1 before the lead. */
  get ledLane(): number {
    return this.#s.trickCards === 0 ? -1 : this.#s.led;
  }
  get facedown(): boolean {
    return this.#s.facedown;
  }
  /** Points of the cards this seat can see in the current trick. */
  get trickPointsSeen(): number {
    const s = this.#s;
    const pos = s.trickCards;
    if (pos === 0) return 0;
    let p = 0;
    for (let ply = s.plies - pos; ply < s.plies; ply++) if (!this.hidden(ply)) p += POINTS[s.move(ply)];
    return p;
  }
  teamPoints(team: number): number {
    return isTeam(team) ? this.#s.teamPoints(team) : 0;
  }
  seatPoints(seat: number): number {
    return this.isSeat(seat) ? this.#s.taken(seat) : 0;
  }
  teamTricks(team: number): number {
    return isTeam(team) ? this.#s.teamTricks(team) : 0;
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

  override fingerprint(): string {
    const four = (f: (i: number) => number) => perSeat(4, f);
    const tricks: string[] = [];
    for (let t = 0; t < this.trick; t++) tricks.push(`${this.trickLeader(t)}>${this.trickWinner(t)}`);
    return [
      `seat=${this.seat} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]}`,
      `dealer=${this.dealer} trump=${this.trump} turnup=${this.turnup} held=${this.turnupHeld}`,
      `targets=${this.target(0)},${this.target(1)} second=${this.secondDeal}`,
      this.handLine(),
      this.movesLine(),
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} facedown=${this.facedown}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${this.teamPoints(0)},${this.teamPoints(1)} seatPoints=${four((s) => this.seatPoints(s))}`,
      `tricks=${tricks.join(' ')} sizes=${four((s) => this.handSize(s))} voids=${four((s) => this.voids(s))}`,
      `winner=${this.winner} rungs=${this.gameRungs} claim=${this.claimTrick}`,
    ].join('\n');
  }
}

function isTeam(team: number): boolean {
  return team === 0 || team === 1;
}
