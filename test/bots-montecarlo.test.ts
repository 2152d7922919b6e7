/**
 * Flat Monte Carlo: parameters, the contract-only play on a toy game, legality and
 * determinism in Viersche, and its strength against `random` in duplicate play.
 */
import { describe, expect, it } from 'vitest';
import { newSets, setHas } from '../src/core/cardset.js';
import { isTafelError } from '../src/core/errors.js';
import { Rng, seedKey, type SeedKey } from '../src/core/rng.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import { viersche } from '../src/games/viersche/index.js';
import type { VierscheState } from '../src/games/viersche/state.js';
import type { Bot, BotSpec } from '../src/games/bot.js';
import { montecarlo } from '../bots/montecarlo.js';
import { random } from '../bots/random.js';
import { BUILTIN_BOTS } from '../bots/registry.js';
import { toy } from './toy-game.js';
import { timedFirstMove } from './bot-helpers.js';

const TABLE = { seats: 4, rules: {} };
const game = viersche as unknown as Game;

interface Side {
  bots: Bot[];
  rngs: Rng[];
}

function side(spec: BotSpec, given: Record<string, string> = {}): Side {
  const params = resolveParams(spec.params, given, `bot ${spec.name}`);
  const rngs = [0, 1, 2, 3].map(() => new Rng());
  const bots = rngs.map((rng, seat) => spec.create({ game, table: TABLE, seat, rng, params }));
  return { bots, rngs };
}

/** Play deal `d` with `a` at team `aTeam`'s seats; checks legality; returns a's points minus b's. */
function playDeal(
  key: SeedKey,
  d: number,
  a: Side,
  b: Side,
  aTeam: number,
  state: VierscheState,
  log?: number[],
): number {
  const legal = newSets(1);
  const match = viersche.newMatch(TABLE, { singleDeal: true, index: d });
  match.startDeal(state, new Rng(key, d));
  const sideOf = (seat: number) => ((seat & 1) === aTeam ? a : b);
  for (let seat = 0; seat < 4; seat++) sideOf(seat).rngs[seat].reseed(key, d, 1 + seat, aTeam);
  while (!state.isTerminal()) {
    const seat = state.toMove;
    const n = state.legal(legal, 0);
    const move = sideOf(seat).bots[seat].act(state.observe(seat), legal, n);
    if (!setHas(legal, 0, move)) throw new Error(`deal ${d}: seat ${seat} played illegal ${state.moveName(move)}`);
    log?.push(move);
    state.apply(move);
  }
  match.finishDeal(state);
  return state.teamPoints(aTeam) - state.teamPoints(1 - aTeam);
}

function duplicate(seed: string, deals: number, a: Side, b: Side): { mean: number; se: number } {
  const key = seedKey(seed);
  const state = viersche.newState(TABLE);
  let sum = 0;
  let sumSq = 0;
  for (let d = 0; d < deals; d++) {
    const x = (playDeal(key, d, a, b, 0, state) + playDeal(key, d, a, b, 1, state)) / 2;
    sum += x;
    sumSq += x * x;
  }
  const mean = sum / deals;
  const sd = Math.sqrt((sumSq - deals * mean * mean) / (deals - 1));
  return { mean, se: sd / Math.sqrt(deals) };
}

describe('montecarlo: parameters', () => {
  it('has defaults, parses text, rejects bad values, and is registered for every game', () => {
    expect(resolveParams(montecarlo.params, {}, 'bot montecarlo')).toEqual({ worlds: 24, playouts: 1, budget: 0 });
    expect(resolveParams(montecarlo.params, { worlds: '8', playouts: '2' }, 'bot montecarlo')).toMatchObject({
      worlds: 8,
      playouts: 2,
    });
    for (const bad of [{ worlds: '0' }, { playouts: '1.5' }, { budget: '-1' }, { depth: '3' }] as Record<
      string,
      string
    >[]) {
      let err: unknown;
      try {
        resolveParams(montecarlo.params, bad, 'bot montecarlo');
      } catch (e) {
        err = e;
      }
      expect(isTafelError(err)).toBe(true);
    }
    expect(montecarlo.games).toBeUndefined();
    expect(BUILTIN_BOTS[0]).toBe(random);
    expect(BUILTIN_BOTS).toContain(montecarlo);
  });
});

describe('montecarlo: play', () => {
  it('plays any game through the contract: finds the best move of a toy game', () => {
    const table: TableConfig = { seats: 2, rules: {} };
    const params = resolveParams(montecarlo.params, { worlds: '4' }, 'bot montecarlo');
    const bot = montecarlo.create({ game: toy, table, seat: 0, rng: new Rng(seedKey('toy')), params });
    const state = toy.newState(table);
    const legal = newSets(1);
    const n = state.legal(legal, 0);
    expect(bot.act(state.observe(0), legal, n)).toBe(3);
  });

  it('answers a forced move without searching (its random stream untouched)', () => {
    const key = seedKey('forced');
    const rng = new Rng(key, 1);
    const params = resolveParams(montecarlo.params, {}, 'bot montecarlo');
    const bot = montecarlo.create({ game, table: TABLE, seat: 0, rng, params });
    const legal = newSets(1);
    legal[0] = 1 << 4;
    const state = viersche.newState(TABLE);
    viersche.newMatch(TABLE, { singleDeal: true, index: 0 }).startDeal(state, new Rng(key, 0));
    expect(bot.act(state.observe(0), legal, 1)).toBe(4);
    expect(rng.next()).toBe(new Rng(key, 1).next());
  });

  it('plays only legal moves and repeats itself exactly given the same seeds', () => {
    const key = seedKey('mc-determinism');
    const state = viersche.newState(TABLE);
    const runs = [0, 1].map(() => {
      const log: number[] = [];
      const mc = side(montecarlo, { worlds: '4' });
      const r = side(random);
      for (let d = 0; d < 12; d++) playDeal(key, d, mc, r, d & 1, state, log);
      return log;
    });
    expect(runs[0].length).toBeGreaterThan(12 * 36);
    expect(runs[0]).toEqual(runs[1]);
  });

  it('stops at its time budget', () => {
    const key = seedKey('budget');
    const params = resolveParams(montecarlo.params, { worlds: '100000', budget: '5' }, 'bot montecarlo');
    const { legal, ms } = timedFirstMove(game, TABLE, key, (seat, rng) =>
      montecarlo.create({ game, table: TABLE, seat, rng, params }),
    );
    expect(legal).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  it('beats random in duplicate play with 8 worlds', () => {
    // Measured: +39.1 card points per deal for the Monte Carlo team (se 1.7, 95% CI
    // 35.7..42.4) over 200 duplicate deals of seed 'montecarlo-vs-random' (~2 s).
    const { mean, se } = duplicate('montecarlo-vs-random', 200, side(montecarlo, { worlds: '8' }), side(random));
    expect(se).toBeLessThan(3);
    expect(mean).toBeGreaterThan(25);
  });
});
