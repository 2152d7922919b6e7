/**
 * Max^n search (bots/solver/maxn.ts) against brute-force max^n (test/reference/maxn.ts)
 * on random endgames of 2-4 tricks, at trick boundaries and mid-trick, for every game
 * where each seat plays for itself (H-1, J-4, A-3 play; H-4, J-2/J-5, A-6 measure), and
 * a position where it plays differently from the paranoid solver.
 */
import { describe, expect, it } from 'vitest';
import { newSets, setToCodes } from '../src/core/cardset.js';
import { GAMES } from '../src/games/index.js';
import { MaxnSolver } from '../bots/solver/maxn.js';
import { Solver } from '../bots/solver/solver.js';
import { bruteMaxn } from './reference/maxn.js';
import { defaultTable, endgame } from './endgames.js';

interface Case {
  readonly game: string;
  readonly seats: number;
  readonly positions: number;
}

const CASES: Case[] = [
  { game: 'hindersche', seats: 4, positions: 60 },
  { game: 'hindersi-jass', seats: 4, positions: 60 },
  { game: 'hindersi-jass', seats: 3, positions: 80 },
  { game: 'vier-anderle', seats: 3, positions: 150 },
  { game: 'vier-anderle', seats: 6, positions: 40 },
];

describe('max^n search equals brute-force max^n on random endgames', () => {
  for (const c of CASES) {
    it(`${c.game}, ${c.seats} seats: value vectors and move values`, () => {
      const game = GAMES.find((g) => g.name === c.game)!;
      const table = defaultTable(game, c.seats);
      const maxn = new MaxnSolver(game, table, { ttBits: 12 });
      const vector = new Float64Array(c.seats);
      const values = new Float64Array(128);
      const legal = newSets();
      const child = game.newState(table);
      let checked = 0;
      for (let i = 0; checked < c.positions; i++) {
        const s = endgame('maxn', game, table, i, 2 + (i % (c.seats > 3 ? 2 : 3)), (i >> 2) % c.seats);
        if (s === null) continue;
        const seat = s.toMove;
        maxn.value(s, seat, vector);
        expect(Array.from(vector), `position ${i}`).toEqual(bruteMaxn(game, table, s, seat));
        if (i % 2 === 0) {
          maxn.moveValues(s, seat, values);
          s.legal(legal, 0);
          for (const m of setToCodes(legal, 0)) {
            child.copyFrom(s);
            child.apply(m);
            expect(values[m], `position ${i}, move ${s.moveName(m)}`).toBe(bruteMaxn(game, table, child, seat)[seat]);
          }
        }
        checked++;
      }
    });
  }
});

describe('max^n plays differently from paranoid search where self-interest says so', () => {
  it('hindersi-jass, 4 seats: where the best moves differ, the max^n move leaves fewer points against self-interested play (J-2, J-4)', () => {
    const game = GAMES.find((g) => g.name === 'hindersi-jass')!;
    const table = defaultTable(game, 4);
    const maxn = new MaxnSolver(game, table, { ttBits: 12 });
    const paranoid = new Solver(game, table, { ttBits: 14 });
    const mv = new Float64Array(128);
    const pv = new Float64Array(128);
    const legal = newSets();
    const child = game.newState(table);
    let differ = 0;
    for (let i = 0; i < 300 && differ < 12; i++) {
      const s = endgame('maxn', game, table, 50_000 + i, 3, i % 4);
      if (s === null) continue;
      const seat = s.toMove;
      s.legal(legal, 0);
      const moves = setToCodes(legal, 0);
      if (moves.length < 2) continue;
      maxn.reset();
      maxn.moveValues(s, seat, mv);
      paranoid.reset();
      paranoid.moveValues(s, seat, pv);
      // Fewest points is best (J-5 aside): each model's first best move in code order.
      const pick = (v: Float64Array) => moves.reduce((b, m) => (v[m] < v[b] ? m : b), moves[0]);
      const m = pick(mv);
      const p = pick(pv);
      if (mv[m] === mv[p]) continue;
      differ++;
      // Against opponents who each take as few points as they can, the max^n move is better...
      child.copyFrom(s);
      child.apply(m);
      const selfishM = bruteMaxn(game, table, child, seat)[seat];
      child.copyFrom(s);
      child.apply(p);
      const selfishP = bruteMaxn(game, table, child, seat)[seat];
      expect(selfishM, `position ${50_000 + i}`).toBeLessThan(selfishP);
      // ...and against the coalition the paranoid move is never worse.
      expect(pv[p]).toBeLessThanOrEqual(pv[m]);
    }
    // The two models must disagree in a fair share of positions, or the test tests nothing.
    expect(differ).toBeGreaterThanOrEqual(12);
  });
});
