/**
 * Perfect-information Monte Carlo (bots/pimc.ts) and the cheating `oracle`
 * (bots/oracle.ts): registration and parameters, the live state given only to cheating
 * bots, legal play in every game and at every kind of decision through the harness,
 * determinism, the cheat flag in the table and the summary CSV, pimc's strength against
 * `random`, and pimc playing the oracle's move when its observation leaves nothing
 * hidden.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_BOTS, builtinBot } from '../bots/registry.js';
import { oracle } from '../bots/oracle.js';
import { pimc, pimcModel } from '../bots/pimc.js';
import { resolveModel } from '../bots/perfect-play.js';
import type { Bot, BotSpec } from '../src/games/bot.js';
import { LANES, newSets, setSelect } from '../src/core/cardset.js';
import { isTafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import {
  DECISION_NAMES,
  Decision,
  type Game,
  type Observation,
  type State,
  type TableConfig,
} from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { BatchPlayer } from '../src/harness/run/batch.js';
import { resolveLineup, type Lineup } from '../src/harness/table/lineup.js';
import { runTournament } from '../src/harness/run/run.js';
import { liveRunOf } from '../src/harness/run/spec.js';
import type { Unit } from '../src/harness/table/table.js';
import { read, results, tafel, tmpDir } from './cli-helpers.js';
import { join } from 'node:path';

type Rules = Record<string, string | number | boolean>;

function gameNamed(name: string): Game {
  const g = findGame(name);
  if (!g) throw new Error(`no game ${name}`);
  return g;
}

function tableOf(game: Game, seats: number, given: Rules = {}): TableConfig {
  const rules: Rules = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { seats, rules: { ...rules, ...given } };
}

/** Run `f`, which must throw a TafelError whose message matches `message`. */
function expectTafelError(f: () => unknown, message: RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(isTafelError(err), String(err)).toBe(true);
  expect(String((err as Error).message)).toMatch(message);
}

/** The lineup with every pimc and oracle entrant wrapped to note the kinds of decision it answered. */
function watched(lineup: Lineup, seen: Set<string>): Lineup {
  const entrants = lineup.entrants.map((e) => {
    if (e.spec.name !== 'pimc' && e.spec.name !== 'oracle') return e;
    const create: BotSpec['create'] = (ctx) => {
      const bot = e.spec.create(ctx);
      return {
        act(obs: Observation, legal: Int32Array, count: number) {
          if (count > 1) seen.add(`${e.spec.name}:${DECISION_NAMES[obs.decision]}`);
          return bot.act(obs, legal, count);
        },
      };
    };
    return { ...e, spec: { ...e.spec, create } };
  });
  return { ...lineup, entrants };
}

/** Play `groups` duplicate groups in this thread; throws on any bot failure (an illegal move is one). */
async function run(
  name: string,
  bots: string,
  groups: number,
  seed: string,
  opts: { seats?: number; rules?: Rules; unit?: Unit; seen?: Set<string> } = {},
) {
  const game = gameNamed(name);
  const table = tableOf(game, opts.seats ?? game.defaultSeats, opts.rules);
  let lineup = await resolveLineup(bots, game, table.seats);
  if (opts.seen) lineup = watched(lineup, opts.seen);
  const result = runTournament(liveRunOf({ game, table, lineup, seed, unit: opts.unit ?? 'deal', groups }));
  if (result.failure) throw result.failure;
  return result;
}

/** The deal records (JSON Lines) of groups start..start+count-1 played by a fresh player. */
async function records(name: string, bots: string, seed: string, start: number, count: number): Promise<string[]> {
  const game = gameNamed(name);
  const table = tableOf(game, game.defaultSeats);
  const lineup = await resolveLineup(bots, game, table.seats);
  const player = new BatchPlayer(
    liveRunOf({ game, table, lineup, seed, unit: 'deal', groups: start + count, files: { records: 'records.jsonl' } }),
  );
  const r = player.play(start, count);
  expect(r.failure).toBeNull();
  return new TextDecoder().decode(r.records).trim().split('\n');
}

// Small searches keep the legality runs quick; the defaults are exercised below.
const PIMC = 'pimc:worlds=5:budget=8000';
const ORACLE = 'oracle:budget=30000';

