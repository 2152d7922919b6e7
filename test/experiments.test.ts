/**
 * experiments/: the Hindersche marches study (issue 4) on a tiny size, and the command
 * lines of every experiment (bad input: one line, status 2, nothing played). Its counts must
 * add up (phases, kinds, seats, games), every rate must lie in its intervals, the run
 * must be the same byte for byte twice, and its march detection must follow H-4/H-6.
 * (runStudy itself checks each normal deal against its mark events, and its total
 * against the engine's own `marches` metric, and throws if they differ.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  csvText,
  marchOf,
  parseOptions,
  rowsOf,
  runStudy,
  writeResults,
  type CellKey,
  type DealRecord,
  type StudyOptions,
  type StudyResult,
} from '../experiments/hindersche-marches.js';
import { checkOutDir, count, parseFlags, seed, writeWhole } from '../experiments/command.js';
import { TafelError } from '../src/core/errors.js';
import { ROOT } from './cli-helpers.js';

const OPTS: StudyOptions = { seed: 'experiments-test', rubbers: 6, mcRubbers: 2, mcWorlds: 2 };

let cached: StudyResult | null = null;
async function study(): Promise<StudyResult> {
  return (cached ??= await runStudy(OPTS));
}

describe('hindersche-marches', () => {
  it('plays every table for the rubbers asked, 4 games each', async () => {
    const s = await study();
    expect(s.tables.map((t) => t.bots)).toEqual(['random', 'heuristic', 'montecarlo:worlds=2', 'heuristic,random']);
    expect(s.tables.map((t) => t.rubbers)).toEqual([6, 6, 2, 6]);
    expect(s.tables[3].rotations).toBe(2);
    expect(s.tables[3].groups).toBe(3);
    for (const t of s.tables) expect(t.counter.games).toBe(4 * t.rubbers);
  });

  it('counts add up: phases, kinds, games, seats', async () => {
    const s = await study();
    for (const t of s.tables) {
      const c = t.counter;
      const get = (k: CellKey) => c.cells.get(`${k.unit}|${k.phase}|${k.kind}|${k.seatBot ?? ''}`)?.cell;
      const d1 = get({ unit: 'deal', phase: '1', kind: 'any' })!;
      const d2 = get({ unit: 'deal', phase: '2', kind: 'any' })!;
      const dAll = get({ unit: 'deal', phase: 'all', kind: 'any' })!;
      expect(d1.n + d2.n).toBe(dAll.n);
      expect(dAll.n).toBe(c.normalDeals);
      expect(d1.hits + d2.hits).toBe(dAll.hits);
      const pts = get({ unit: 'deal', phase: '2', kind: 'points' })!;
      const all9 = get({ unit: 'deal', phase: '2', kind: 'all-tricks' })!;
      expect(pts.hits + all9.hits).toBe(d2.hits);
      expect(pts.n).toBe(d2.n);
      for (const { cell } of c.cells.values()) {
        expect(cell.hits).toBeLessThanOrEqual(cell.n);
        expect(cell.clusterN.reduce((a, b) => a + b, 0)).toBe(cell.n);
        expect(cell.clusterHits.reduce((a, b) => a + b, 0)).toBe(cell.hits);
        expect(cell.clusterN.length).toBe(t.groups);
      }
      const po = get({ unit: 'playoff-deal', phase: 'all', kind: 'any' });
      expect(po?.n ?? 0).toBe(c.playoffDeals);
      expect(c.marches()).toBe(dAll.hits + (po?.hits ?? 0));

      const games = get({ unit: 'game', phase: 'all', kind: 'any' })!;
      const g1 = get({ unit: 'game', phase: '1', kind: 'any' })!;
      const g2 = get({ unit: 'game', phase: '2', kind: 'any' });
      const dbl = get({ unit: 'game', phase: '1', kind: 'double-loss' })!;
      expect(games.n).toBe(4 * t.rubbers);
      expect(g1.n).toBe(games.n);
      // Every game reaches phase 2 unless it ends in a double loss.
      expect((g2?.n ?? 0) + dbl.hits).toBe(games.n);
      expect(games.hits).toBeGreaterThanOrEqual(Math.max(g1.hits, g2?.hits ?? 0));
      expect(games.hits).toBeLessThanOrEqual(g1.hits + (g2?.hits ?? 0));
      // A game cannot have more marches than deals, nor more marching games than marches.
      expect(games.hits).toBeLessThanOrEqual(c.marches());

      if (t.rotations > 1) {
        // heuristic,random: two seats of each bot play every phase-1 deal; a seat's
        // marches over both bots are the table's marches.
        for (const phase of ['1', '2', 'all'] as const) {
          const deal = get({ unit: 'deal', phase, kind: 'any' })!;
          const h = get({ unit: 'seat-deal', phase, kind: 'any', seatBot: 'heuristic' })!;
          const r = get({ unit: 'seat-deal', phase, kind: 'any', seatBot: 'random' })!;
          expect(h.hits + r.hits).toBe(deal.hits);
          if (phase === '1') expect([h.n, r.n]).toEqual([2 * deal.n, 2 * deal.n]);
        }
      } else {
        expect([...c.cells.values()].some((x) => x.key.unit === 'seat-deal')).toBe(false);
      }
    }
  });

  it('every rate lies in its intervals, within [0, 1]', async () => {
    const rows = rowsOf(await study());
    expect(rows.length).toBeGreaterThan(40);
    for (const r of rows) {
      expect(r.marches).toBeLessThanOrEqual(r.method === 'wilson' ? r.n : Infinity);
      expect(r.rate).toBeGreaterThanOrEqual(0);
      expect(r.rate).toBeLessThanOrEqual(1);
      if (r.method === 'wilson') {
        expect(r.rate).toBeCloseTo(r.marches / r.n, 12);
        expect(Number.isFinite(r.ci95_low)).toBe(true);
      }
      if (!Number.isFinite(r.ci95_low)) {
        // A cluster interval is missing only where no event (or every unit) was one.
        expect(r.method).not.toBe('wilson');
        continue;
      }
      expect(r.ci95_low).toBeGreaterThanOrEqual(0);
      expect(r.ci95_high).toBeLessThanOrEqual(1);
      expect(r.ci95_low).toBeLessThanOrEqual(r.rate + 1e-12);
      expect(r.rate).toBeLessThanOrEqual(r.ci95_high + 1e-12);
    }
  });

  it('is re-runnable: the same options give the same CSV', async () => {
    const again = await runStudy(OPTS);
    expect(csvText(rowsOf(again))).toBe(csvText(rowsOf(await study())));
  });

  it('writes the CSV and the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tafel-exp-'));
    try {
      const { csv, md } = writeResults(await study(), dir);
      const lines = readFileSync(csv, 'utf8').trim().split('\n');
      expect(lines[0]).toBe(CSV_COLUMNS.join(','));
      expect(lines.length).toBe(rowsOf(await study()).length + 1);
      const text = readFileSync(md, 'utf8');
      expect(text).toContain(
        'node dist/experiments/hindersche-marches.js --rubbers 6 --mc-rubbers 2 --mc-worlds 2 --seed experiments-test',
      );
      expect(text).toContain('### heuristic,random');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('detects marches as H-4 and H-6 define them', () => {
    const rec = (points: number[], takers: number[], players = [0, 1, 2, 3]): DealRecord => ({
      match: 0,
      deal: 0,
      bots: [],
      kind: 'normal',
      players,
      tricks: takers.map((taker) => ({ taker })),
      points,
      before: { phase: 1, game: 0 },
      events: [],
    });
    const spread = [0, 1, 2, 3, 0, 1, 2, 3, 0];
    expect(marchOf(rec([100, 20, 10, 10], spread), 1)).toEqual({ seat: 0, kind: 'points' });
    expect(marchOf(rec([99, 21, 10, 10], spread), 1)).toEqual({ seat: -1, kind: null });
    // All 9 tricks with fewer than 100 points (cards out of play): a march in phase 2 only.
    const all2 = rec([0, 85, 0, 0], Array<number>(9).fill(1), [1, 2, 3]);
    expect(marchOf(all2, 2)).toEqual({ seat: 1, kind: 'all-tricks' });
    expect(marchOf(all2, 1)).toEqual({ seat: -1, kind: null });
    expect(marchOf(rec([0, 0, 120, 0], Array<number>(9).fill(2), [2, 3]), 2)).toEqual({ seat: 2, kind: 'points' });
  });

  it('takes its options from the command line', () => {
    expect(parseOptions([])).toMatchObject({ seed: 'marches-1', outDir: 'results' });
    expect(parseOptions(['--rubbers', '10', '--mc-rubbers', '0', '--mc-worlds', '3', '--seed', 's.1'])).toMatchObject({
      rubbers: 10,
      mcRubbers: 0,
      mcWorlds: 3,
      seed: 's.1',
    });
    expect(parseOptions(['--help'])).toBe('help');
    expect(() => parseOptions(['--rubbers', 'x'])).toThrow(/--rubbers/);
    expect(() => parseOptions(['--rubbers', '0'])).toThrow(/--rubbers/);
    expect(() => parseOptions(['--seed', 'a b'])).toThrow(/seed/);
    expect(() => parseOptions(['--bogus'])).toThrow();
  });
});

describe('anderle-pot (issue 5)', () => {
  it('reads pots and balances from the records, with the ledger conserved', async () => {
    const { runExperiment, csvRows } = await import('../experiments/anderle-pot.js');
    const results = await runExperiment({
      sessions: 6,
      hands: 5,
      seed: 't',
      players: [2, 5],
      bots: ['random', 'heuristic'],
    });
    expect(results).toHaveLength(4);
    for (const r of results) {
      expect(r.pot).toHaveLength(5);
      for (const e of r.pot) {
        expect(e.n).toBe(6);
        // the pot is always a multiple of 4, so its mean over sessions is a multiple of 4/6.
        expect(Math.round(e.mean * 6) % 4).toBe(0);
      }
      // the first hand starts from an empty pot: 4 from the dealer and 4 per player without a trick.
      expect(r.pot[0].mean).toBeGreaterThanOrEqual(4);
      expect(r.balanceRange.mean).toBeGreaterThanOrEqual(r.balanceSd.mean);
    }
    const rows = csvRows(results);
    expect(rows.filter((x) => x.quantity === 'pot')).toHaveLength(20);
    const again = csvRows(
      await runExperiment({ sessions: 6, hands: 5, seed: 't', players: [2, 5], bots: ['random', 'heuristic'] }),
    );
    expect(again).toEqual(rows);
  });
});

describe('experiment command lines', () => {
  const run = (name: string, args: readonly string[]) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'experiments', `${name}.js`), ...args], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it.each([
    ['ladder', ['--bogus'], /^ladder: Unknown option '--bogus'/],
    ['ladder', ['--deals', 'x'], /^ladder: --deals 'x': a whole number from 1/],
    ['ladder', ['--game', 'skat'], /^ladder: unknown game 'skat'/],
    ['ladder', ['--bots', 'nobot'], /^ladder: unknown bot 'nobot'/],
    [
      'ladder',
      ['--game', 'viersche', '--players', '5'],
      /^ladder: --players 5: viersche is played by exactly 4 players/,
    ],
    ['ladder', ['--out-dir', '/dev/null/x'], /^ladder: --out-dir \/dev\/null\/x: cannot write/],
    ['ladder', ['--margin', '0'], /^ladder: --margin '0': a number above 0/],
    ['versus', ['--game', 'viersche'], /^versus: --game, --champion and --bots are required/],
    ['versus', ['--tag', 'a/b'], /^versus: --tag 'a\/b': 1-32 letters, digits or _ . -/],
    ['versus', ['--game', 'skat', '--champion', 'pimc', '--bots', 'ismcts'], /^versus: unknown game 'skat'/],
    ['versus', ['--game', 'viersche', '--champion', 'pimc', '--bots', 'nobot'], /^versus: unknown bot 'nobot'/],
    ['pimc-properties', ['--game', 'skat'], /^pimc-properties: unknown game 'skat'/],
    ['pimc-properties', ['--play', 'oracle'], /^pimc-properties: --play 'oracle': heuristic or random/],
    ['pimc-properties', ['--tricks', '5'], /^pimc-properties: --tricks 5: at most 4/],
    ['pimc-properties', ['--worlds', '0'], /^pimc-properties: --worlds '0': a whole number from 1/],
    ['pimc-properties', ['--out-dir', '/dev/null/x'], /^pimc-properties: --out-dir \/dev\/null\/x: cannot write/],
    ['anderle-pot', ['--hands', '0'], /^anderle-pot: --hands '0'/],
    ['anderle-pot', ['--seed', 'a b'], /^anderle-pot: --seed 'a b'/],
    ['hindersche-marches', ['--out-dir', '/dev/null/x'], /^hindersche-marches: --out-dir \/dev\/null\/x: cannot write/],
  ] as const)('%s %j: one line and the usage, status 2, before any play', (name, args, line) => {
    const r = run(name, args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(line);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^usage: node dist\/experiments\//);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('--help prints the usage of every option', () => {
    const r = run('ladder', ['--help']);
    expect(r.status).toBe(0);
    for (const flag of ['--game', '--players', '--deals', '--matches', '--seed', '--bots', '--margin', '--out-dir'])
      expect(r.stdout).toContain(flag);
  });

  it('shares its checks', () => {
    expect(count(undefined, 7, '--n', 1)).toBe(7);
    expect(count('12', 7, '--n', 1)).toBe(12);
    expect(() => count('-1', 7, '--n', 0)).toThrow(TafelError);
    expect(() => count('1.5', 7, '--n', 0)).toThrow(/--n '1.5'/);
    expect(seed(undefined, 'x-1')).toBe('x-1');
    expect(() => seed('', 'x')).toThrow(/seed/);
    expect(() => parseFlags(['--n'], { n: { type: 'string' } })).toThrow(TafelError);
    const dir = mkdtempSync(join(tmpdir(), 'tafel-cmd-'));
    try {
      checkOutDir(join(dir, 'a', 'b'));
      expect(readFileSync(writeWhole(join(dir, 'a', 'b'), 'f.txt', 'whole'), 'utf8')).toBe('whole');
      expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['f.txt']);
    } finally {
      rmSync(dir, { recursive: true });
    }
    expect(() => checkOutDir('/dev/null/x')).toThrow(TafelError);
  });
});
