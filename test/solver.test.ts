/**
 * The solver against brute-force minimax (issue 6): random endgames of 2-4 tricks, at
 * trick boundaries and mid-trick, for every game and table size, through the contract.
 */
import { describe, expect, it } from 'vitest';
import { newSets, setToCodes } from '../src/core/cardset.js';
import { Decision, NO, type Game, type State, type TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { Solver } from '../bots/solver/solver.js';
import { bruteForce } from './reference/minimax.js';
import { defaultTable, endgame } from './endgames.js';

interface Case {
  readonly game: string;
  readonly seats: number;
  readonly rules?: Record<string, string | number | boolean>;
  readonly positions: number;
}

const CASES: Case[] = [
  { game: 'viersche', seats: 4, positions: 600 },
  { game: 'hindersche', seats: 4, positions: 600 },
  { game: 'hindersi-jass', seats: 4, positions: 500 },
  { game: 'hindersi-jass', seats: 3, positions: 300 },
  { game: 'vier-anderle', seats: 3, positions: 300 },
  { game: 'vier-anderle', seats: 6, positions: 200 },
];

describe('solver equals brute-force minimax on random endgames', () => {
  for (const c of CASES) {
    it(`${c.game}, ${c.seats} seats: values, move values and target tests`, () => {
      const game = GAMES.find((g) => g.name === c.game)!;
      const table = defaultTable(game, c.seats, c.rules);
      const solver = new Solver(game, table, { ttBits: 14 });
      // Never reset: its table keeps entries from every earlier position (keys must hold across deals).
      const shared = new Solver(game, table, { ttBits: 16 });
      // Keeps positions inside tricks too, at every depth (where the game has `trickKey`).
      const inTricks = new Solver(game, table, { ttBits: 14, trickTableFrom: 1 });
      const values = new Float64Array(128);
      const legal = newSets();
      let checked = 0;
      for (let i = 0; checked < c.positions; i++) {
        const tricks = 2 + (i % 3);
        const extra = (i >> 2) % c.seats;
        const s = endgame('solver', game, table, i, tricks, extra);
        if (s === null) continue;
        const seat = s.toMove;
        solver.reset();
        const exact = bruteForce(game, table, s, seat);
        expect(solver.value(s, seat), `position ${i}`).toBe(exact);
        expect(shared.value(s, seat), `position ${i}, shared table`).toBe(exact);
        inTricks.reset();
        expect(inTricks.value(s, seat), `position ${i}, table inside tricks`).toBe(exact);
        // Every legal move's value is the brute-force value after it (in every other position: it is slow).
        solver.moveValues(s, seat, values);
        if (i % 2 === 0) {
          s.legal(legal, 0);
          const child = game.newState(table);
          for (const m of setToCodes(legal, 0)) {
            child.copyFrom(s);
            child.apply(m);
            expect(values[m], `position ${i}, move ${s.moveName(m)}`).toBe(bruteForce(game, table, child, seat));
          }
        }
        // The zero-window test agrees on both sides of the value.
        const more = game.searchGoal.more;
        expect(solver.reaches(s, seat, exact)).toBe(true);
        expect(solver.reaches(s, seat, more ? exact + 1 : exact - 1)).toBe(false);
        // The opposite aim (a march: the most points), in every third position, through the shared table too.
        if (i % 3 === 0) {
          const opposite = bruteForce(game, table, s, seat, !more);
          expect(solver.value(s, seat, NaN, !more), `position ${i}, opposite aim`).toBe(opposite);
          expect(shared.value(s, seat, NaN, !more), `position ${i}, opposite aim, shared table`).toBe(opposite);
          expect(solver.reaches(s, seat, opposite, !more)).toBe(true);
          expect(solver.reaches(s, seat, more ? opposite - 1 : opposite + 1, !more)).toBe(false);
        }
        checked++;
      }
    });
  }
});

/** The least and the most of `seat`'s side's measure over every line of play from `state` (NO to every question). */
function extremes(game: Game, table: TableConfig, state: State, inSide: Uint8Array): [number, number] {
  const stack: State[] = [];
  let lo = Infinity;
  let hi = -Infinity;
  const go = (s: State, d: number): void => {
    if (s.decision === Decision.None) {
      let sum = 0;
      for (let x = 0; x < table.seats; x++) if (inSide[x] === 1) sum += s.taken(x);
      lo = Math.min(lo, sum);
      hi = Math.max(hi, sum);
      return;
    }
    while (stack.length <= d) stack.push(game.newState(table));
    const child = stack[d];
    if (s.decision !== Decision.Card) {
      child.copyFrom(s);
      child.apply(NO);
      go(child, d + 1);
      return;
    }
    const legal = newSets();
    s.legal(legal, 0);
    for (const m of setToCodes(legal, 0)) {
      child.copyFrom(s);
      child.apply(m);
      go(child, d + 1);
    }
  };
  go(state, 0);
  return [lo, hi];
}

describe('sureTaken bounds every line of play', () => {
  for (const c of CASES) {
    it(`${c.game}, ${c.seats} seats`, () => {
      const game = GAMES.find((g) => g.name === c.game)!;
      const table = defaultTable(game, c.seats, c.rules);
      const teams = game.teams(table.seats);
      const inSide = new Uint8Array(table.seats);
      const sure = new Int32Array(2);
      let bounded = 0;
      let checked = 0;
      for (let i = 0; checked < 150; i++) {
        const s = endgame('solver', game, table, 10_000 + i, 2 + (i % 2), 0);
        if (s === null || s.trickCards !== 0) continue;
        const seat = s.toMove;
        for (let x = 0; x < table.seats; x++)
          inSide[x] = (teams === null ? x === seat : teams[x] === teams[seat]) ? 1 : 0;
        let base = 0;
        for (let x = 0; x < table.seats; x++) if (inSide[x] === 1) base += s.taken(x);
        s.sureTaken(inSide, sure);
        const [least, most] = extremes(game, table, s, inSide);
        expect(least, `position ${i}: the side surely takes ${sure[0]}`).toBeGreaterThanOrEqual(base + sure[0]);
        expect(most, `position ${i}: the others surely take ${sure[1]}`).toBeLessThanOrEqual(
          base + s.inPlay() - sure[1],
        );
        if (sure[0] + sure[1] > 0) bounded++;
        checked++;
      }
      // The bound must say something in a fair share of positions, or the test tests nothing.
      expect(bounded).toBeGreaterThan(30);
    });
  }
});

describe('the selfish playout beyond the horizon (games without teams)', () => {
  it('changes estimates only: exact values stay, horizon values move in some positions (J-2)', () => {
    const game = GAMES.find((g) => g.name === 'hindersi-jass')!;
    const table = defaultTable(game, 4);
    const coalition = new Solver(game, table, { ttBits: 14 });
    const selfish = new Solver(game, table, { ttBits: 14 });
    selfish.selfishPlayout = true;
    let moved = 0;
    for (let i = 0; i < 40; i++) {
      const s = endgame('solver-playout', game, table, i, 4, i % 4);
      if (s === null) continue;
      const seat = s.toMove;
      for (const sv of [coalition, selfish]) sv.reset();
      expect(selfish.value(s, seat), `position ${i}: exact`).toBe(coalition.value(s, seat));
      coalition.horizon = selfish.horizon = 1;
      for (const sv of [coalition, selfish]) sv.reset();
      if (selfish.value(s, seat) !== coalition.value(s, seat)) moved++;
      coalition.horizon = selfish.horizon = Infinity;
    }
    expect(moved).toBeGreaterThan(5);
  });
});

describe('estimates kept in the table (keepEstimates)', () => {
  it('leave exact searches alone and run fewer playouts at a horizon, to about the same values (Viersche)', () => {
    const game = GAMES.find((g) => g.name === 'viersche')!;
    const table = defaultTable(game, 4);
    const replayed = new Solver(game, table, { ttBits: 16 });
    const kept = new Solver(game, table, { ttBits: 16 });
    kept.keepEstimates = true;
    const a = new Float64Array(128);
    const b = new Float64Array(128);
    const legal = newSets();
    let searched = 0;
    let cheaper = 0;
    let same = 0;
    let moves = 0;
    for (let i = 0; i < 24; i++) {
      const s = endgame('solver-kept', game, table, i, 7, i % 4);
      if (s === null) continue;
      const seat = s.toMove;
      // Without a horizon nothing is estimated: the same values and nodes.
      const e = endgame('solver-kept-exact', game, table, i, 4, i % 4);
      if (e !== null) {
        for (const sv of [replayed, kept]) sv.reset();
        expect(kept.value(e, e.toMove), `position ${i}: exact`).toBe(replayed.value(e, e.toMove));
        expect(kept.nodes, `position ${i}: exact nodes`).toBe(replayed.nodes);
      }
      replayed.horizon = kept.horizon = 2;
      for (const sv of [replayed, kept]) sv.reset();
      replayed.moveValues(s, seat, a);
      kept.moveValues(s, seat, b);
      if (kept.nodes < replayed.nodes) cheaper++;
      const n = s.legal(legal, 0);
      for (const code of setToCodes(legal)) {
        const lo = kept.takenBy(s, seat);
        expect(b[code]).toBeGreaterThanOrEqual(lo);
        expect(b[code]).toBeLessThanOrEqual(lo + s.inPlay());
        if (b[code] === a[code]) same++;
      }
      moves += n;
      // From a reset solver the same nodes and values again (play stays a function of the deal).
      const again = new Float64Array(128);
      const nodes = kept.nodes;
      kept.reset();
      kept.moveValues(s, seat, again);
      expect(kept.nodes, `position ${i}: kept again`).toBe(nodes);
      for (const code of setToCodes(legal)) expect(again[code]).toBe(b[code]);
      replayed.horizon = kept.horizon = Infinity;
      searched++;
    }
    expect(searched).toBeGreaterThan(15);
    // A kept estimate stands for a playout that history might since have steered elsewhere.
    expect(cheaper).toBeGreaterThan(searched * 0.8);
    expect(same).toBeGreaterThan(moves * 0.5);
  });
});

describe('a search from a reset solver costs the same whatever ran before', () => {
  // Node budgets make play a function of node counts: they must not depend on what the
  // solver (or a game's own search, which keeps hints in its table) did before `reset`.
  for (const c of CASES.filter((x) => x.seats === 4)) {
    it(`${c.game}: the same nodes and values as a fresh solver`, () => {
      const game = GAMES.find((g) => g.name === c.game)!;
      const table = defaultTable(game, c.seats, c.rules);
      const used = new Solver(game, table, { ttBits: 14 });
      let compared = 0;
      for (let i = 0; i < 12; i++) {
        const s = endgame('solver-reset', game, table, i, 5, i % 3);
        if (s === null) continue;
        // Something else first: another position, another side.
        const other = endgame('solver-reset-other', game, table, i, 4, 0);
        if (other !== null) used.value(other, (other.toMove + 1) % c.seats);
        used.reset();
        const fresh = new Solver(game, table, { ttBits: 14 });
        expect(used.value(s, s.toMove), `position ${i}`).toBe(fresh.value(s, s.toMove));
        expect(used.nodes, `position ${i}`).toBe(fresh.nodes);
        compared++;
      }
      expect(compared).toBeGreaterThan(8);
    });
  }
});
