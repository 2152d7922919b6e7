/**
 * Inference from the others' play (bots/inference.ts) and the samplers' history
 * watcher (game.ts `HistoryWatcher`) that feeds it, in every game.
 */
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/games/bot.js';
import { PolicyInference, resample } from '../bots/inference.js';
import { PolicyModel } from '../bots/policy.js';
import { pimc } from '../bots/pimc.js';
import { newSets, setFirst, setSelect } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { HIDDEN, type Game, type HistoryWatcher, type State, type TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';

const GAMES: [string, number, Record<string, unknown>][] = [
  ['viersche', 4, {}],
  ['hindersche', 4, {}],
  ['hindersi-jass', 4, {}],
  ['hindersi-jass', 3, {}],
  ['vier-anderle', 5, {}],
];

function setup(name: string, seats: number, given: Record<string, unknown>): { game: Game; table: TableConfig } {
  const game = findGame(name)!;
  const rules: Record<string, unknown> = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { game, table: { seats, rules: { ...rules, ...given } as TableConfig['rules'] } };
}

/** The game's heuristic in every seat. */
function heuristics(game: Game, table: TableConfig): Bot[] {
  const spec = game.heuristic;
  const params = resolveParams(spec.params, {}, spec.name);
  return Array.from({ length: table.seats }, (_, seat) => spec.create({ game, table, seat, rng: new Rng(), params }));
}

/** Play single deal `d`, each seat choosing by `choose` (a move of the legal set), calling `at` before every move. */
function playDeal(
  game: Game,
  table: TableConfig,
  state: State,
  d: number,
  choose: (seat: number, legal: Int32Array, n: number) => number,
  at?: () => void,
): void {
  game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(seedKey('inference'), d));
  const legal = newSets(1);
  while (!state.isTerminal()) {
    at?.();
    const n = state.legal(legal, 0);
    state.apply(n === 1 ? setFirst(legal, 0) : choose(state.toMove, legal, n));
  }
}

describe('the samplers show a world its history as they replay it', () => {
  for (const [name, seats, rules] of GAMES) {
    it(`${name}, ${seats} players: every ply in order, by its seat, legal in the world, once the world is kept`, () => {
      const { game, table } = setup(name, seats, rules);
      const state = game.newState(table);
      const world = game.newState(table);
      const legal = newSets(1);
      const seen: { ply: number; seat: number; move: number; legal: boolean }[] = [];
      const watcher: HistoryWatcher = {
        before(s, ply, move) {
          if (ply === 0) seen.length = 0; // a rejected world starts over
          s.legal(legal, 0);
          seen.push({ ply, seat: s.toMove, move, legal: ((legal[move >>> 5] >>> (move & 31)) & 1) === 1 });
        },
      };
      const rng = new Rng(seedKey('watch'), 0);
      const play = new Rng(seedKey('watch'), 1);
      let checked = 0;
      for (let d = 0; d < 6; d++) {
        playDeal(
          game,
          table,
          state,
          d,
          (_seat, l, n) => setSelect(l, 0, play.below(n)),
          () => {
            const obs = state.observe(state.toMove);
            seen.length = 0;
            game.sample(obs, rng, world, watcher);
            expect(seen.map((x) => x.ply)).toEqual(Array.from({ length: obs.plies }, (_, i) => i));
            for (const x of seen) {
              expect(x.seat).toBe(obs.moveSeat(x.ply));
              expect(x.legal).toBe(true);
              if (obs.move(x.ply) !== HIDDEN) expect(x.move).toBe(obs.move(x.ply));
            }
            checked += seen.length;
          },
        );
      }
      expect(checked).toBeGreaterThan(100);
    });
  }
});

