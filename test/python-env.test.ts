/**
 * The learning environment (`tafel env`, docs/env.md) through its Python client
 * (clients/python/tafel_env.py), driven by test/fixtures/env/trajectories.py: legal
 * masks equal the rules' legal moves, observations hold nothing the seat may not know
 * (each one rebuilt by the bot server from what the seat saw must encode the same: the
 * contract's two-worlds attack), rewards are the game's metric as `tafel run` reports
 * it for the same deal, and the same seed gives the same trajectory. Skipped, saying
 * so, without python3.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json, ParamValue } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { BotServer } from '../src/harness/programs/server.js';
import { helloRequest } from '../src/harness/programs/requests.js';
import { resolveEntrant } from '../src/harness/table/lineup.js';
import { ROOT, read, tafel, tmpDir } from './cli-helpers.js';
import { tableOf } from './contract-helpers.js';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0 && /Python 3\.(9|\d\d)/.test(python.stdout + python.stderr);
if (!hasPython) console.log('python env: skipped: no python3 3.9 or later (.ci/run installs it)');
const hasNumpy = hasPython && spawnSync('python3', ['-c', 'import numpy']).status === 0;
if (hasPython && !hasNumpy)
  console.log(
    'python env: the learned example skipped: numpy is not installed (the environment itself does not need it)',
  );

const FIXTURE = join(ROOT, 'test', 'fixtures', 'env', 'trajectories.py');
const FIRST = join(ROOT, 'test', 'fixtures', 'env', 'first-legal.js');

type Line = { [key: string]: Json } & {
  obs?: { [key: string]: Json };
  mask?: number[];
  vec?: number[];
  action?: number;
  reward?: number;
  done?: boolean;
  metric?: number;
  group?: number;
  error?: string;
};

function trajectories(cfg: Record<string, unknown>): Line[] {
  const r = spawnSync('python3', [FIXTURE, JSON.stringify(cfg)], { encoding: 'utf8', cwd: ROOT });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

const TABLES: readonly (readonly [string, number, Readonly<Record<string, ParamValue>>])[] = [
  ['viersche', 4, {}],
  ['hindersche', 4, { schleipfen: true }],
  ['hindersi-jass', 3, {}],
  ['hindersi-jass', 4, {}],
  ['vier-anderle', 4, {}],
  ['vier-anderle', 5, { pot: 0 }],
];

const rulesText = (rules: Readonly<Record<string, ParamValue>>) =>
  Object.entries(rules)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');

/** Card names anywhere in `value` (strings that are not yes, no, ?? or a field's word). */
function names(value: Json, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value as Json[]) names(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) names(v, out);
  return out;
}