describe('pimc and oracle: registration', () => {
  it('both are built in for every game; the oracle alone cheats', () => {
    expect(BUILTIN_BOTS).toContain(pimc);
    expect(BUILTIN_BOTS).toContain(oracle);
    expect(builtinBot('pimc', 'hindersche')).toBe(pimc);
    expect(builtinBot('oracle', 'vier-anderle')).toBe(oracle);
    expect(pimc.games).toBeUndefined();
    expect(oracle.games).toBeUndefined();
    expect(oracle.cheats).toBe(true);
    expect(pimc.cheats).toBeFalsy();
    const d = resolveParams(pimc.params, {}, 'bot pimc');
    expect(Object.keys(d).sort()).toEqual([
      'alphamu',
      'budget',
      'candidates',
      'choose',
      'depth',
      'deviate',
      'estimates',
      'exact',
      'halving',
      'infer',
      'model',
      'playout',
      'postpone',
      'worlds',
    ]);
    expect([d.model, d.depth, d.infer, d.postpone, d.alphamu, d.halving, d.budget, d.estimates]).toEqual([
      'auto',
      1,
      'none',
      0,
      0,
      'on',
      1_000_000,
      'replayed',
    ]);
    expect(resolveParams(oracle.params, {}, 'bot oracle').model).toBe('auto');
    // auto: minimax between two teams, the heuristic model in the games of individuals.
    expect(
      ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'].map((g) =>
        resolveModel('auto', gameNamed(g), tableOf(gameNamed(g), 4)),
      ),
    ).toEqual(['paranoid', 'heuristic', 'heuristic', 'heuristic']);
    expect(resolveModel('maxn', gameNamed('viersche'), tableOf(gameNamed('viersche'), 4))).toBe('maxn');
    // pimc's auto: the same, but paranoid in Vier-Anderle (measured, bots/NOTES.md) and with alpha-mu.
    // EPIMC (postpone) rests on the heuristic model, alpha-mu on the paranoid solver.
    const pimcAuto = (given: Record<string, string>) =>
      ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'].map((g) =>
        pimcModel(resolveParams(pimc.params, given, 'bot pimc'), gameNamed(g), tableOf(gameNamed(g), 4)),
      );
    expect(pimcAuto({})).toEqual(['paranoid', 'heuristic', 'heuristic', 'paranoid']);
    expect(pimcAuto({ alphamu: '3' })).toEqual(['paranoid', 'paranoid', 'paranoid', 'paranoid']);
    expect(pimcAuto({ postpone: '1' })).toEqual(['heuristic', 'heuristic', 'heuristic', 'heuristic']);
    expect(pimcAuto({ model: 'heuristic' })).toEqual(['heuristic', 'heuristic', 'heuristic', 'heuristic']);
    expect(d.playout).toBe('coalition');
    // The oracle estimates beyond its horizon with each seat playing for itself (see oracle.ts).
    expect(resolveParams(oracle.params, {}, 'bot oracle').playout).toBe('selfish');
    expect(
      resolveParams(
        pimc.params,
        {
          worlds: '7',
          budget: '5000',
          exact: '3',
          choose: 'votes',
          model: 'maxn',
          playout: 'selfish',
          depth: '3',
          infer: 'heuristic',
          deviate: '0.5',
          candidates: '2',
          postpone: '2',
          alphamu: '3',
          halving: 'off',
          estimates: 'kept',
        },
        'bot pimc',
      ),
    ).toEqual({
      worlds: 7,
      budget: 5000,
      exact: 3,
      choose: 'votes',
      model: 'maxn',
      playout: 'selfish',
      depth: 3,
      infer: 'heuristic',
      deviate: 0.5,
      candidates: 2,
      halving: 'off',
      estimates: 'kept',
      postpone: 2,
      alphamu: 3,
    });
    const bads: Record<string, string>[] = [
      { worlds: '-1' },
      { budget: '1.5' },
      { exact: '-1' },
      { choose: 'best' },
      { model: 'maxN' },
      { playout: 'greedy' },
      { time: '10' },
      { depth: '0' },
      { infer: 'yes' },
      { deviate: '0' },
      { candidates: '0' },
      { postpone: '-1' },
      { postpone: '9' },
      { alphamu: '-1' },
      { alphamu: '7' },
      { halving: 'yes' },
      { estimates: 'cached' },
    ];
    for (const bad of bads) {
      let err: unknown;
      try {
        resolveParams(pimc.params, bad, 'bot pimc');
      } catch (e) {
        err = e;
      }
      expect(isTafelError(err), JSON.stringify(bad)).toBe(true);
    }
  });

  it('refuses more candidate worlds to weigh than it can keep, with one clear error', () => {
    const game = gameNamed('hindersi-jass');
    const table = tableOf(game, 4);
    const params = resolveParams(pimc.params, { worlds: '1000', candidates: '101', infer: 'heuristic' }, 'bot pimc');
    expectTafelError(
      () => pimc.create({ game, table, seat: 0, rng: new Rng(), params }),
      /^pimc: worlds x candidates = 101000 worlds to keep and weigh per decision; at most 100000$/,
    );
    // Without inference the worlds are drawn one at a time: no limit beyond the parameter's.
    expect(() =>
      pimc.create({ game, table, seat: 0, rng: new Rng(), params: { ...params, infer: 'none' } }),
    ).not.toThrow();
  });

  it('the oracle refuses to play without the live state, which only cheating bots receive', async () => {
    const game = gameNamed('viersche');
    const table = tableOf(game, 4);
    const params = resolveParams(oracle.params, {}, 'bot oracle');
    expectTafelError(
      () => oracle.create({ game, table, seat: 0, rng: new Rng(), params }),
      /oracle.*live deal state.*cheats: true/,
    );

    // Through the harness: the oracle gets the table's state, an honest bot gets none.
    const states: (State | undefined)[] = [];
    const spy = (cheats: boolean): BotSpec => ({
      name: cheats ? 'spy-cheat' : 'spy',
      description: '',
      params: [],
      cheats,
      create(ctx) {
        states.push(ctx.state);
        return { act: (_obs, legal) => setSelect(legal, 0, 0) };
      },
    });
    const lineup = await resolveLineup('random,heuristic', game, 4);
    const entrants = [
      { ...lineup.entrants[0], spec: spy(true) },
      { ...lineup.entrants[1], spec: spy(false) },
    ];
    const r = runTournament(
      liveRunOf({ game, table, lineup: { ...lineup, entrants }, seed: 'spy', unit: 'deal', groups: 1 }),
    );
    expect(r.failure).toBeUndefined();
    expect(states).toHaveLength(8);
    expect(states.slice(0, 4).every((s) => s !== undefined && typeof s.apply === 'function')).toBe(true);
    expect(states.slice(4).every((s) => s === undefined)).toBe(true);
  });
});

