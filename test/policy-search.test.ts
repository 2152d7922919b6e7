/**
 * The search against a model of the others (bots/policy-search.ts): equal to a brute-force
 * maximum over the seat's own decisions, the model playing every other seat, on random
 * endgames of every game; depth-limited values equal the model playing the seat too
 * beyond the depth; and the model in every seat (bots/policy.ts) is the game's heuristic.
 */
import { describe, expect, it } from 'vitest';
import { PolicyModel } from '../bots/policy.js';
import { PolicySearch } from '../bots/policy-search.js';
import { CODE_LIMIT, newSets, setCodesInto, setFirst } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { resolveParams } from '../src/games/params.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

const CASES: [string, number, Record<string, string | number | boolean>][] = [
  ['viersche', 4, {}],
  ['hindersche', 4, {}],
  ['hindersi-jass', 4, {}],
  ['hindersi-jass', 3, {}],
  ['vier-anderle', 5, {}],
];

/**
 * The seat's best return from `s` (allocating, recursive): the seat maximises at each of
 * its decisions while `depth` lasts (forced moves free), the model moves otherwise.
 */
function reference(game: Game, table: TableConfig, model: PolicyModel, s: State, seat: number, depth: number): number {
  const legal = newSets(1);
  const ret = new Float64Array(table.seats);
  const t = game.newState(table);
  t.copyFrom(s);
  for (;;) {
    if (t.isTerminal()) {
      t.returns(ret);
      return ret[seat];
    }
    const n = t.legal(legal, 0);
    if (n > 1 && t.toMove === seat && depth > 0) break;
    t.apply(n === 1 ? setFirst(legal, 0) : model.move(t, legal, n));
  }
  const moves = new Int32Array(CODE_LIMIT);
  const count = setCodesInto(legal, 0, moves);
  let best = -Infinity;
  for (let i = 0; i < count; i++) {
    const c = game.newState(table);
    c.copyFrom(t);
    c.apply(moves[i]);
    best = Math.max(best, reference(game, table, model, c, seat, depth - 1));
  }
  return best;
}

describe('PolicySearch', () => {
  for (const [name, seats, rules] of CASES) {
    it(`${name}, ${seats} players: exact values equal a brute-force maximum against the model; depth-limited ones the model beyond the depth`, () => {
      const game = findGame(name)!;
      const table = defaultTable(game, seats, rules);
      const model = PolicyModel.heuristic(game, table);
      model.reseed(new Rng(seedKey('policy-search'), 0));
      const search = new PolicySearch(game, table, model);
      const legal = newSets(1);
      const moves = new Int32Array(CODE_LIMIT);
      const got = new Float64Array(CODE_LIMIT);
      let exact = 0;
      let limited = 0;
      for (let i = 0; i < 60; i++) {
        const s = endgame('policy', game, table, i, 2 + (i % 3), i % 4);
        if (!s) continue;
        const seat = s.toMove;
        s.legal(legal, 0);
        const n = setCodesInto(legal, 0, moves);
        // A generous share: the search runs to the end (exact under the model).
        const depth = search.values(s, seat, moves, n, 1e9, got);
        expect(depth).toBe(Infinity);
        for (let k = 0; k < n; k++) {
          const c = game.newState(table);
          c.copyFrom(s);
          c.apply(moves[k]);
          expect(got[moves[k]], `${name} endgame ${i} move ${s.moveName(moves[k])}`).toBe(
            reference(game, table, model, c, seat, 99),
          );
          exact++;
        }
        // The smallest share: only the first level, the seat's later decisions by the model.
        const d = search.values(s, seat, moves, n, 0, got);
        if (d === 1) {
          for (let k = 0; k < n; k++) {
            const c = game.newState(table);
            c.copyFrom(s);
            c.apply(moves[k]);
            expect(got[moves[k]]).toBe(reference(game, table, model, c, seat, 0));
            limited++;
          }
        }
      }
      expect(exact).toBeGreaterThan(100);
      expect(limited).toBeGreaterThan(20);
    });
  }

  it("the model is the game's heuristic in every seat", () => {
    for (const [name, seats] of CASES) {
      const game = findGame(name)!;
      const table = defaultTable(game, seats);
      const model = PolicyModel.heuristic(game, table);
      const spec = game.heuristic;
      const legal = newSets(1);
      for (let i = 0; i < 10; i++) {
        const s = endgame('policy-model', game, table, i, 5, i % 4);
        if (!s) continue;
        const n = s.legal(legal, 0);
        if (n < 2) continue;
        const bot = spec.create({
          game,
          table,
          seat: s.toMove,
          rng: new Rng(),
          params: resolveParams(spec.params, {}, spec.name),
        });
        expect(model.move(s, legal, n)).toBe(bot.act(s.observe(s.toMove), legal, n));
      }
    }
  });
});
