/**
 * The experiments that compare bots on paired duplicate groups. experiments/ladder.ts: the lineups (a team partnering itself; an individual alone
 * among the reference), the gap share's paired delta-method interval, the verdict on the
 * two best bots against the margin, and a tiny ladder end to end on the pool: the ceiling
 * found, its leads paired, the CSV rows and the report's statements, the same for 1 and
 * 2 workers. experiments/versus.ts: each candidate head to head with the champion, its
 * difference read from the run's database equal to the harness's paired one. The timed
 * moves behind both (`RunSpec.timeMoves`): counted per entrant, the results unchanged.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvRows, gapShare, lineupText, report, verdictOf } from '../experiments/ladder.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { runTournament } from '../src/harness/run/run.js';
import { liveRunOf } from '../src/harness/run/spec.js';
import { ROOT } from './cli-helpers.js';

// The built modules: their runs play on worker threads, which load dist/.
const ladder = async () =>
  (await import(join(ROOT, 'dist', 'experiments', 'ladder.js'))) as typeof import('../experiments/ladder.js');
const versus = async () =>
  (await import(join(ROOT, 'dist', 'experiments', 'versus.js'))) as typeof import('../experiments/versus.js');
const session = (workers: number) => ({
  workDir: mkdtempSync(join(tmpdir(), 'tafel-paired-')),
  workers,
  resume: false,
  force: false,
  shard: null,
});

describe('ladder', () => {
  it('seats a bot with itself against two heuristics in Viersche, alone among heuristics elsewhere', () => {
    expect(lineupText('pimc', findGame('viersche')!, 4)).toBe('pimc,heuristic');
    expect(lineupText('pimc', findGame('hindersche')!, 4)).toBe('pimc,heuristic,heuristic,heuristic');
    expect(lineupText('oracle', findGame('hindersi-jass')!, 3)).toBe('oracle,heuristic,heuristic');
  });

  it('the gap share and its interval from per-group values', () => {
    // Exactly half-way in every group: the share is 0.5 with no spread, so no interval (not a zero-width one).
    const r = Float64Array.from([-10, -12, -8, -11]);
    const c = Float64Array.from([10, 14, 6, 9]);
    const x = r.map((v, g) => (v + c[g]) / 2);
    const e = gapShare(x, r, c);
    expect(e.mean).toBeCloseTo(0.5, 12);
    expect(e).toMatchObject({ n: 4, low: NaN, high: NaN, degenerate: 'no-spread' });
    expect(gapShare(r, r, c)).toMatchObject({ mean: 0, degenerate: 'no-spread' });
    // Noise in x widens it; groups with a NaN are left out.
    const noisy = x.map((v, g) => v + [1, -1, 2, -2][g]);
    const f = gapShare(Float64Array.from([...noisy, NaN]), Float64Array.from([...r, 0]), Float64Array.from([...c, 0]));
    expect(f.n).toBe(4);
    expect(f.mean).toBeCloseTo((noisy.reduce((a, b) => a + b) / 4 - -10.25) / (9.75 - -10.25), 12);
    expect(f.low).toBeLessThan(f.mean);
    expect(f.high).toBeGreaterThan(f.mean);
  });

  it('separated, equal within the margin, or undecided with the groups that would decide it', () => {
    const est = (mean: number, half: number, sd = 1, n = 100) => ({ n, mean, sd, low: mean - half, high: mean + half });
    expect(verdictOf(est(1, 0.5), 2).verdict).toBe('separated');
    expect(verdictOf(est(-1, 0.5), 2).verdict).toBe('separated');
    expect(verdictOf(est(0.2, 0.5), 1).verdict).toBe('equal within the margin');
    const u = verdictOf(est(0.2, 0.9, 10), 1);
    expect(u.verdict).toBe('undecided');
    // The nearer decision: bounding within the margin needs a half-width of 0.8.
    expect(u.groupsNeeded).toBe(Math.ceil(((1.959963984540054 * 10) / 0.8) ** 2));
  });

  it('a tiny Hindersi-Jass ladder on the pool: the ceiling and its leads paired, the same rows for 1 and 2 workers', async () => {
    const o = {
      game: 'hindersi-jass',
      deals: 4,
      matches: 0,
      seed: 'ladder-test',
      bots: ['random', 'pimc:worlds=2', 'oracle:budget=5000'],
    };
    const l = (await (await ladder()).runExperiment(o, session(1)))!;
    expect(l.teams).toBe(false);
    expect(l.ceiling?.bot).toBe('oracle:budget=5000');
    for (const r of l.rungs) {
      expect(r.deal.estimate.n).toBe(4);
      expect(r.moves).toBeGreaterThan(0);
      expect(r.msPerMove).toBeGreaterThan(0);
      if (r.cheats) expect(r.ceilingLead).toBeNull();
      else {
        const lead = l.ceiling!.deal.estimate.mean - r.deal.estimate.mean;
        expect(r.ceilingLead!.mean).toBeCloseTo(lead, 9);
      }
    }
    expect(l.best?.first.bot).toBe('pimc:worlds=2');
    expect(l.best?.second.bot).toBe('random');
    const rows = csvRows(l);
    expect(rows.filter((row) => row.quantity === 'ceiling_lead')).toHaveLength(2);
    expect(rows.filter((row) => row.quantity === 'lead_over:random')).toHaveLength(1);
    const text = report(o, l, 1, 'node dist/experiments/ladder.js --test', 1);
    expect(text).toContain('alone among 3 `heuristic` players');
    expect(text).toMatch(/\*\*Ceiling:\*\* oracle:budget=5000 \(cheats\) sees every hand/);
    expect(text).toMatch(/\*\*The two best bots:\*\* pimc:worlds=2 minus random/);
    if (l.ceilingHolds) expect(l.rungs.every((r) => r.gap !== null)).toBe(true);
    else expect(l.rungs.every((r) => r.gap === null)).toBe(true);
    // Two workers: the same rows; the time per move differs, the moves it was measured over do not.
    const two = csvRows((await (await ladder()).runExperiment(o, session(2)))!);
    const timeless = (x: typeof rows) => x.map((row) => (row.quantity === 'ms_per_move' ? { ...row, mean: '' } : row));
    expect(timeless(two)).toEqual(timeless(rows));
  });
});

describe('versus', () => {
  it("each candidate against the champion on the pool: the harness's paired difference, times for both", async () => {
    const o = {
      game: 'hindersi-jass',
      champion: 'pimc:worlds=2',
      bots: ['random', 'pimc:worlds=3'],
      deals: 3,
      seed: 'versus-test',
    };
    const bouts = (await (await versus()).runExperiment(o, session(2)))!;
    const game = findGame('hindersi-jass')!;
    const table = { seats: 4, rules: resolveParams(game.variants, {}, 'test') };
    for (const b of bouts) {
      const lineup = await resolveLineup(`${b.bot},${o.champion}`, game, 4);
      const r = runTournament(liveRunOf({ game, table, lineup, seed: o.seed, unit: 'deal', groups: o.deals }));
      const pair = r.tally.deal.pairRows().find((p) => p.bot === 0 && p.metric === 'points')!;
      // Points are charged: fewer is better, so the candidate's score is the negated pair.
      expect(b.deal[0].estimate.mean).toBeCloseTo(-pair.estimate.mean, 9);
      expect(b.deal[0].estimate.n).toBe(3);
      expect(b.moves).toBeGreaterThan(0);
      expect(b.championMoves).toBeGreaterThan(0);
    }
    const v = await versus();
    const rows = v.csvRows(o, bouts);
    expect(rows.filter((row) => row.quantity === 'deal_vs_champion')).toHaveLength(2);
    expect(v.report(o, bouts, 1, 'x', 2)).toMatch(/\| random \| -\d/);
  });
});

describe('timed moves (RunSpec.timeMoves)', () => {
  it("count every entrant's moves and leave the results as they are", async () => {
    const game = findGame('hindersche')!;
    const table = { seats: 4, rules: resolveParams(game.variants, {}, 'test') };
    const base = await resolveLineup('heuristic,random', game, 4);
    // A wrapper that counts the moves the table asks each entrant for.
    const asked = [0, 0];
    const lineup = {
      ...base,
      entrants: base.entrants.map((e, i) => ({
        ...e,
        spec: {
          ...e.spec,
          create: (ctx: Parameters<typeof e.spec.create>[0]) => {
            const bot = e.spec.create(ctx);
            return { act: (...a: Parameters<typeof bot.act>) => (asked[i]++, bot.act(...a)) };
          },
        },
      })),
    };
    const parts = { game, table, lineup, seed: 'timed', unit: 'deal' as const, groups: 5 };
    const timed = runTournament(liveRunOf({ ...parts, timeMoves: true }));
    expect(timed.moveTime!.map((t) => t.moves)).toEqual(asked);
    expect(timed.moveTime!.every((t) => t.ms > 0)).toBe(true);
    const plain = runTournament(liveRunOf(parts));
    expect(plain.moveTime).toBeNull();
    expect(plain.text).toBe(timed.text);
  });
});