describe('pimc and oracle: legal play in every game and at every decision', () => {
  // The harness stops a run at the first illegal move or thrown error (run() rethrows it).
  const seen = new Set<string>();
  const tables: [string, number, Rules, Unit, string, number][] = [
    ['viersche', 4, {}, 'deal', `${PIMC},${ORACLE}`, 3],
    ['viersche', 4, {}, 'deal', `${PIMC},random`, 5],
    // Against random players the oracle's team reaches its target early: claim decisions.
    ['viersche', 4, {}, 'deal', `${ORACLE},random`, 2],
    ['hindersche', 4, {}, 'deal', `${PIMC},${ORACLE},heuristic,random`, 1],
    ['hindersche', 4, { schleipfen: true }, 'deal', `pimc:worlds=3:budget=3000,oracle:budget=5000,random,heuristic`, 1],
    ['hindersi-jass', 4, {}, 'deal', `${PIMC},${ORACLE}`, 2],
    ['hindersi-jass', 3, {}, 'deal', `${PIMC},${ORACLE},heuristic`, 1],
    [
      'hindersi-jass',
      4,
      {},
      'deal',
      `pimc:worlds=3:budget=20000:model=maxn,oracle:budget=30000:model=maxn-late,pimc:worlds=3:budget=20000:model=maxn-early,heuristic`,
      1,
    ],
    [
      'hindersi-jass',
      4,
      {},
      'deal',
      `oracle:budget=30000:playout=selfish,oracle:budget=30000:playout=coalition,heuristic`,
      1,
    ],
    [
      'hindersche',
      4,
      {},
      'deal',
      `pimc:worlds=3:budget=20000:model=maxn,oracle:budget=30000:model=maxn,heuristic,random`,
      1,
    ],
    ['vier-anderle', 4, { hands: 4 }, 'match', `${PIMC},${ORACLE},random,heuristic`, 1],
    ['vier-anderle', 7, { hands: 3 }, 'match', `${PIMC},${ORACLE},heuristic`, 1],
    ['vier-anderle', 5, { hands: 3 }, 'match', `pimc:worlds=4:model=maxn,oracle:model=maxn,heuristic`, 1],
    [
      'viersche',
      4,
      {},
      'deal',
      `pimc:worlds=3:model=heuristic:depth=2:infer=heuristic,oracle:model=heuristic:budget=20000`,
      2,
    ],
    [
      'vier-anderle',
      5,
      { hands: 3 },
      'match',
      `pimc:worlds=4:infer=heuristic:candidates=3,pimc:model=paranoid:infer=heuristic,heuristic`,
      1,
    ],
    ['hindersi-jass', 4, {}, 'deal', `pimc:worlds=4:infer=heuristic:depth=3,oracle:model=auto:budget=20000,random`, 1],
    // EPIMC: the seat's next decisions once per information set (yes/no answers among them).
    ['hindersche', 4, { schleipfen: true }, 'deal', `pimc:worlds=4:postpone=2,random,heuristic`, 1],
    ['vier-anderle', 5, { hands: 3 }, 'match', `pimc:worlds=4:postpone=3:infer=heuristic,heuristic`, 1],
    ['hindersi-jass', 3, {}, 'deal', `pimc:worlds=6:postpone=1:depth=2,random`, 1],
    // alpha-mu: one strategy for the worlds the seat cannot tell apart (face-down leads in Viersche).
    ['viersche', 4, {}, 'deal', `pimc:worlds=4:budget=30000:alphamu=3,heuristic`, 1],
    ['hindersche', 4, { schleipfen: true }, 'deal', `pimc:worlds=4:budget=30000:alphamu=2,random,heuristic`, 1],
    ['hindersi-jass', 3, {}, 'deal', `pimc:worlds=5:budget=30000:alphamu=3:infer=heuristic,random`, 1],
    ['vier-anderle', 5, { hands: 3 }, 'match', `pimc:worlds=4:budget=30000:alphamu=2,heuristic`, 1],
  ];
  for (const [name, seats, rules, unit, bots, groups] of tables) {
    const label = `${name}, ${seats} seats${Object.keys(rules).length ? ` ${JSON.stringify(rules)}` : ''}, ${bots}`;
    it(`plays only legal moves: ${label}`, async () => {
      const r = await run(name, bots, groups, `legal-${name}-${seats}`, { seats, rules, unit, seen });
      expect(r.tally.groups).toBe(groups);
    });
  }

  it('met every kind of decision on the way', () => {
    for (const bot of ['pimc', 'oracle']) {
      for (const kind of ['card', 'claim', 'declare', 'schleipfe'])
        expect(seen, `${bot}:${kind}`).toContain(`${bot}:${kind}`);
    }
    // An objection needs another player's offer first: random makes them.
    expect([...seen].some((k) => k.endsWith(':object'))).toBe(true);
  });
});

