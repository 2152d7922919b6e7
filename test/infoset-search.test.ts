/**
 * EPIMC for pimc's heuristic model (bots/infoset-search.ts, `pimc:postpone`): the search
 * over the seat's information sets equals a brute-force maximum over them (worlds grouped
 * by the moves the seat saw, written plainly with strings) on endgames of every game of
 * individuals; with one world it is pimc's per-world search one level deeper; pimc with
 * it plays legal moves at every kind of decision, is a function of its stream, and its
 * move depends on the seat's observation alone.
 */
import { describe, expect, it } from 'vitest';
import { InfoSetSearch } from '../bots/infoset-search.js';
import { PolicyModel } from '../bots/policy.js';
import { PolicySearch } from '../bots/policy-search.js';
import { pimc } from '../bots/pimc.js';
import type { Bot } from '../src/games/bot.js';
import { CODE_LIMIT, newSets, setCodesInto, setFirst, setSelect } from '../src/core/cardset.js';
import { isTafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { resolveParams } from '../src/games/params.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

const CASES: [string, number][] = [
  ['hindersche', 4],
  ['hindersi-jass', 4],
  ['hindersi-jass', 3],
  // Three players: with more, the four cards of a hand reveal so much that no two worlds share a set.
  ['vier-anderle', 3],
];

function copyOf(game: Game, table: TableConfig, s: State): State {
  const c = game.newState(table);
  c.copyFrom(s);
  return c;
}

/** Play `s` on with the model to `seat`'s next choice or the end. */
function advance(model: PolicyModel, s: State, seat: number): void {
  const legal = newSets(1);
  while (!s.isTerminal()) {
    const n = s.legal(legal, 0);
    if (n > 1 && s.toMove === seat) return;
    s.apply(n === 1 ? setFirst(legal, 0) : model.move(s, legal, n));
  }
}

/** The model to the end; the seat's return. */
function playout(game: Game, table: TableConfig, model: PolicyModel, s: State, seat: number): number {
  const t = copyOf(game, table, s);
  advance(model, t, -1);
  const ret = new Float64Array(table.seats);
  t.returns(ret);
  return ret[seat];
}

/**
 * The reference: the sum over `worlds` (at the seat's decision) of their values when
 * the seat makes `k` more decisions, one per information set (worlds grouped by the text
 * of the moves the seat saw), the model playing everything else and the seat beyond.
 */
function reference(
  game: Game,
  table: TableConfig,
  model: PolicyModel,
  worlds: State[],
  seat: number,
  k: number,
): number {
  const first = worlds[0];
  if (first.isTerminal()) {
    const ret = new Float64Array(table.seats);
    return worlds.reduce((sum, w) => (w.returns(ret), sum + ret[seat]), 0);
  }
  if (k === 0) return worlds.reduce((sum, w) => sum + playout(game, table, model, w, seat), 0);
  const legal = newSets(1);
  first.legal(legal, 0);
  const moves = new Int32Array(CODE_LIMIT);
  const n = setCodesInto(legal, 0, moves);
  let best = -Infinity;
  for (let i = 0; i < n; i++) best = Math.max(best, moveSum(game, table, model, worlds, seat, moves[i], k));
  return best;
}

function moveSum(
  game: Game,
  table: TableConfig,
  model: PolicyModel,
  worlds: State[],
  seat: number,
  move: number,
  k: number,
): number {
  const from = worlds[0].observe(seat).plies;
  const sets = new Map<string, State[]>();
  for (const w of worlds) {
    const c = copyOf(game, table, w);
    c.apply(move);
    advance(model, c, seat);
    const obs = c.observe(seat);
    const seen = [c.isTerminal() ? 'end' : 'on'];
    for (let p = from; p < obs.plies; p++) seen.push(`${obs.moveSeat(p)}:${obs.move(p)}`);
    const key = seen.join(',');
    sets.set(key, [...(sets.get(key) ?? []), c]);
  }
  let sum = 0;
  for (const set of sets.values()) sum += reference(game, table, model, set, seat, k - 1);
  return sum;
}

describe('InfoSetSearch', () => {
  for (const [name, seats] of CASES) {
    it(`${name}, ${seats} players: equals the brute-force maximum over the seat's information sets`, () => {
      const game = findGame(name)!;
      const table = defaultTable(game, seats);
      const model = PolicyModel.heuristic(game, table);
      model.reseed(new Rng(seedKey('infoset'), 0));
      const search = new InfoSetSearch(game, table, model, new PolicySearch(game, table, model), 12, 3);
      const rng = new Rng(seedKey('infoset-worlds'), 0);
      const legal = newSets(1);
      const moves = new Int32Array(CODE_LIMIT);
      const got = new Float64Array(CODE_LIMIT);
      const weight = new Float64Array(12).fill(1);
      let checked = 0;
      let shared = 0;
      for (let i = 0; i < 16; i++) {
        const s = endgame('infoset', game, table, i, 3 + (i % 2), i % 3);
        if (!s) continue;
        const seat = s.toMove;
        const worlds = Array.from({ length: 12 }, () => {
          const w = game.newState(table);
          game.sample(s.observe(seat), rng, w);
          return w;
        });
        s.legal(legal, 0);
        const n = setCodesInto(legal, 0, moves);
        for (const k of [1, 2, 3]) {
          const depth = search.values(worlds, weight, 12, seat, moves, n, k, 1, 1e9, got);
          expect(depth === Infinity || depth === k).toBe(true);
          for (let m = 0; m < n; m++) {
            const want = moveSum(game, table, model, worlds, seat, moves[m], k) / 12;
            expect(got[moves[m]], `${name} endgame ${i}, ${k} levels, ${s.moveName(moves[m])}`).toBeCloseTo(want, 12);
            checked++;
          }
        }
        // Information sets of more than one world at the next decision: the test means something.
        const c = worlds.map((w) => copyOf(game, table, w));
        const keys = new Set<string>();
        for (const w of c) {
          w.apply(moves[0]);
          advance(model, w, seat);
          keys.add(w.observe(seat).fingerprint());
        }
        if (keys.size < 12) shared++;
      }
      expect(checked).toBeGreaterThan(60);
      expect(shared).toBeGreaterThan(3);
    });
  }
});

/** A pimc bot for `seat` with `params` over the defaults, on its own stream. */
function pimcBot(game: Game, table: TableConfig, seat: number, params: Record<string, string>, stream: number): Bot {
  const p = resolveParams(pimc.params, params, 'bot pimc');
  return pimc.create({ game, table, seat, rng: new Rng(seedKey('epimc-bot'), stream), params: p });
}

describe('pimc:postpone (EPIMC)', () => {
  it('with one world it is the per-world search one level deeper (postpone=k plays as depth=k+1)', () => {
    for (const [name, seats] of [
      ['hindersche', 4],
      ['hindersi-jass', 3],
    ] as const) {
      const game = findGame(name)!;
      const table = defaultTable(game, seats);
      const state = game.newState(table);
      const legal = newSets(1);
      let compared = 0;
      for (let d = 0; d < 2; d++) {
        game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(seedKey('epimc-one'), d));
        const a = pimcBot(game, table, 0, { worlds: '1', postpone: '1' }, d);
        const b = pimcBot(game, table, 0, { worlds: '1', depth: '2' }, d);
        const model = PolicyModel.heuristic(game, table);
        while (!state.isTerminal()) {
          const n = state.legal(legal, 0);
          let move = setFirst(legal, 0);
          if (state.toMove === 0) {
            move = a.act(state.observe(0), legal, n);
            expect(b.act(state.observe(0), legal, n), `${name} deal ${d}`).toBe(move);
            if (n > 1) compared++;
          } else if (n > 1) move = model.move(state, legal, n);
          state.apply(move);
        }
      }
      expect(compared).toBeGreaterThan(8);
    }
  });

  it("its move (and inference's) depends on the seat's observation alone: deals that differ only in hidden cards get the same move", () => {
    const game = findGame('hindersi-jass')!;
    const table = defaultTable(game, 4);
    const state = game.newState(table);
    const other = game.newState(table);
    const legal = newSets(1);
    const play = new Rng(seedKey('epimc-hidden'), 1);
    let compared = 0;
    let differ = 0;
    for (let d = 0; d < 3; d++) {
      game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(seedKey('epimc-hidden'), d));
      while (!state.isTerminal()) {
        const seat = state.toMove;
        const n = state.legal(legal, 0);
        if (n > 1 && state.observe(seat).plies % 5 === 0) {
          // Another deal that looks the same from the seat.
          game.sample(state.observe(seat), play, other);
          expect(other.observe(seat).fingerprint()).toBe(state.observe(seat).fingerprint());
          if (other.observe((seat + 1) % 4).fingerprint() !== state.observe((seat + 1) % 4).fingerprint()) differ++;
          // EPIMC, and inference, whose weights replay the others' past moves in each world.
          for (const params of [
            { worlds: '6', postpone: '1' } as Record<string, string>,
            { worlds: '6', infer: 'heuristic' },
          ]) {
            const x = pimcBot(game, table, seat, params, 9).act(state.observe(seat), legal, n);
            const y = pimcBot(game, table, seat, params, 9).act(other.observe(seat), legal, n);
            expect(y, JSON.stringify(params)).toBe(x);
          }
          compared++;
        }
        state.apply(setSelect(legal, 0, play.below(n)));
      }
    }
    expect(compared).toBeGreaterThan(4);
    expect(differ).toBeGreaterThan(0);
  });

  it('needs the heuristic model: one clear error otherwise', () => {
    const game = findGame('viersche')!;
    const table = defaultTable(game, 4);
    let err: unknown;
    try {
      // model=auto resolves to the heuristic with postpone (bots/pimc.ts): ask for another.
      pimcBot(game, table, 0, { postpone: '1', model: 'paranoid' }, 0);
    } catch (e) {
      err = e;
    }
    expect(isTafelError(err)).toBe(true);
    expect((err as Error).message).toBe('pimc: postpone=1 needs model=heuristic (model is paranoid)');
  });
});
