/**
 * A game's own greedy playout (`State.greedyPlayout`, Viersche's viersche/playout.ts)
 * and its search of the last card before the horizon (`State.horizonCard`) against the
 * solver's own through the state (`kernelPlayout: false`): the same
 * estimate and the same moves counted on random positions (deal starts, face-down
 * leads, inside tricks, at claim questions) under random move histories, and the same
 * values and node counts for whole horizon searches, where node budgets make play a
 * function of those counts.
 */
import { describe, expect, it } from 'vitest';
import { newSets, setSelect, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES, type State } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { Solver } from '../bots/solver/solver.js';
import { defaultTable, endgame } from './endgames.js';

const game = GAMES.find((g) => g.name === 'viersche')!;
const table = defaultTable(game, 4);

/** The solver's private parts that a playout reads, for a direct comparison. */
interface PlayoutProbe {
  history: Int32Array;
  setSide(seat: number, more: boolean): void;
  greedyPlayout(s: State, depth: number): number;
}

function probe(solver: Solver): PlayoutProbe {
  return solver as unknown as PlayoutProbe;
}

/** Deal `index` played at random for `plies` moves (claims mostly declined): it may stop at a claim question or at the end. */
function position(index: number, plies: number): State {
  const state = game.newState(table);
  const match = game.newMatch(table, { singleDeal: true, index });
  const key = seedKey('solver-playout');
  const cards = new Rng();
  cards.reseed(key, index, 0, 0);
  match.startDeal(state, cards);
  const rng = new Rng();
  rng.reseed(key, index, 1, 0);
  const legal = newSets();
  for (let i = 0; i < plies && !state.isTerminal(); i++) {
    const n = state.legal(legal, 0);
    if (state.decision === Decision.Card) state.apply(setSelect(legal, 0, rng.below(n)));
    else state.apply(rng.below(8) === 0 ? YES : NO);
  }
  return state;
}

describe("Viersche's greedy playout on bare hands", () => {
  it('chooses the cards of the solver’s playout: the same estimate and moves on random positions', () => {
    const generic = new Solver(game, table, { kernelPlayout: false });
    const kernel = new Solver(game, table);
    const rng = new Rng();
    rng.reseed(seedKey('solver-playout-history'), 0, 0, 0);
    const stops = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const s = position(i, i % 46);
      const seat = rng.below(4);
      const more = rng.below(4) !== 0;
      // Histories from all zeros (code order decides) to large counts past the leads' cap.
      const scale = [0, 3, 1000, 1 << 23][i % 4];
      for (const solver of [generic, kernel]) probe(solver).setSide(seat, more);
      const a = probe(generic).history;
      for (let k = 0; k < a.length; k++) a[k] = scale === 0 ? 0 : rng.below(scale);
      probe(kernel).history.set(a);
      const before = [generic.nodes, kernel.nodes];
      const expected = probe(generic).greedyPlayout(s, 1);
      const value = probe(kernel).greedyPlayout(s, 1);
      expect(value, `position ${i}: estimate`).toBe(expected);
      expect(kernel.nodes - before[1], `position ${i}: moves`).toBe(generic.nodes - before[0]);
      const kind = s.isTerminal()
        ? 'over'
        : s.decision !== Decision.Card
          ? 'claim'
          : s.tricksLeft() === 9
            ? 'first trick'
            : s.trickCards > 0
              ? 'inside a trick'
              : 'boundary';
      stops.set(kind, (stops.get(kind) ?? 0) + 1);
    }
    for (const kind of ['over', 'claim', 'first trick', 'inside a trick', 'boundary'])
      expect(stops.get(kind) ?? 0, kind).toBeGreaterThan(10);
  });

  it('leaves horizon searches as they were: the same move values, nodes and history', () => {
    const generic = new Solver(game, table, { ttBits: 16, kernelPlayout: false });
    const kernel = new Solver(game, table, { ttBits: 16 });
    const a = new Float64Array(128);
    const b = new Float64Array(128);
    const legal = newSets();
    let searched = 0;
    for (let i = 0; i < 16; i++) {
      const s = endgame('solver-playout-horizon', game, table, i, 8 - (i % 3), i % 4);
      if (s === null) continue;
      const seat = s.toMove;
      for (const solver of [generic, kernel]) {
        solver.reset();
        solver.horizon = 1 + (i % 3);
      }
      generic.moveValues(s, seat, a);
      kernel.moveValues(s, seat, b);
      expect(kernel.nodes, `position ${i}: nodes`).toBe(generic.nodes);
      s.legal(legal, 0);
      for (const code of setToCodes(legal)) expect(b[code], `position ${i}, move ${code}`).toBe(a[code]);
      expect(kernel.value(s, seat), `position ${i}: value`).toBe(generic.value(s, seat));
      expect(kernel.nodes, `position ${i}: nodes after value`).toBe(generic.nodes);
      expect(Array.from(probe(kernel).history), `position ${i}: history`).toEqual(Array.from(probe(generic).history));
      searched++;
    }
    expect(searched).toBeGreaterThan(12);
  });

  it('stops at a node limit where the solver stops, with the same nodes counted', () => {
    const generic = new Solver(game, table, { ttBits: 16, kernelPlayout: false });
    const kernel = new Solver(game, table, { ttBits: 16 });
    const a = new Float64Array(128);
    const b = new Float64Array(128);
    let stopped = 0;
    for (let i = 0; i < 40; i++) {
      const s = endgame('solver-playout-limit', game, table, i, 8 - (i % 4), i % 4);
      if (s === null) continue;
      for (const solver of [generic, kernel]) {
        solver.reset();
        solver.horizon = 1 + (i % 2);
        // Limits from a few nodes to a few thousand: the stop falls anywhere, playouts and answers included.
        solver.nodeLimit = 3 + ((i * 7919) % 4000);
      }
      generic.moveValues(s, s.toMove, a);
      kernel.moveValues(s, s.toMove, b);
      expect(kernel.aborted, `position ${i}: stopped`).toBe(generic.aborted);
      expect(kernel.nodes, `position ${i}: nodes`).toBe(generic.nodes);
      if (generic.aborted) stopped++;
    }
    expect(stopped).toBeGreaterThan(15);
  });
});