describe.skipIf(!hasPython)('the learning environment through its Python client', () => {
  it.each(TABLES)(
    '%s, %i seats %j: masks are the legal moves, observations pass the two-worlds check, rewards are the metric of tafel run',
    async (name, seats, rules) => {
      const game = GAMES.find((g) => g.name === name)!;
      const table = tableOf(game, seats, rules);
      const lines = trajectories({ form: 'env', game: name, players: seats, rules, episodes: 4, seed: 'env-test' });
      const [hello, ...steps] = lines;
      const actions = (hello.hello as { actions: string[] }).actions;
      const size = hello.size as number;
      const pack = new Set(actions.slice(0, -2));
      const random = await resolveEntrant('random', game);
      let decisions = 0;
      const rewards: number[] = [];
      let sum = 0;
      for (const step of steps) {
        if (step.done) {
          rewards.push(sum + step.reward!);
          expect(step.reward).toBe(game.dealMetrics[0].higherIsBetter ? step.metric : -step.metric! || 0);
          sum = 0;
          continue;
        }
        if (step.obs === undefined) {
          sum += step.reward!;
          expect(step.reward).toBe(0);
          continue;
        }
        decisions++;
        const obs = step.obs;
        const legal = obs.legal as string[];
        // The mask marks exactly the legal moves, by their action names.
        expect(
          step.mask!.flatMap((m, i) => (m ? [actions[i]] : [])),
          JSON.stringify(obs.history),
        ).toEqual([...legal].sort((a, b) => actions.indexOf(a) - actions.indexOf(b)));
        expect(step.vec).toHaveLength(size);
        expect(step.vec!.every((x) => x >= -1 && x <= 1)).toBe(true);
        expect(step.vec!.slice(0, actions.length - 2).flatMap((x, i) => (x ? [actions[i]] : []))).toEqual(
          [...(obs.hand as string[])].sort((a, b) => actions.indexOf(a) - actions.indexOf(b)),
        );
        // No card the seat has not seen: its own, those played, the turn-up.
        const seen = new Set<string>([
          ...(obs.dealt as string[]),
          ...(obs.history as [number, string][]).map((h) => h[1]),
        ]);
        if (typeof obs.turnup === 'string') seen.add(obs.turnup);
        const unseen = [...names(obs, new Set())].filter((c) => pack.has(c) && !seen.has(c));
        expect(unseen).toEqual([]);
        // Two worlds: the server deals the others whatever is consistent with what the
        // seat saw, replays the history, and refuses the request unless every field and
        // the legal moves come out the same.
        const server = new BotServer(game, table, random);
        server.handle(JSON.parse(helloRequest(game, table)) as { [key: string]: Json });
        const { legal: _legal, ...dealt } = obs;
        const seed = '0123456789abcdef0123456789abcdef';
        server.handle({ type: 'deal', group: 0, rotation: 0, deal: 0, seed, ...dealt });
        const reply = server.handle({ type: 'move', ...obs });
        expect(legal).toContain((reply![0] as { move: string }).move);
      }
      expect(rewards).toHaveLength(4);
      expect(decisions).toBeGreaterThanOrEqual(4);
      // The same deals as `tafel run` with the same seed: episode g is deal g, whose
      // rotation 0 seats first-legal.js (the fixture's policy) at seat 0.
      const dir = tmpDir();
      const csv = join(dir, 'deals.csv');
      const bots = [FIRST, ...Array.from({ length: seats - 1 }, () => 'random')].join(',');
      const args = ['run', '--game', name, '--players', String(seats), '--bots', bots, '--deals', '4', '--seed'];
      const r = tafel([
        ...args,
        'env-test',
        '--deal-csv',
        csv,
        '--workers',
        '1',
        ...(Object.keys(rules).length ? ['--rules', rulesText(rules)] : []),
      ]);
      expect(r.status, r.stderr).toBe(0);
      const rows = read(csv)
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','));
      const sign = game.dealMetrics[0].higherIsBetter ? 1 : -1;
      const want = [0, 1, 2, 3].map((g) => {
        const row = rows.find((c) => c[2] === String(g) && c[3] === '0' && c[6] === '0')!;
        return sign * Number(row[8]) || 0;
      });
      expect(rewards).toEqual(want);
    },
  );

  it('the same seed gives the same trajectory, another seed another; reset(seed) starts again', () => {
    const cfg = { form: 'env', game: 'hindersi-jass', episodes: 3, seed: 7, policy: 'random', policy_seed: 3 };
    const a = trajectories(cfg);
    expect(trajectories(cfg)).toEqual(a);
    expect(trajectories({ ...cfg, seed: 8 })).not.toEqual(a);
    // reset(seed=7) on a table started with another seed plays seed 7's deals.
    expect(trajectories({ ...cfg, seed: 99, reset_seed: 7 }).slice(1)).toEqual(a.slice(1));
  });

  it('TafelVecEnv: table t plays groups t, t+K, ...; each group ends with the reward one table gets for it', () => {
    const one = trajectories({ form: 'env', game: 'hindersi-jass', episodes: 6, seed: 'v' }).filter((l) => l.done);
    const byGroup = new Map(one.map((l) => [l.group!, l.reward!]));
    const vec = trajectories({ form: 'vec', game: 'hindersi-jass', tables: 3, episodes: 6, seed: 'v' });
    expect(vec.length).toBeGreaterThanOrEqual(6);
    for (const l of vec) {
      expect(l.group! % 3).toBe(l.table);
      if (byGroup.has(l.group!)) expect(l.reward).toBe(byGroup.get(l.group!));
    }
    expect(vec.filter((l) => byGroup.has(l.group!)).length).toBeGreaterThanOrEqual(4);
  });

  it("TafelAECEnv: self-play asks each seat when it is to move; the rewards are the seats' charges (Hindersi-Jass J-5)", () => {
    const lines = trajectories({
      form: 'aec',
      game: 'hindersi-jass',
      players: 3,
      episodes: 3,
      policy: 'random',
      seed: 2,
    });
    expect(lines[0].agents).toEqual(['player_0', 'player_1', 'player_2']);
    let ends: number[] = [];
    let episodes = 0;
    for (const l of lines.slice(1)) {
      if (l.obs) {
        expect(`player_${String(l.obs.toMove)}`).toBe(l.agent);
        expect(l.obs.seat).toBe(l.obs.toMove);
        continue;
      }
      ends.push(l.reward!);
      expect(l.reward).toBe(-l.metric! || 0);
      if (ends.length === 3) {
        // 157 charged in all, or 157 to each seat but one that took every trick.
        expect([-157, -314]).toContain(ends.reduce((a, b) => a + b, 0));
        ends = [];
        episodes++;
      }
    }
    expect(episodes).toBe(3);
  });

  it('--matches: an episode is a whole match (a Partie of deals), rewarded once, in the match metric', () => {
    const lines = trajectories({ form: 'env', game: 'hindersi-jass', players: 3, episodes: 1, seed: 1, matches: true });
    const deals = new Set(lines.filter((l) => l.obs).map((l) => l.obs!.partieDeal));
    expect(deals.size).toBeGreaterThan(1);
    const hello = lines[0].hello as { unit: string; metric: { key: string } };
    expect(hello.unit).toBe('match');
    expect(hello.metric.key).toBe(GAMES.find((g) => g.name === 'hindersi-jass')!.matchMetrics[0].key);
    const end = lines.filter((l) => l.done);
    expect(end).toHaveLength(1);
    expect(lines.filter((l) => l.reward !== undefined && !l.done).every((l) => l.reward === 0)).toBe(true);
  });

  it('without numpy the vectors are lists with the same numbers', () => {
    const cfg = { form: 'env', game: 'viersche', episodes: 1, seed: 4 };
    const plain = trajectories({ ...cfg, no_numpy: true });
    expect(plain[0].numpy).toBe(false);
    // numpy's vectors are float32: equal to 6 places.
    const round = (lines: Line[]) =>
      lines.slice(1).map((l) => (l.vec ? { ...l, vec: l.vec.map((x) => Math.round(x * 1e6)) } : l));
    if (hasNumpy) expect(round(plain)).toEqual(round(trajectories(cfg)));
  });

  it('an illegal action, bad flags: one line that says what, exit status 2', () => {
    const bad = trajectories({ form: 'env', game: 'hindersi-jass', episodes: 1, seed: 1, action: 37 });
    expect(bad.at(-1)!.error).toMatch(
      /^tafel: env: line 2: table 0: action 37 \(yes\) is not legal for seat 0 \(legal: /,
    );
    for (const [args, message] of [
      [['--seat', '4', '--opponents', 'random'], /^tafel: env: --seat '4': seats are 0 to 3\n$/],
      [['--seat', '0'], /^tafel: env: --opponents names the bots of the 3 other seats/],
      [['--all-seats', '--opponents', 'random'], /^tafel: env: --opponents: every seat is learning/],
      [[], /^tafel: env: give --seat/],
    ] as const) {
      const r = tafel(['env', '--game', 'hindersi-jass', ...args]);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.status).toBe(2);
    }
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'src', 'cli', 'main.js'), 'env', '--game', 'viersche', '--all-seats'],
      {
        input: '{"type":"step","actions":[0]}\n',
        encoding: 'utf8',
      },
    );
    expect(r.stderr).toBe('tafel: env: line 1: step before the first reset\n');
    expect(r.status).toBe(2);
  });
});

