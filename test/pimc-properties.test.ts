/**
 * experiments/pimc-properties.ts (Long et al.'s measures): its minimax equals plain
 * exhaustive minimax; the share of an information set that a first lead rules out is
 * the hypergeometric one; the rates are pooled with intervals over deals; a small run
 * is the same twice and its rates are consistent with each other.
 */
import { describe, expect, it } from 'vitest';
import {
  Minimax,
  Rate,
  measureGame,
  nextInformationSets,
  ruledOutShare,
  type Options,
} from '../experiments/pimc-properties.js';
import { PolicyModel } from '../bots/policy.js';
import { newSets, setSelect } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

/** The mover-relative value of `s` for `seat` by exhaustive minimax (allocating, no pruning). */
function plain(game: Game, table: TableConfig, s: State, seat: number): number {
  const ret = new Float64Array(table.seats);
  if (s.isTerminal()) {
    s.returns(ret);
    let others = 0;
    for (let q = 0; q < table.seats; q++) if (q !== seat) others += ret[q];
    return ret[seat] - others / (table.seats - 1);
  }
  const teams = game.teams(table.seats);
  const mine = teams ? teams[s.toMove] === teams[seat] : s.toMove === seat;
  const legal = newSets(1);
  const n = s.legal(legal, 0);
  let best = mine ? -Infinity : Infinity;
  for (let k = 0; k < n; k++) {
    const c = game.newState(table);
    c.copyFrom(s);
    c.apply(setSelect(legal, 0, k));
    const v = plain(game, table, c, seat);
    best = mine ? Math.max(best, v) : Math.min(best, v);
  }
  return best;
}

describe('pimc-properties', () => {
  it('Minimax (alpha-beta) equals exhaustive minimax on endgames of every game', () => {
    for (const [name, seats] of [
      ['viersche', 4],
      ['hindersche', 4],
      ['hindersi-jass', 3],
      ['vier-anderle', 5],
    ] as const) {
      const game = findGame(name)!;
      const table = defaultTable(game, seats);
      const minimax = new Minimax(game, table, 60);
      let checked = 0;
      for (let i = 0; i < 12; i++) {
        const s = endgame('properties', game, table, i, 2 + (i % 2), i % 3);
        if (!s) continue;
        for (let seat = 0; seat < seats; seat++) {
          expect(minimax.value(s, seat), `${name} endgame ${i} seat ${seat}`).toBeCloseTo(
            plain(game, table, s, seat),
            12,
          );
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    }
  });

  it("a first Hindersche lead rules out the hypergeometric share of each observer's worlds", () => {
    // The leader holds 9 of the cards an observer cannot see: 27 for the dealer, 26 for
    // the others (the dealer's turn-up is public).
    const game = findGame('hindersche')!;
    const table = defaultTable(game, 4);
    const state = game.newState(table);
    const world = game.newState(table);
    const legal = newSets(1);
    const rng = new Rng(seedKey('ruled-out'), 1);
    const worlds = 4000;
    for (let d = 0; d < 3; d++) {
      game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(seedKey('ruled-out'), d));
      const leader = state.toMove;
      const dealer = (leader + 3) % 4;
      state.legal(legal, 0);
      const move = setSelect(legal, 0, 0);
      for (let q = 0; q < 4; q++) {
        if (q === leader) continue;
        const want = q === dealer ? 18 / 27 : 17 / 26;
        const got = ruledOutShare(game, state.observe(q), move, worlds, rng, world, legal);
        const se = Math.sqrt((want * (1 - want)) / worlds);
        expect(Math.abs(got - want), `deal ${d} observer ${q}`).toBeLessThan(4 * se);
      }
    }
  });

  it("the next decision's information sets: no more than the worlds that reach it, and many of them in mid-deal", () => {
    const game = findGame('hindersi-jass')!;
    const table = defaultTable(game, 4);
    const model = PolicyModel.heuristic(game, table);
    const world = game.newState(table);
    const legal = newSets(1);
    const rng = new Rng(seedKey('sets'), 0);
    let many = 0;
    for (let i = 0; i < 8; i++) {
      const s = endgame('sets', game, table, i, 4 + (i % 3), 0);
      if (!s) continue;
      const n = s.legal(legal, 0);
      const r = nextInformationSets(
        game,
        s.observe(s.toMove),
        setSelect(legal, 0, n - 1),
        40,
        rng,
        world,
        model,
        legal,
      );
      expect(r.reached).toBeLessThanOrEqual(40);
      expect(r.sets).toBeLessThanOrEqual(r.reached);
      if (r.reached > 0) expect(r.sets).toBeGreaterThanOrEqual(1);
      if (r.sets > 10) many++;
      // One world: one set.
      expect(
        nextInformationSets(game, s.observe(s.toMove), setSelect(legal, 0, 0), 1, rng, world, model, legal).sets,
      ).toBeLessThanOrEqual(1);
    }
    expect(many).toBeGreaterThan(2);
  });

  it('pools a rate over deals with an interval over deals', () => {
    const r = new Rate();
    r.add(0, 1);
    r.add(0, 0);
    r.add(1, 1, 2);
    r.add(2, 0, 2);
    const e = r.estimate(3);
    expect(e.mean).toBeCloseTo(2 / 6, 12);
    // n counts the deals, the independent units (the decisions of one deal are not).
    expect(e.n).toBe(3);
    expect(e.low).toBeLessThan(2 / 6);
    expect(e.high).toBeGreaterThan(2 / 6);
    // Every unit a hit: no interval, the Wilson bound over the deals that had a unit (one here).
    const all = new Rate();
    all.add(0, 2, 2);
    expect(all.estimate(4)).toMatchObject({ n: 1, mean: 1, low: NaN, high: NaN, degenerate: 'all' });
  });

  it('a small run: the same twice, rates in [0, 1], equal values only where the payoffs agree', () => {
    const o: Options = { games: [], deals: 3, tricks: 3, worlds: 20, play: 'heuristic', seed: 'properties-test' };
    for (const name of ['viersche', 'hindersi-jass']) {
      const game = findGame(name)!;
      const a = measureGame(game, 4, o);
      const b = measureGame(game, 4, o);
      expect(b.df.hits).toBe(a.df.hits);
      expect(b.lc.hits).toBe(a.lc.hits);
      expect(a.lc.n).toBeGreaterThan(5);
      expect(a.lcExact.hits).toBeLessThanOrEqual(a.lc.hits);
      expect(a.bias.n).toBeGreaterThanOrEqual(2 * a.lc.n);
      for (const rate of [a.lc, a.lcExact, a.bias, a.df]) {
        const e = rate.estimate(3);
        expect(e.mean).toBeGreaterThanOrEqual(0);
        expect(e.mean).toBeLessThanOrEqual(1);
      }
      expect(a.df.hits / a.df.n).toBeGreaterThan(0.3);
      expect(a.sets.hits).toBeLessThanOrEqual(a.sets.n);
      expect(a.setsByTrick.reduce((s, r) => s + r.n, 0)).toBe(a.sets.n);
      expect(a.lcByTricksLeft.reduce((s, r) => s + r.n, 0)).toBe(a.lc.n);
      expect(a.dfByTrick.reduce((s, r) => s + r.n, 0)).toBe(a.df.n);
    }
  });
});
