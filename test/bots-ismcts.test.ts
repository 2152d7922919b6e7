/**
 * Information-set MCTS (bots/ismcts.ts): parameters and registration, the contract-only
 * play on a toy game, forced moves, the time cap, legal play in every game and every
 * decision kind through the harness (random and heuristic playouts), determinism (the
 * same seed gives the same moves; a deal played alone is played as within a run), and
 * its strength against `random` in duplicate Viersche.
 */
import { describe, expect, it } from 'vitest';
// The registry first: bots/ismcts.ts finds the heuristic playout bots through it, and
// importing the registry first lets that import cycle resolve in the right order.
import { BUILTIN_BOTS, builtinBot } from '../bots/registry.js';
import { ismcts } from '../bots/ismcts.js';
import { newSets } from '../src/core/cardset.js';
import { isTafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { BatchPlayer } from '../src/harness/run/batch.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { runTournament } from '../src/harness/run/run.js';
import { liveRunOf } from '../src/harness/run/spec.js';
import { toy } from './toy-game.js';
import { timedFirstMove } from './bot-helpers.js';

function rulesOf(
  game: Game,
  given: Record<string, string | number | boolean> = {},
): Record<string, string | number | boolean> {
  const rules: Record<string, string | number | boolean> = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { ...rules, ...given };
}

function gameNamed(name: string): Game {
  const g = findGame(name);
  if (!g) throw new Error(`no game ${name}`);
  return g;
}

/** Play `groups` duplicate single deals in this thread; throws on any bot failure. */
async function run(
  gameName: string,
  bots: string,
  groups: number,
  seed: string,
  opts: { seats?: number; rules?: Record<string, string | number | boolean> } = {},
) {
  const game = gameNamed(gameName);
  const table: TableConfig = { seats: opts.seats ?? game.defaultSeats, rules: rulesOf(game, opts.rules) };
  const lineup = await resolveLineup(bots, game, table.seats);
  const result = runTournament(liveRunOf({ game, table, lineup, seed, unit: 'deal', groups }));
  if (result.failure) throw result.failure;
  return result;
}

/** The deal records (JSON Lines) of groups start..start+count-1 played by a fresh player. */
async function records(gameName: string, bots: string, seed: string, start: number, count: number): Promise<string[]> {
  const game = gameNamed(gameName);
  const table: TableConfig = { seats: game.defaultSeats, rules: rulesOf(game) };
  const lineup = await resolveLineup(bots, game, table.seats);
  const player = new BatchPlayer(
    liveRunOf({ game, table, lineup, seed, unit: 'deal', groups: start + count, files: { records: 'records.jsonl' } }),
  );
  const r = player.play(start, count);
  expect(r.failure).toBeNull();
  return new TextDecoder().decode(r.records).trim().split('\n');
}

describe('ismcts: parameters', () => {
  it('has defaults, parses text, rejects bad values, and is registered for every game', () => {
    const defaults = resolveParams(ismcts.params, {}, 'bot ismcts');
    expect(defaults).toEqual({ iterations: 5000, time: 0, c: 1, stop: 'decided', gap: 0.2, rollout: 'heuristic' });
    expect(
      resolveParams(ismcts.params, { iterations: '50', c: '1.5', rollout: 'random', time: '20' }, 'bot ismcts'),
    ).toEqual({
      iterations: 50,
      c: 1.5,
      rollout: 'random',
      time: 20,
      stop: 'decided',
      gap: 0.2,
    });
    const bads: Record<string, string>[] = [
      { iterations: '0' },
      { iterations: '1.5' },
      { c: '-1' },
      { time: '-1' },
      { rollout: 'greedy' },
      { stop: 'early' },
      { gap: '1.5' },
      { gap: '-0.1' },
      { depth: '3' },
    ];
    for (const bad of bads) {
      let err: unknown;
      try {
        resolveParams(ismcts.params, bad, 'bot ismcts');
      } catch (e) {
        err = e;
      }
      expect(isTafelError(err), JSON.stringify(bad)).toBe(true);
    }
    expect(ismcts.games).toBeUndefined();
    expect(BUILTIN_BOTS).toContain(ismcts);
    expect(builtinBot('ismcts', 'hindersche')).toBe(ismcts);
  });
});

describe('ismcts: play', () => {
  const table: TableConfig = { seats: 2, rules: {} };

  it('plays any game through the contract: finds the best move of a toy game', () => {
    const params = resolveParams(ismcts.params, { iterations: '200', rollout: 'random' }, 'bot ismcts');
    const bot = ismcts.create({ game: toy, table, seat: 0, rng: new Rng(seedKey('toy')), params });
    const state = toy.newState(table);
    const legal = newSets(1);
    const n = state.legal(legal, 0);
    expect(bot.act(state.observe(0), legal, n)).toBe(3);
  });

  it('answers a forced move without searching (its random stream untouched)', () => {
    const key = seedKey('forced');
    const rng = new Rng(key, 1);
    const game = gameNamed('viersche');
    const t: TableConfig = { seats: 4, rules: rulesOf(game) };
    const params = resolveParams(ismcts.params, { rollout: 'heuristic' }, 'bot ismcts');
    const bot = ismcts.create({ game, table: t, seat: 0, rng, params });
    const state = game.newState(t);
    game.newMatch(t, { singleDeal: true, index: 0 }).startDeal(state, new Rng(key, 0));
    const legal = newSets(1);
    legal[0] = 1 << 4;
    expect(bot.act(state.observe(0), legal, 1)).toBe(4);
    expect(rng.next()).toBe(new Rng(key, 1).next());
  });

  /** Each decision of one whole Viersche deal played by four ismcts of `given`: its move and the worlds it drew. */
  function decisions(given: Record<string, string>): { move: number; worlds: number }[] {
    const game = gameNamed('viersche');
    const t: TableConfig = { seats: 4, rules: rulesOf(game) };
    const key = seedKey('decided');
    const state = game.newState(t);
    game.newMatch(t, { singleDeal: true, index: 0 }).startDeal(state, new Rng(key, 0));
    const legal = newSets(1);
    let worlds = 0;
    // The game with its sampler counted: one world per iteration.
    const counted: Game = Object.create(game, {
      sample: { value: (...a: Parameters<Game['sample']>) => (worlds++, game.sample(...a)) },
    }) as Game;
    const params = resolveParams(ismcts.params, { iterations: '2000', rollout: 'random', ...given }, 'bot ismcts');
    const bots = [0, 1, 2, 3].map((seat) =>
      ismcts.create({ game: counted, table: t, seat, rng: new Rng(key, 1 + seat), params }),
    );
    const seen: { move: number; worlds: number }[] = [];
    while (!state.isTerminal()) {
      const n = state.legal(legal, 0);
      worlds = 0;
      const move = bots[state.toMove].act(state.observe(state.toMove), legal, n);
      if (n > 1) seen.push({ move, worlds });
      state.apply(move);
    }
    return seen;
  }

  it('stops once its move is decided (gap=1): the same moves as every iteration, from fewer worlds', () => {
    // A whole deal: after an early stop, the later decisions must be those of the full search too.
    const decided = decisions({ stop: 'decided', gap: '1' });
    const never = decisions({ stop: 'never' });
    expect(decided.map((d) => d.move)).toEqual(never.map((d) => d.move));
    expect(never.every((d) => d.worlds === 2000)).toBe(true);
    expect(decided.some((d) => d.worlds < 2000)).toBe(true);
  });

  it('stops sooner with a smaller gap, the leader then ahead by that share of the iterations left', () => {
    const full = decisions({ gap: '1' });
    const early = decisions({});
    const worlds = (ds: { worlds: number }[]) => ds.reduce((a, d) => a + d.worlds, 0);
    expect(worlds(early)).toBeLessThan(worlds(full));
    // A stop is tested every 16 iterations (2000 is a multiple of 16), and none comes before
    // the leader can be ahead by 0.2 of the iterations left: i > 0.2 (2000 - i).
    for (const d of early) expect(d.worlds % 16).toBe(0);
    expect(early.every((d) => d.worlds > (0.2 * 2000) / 1.2)).toBe(true);
  });

  it('stops at its time cap', () => {
    const key = seedKey('time');
    const game = gameNamed('viersche');
    const t: TableConfig = { seats: 4, rules: rulesOf(game) };
    const params = resolveParams(ismcts.params, { iterations: '10000000', time: '5' }, 'bot ismcts');
    const { legal, ms } = timedFirstMove(game, t, key, (seat, rng) =>
      ismcts.create({ game, table: t, seat, rng, params }),
    );
    expect(legal).toBe(true);
    expect(ms).toBeLessThan(1000);
  });
});

describe('ismcts: every game', () => {
  // The harness stops a run at the first illegal move or thrown error (run() rethrows it).
  const tables: [string, number, Record<string, string | number | boolean>, number][] = [
    ['viersche', 4, {}, 8],
    ['hindersche', 4, {}, 6],
    ['hindersche', 4, { schleipfen: true }, 6],
    ['hindersi-jass', 4, {}, 6],
    ['hindersi-jass', 3, {}, 6],
    ['vier-anderle', 4, {}, 10],
    ['vier-anderle', 2, {}, 6],
    ['vier-anderle', 7, {}, 4],
  ];
  for (const [name, seats, rules, groups] of tables) {
    const label = `${name}, ${seats} seats${Object.keys(rules).length ? ` ${JSON.stringify(rules)}` : ''}`;
    it(`plays only legal moves: ${label}`, async () => {
      const r = await run(name, 'ismcts:iterations=40:rollout=random,random', groups, `legal-${name}`, {
        seats,
        rules,
      });
      expect(r.tally.groups).toBe(groups);
      const h = await run(name, 'ismcts:iterations=20:c=1,heuristic', Math.ceil(groups / 2), `legal-h-${name}`, {
        seats,
        rules,
      });
      expect(h.tally.groups).toBe(Math.ceil(groups / 2));
    });
  }

  it('repeats itself exactly given the same seed, and plays a deal alone as within a run', async () => {
    for (const [name, bots] of [
      ['viersche', 'ismcts:iterations=60:rollout=random,random'],
      ['hindersche', 'ismcts:iterations=30,random'],
      ['vier-anderle', 'ismcts:iterations=60,heuristic'],
    ]) {
      const all = await records(name, bots, 'ismcts-determinism', 0, 4);
      expect(await records(name, bots, 'ismcts-determinism', 0, 4)).toEqual(all);
      const alone = await records(name, bots, 'ismcts-determinism', 3, 1);
      expect(alone.length).toBeGreaterThan(0);
      expect(all.slice(all.length - alone.length)).toEqual(alone);
    }
  });
});

describe('ismcts: strength', () => {
  it('beats random in duplicate Viersche with 200 iterations and random playouts', async () => {
    // Measured: +41.4 card points per deal for the ismcts team (95% CI 36.7..46.2) over
    // 100 duplicate deals of seed 'ismcts-vs-random' (~3 s). The search alone, without
    // the heuristic's knowledge in the playouts.
    const r = await run('viersche', 'ismcts:iterations=200:rollout=random,random', 100, 'ismcts-vs-random');
    const pair = r.tally.deal.pairRows().find((p) => p.metric === 'points')!;
    expect(pair.bot).toBe(0);
    expect(pair.estimate.n).toBe(100);
    expect(pair.estimate.low).toBeGreaterThan(20);
  });
});