describe.skipIf(!hasNumpy)('the learned example (examples/learned, numpy)', () => {
  it('trains for a few seconds, saves a policy, and plays it as a bot program in tafel run', () => {
    const dir = tmpDir();
    const policy = join(dir, 'policy.npz');
    const curve = join(dir, 'curve.csv');
    const train = spawnSync(
      'python3',
      [
        join(ROOT, 'examples', 'learned', 'train.py'),
        '--seconds',
        '4',
        '--batch',
        '64',
        '--tables',
        '4',
        '--out',
        policy,
        '--curve',
        curve,
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect(train.status, train.stderr).toBe(0);
    expect(existsSync(policy)).toBe(true);
    expect(read(curve).split('\n')[0]).toBe('batch,episodes,steps,seconds,reward,reward_se,entropy');
    const bot = `learned=python3 ${join(ROOT, 'examples', 'learned', 'learned_bot.py')} --policy ${policy}`;
    const r = tafel([
      'run',
      '--game',
      'hindersi-jass',
      '--program',
      bot,
      '--bots',
      'learned,random',
      '--deals',
      '3',
      '--workers',
      '1',
    ]);
    expect(r.stderr).not.toMatch(/tafel: /);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/learned - random/);
    // Trained for 4 players: a 3-player table is refused, in one line.
    const three = tafel([
      'run',
      '--game',
      'hindersi-jass',
      '--players',
      '3',
      '--program',
      bot,
      '--bots',
      'learned,random',
      '--deals',
      '1',
    ]);
    expect(three.status).not.toBe(0);
    expect(three.stderr).toMatch(/trained for hindersi-jass, 4 players/);
  }, 60_000);
});