describe('PolicyInference', () => {
  for (const [name, seats, rules] of GAMES) {
    it(`${name}, ${seats} players: the true history of heuristic players weighs 1; random players' is discounted per unexplained move`, () => {
      const { game, table } = setup(name, seats, rules);
      const model = PolicyModel.heuristic(game, table);
      model.reseed(new Rng(seedKey('w'), 0));
      const inference = new PolicyInference(model, 0.5);
      const state = game.newState(table);
      const bots = heuristics(game, table);
      const observer = 0;
      inference.observer = observer;
      // The watcher's view of a world whose history is the deal as played: the state before each move, then the move.
      const weigh = (choose: (seat: number, legal: Int32Array, n: number) => number): number => {
        let ply = 0;
        inference.logWeight = 0;
        game.newMatch(table, { singleDeal: true, index: 3 }).startDeal(state, new Rng(seedKey('inference'), 3));
        const legal = newSets(1);
        while (!state.isTerminal()) {
          const n = state.legal(legal, 0);
          const m = n === 1 ? setFirst(legal, 0) : choose(state.toMove, legal, n);
          inference.before(state, ply++, m);
          state.apply(m);
        }
        return inference.logWeight;
      };
      // Heuristic players: every move is the model's (the heuristics are deterministic).
      expect(weigh((seat, l, n) => bots[seat].act(state.observe(seat), l, n))).toBe(0);
      // The observer's own moves are not evidence, whatever they are.
      expect(
        weigh((seat, l, n) => (seat === observer ? setSelect(l, 0, n - 1) : bots[seat].act(state.observe(seat), l, n))),
      ).toBe(0);
      // Others choosing the highest legal code: each move that differs from the model's costs log(0.5).
      let unexplained = 0;
      const w = weigh((seat, l, n) => {
        const m = setSelect(l, 0, n - 1);
        if (seat !== observer && m !== bots[seat].act(state.observe(seat), l, n)) unexplained++;
        return m;
      });
      expect(unexplained).toBeGreaterThan(0);
      expect(w).toBeCloseTo(unexplained * Math.log(0.5), 9);
    });
  }

  it('resample: n draws, each item the floor or ceiling of its share, none of weight 0', () => {
    const rng = new Rng(seedKey('resample'), 0);
    const out = new Int32Array(64);
    for (let t = 0; t < 400; t++) {
      const total = 1 + rng.below(64);
      const n = 1 + rng.below(40);
      const w = new Float64Array(total);
      for (let k = 0; k < total; k++) w[k] = rng.below(3) === 0 ? 0 : rng.uniform() * 10 ** (rng.below(7) - 3);
      w[rng.below(total)] = 1 + rng.uniform();
      const distinct = resample(w, total, n, rng.uniform(), out);
      const sum = w.reduce((a, b) => a + b, 0);
      let drawn = 0;
      for (let k = 0; k < total; k++) {
        const share = (n * w[k]) / sum;
        expect(out[k]).toBeGreaterThanOrEqual(Math.floor(share - 1e-9));
        expect(out[k]).toBeLessThanOrEqual(Math.ceil(share + 1e-9));
        if (w[k] === 0) expect(out[k]).toBe(0);
        drawn += out[k];
      }
      expect(drawn).toBe(n);
      expect(distinct).toBe(Array.from(out.subarray(0, total)).filter((x) => x > 0).length);
    }
  });

  it('pimc with inference is a function of its stream and weighs worlds only when the others have moved', () => {
    const { game, table } = setup('hindersi-jass', 4, {});
    const state = game.newState(table);
    const bots = heuristics(game, table);
    const key = seedKey('draws');
    const params = resolveParams(
      pimc.params,
      { worlds: '6', candidates: '3', budget: '20000', infer: 'heuristic' },
      'pimc',
    );
    // A game that counts the worlds drawn, and those drawn with a watcher.
    let drawn = 0;
    let watched = 0;
    const counting: Game = {
      ...game,
      sample: (obs, rng, out, watcher) => {
        drawn++;
        if (watcher) watched++;
        game.sample(obs, rng, out, watcher);
      },
    };
    const a = pimc.create({ game: counting, table, seat: 0, rng: new Rng(key, 0), params });
    const b = pimc.create({ game, table, seat: 0, rng: new Rng(key, 0), params });
    let decisions = 0;
    for (let d = 0; d < 3; d++) {
      playDeal(game, table, state, d, (seat, l, n) => {
        if (seat !== 0) return bots[seat].act(state.observe(seat), l, n);
        decisions++;
        const plies = state.observe(seat).plies;
        drawn = watched = 0;
        const m = a.act(state.observe(seat), l, n);
        expect([drawn, watched]).toEqual(plies > 0 ? [18, 18] : [6, 0]);
        expect(b.act(state.observe(seat), l, n)).toBe(m);
        return m;
      });
    }
    expect(decisions).toBeGreaterThan(10);
  });
});