describe('pimc and oracle: determinism', () => {
  it('worlds=0 (the default) is 20 with the solver, 300 with the heuristic model: the worlds it draws a decision', () => {
    for (const [name, model, worlds, want] of [
      ['hindersche', 'auto', '0', 300],
      ['viersche', 'auto', '0', 20],
      ['viersche', 'heuristic', '0', 300],
      ['vier-anderle', 'auto', '0', 20],
      ['hindersche', 'auto', '7', 7],
    ] as const) {
      const base = gameNamed(name);
      const table = tableOf(base, 4);
      let drawn = 0;
      const game: Game = {
        ...base,
        sample: (obs, rng, out) => {
          drawn++;
          base.sample(obs, rng, out);
        },
      };
      const state = base.newState(table);
      base.newMatch(table, { singleDeal: true, index: 0 }).startDeal(state, new Rng(seedKey('worlds'), 0));
      const legal = newSets(1);
      while (state.legal(legal, 0) < 2) state.apply(setSelect(legal, 0, 0));
      const n = state.legal(legal, 0);
      const params = resolveParams(pimc.params, { model, worlds, budget: '2000' }, 'bot pimc');
      const bot = pimc.create({ game, table, seat: state.toMove, rng: new Rng(seedKey('worlds'), 1), params });
      bot.act(state.observe(state.toMove), legal, n);
      expect(drawn, `${name} model=${model} worlds=${worlds}`).toBe(want);
    }
  });

  it('repeat themselves given the same seed, and play a deal alone as within a run', async () => {
    for (const [name, bots] of [
      ['viersche', `${PIMC},${ORACLE}`],
      ['hindersi-jass', `${PIMC},random`],
      ['hindersi-jass', 'pimc:worlds=3:budget=20000:model=maxn,random'],
      ['hindersche', 'pimc:worlds=5:postpone=1,random'],
      ['viersche', `${PIMC}:estimates=kept,random`],
    ]) {
      const a = await records(name, bots, 'same', 0, 2);
      const b = await records(name, bots, 'same', 0, 2);
      expect(b).toEqual(a);
      const alone = await records(name, bots, 'same', 1, 1);
      expect(alone).toEqual(a.slice(a.length / 2));
      expect(await records(name, bots, 'other', 0, 2)).not.toEqual(a);
    }
  });
});

