/**
 * A toy game that only the contract connects to a bot, for the sampling bots' tests
 * (montecarlo, ismcts): seat 0 holds four cards (lane 0, bits 0..3) and plays one;
 * then seat 1 plays one of two cards (bits 0 and 1) that seat 0 never sees. Seat 0
 * scores (its card's bit - 2 x seat 1's) / 3, so the best first move is bit 3
 * whatever happens next (and seat 1, in a search tree, answers with bit 1). It
 * implements only the part of `State` that play and sampling use (not the exact
 * solver's), hence the casts.
 */
import { LANES, setSize } from '../src/core/cardset.js';
import type { Rng } from '../src/core/rng.js';
import { Decision, type DecisionKind, type Game, type Observation, type State } from '../src/games/game.js';

class ToyState {
  readonly seats = 2;
  toMove = 0;
  decision: DecisionKind = Decision.Card;
  first = -1;
  second = -1;
  private readonly view: Observation[];
  constructor() {
    this.view = [0, 1].map((seat) => new ToyView(this, seat));
  }
  isTerminal(): boolean {
    return this.second >= 0;
  }
  legal(out: Int32Array, off: number): number {
    out.fill(0, off, off + LANES);
    if (this.isTerminal()) return 0;
    out[off] = this.toMove === 0 ? 0b1111 : 0b11;
    return setSize(out, off);
  }
  apply(move: number): void {
    if (this.toMove === 0) {
      this.first = move;
      this.toMove = 1;
    } else {
      this.second = move;
      this.toMove = -1;
      this.decision = Decision.None;
    }
  }
  copyFrom(o: ToyState): void {
    this.toMove = o.toMove;
    this.decision = o.decision;
    this.first = o.first;
    this.second = o.second;
  }
  observe(seat: number): Observation {
    return this.view[seat];
  }
  returns(out: Float64Array): void {
    out[0] = (this.first - 2 * this.second) / 3;
    out[1] = -out[0];
  }
  moveName(move: number): string {
    return String(move);
  }
}

export const toy = {
  name: 'toy',
  title: 'toy',
  minSeats: 2,
  maxSeats: 2,
  defaultSeats: 2,
  variants: [],
  teams: () => null,
  dealMetrics: [],
  matchMetrics: [],
  checkTable: () => undefined,
  newState: () => new ToyState(),
  newMatch: () => {
    throw new Error('toy: no matches');
  },
  // A world: seat 0's card as seen, seat 1's not yet played.
  sample(obs: Observation, _rng: Rng, out: State): void {
    const s = out as unknown as ToyState;
    s.first = obs.plies > 0 ? obs.move(0) : -1;
    s.second = -1;
    s.toMove = obs.toMove;
    s.decision = obs.decision;
  },
} as unknown as Game;

class ToyView implements Observation {
  readonly seats = 2;
  constructor(
    private readonly s: ToyState,
    readonly seat: number,
  ) {}
  get toMove(): number {
    return this.s.toMove;
  }
  get decision(): DecisionKind {
    return this.s.decision;
  }
  get terminal(): boolean {
    return this.s.isTerminal();
  }
  handLane(lane: number): number {
    return this.seat === 0 && lane === 0 && this.s.first < 0 ? 0b1111 : 0;
  }
  get plies(): number {
    return (this.s.first >= 0 ? 1 : 0) + (this.s.second >= 0 ? 1 : 0);
  }
  moveSeat(ply: number): number {
    return ply;
  }
  move(ply: number): number {
    return ply === 0 ? this.s.first : this.s.second;
  }
  fingerprint(): string {
    return `${this.seat}:${this.s.first}:${this.s.second}`;
  }
}
