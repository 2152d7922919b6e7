/**
 * What one Hindersche seat may know: its own hand; who deals and plays; the turn-up
 * (and that the dealer holds it, with four players); the size of the stack out of
 * play (never its cards, except the turn-up); every card played and every schleipfen
 * answer; tricks, winners, takers, points and tricks kept; the voids shown; and the
 * public slate context of the deal (phase, kind, marks, what a playoff is for). The
 * state sits in a private field that no bot can reach; every getter below filters by
 * seat or is public.
 */
import { LANES, setSize } from '../../core/cardset.js';
import { DECISION_NAMES, Decision, type DecisionKind, type Observation } from '../game.js';
import { codeName, toPhysical } from '../viersche/cards.js';
import type { HinderscheState } from './state.js';

export class HinderscheView implements Observation {
  readonly #s: HinderscheState;
  readonly seats = 4;

  constructor(
    state: HinderscheState,
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
  /** Every move of Hindersche is public once made (no face-down card). */
  move(ply: number): number {
    return this.#s.moves[ply];
  }

  // ---- who plays ------------------------------------------------------------

  get dealer(): number {
    return this.#s.dealer;
  }
  get forehand(): number {
    return this.#s.forehand;
  }
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
    return seat >>> 0 === seat && seat < 4 && ((this.#s.mask >>> seat) & 1) === 1;
  }
  /** The k-th player in playing order (0 = forehand); -1 beyond the players. */
  player(k: number): number {
    return k >>> 0 === k && k < this.#s.players ? this.#s.order[k] : -1;
  }
  /** The next player of the deal after `seat`; -1 for a seat not taking part. */
  nextPlayer(seat: number): number {
    return seat >>> 0 === seat && seat < 4 ? this.#s.nextSeat[seat] : -1;
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
    return seat >>> 0 === seat && seat < 4 ? this.#s.slate[seat] : 0;
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
    return setSize(this.#s.stack, 0);
  }

  // ---- play -------------------------------------------------------------------

  /** Index of the current trick (9 at the end). It advances once the trick's taker is settled. */
  get trick(): number {
    return this.#s.trick;
  }
  /** Cards in the current trick (equal to `players` while schleipfen is being decided). */
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
  /** The seat winning the current trick so far; -1 before the lead. */
  get winningSeat(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestSeat;
  }
  /** Strength of the winning card so far (cards.ts STRENGTH); -1 before the lead. */
  get winningStrength(): number {
    return this.#s.pos === 0 ? -1 : this.#s.bestStrength;
  }
  /** Points of the cards in the current trick. */
  get trickPointsSeen(): number {
    return this.#s.pos === 0 ? 0 : this.#s.trickPoints;
  }
  /** During H-2 decisions: the seat that offered to take the trick, or -1. */
  get offerer(): number {
    return this.#s.offerer;
  }
  seatPoints(seat: number): number {
    return seat >>> 0 === seat && seat < 4 ? this.#s.seatPoints[seat] : 0;
  }
  tricksKept(seat: number): number {
    return seat >>> 0 === seat && seat < 4 ? this.#s.tricksKept[seat] : 0;
  }
  handSize(seat: number): number {
    return seat >>> 0 === seat && seat < 4 ? this.#s.handCount[seat] : 0;
  }
  /** Lanes `seat` has shown to be void in, as a lane mask. */
  voids(seat: number): number {
    return seat >>> 0 === seat && seat < 4 ? this.#s.voids[seat] : 0;
  }
  private begun(trick: number): boolean {
    const s = this.#s;
    return trick >>> 0 === trick && (trick < s.trick || (trick === s.trick && trick < 9 && s.pos > 0));
  }
  private completed(trick: number): boolean {
    const s = this.#s;
    return trick >>> 0 === trick && (trick < s.trick || (trick === s.trick && s.trick < 9 && s.pos === s.players));
  }
  trickLeader(trick: number): number {
    return this.begun(trick) ? this.#s.trickLeader[trick] : -1;
  }
  /** Winner of a completed trick (also while its schleipfen is decided); -1 otherwise. */
  trickWinner(trick: number): number {
    return this.completed(trick) ? this.#s.trickWinner[trick] : -1;
  }
  /** The seat that kept a settled trick; -1 otherwise. */
  trickTaker(trick: number): number {
    return trick >>> 0 === trick && trick < this.#s.trick ? this.#s.trickTaker[trick] : -1;
  }
  /** Points of a completed trick; -1 otherwise. */
  trickValue(trick: number): number {
    return this.completed(trick) ? this.#s.trickValue[trick] : -1;
  }
  /** The ply of the first card of a trick that has begun; -1 otherwise. */
  trickStart(trick: number): number {
    return this.begun(trick) ? this.#s.trickStart[trick] : -1;
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
    const perSeat = (f: (s: number) => number) => [0, 1, 2, 3].map(f).join(',');
    const tricks: string[] = [];
    for (let t = 0; t <= Math.min(this.trick, 8); t++) {
      tricks.push(
        `${this.trickStart(t)}:${this.trickLeader(t)}>${this.trickWinner(t)}/${this.trickTaker(t)}=${this.trickValue(t)}`,
      );
    }
    return [
      `seat=${this.seat} toMove=${this.toMove} decision=${DECISION_NAMES[this.decision]} terminal=${this.terminal}`,
      `dealer=${this.dealer} forehand=${this.forehand} mask=${this.mask} players=${this.players} order=${[0, 1, 2, 3].map((k) => this.player(k)).join(',')} next=${perSeat((s) => this.nextPlayer(s))}`,
      `phase=${this.phase} kind=${this.kind} for=${this.playoffFor}/${this.playoffPlaces} slate=${perSeat((s) => this.slate(s))} schleipfen=${this.schleipfen}`,
      `trump=${this.trump} turnup=${this.turnup} holder=${this.turnupHolder} held=${this.turnupHeld} stack=${this.stackSize}`,
      `hand=${hand.join(',')}`,
      `moves=${moves.join(' ')}`,
      `trick=${this.trick} cards=${this.trickCards} leader=${this.leader} led=${this.ledLane} offerer=${this.offerer}`,
      `winning=${this.winningSeat}/${this.winningStrength} seen=${this.trickPointsSeen}`,
      `points=${perSeat((s) => this.seatPoints(s))} kept=${perSeat((s) => this.tricksKept(s))}`,
      `tricks=${tricks.join(' ')} sizes=${perSeat((s) => this.handSize(s))} voids=${perSeat((s) => this.voids(s))}`,
    ].join('\n');
  }
}