describe('the oracle is reported as cheating', () => {
  it('in the summary CSV (cheats = 1) and in the table', () => {
    const dir = tmpDir();
    const out = join(dir, 'summary.csv');
    const r = tafel([
      'run',
      '--game',
      'viersche',
      '--bots',
      'pimc:worlds=2:budget=2000,oracle:budget=5000',
      '--deals',
      '2',
      '--workers',
      '1',
      '--out',
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(results(r)).toMatch(/oracle:budget=5000 \(cheats\)/);
    expect(results(r)).toMatch(/^pimc:worlds=2:budget=2000 +\d/m);
    const lines = read(out).trim().split('\n');
    const header = lines[0].split(',');
    const bot = header.indexOf('bot');
    const opponent = header.indexOf('opponent');
    const cheats = header.indexOf('cheats');
    const rows = lines.slice(1).map((l) => l.split(','));
    const oracleRows = rows.filter((c) => c[bot].startsWith('oracle') || c[opponent].startsWith('oracle'));
    const honest = rows.filter((c) => c[bot].startsWith('pimc') && c[opponent] === '');
    expect(oracleRows.length).toBeGreaterThan(0);
    expect(honest.length).toBeGreaterThan(0);
    for (const c of oracleRows) expect(c[cheats]).toBe('1');
    for (const c of honest) expect(c[cheats]).toBe('0');
  });
});

describe('pimc: strength and information', () => {
  it('beats random in duplicate Viersche (paired points, 95% interval above 0)', async () => {
    const r = await run('viersche', 'pimc:worlds=6:budget=10000,random', 8, 'strength');
    const pair = r.tally.deal.pairRows().find((p) => p.metric === 'points')!;
    expect(pair.estimate.low).toBeGreaterThan(0);
    expect(pair.estimate.mean).toBeGreaterThan(20);
  });

  it('given worlds that are the true deal, plays every move as the oracle does (claims, declarations and deal aims too)', () => {
    // A game whose sampler "draws" the live deal: pimc with one world is then the oracle.
    // Hindersche and Hindersi-Jass value cards by their deal aims (marches, the sweep).
    // Both estimate beyond a horizon with the same playout (each bot's default, then the other).
    // With the heuristic model, both search the seat's decisions against the heuristic in the other seats.
    for (const [name, seats, rules, deals, playout, model] of [
      ['viersche', 4, {}, 3, 'coalition', 'paranoid'],
      ['vier-anderle', 5, { hands: 3 }, 3, 'coalition', 'paranoid'],
      ['hindersche', 4, {}, 2, 'coalition', 'paranoid'],
      ['hindersche', 4, {}, 1, 'selfish', 'paranoid'],
      ['hindersi-jass', 4, {}, 2, 'selfish', 'paranoid'],
      ['hindersi-jass', 4, {}, 1, 'coalition', 'paranoid'],
      ['viersche', 4, {}, 2, 'coalition', 'heuristic'],
      ['vier-anderle', 5, { hands: 3 }, 3, 'coalition', 'heuristic'],
      ['hindersche', 4, {}, 1, 'coalition', 'heuristic'],
      ['hindersi-jass', 3, {}, 1, 'coalition', 'heuristic'],
    ] as [string, number, Rules, number, string, string][]) {
      const base = gameNamed(name);
      const table = tableOf(base, seats, rules);
      const live = base.newState(table);
      const informed: Game = { ...base, sample: (_obs, _rng, out) => out.copyFrom(live) };
      const pp = resolveParams(
        pimc.params,
        { worlds: '1', budget: '40000', exact: '4', playout, model, depth: '39' },
        'bot pimc',
      );
      const op = resolveParams(oracle.params, { budget: '40000', exact: '4', playout, model }, 'bot oracle');
      const pimcs: Bot[] = [];
      const oracles: Bot[] = [];
      for (let seat = 0; seat < seats; seat++) {
        pimcs.push(pimc.create({ game: informed, table, seat, rng: new Rng(seedKey('informed'), seat), params: pp }));
        oracles.push(oracle.create({ game: base, table, seat, rng: new Rng(), params: op, state: live }));
      }
      const match = base.newMatch(table, { singleDeal: false, index: 0 });
      const legal = newSets(1);
      const kinds = new Set<number>();
      let decisions = 0;
      for (let d = 0; d < deals && !match.over; d++) {
        match.startDeal(live, new Rng(seedKey(`informed-${name}`), d));
        while (!live.isTerminal()) {
          const seat = live.toMove;
          const n = live.legal(legal, 0);
          const want = oracles[seat].act(live.observe(seat), legal, n);
          const got = pimcs[seat].act(live.observe(seat), legal, n);
          expect(got, `${name} (${model}, ${playout} playout) deal ${d} ply ${live.observe(seat).plies}`).toBe(want);
          if (n > 1) {
            decisions++;
            kinds.add(live.decision);
          }
          live.apply(want);
        }
        match.finishDeal(live);
      }
      expect(decisions).toBeGreaterThan(10);
      if (name === 'viersche') expect(kinds.has(Decision.Claim), name).toBe(true);
      if (name === 'vier-anderle') expect(kinds.has(Decision.Declare), name).toBe(true);
    }
  });

  it("plays the oracle's move where its observation determines every hidden card (Hindersi-Jass, 3 players)", () => {
    const game = gameNamed('hindersi-jass');
    const table = tableOf(game, 3);
    const state = game.newState(table);
    const world = game.newState(table);
    const key = seedKey('determined');
    const pp = resolveParams(pimc.params, {}, 'bot pimc');
    const op = resolveParams(oracle.params, {}, 'bot oracle');
    const rngs = [0, 1, 2].map((s) => new Rng(key, 100 + s));
    const pimcs = rngs.map((rng, seat) => pimc.create({ game, table, seat, rng, params: pp }));
    const oracles = [0, 1, 2].map((seat) => oracle.create({ game, table, seat, rng: new Rng(), params: op, state }));
    const legal = newSets(1);
    const probe = new Rng(key, 7);
    const play = new Rng(key, 8);
    let found = 0;
    for (let d = 0; d < 12; d++) {
      game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(key, d));
      while (!state.isTerminal()) {
        const seat = state.toMove;
        const n = state.legal(legal, 0);
        if (n > 1 && state.decision === Decision.Card && state.tricksLeft() <= 4) {
          // Hidden cards are determined when every sampled world is the true deal.
          const obs = state.observe(seat);
          let determined = true;
          for (let w = 0; w < 16 && determined; w++) {
            game.sample(obs, probe, world);
            for (let k = 0; k < table.seats * LANES; k++) if (hands(world)[k] !== hands(state)[k]) determined = false;
          }
          if (determined) {
            found++;
            expect(pimcs[seat].act(obs, legal, n), `deal ${d}`).toBe(oracles[seat].act(obs, legal, n));
          }
        }
        state.apply(setSelect(legal, 0, play.below(n)));
      }
    }
    expect(found).toBeGreaterThan(3);
  });
});

/** Every hand of a state, LANES masks per seat (each game's state keeps them so). */
function hands(s: State): Int32Array {
  return (s as unknown as { hands: Int32Array }).hands;
}
