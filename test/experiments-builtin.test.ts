/**
 * The built-in experiments hindersche-marches (issue 4), anderle-pot (issue 5),
 * pimc-properties and tune (issue 20) through their `Experiment` interface: a bad flag
 * value is refused naming its flag, a plan is plain JSON, a tiny plan plays into the
 * CSV whose counts add up (the march counts by phase, kind, seat and game; the pot by
 * the rules ), the same for 1 and 2 workers, and a shard returns no results.
 * (hindersche-marches itself checks its march count against the engine's `marches`.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Experiment, Plan, Results, Session } from '../experiments/experiment.js';
import { wilson } from '../src/harness/stats/stats.js';
import { ROOT } from './cli-helpers.js';

// The built modules: their runs play on worker threads, which load dist/.
const built = async <T>(name: string): Promise<T> =>
  (await import(join(ROOT, 'dist', 'experiments', `${name}.js`))) as T;
const experimentOf = async (name: string) => (await built<{ experiment: Experiment }>(name)).experiment;

const session = (workers: number, shard: Session['shard'] = null): Session => ({
  workDir: mkdtempSync(join(tmpdir(), 'tafel-builtin-')),
  workers,
  resume: false,
  force: false,
  shard,
  progress: () => {},
});

type CsvRow = Record<string, string>;
const rowsOf = (r: Results, table: string): CsvRow[] => parse<CsvRow>(r.tables[table], { columns: true });

describe('every built-in experiment', () => {
  it.each([
    ['hindersche-marches', { rubbers: 'x' }, /^--rubbers 'x': a whole number from 1/],
    ['hindersche-marches', { rubbers: '0' }, /^--rubbers '0'/],
    ['hindersche-marches', { mcWorlds: '0' }, /^--mc-worlds '0'/],
    ['hindersche-marches', { seed: 'a b' }, /^--seed 'a b'/],
    ['anderle-pot', { hands: '0' }, /^--hands '0'/],
    ['anderle-pot', { sessions: '1.5' }, /^--sessions '1.5'/],
    ['anderle-pot', { seed: 'a b' }, /^--seed 'a b'/],
    ['pimc-properties', { game: 'skat' }, /^--game: unknown game 'skat'/],
    ['pimc-properties', { play: 'oracle' }, /^--play 'oracle': heuristic or random/],
    ['pimc-properties', { tricks: '5' }, /^--tricks 5: at most 4/],
    ['pimc-properties', { worlds: '0' }, /^--worlds '0': a whole number from 1/],
    ['tune', { game: 'skat' }, /^--game: unknown game 'skat'/],
    ['tune', { game: 'hindersi-jass' }, /^no preset for hindersi-jass \(presets: viersche, hindersche, vier-anderle\)/],
    ['tune', { iterations: '0' }, /^--iterations '0': a whole number from 1/],
    ['tune', { measure: '1' }, /^--measure '1': a whole number from 2/],
  ] as const)('%s %j: refused, naming the flag', async (name, values, message) => {
    const e = await experimentOf(name);
    expect(() => e.plan(values)).toThrow(message);
  });

  it.each([
    ['hindersche-marches', {}, 'hindersche-marches', 4],
    ['anderle-pot', { sessions: '7' }, 'anderle-pot', 16],
    ['pimc-properties', { game: 'viersche' }, 'pimc-properties', 0],
    ['tune', { game: 'hindersche' }, 'tune-hindersche', 0],
  ] as const)('%s: its plan is JSON, and its command makes it again', async (name, values, stem, runs) => {
    const e = await experimentOf(name);
    const plan = e.plan(values);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(plan).toMatchObject({ plan: 1, name: stem, experiment: name, question: e.question });
    expect(plan.runs).toHaveLength(runs);
    expect(plan.tables.length).toBeGreaterThan(0);
    // The command names every option: parsed back, it gives the same plan.
    const words = plan.command.split(' ');
    expect(words.slice(0, 3)).toEqual(['tafel', 'experiment', name]);
    const again: Record<string, string> = {};
    for (let i = 3; i < words.length; i += 2)
      again[words[i].slice(2).replace(/-(.)/g, (_, c: string) => c.toUpperCase())] = words[i + 1];
    expect(e.plan(again)).toEqual(plan);
    for (const f of e.flags) expect(plan.command).toContain(f.flag.split(' ')[0]);
  });
});

describe('hindersche-marches', () => {
  let cached: { plan: Plan; results: Results } | null = null;
  async function study() {
    if (cached) return cached;
    const e = await experimentOf('hindersche-marches');
    const plan = e.plan({ seed: 'experiments-test', rubbers: '6', mcRubbers: '2', mcWorlds: '2' });
    return (cached = { plan, results: (await e.run(plan, session(1)))! });
  }

  it('plays every table for the rubbers asked; the counts add up: phases, kinds, games, seats', async () => {
    const { plan, results } = await study();
    expect(plan.runs.map((r) => [r.bots, r.groups])).toEqual([
      ['random', 6],
      ['heuristic', 6],
      ['montecarlo:worlds=2', 2],
      ['heuristic,random', 3],
    ]);
    const rows = rowsOf(results, 'hindersche-marches');
    for (const bots of plan.runs.map((r) => r.bots)) {
      const get = (unit: string, phase: string, kind: string, seatBot = '') => {
        const r = rows.find(
          (x) =>
            x.bots === bots &&
            x.unit === unit &&
            x.phase === phase &&
            x.kind === kind &&
            x.seat_bot === seatBot &&
            x.method === 'wilson',
        )!;
        return { n: Number(r.n), marches: Number(r.marches) };
      };
      const d1 = get('deal', '1', 'any');
      const d2 = get('deal', '2', 'any');
      const dAll = get('deal', 'all', 'any');
      expect(d1.n + d2.n).toBe(dAll.n);
      expect(d1.marches + d2.marches).toBe(dAll.marches);
      expect(get('deal', '2', 'points').marches + get('deal', '2', 'all-tricks').marches).toBe(d2.marches);
      // H-9: a rubber is 4 games.
      const rubbers = bots.startsWith('montecarlo') ? 2 : 6;
      expect(get('game', 'all', 'any').n).toBe(4 * rubbers);
      expect(get('game', '1', 'double-loss').n).toBe(4 * rubbers);
      if (bots.includes(',')) {
        // Every seat of a normal deal is counted once for its bot (all four play in phase 1).
        const seats = ['heuristic', 'random'].map((b) => get('seat-deal', '1', 'any', b));
        expect(seats[0].n + seats[1].n).toBe(4 * d1.n);
        expect(seats[0].marches + seats[1].marches).toBe(d1.marches);
      } else {
        expect(rows.some((r) => r.bots === bots && r.unit === 'seat-deal')).toBe(false);
      }
    }
  });

  it('every rate lies in its intervals, within [0, 1]', async () => {
    const rows = rowsOf((await study()).results, 'hindersche-marches');
    expect(rows.length).toBeGreaterThan(40);
    const num = (x: string) => (x === '' ? NaN : Number(x));
    for (const r of rows) {
      const [n, k, rate, low, high] = [r.n, r.marches, r.rate, r.ci95_low, r.ci95_high].map(num);
      expect(rate).toBeGreaterThanOrEqual(0);
      expect(rate).toBeLessThanOrEqual(1);
      if (r.method === 'wilson') {
        expect(k).toBeLessThanOrEqual(n);
        expect(rate).toBeCloseTo(k / n, 5);
        expect(Number.isFinite(low)).toBe(true);
      }
      if (Number.isNaN(low) || Number.isNaN(high)) {
        // No interval over clusters: the Wilson bound over the clusters on its side, if any.
        expect(r.method).not.toBe('wilson');
        if (r.method === 'cluster-ratio-t' && rate === 0 && !Number.isNaN(high))
          expect(high).toBeCloseTo(wilson(0, n).high, 5);
        if (r.method === 'cluster-ratio-t' && rate === 1 && !Number.isNaN(low))
          expect(low).toBeCloseTo(wilson(n, n).low, 5);
        continue;
      }
      expect(low).toBeGreaterThanOrEqual(0);
      expect(high).toBeLessThanOrEqual(1);
      expect(low).toBeLessThanOrEqual(rate + 1e-6);
      expect(rate).toBeLessThanOrEqual(high + 1e-6);
    }
  });

  it('gives the same CSV on 2 workers; the report names its command', async () => {
    const { plan, results } = await study();
    const e = await experimentOf('hindersche-marches');
    const again = (await e.run(plan, session(2)))!;
    expect(again.tables).toEqual(results.tables);
    const text = results.report(12);
    expect(text).toContain(
      'tafel experiment hindersche-marches --rubbers 6 --mc-rubbers 2 --mc-worlds 2 --seed experiments-test',
    );
    expect(text).toContain('### heuristic,random');
    expect(text).toMatch(/Runtime: 12 s wall clock on 1 worker threads/);
  });
});

describe('anderle-pot (issue 5)', () => {
  it('plays its runs on the pool into databases and reads pots and balances from them', async () => {
    const { planOf, experiment } = await built<typeof import('../experiments/anderle-pot.js')>('anderle-pot');
    const plan = planOf({ sessions: 6, hands: 5, seed: 't', players: [2, 5], bots: ['random', 'heuristic'] });
    expect(plan.runs).toHaveLength(4);
    const results = (await experiment.run(plan, session(1)))!;
    const rows = rowsOf(results, 'anderle-pot');
    const pots = rows.filter((r) => r.quantity === 'pot');
    expect(pots).toHaveLength(4 * 5);
    for (const r of pots) {
      expect(Number(r.n)).toBe(6);
      // the pot is always a multiple of 4, so its mean over sessions is a multiple of 4/6.
      expect(Math.round(Number(r.mean) * 6) % 4).toBe(0);
      // the first hand starts from an empty pot: 4 from the dealer and 4 per player without a trick.
      if (r.hand === '1') expect(Number(r.mean)).toBeGreaterThanOrEqual(4);
    }
    for (const run of plan.runs) {
      const end = (q: string) =>
        Number(rows.find((r) => r.bot === run.bots && r.players === String(run.players) && r.quantity === q)!.mean);
      expect(end('balance_range')).toBeGreaterThanOrEqual(end('balance_sd'));
    }
    expect(results.report(3)).toContain('Produced by `tafel experiment anderle-pot --sessions 6 --hands 5 --seed t`');
    // The same figures on two workers.
    expect((await experiment.run(plan, session(2)))!.tables).toEqual(results.tables);
  });

  it('a shard plays its part and returns no results', async () => {
    const { planOf, experiment } = await built<typeof import('../experiments/anderle-pot.js')>('anderle-pot');
    const plan = planOf({ sessions: 2, hands: 2, seed: 't', players: [2], bots: ['random'] });
    expect(await experiment.run(plan, session(1, { index: 0, count: 2 }))).toBeNull();
  });
});

describe('pimc-properties', () => {
  it('measures a small plan: the same twice, rates in [0, 1]; a shard has nothing to play', async () => {
    const e = await experimentOf('pimc-properties');
    const plan = e.plan({ game: 'viersche', deals: '2', tricks: '2', worlds: '10' });
    const results = (await e.run(plan, session(1)))!;
    const rows = rowsOf(results, 'pimc-properties');
    for (const p of ['lc', 'lc_exact', 'bias', 'df', 'sets_per_world'])
      expect(rows.some((r) => r.property === p && r.at === 'all')).toBe(true);
    for (const r of rows.filter((x) => x.property !== 'sets_per_world')) {
      expect(Number(r.mean)).toBeGreaterThanOrEqual(0);
      expect(Number(r.mean)).toBeLessThanOrEqual(1);
    }
    expect((await e.run(plan, session(1)))!.tables).toEqual(results.tables);
    expect(results.report(0)).toContain('Produced by `tafel experiment pimc-properties --game viersche --deals 2');
    expect(await e.run(plan, session(1, { index: 1, count: 2 }))).toBeNull();
  });
});

describe('tune (issue 20)', () => {
  it('tunes from a bad start and from the defaults, measures and reports', async () => {
    const e = await experimentOf('tune');
    const plan = e.plan({ iterations: '20', pairs: '4', measure: '40', cross: '10' });
    const results = (await e.run(plan, session(1)))!;
    const rows = rowsOf(results, 'tune');
    const quantities = new Set(rows.map((r) => r.quantity));
    for (const q of ['start_vs_default', 'tuned_vs_default', 'gap_recovered', 'verify_tuned_vs_start'])
      expect(quantities).toContain(q);
    expect(quantities).toContain('verify_tuned_vs_default');
    for (const bot of ['random', 'montecarlo']) expect(quantities).toContain(`gain_vs_${bot}`);
    // Four parameters, two tunings: a trajectory of five checkpoints each.
    expect(rows.filter((r) => r.quantity === 'theta')).toHaveLength(2 * 4 * 5);
    const md = results.report(0);
    expect(md).toMatch(/Share of the start-to-default gap recovered: -?\d+% \[/);
    expect(md).toContain('Produced by `tafel experiment tune --game viersche --iterations 20 --pairs 4');
    expect(await e.run(plan, session(1, { index: 0, count: 2 }))).toBeNull();
  });
});
