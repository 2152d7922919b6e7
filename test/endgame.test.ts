/**
 * `State.endgame` (game.ts, "Search support"), the shortcut a game may give the solver
 * for its last tricks, against the exact value: for every game that has one, on random
 * trick boundaries with 1 to `endgameTricks` tricks left, for both aims of the side and
 * random windows, the result obeys the fail-soft contract (the value inside the
 * window, a bound beyond the edge outside it), without a table and with one that the
 * windows of a position share (its bounds then carry from one search to the next). The
 * exact value is brute-force minimax up to three tricks, beyond that the solver
 * without the shortcut (itself checked against brute force in solver.test.ts). The
 * solver gives the same values with and without it, and a horizon search (an estimate)
 * is the same search with and without it. Viersche's shortcut plays the last
 * tricks by V-5 (follow suit or trump; to a trump lead, a trump) and V-3's points
 * itself; brute force plays through the state's `legal` and `apply`, so a rule it got
 * wrong shows as a wrong value.
 */
import { describe, expect, it } from 'vitest';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { Solver } from '../bots/solver/solver.js';
import { Transposition } from '../bots/solver/transposition.js';
import { bruteForce } from './reference/minimax.js';
import { defaultTable, endgame } from './endgames.js';

const POSITIONS = 400;
/** Up to this many tricks left the exact value is brute force's. */
const BRUTE_FORCE_TRICKS = 3;

/** The side's measure so far: what `endgame`'s "still to be taken" is added to. */
function takenBy(game: Game, table: TableConfig, s: State, seat: number): number {
  const teams = game.teams(table.seats);
  let sum = 0;
  for (let x = 0; x < table.seats; x++) if (teams === null ? x === seat : teams[x] === teams[seat]) sum += s.taken(x);
  return sum;
}

const withEndgame = GAMES.filter((g) => (g.newState(defaultTable(g, g.minSeats)).endgameTricks ?? 0) > 0);

describe('State.endgame equals brute force within its window', () => {
  it('some game has an endgame shortcut', () => {
    expect(withEndgame.map((g) => g.name)).toContain('viersche');
  });

  for (const game of withEndgame) {
    it(`${game.name}: values and fail-soft bounds, both aims`, () => {
      const table = defaultTable(game, game.minSeats);
      const tricks = game.newState(table).endgameTricks!;
      const teams = game.teams(table.seats);
      const rng = new Rng();
      rng.reseed(seedKey('endgame-test'), 0, 0, 0);
      const inSide = new Uint8Array(table.seats);
      const maximizer = new Uint8Array(table.seats);
      const out = new Int32Array(2);
      const plain = new Solver(game, table, { ttBits: 14, endgame: false });
      const bounds = new Transposition(12);
      let checked = 0;
      let inside = 0;
      let visits = 0;
      for (let i = 0; checked < POSITIONS; i++) {
        const left = 1 + (i % tricks);
        const s = endgame('endgame', game, table, i, left, 0);
        if (s === null || s.trickCards !== 0) continue;
        const seat = s.toMove;
        const more = i % 4 !== 3;
        for (let x = 0; x < table.seats; x++) {
          const side = teams === null ? x === seat : teams[x] === teams[seat];
          inSide[x] = side ? 1 : 0;
          maximizer[x] = side === more ? 1 : 0;
        }
        const base = takenBy(game, table, s, seat);
        plain.reset();
        const exact =
          (left <= BRUTE_FORCE_TRICKS ? bruteForce(game, table, s, seat, more) : plain.value(s, seat, NaN, more)) -
          base;
        // A full window, a zero window at a random point, and a random window.
        const a = rng.below(60) - 5;
        const b = a + 1 + (i % 3 === 0 ? 0 : rng.below(60));
        bounds.reset();
        for (const kept of [null, bounds]) {
          for (const [alpha, beta] of [
            [-1, 1 << 20],
            [a, a + 1],
            [a, b],
            [a, a + 1],
          ]) {
            s.endgame!(inSide, maximizer, alpha, beta, out, kept ?? undefined);
            const v = out[0];
            const where = `position ${i}, ${kept ? 'with' : 'without'} a table, window (${alpha}, ${beta}), exact ${exact}`;
            if (exact <= alpha) expect(v <= alpha && v >= exact, where).toBe(true);
            else if (exact >= beta) expect(v >= beta && v <= exact, where).toBe(true);
            else {
              expect(v, where).toBe(exact);
              inside++;
            }
            visits += out[1];
          }
        }
        checked++;
      }
      // The windows put the value inside often enough for the exact branch to be tested.
      expect(inside).toBeGreaterThan(2 * POSITIONS);
      // It reports the positions it visits (the solver counts them as nodes).
      expect(visits).toBeGreaterThan(3 * POSITIONS);
    });

    it(`${game.name}: the solver gives the same values with and without it`, () => {
      const table = defaultTable(game, game.minSeats);
      const fast = new Solver(game, table, { ttBits: 14 });
      const plain = new Solver(game, table, { ttBits: 14, endgame: false });
      let checked = 0;
      for (let i = 0; checked < 60; i++) {
        const s = endgame('endgame-solver', game, table, i, 4 + (i % 4), i % table.seats);
        if (s === null) continue;
        fast.reset();
        plain.reset();
        expect(fast.value(s, s.toMove), `position ${i}`).toBe(plain.value(s, s.toMove));
        checked++;
      }
    });

    it(`${game.name}: a horizon search goes without it (the shortcut searches to the end)`, () => {
      const table = defaultTable(game, game.minSeats);
      const fast = new Solver(game, table, { ttBits: 14 });
      const plain = new Solver(game, table, { ttBits: 14, endgame: false });
      const tricks = game.newState(table).endgameTricks!;
      let differs = 0;
      for (let i = 0; i < 30; i++) {
        // The shortcut's top lies inside the horizon, the end of the deal beyond it.
        const s = endgame('endgame-horizon', game, table, i, tricks + 1, 0);
        if (s === null) continue;
        const horizon = 2 + (i % 2);
        fast.reset();
        plain.reset();
        fast.horizon = plain.horizon = horizon;
        const estimate = fast.value(s, s.toMove);
        expect(estimate, `position ${i}`).toBe(plain.value(s, s.toMove));
        expect(fast.nodes, `position ${i}`).toBe(plain.nodes);
        fast.horizon = Infinity;
        if (fast.value(s, s.toMove) !== estimate) differs++;
      }
      // The estimates are estimates: were the shortcut used, they would be exact values.
      expect(differs).toBeGreaterThan(5);
    });
  }
});
