/**
 * What the contract suite (test/contract.test.ts) asks of a game's naive reference (its
 * folder's reference.ts, written from RULES.md alone and sharing no code with the
 * engine): the tables to play and, for a position, the legal moves and a move made, by
 * name, so that perft and lock-step compare any game's engine with its reference
 * through one interface. Cards are named
 * as RECORD.md names them (`State.moveName`); yes/no answers are 'yes' and 'no'.
 */
import type { ParamValue } from './game.js';
import type { TrickState } from './trick/state.js';

/** A game's part of the contract suite: the tables it plays there and its reference's twin. */
export interface ContractCase {
  /** Tables to play: seats and rule variants (defaults for the rest). */
  readonly tables: readonly (readonly [number, Readonly<Record<string, ParamValue>>])[];
  readonly naive: NaiveTwin;
}

export interface NaiveGame {
  /** The legal moves by name, in any order (empty when the deal is over). */
  moves(): string[];
  play(move: string): void;
  clone(): NaiveGame;
}

/** The naive twin of an engine state at the start of its deal (no move made yet). */
export type NaiveTwin = (state: TrickState) => NaiveGame;

/** The engine's hands at the start of the deal, by seat, as card names. */
export function dealtNames(state: TrickState): string[][] {
  const out: string[][] = [];
  for (let seat = 0; seat < state.seats; seat++) {
    const names: string[] = [];
    for (let lane = 0; lane < 4; lane++) {
      for (let m = state.dealt[seat * 4 + lane]; m !== 0; m &= m - 1)
        names.push(state.moveName((lane << 5) | (31 - Math.clz32(m & -m))));
    }
    out.push(names);
  }
  return out;
}
