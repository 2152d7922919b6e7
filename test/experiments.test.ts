/**
 * experiments/ and `tafel experiment`: the built-ins (ladder, versus) and a user's JSON
 * plan run through the command, --plan-only's plan run again to the same CSV, a plan in
 * shards and resumed, bad flags and plan files refused in one line before any play; the Hindersche marches study (issue 4) and the anderle-pot study on a tiny
 * size, played by the harness on the pool into databases and counted by queries; and the
 * command lines of every experiment (bad input: one line, status 2, nothing played). The
 * march counts must add up (phases, kinds, seats, games), every rate must lie in its
 * intervals, and the same options must give the same CSV for 1 and 2 workers. (The study
 * itself checks its march count against the engine's own `marches` metric.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row, StudyOptions, StudyResult } from '../experiments/hindersche-marches.js';
import { checkOutDir, count, parseFlags, seed, writeWhole } from '../experiments/command.js';
import { TafelError } from '../src/core/errors.js';
import { wilson } from '../src/harness/stats/stats.js';
import { ROOT, expectUserError, tafel } from './cli-helpers.js';

const OPTS: StudyOptions = { seed: 'experiments-test', rubbers: 6, mcRubbers: 2, mcWorlds: 2 };

// The built module: its runs play on worker threads, which load dist/.
type Marches = typeof import('../experiments/hindersche-marches.js');
const marches = async () => (await import(join(ROOT, 'dist', 'experiments', 'hindersche-marches.js'))) as Marches;

const plan = (workers: number) => ({
  workDir: mkdtempSync(join(tmpdir(), 'tafel-marches-')),
  workers,
  resume: false,
  force: false,
  shard: null,
});

let cached: StudyResult | null = null;
async function study(): Promise<StudyResult> {
  return (cached ??= (await (await marches()).runStudy(OPTS, plan(1)))!);
}

describe('hindersche-marches', () => {
  it('plays every table for the rubbers asked, 4 games each', async () => {
    const s = await study();
    expect(s.tables.map((t) => t.bots)).toEqual(['random', 'heuristic', 'montecarlo:worlds=2', 'heuristic,random']);
    expect(s.tables.map((t) => t.rubbers)).toEqual([6, 6, 2, 6]);
    expect(s.tables[3].rotations).toBe(2);
    expect(s.tables[3].groups).toBe(3);
    for (const t of s.tables) expect(t.games).toBe(4 * t.rubbers);
  });

  it('counts add up: phases, kinds, games, seats', async () => {
    const s = await study();
    for (const t of s.tables) {
      const get = (unit: string, phase: string, kind: string, seatBot = '') =>
        s.rows.find(
          (r) =>
            r.bots === t.bots &&
            r.unit === unit &&
            r.phase === phase &&
            r.kind === kind &&
            r.seat_bot === seatBot &&
            r.method === 'wilson',
        )!;
      const d1 = get('deal', '1', 'any');
      const d2 = get('deal', '2', 'any');
      const dAll = get('deal', 'all', 'any');
      expect(d1.n + d2.n).toBe(dAll.n);
      expect(dAll.n).toBe(t.normalDeals);
      expect(d1.marches + d2.marches).toBe(dAll.marches);
      expect(get('deal', '2', 'points').marches + get('deal', '2', 'all-tricks').marches).toBe(d2.marches);
      expect(get('game', 'all', 'any').n).toBe(t.games);
      expect(get('game', '1', 'double-loss').n).toBe(t.games);
      if (t.rotations > 1) {
        // Every seat of a normal deal is counted once for its bot (all four play in phase 1).
        const seats = ['heuristic', 'random'].map((b) => get('seat-deal', '1', 'any', b));
        expect(seats[0].n + seats[1].n).toBe(4 * d1.n);
        expect(seats[0].marches + seats[1].marches).toBe(d1.marches);
      } else {
        expect(s.rows.some((r) => r.bots === t.bots && r.unit === 'seat-deal')).toBe(false);
      }
    }
  });

  it('every rate lies in its intervals, within [0, 1]', async () => {
    const rows: readonly Row[] = (await study()).rows;
    expect(rows.length).toBeGreaterThan(40);
    for (const r of rows) {
      expect(r.marches).toBeLessThanOrEqual(r.method === 'wilson' ? r.n : Infinity);
      expect(r.rate).toBeGreaterThanOrEqual(0);
      expect(r.rate).toBeLessThanOrEqual(1);
      if (r.method === 'wilson') {
        expect(r.rate).toBeCloseTo(r.marches / r.n, 12);
        expect(Number.isFinite(r.ci95_low)).toBe(true);
      }
      if (r.note) {
        // No interval over clusters (no event, every unit one, or clusters alike): the Wilson bound on its side, if any.
        expect(r.method).not.toBe('wilson');
        if (r.note === 'none' && r.method === 'cluster-ratio-t') {
          expect([r.rate, r.ci95_low, r.ci95_high.toFixed(9)]).toEqual([0, NaN, wilson(0, r.n).high.toFixed(9)]);
        } else if (r.note === 'all' && r.method === 'cluster-ratio-t') {
          expect([r.rate, r.ci95_low.toFixed(9), r.ci95_high]).toEqual([1, wilson(r.n, r.n).low.toFixed(9), NaN]);
        } else {
          expect([r.ci95_low, r.ci95_high]).toEqual([NaN, NaN]);
        }
        continue;
      }
      // Never a zero-width interval (2 rubbers at 50% each printed [50.00, 50.00]).
      expect(r.ci95_high - r.ci95_low).toBeGreaterThan(0);
      expect(r.ci95_low).toBeGreaterThanOrEqual(0);
      expect(r.ci95_high).toBeLessThanOrEqual(1);
      expect(r.ci95_low).toBeLessThanOrEqual(r.rate + 1e-12);
      expect(r.rate).toBeLessThanOrEqual(r.ci95_high + 1e-12);
    }
  });

  it('gives the same CSV on 2 workers, and writes the CSV and the report', async () => {
    const m = await marches();
    const again = (await m.runStudy(OPTS, plan(2)))!;
    expect(m.csvText(again.rows)).toBe(m.csvText((await study()).rows));
    const dir = mkdtempSync(join(tmpdir(), 'tafel-exp-'));
    try {
      const { csv, md } = m.writeResults(await study(), dir);
      const lines = readFileSync(csv, 'utf8').trim().split('\n');
      expect(lines[0]).toBe(m.CSV_COLUMNS.join(','));
      expect(lines.length).toBe((await study()).rows.length + 1);
      const text = readFileSync(md, 'utf8');
      expect(text).toContain('--rubbers 6 --mc-rubbers 2 --mc-worlds 2 --seed experiments-test');
      expect(text).toContain('### heuristic,random');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes its options from the command line', async () => {
    const { parseOptions } = await marches();
    expect(parseOptions([])).toMatchObject({ seed: 'marches-1', outDir: 'results', resume: false, shard: null });
    expect(parseOptions(['--rubbers', '10', '--mc-rubbers', '0', '--mc-worlds', '3', '--seed', 's.1'])).toMatchObject({
      rubbers: 10,
      mcRubbers: 0,
      mcWorlds: 3,
      seed: 's.1',
    });
    expect(parseOptions(['--shard', '1/4', '--workers', '3'])).toMatchObject({
      shard: { index: 1, count: 4 },
      workers: 3,
    });
    expect(parseOptions(['--help'])).toBe('help');
    expect(() => parseOptions(['--rubbers', 'x'])).toThrow(/--rubbers/);
    expect(() => parseOptions(['--rubbers', '0'])).toThrow(/--rubbers/);
    expect(() => parseOptions(['--seed', 'a b'])).toThrow(/seed/);
    expect(() => parseOptions(['--bogus'])).toThrow();
  });
});

describe('anderle-pot (issue 5)', () => {
  it('plays its runs on the pool into databases and reads pots and balances from them', async () => {
    // The built module: its runs play on worker threads, which load dist/.
    const built = join(ROOT, 'dist', 'experiments', 'anderle-pot.js');
    const { runExperiment, csvRows } = (await import(built)) as typeof import('../experiments/anderle-pot.js');
    const o = { sessions: 6, hands: 5, seed: 't', players: [2, 5], bots: ['random', 'heuristic'] };
    const session = (workers: number) => ({
      workDir: mkdtempSync(join(tmpdir(), 'tafel-pot-')),
      workers,
      resume: false,
      force: false,
      shard: null,
    });
    const results = (await runExperiment(o, session(1)))!;
    expect(results).toHaveLength(4);
    for (const r of results) {
      expect(r.pot).toHaveLength(5);
      for (const e of r.pot) {
        expect(e.n).toBe(6);
        // A-4: the pot is always a multiple of 4, so its mean over sessions is a multiple of 4/6.
        expect(Math.round(e.mean * 6) % 4).toBe(0);
      }
      // A-5: the first hand starts from an empty pot: 4 from the dealer and 4 per player without a trick.
      expect(r.pot[0].mean).toBeGreaterThanOrEqual(4);
      expect(r.balanceRange.mean).toBeGreaterThanOrEqual(r.balanceSd.mean);
    }
    const rows = csvRows(results);
    expect(rows.filter((x) => x.quantity === 'pot')).toHaveLength(20);
    // The same figures on two workers.
    expect(csvRows((await runExperiment(o, session(2)))!)).toEqual(rows);
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
    ['pimc-properties', ['--game', 'skat'], /^pimc-properties: unknown game 'skat'/],
    ['pimc-properties', ['--play', 'oracle'], /^pimc-properties: --play 'oracle': heuristic or random/],
    ['pimc-properties', ['--tricks', '5'], /^pimc-properties: --tricks 5: at most 4/],
    ['pimc-properties', ['--worlds', '0'], /^pimc-properties: --worlds '0': a whole number from 1/],
    ['pimc-properties', ['--out-dir', '/dev/null/x'], /^pimc-properties: --out-dir \/dev\/null\/x: cannot write/],
    ['anderle-pot', ['--hands', '0'], /^anderle-pot: --hands '0'/],
    ['anderle-pot', ['--seed', 'a b'], /^anderle-pot: --seed 'a b'/],
    ['hindersche-marches', ['--out-dir', '/dev/null/x'], /^hindersche-marches: --out-dir \/dev\/null\/x: cannot write/],
    // The committed results are never replaced without --force.
    ['anderle-pot', [], /^anderle-pot: --out-dir results: anderle-pot\.csv exists \(earlier results\)/],
    ['tune', ['--game', 'skat'], /^tune: unknown game 'skat'/],
    [
      'tune',
      ['--game', 'hindersi-jass'],
      /^tune: no preset for hindersi-jass \(presets: viersche, hindersche, vier-anderle\)/,
    ],
    ['tune', ['--iterations', '0'], /^tune: --iterations '0': a whole number from 1/],
    ['tune', ['--out-dir', '/dev/null/x'], /^tune: --out-dir \/dev\/null\/x: cannot write/],
    // --report is checked with the other outputs, before any play.
    [
      'hindersche-marches',
      ['--shard', '0/2', '--report', 'x.html'],
      /^hindersche-marches: --report: a shard writes no results/,
    ],
    [
      'anderle-pot',
      ['--out-dir', join(tmpdir(), 'tafel-pot-report'), '--report', 'results/report-viersche.html'],
      /^anderle-pot: --report results\/report-viersche\.html: the file exists/,
    ],
    [
      'anderle-pot',
      ['--out-dir', join(tmpdir(), 'tafel-pot-report'), '--report', 'README.md', '--force'],
      /^anderle-pot: --report README\.md: the name must end \.html or \.htm \(the file is an HTML page\)/,
    ],
    [
      'hindersche-marches',
      ['--out-dir', join(tmpdir(), 'tafel-marches-report'), '--report', 'no/such/dir/x.html'],
      /^hindersche-marches: --report no\/such\/dir\/x\.html: cannot write/,
    ],
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

  it('--report writes the page of the results, as tafel report draws it from the CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tafel-exp-report-'));
    try {
      const r = run('hindersche-marches', [
        ...['--rubbers', '2', '--mc-rubbers', '0', '--workers', '2', '--seed', 'page'],
        ...['--work-dir', join(dir, 'work'), '--out-dir', dir, '--report', join(dir, 'page.html')],
      ]);
      expect(r.status, r.stderr).toBe(0);
      const again = tafel(['report', join(dir, 'hindersche-marches.csv'), '--out', join(dir, 'again.html')]);
      expect(again.status, again.stderr).toBe(0);
      const made = (f: string) =>
        readFileSync(join(dir, f), 'utf8')
          .replace(/<p class="made">[^<]*<\/p>/, '')
          .replace(/<dd data-fact="time">[^<]*<\/dd>/g, '');
      expect(made('page.html')).toBe(made('again.html'));
      expect(made('page.html')).toContain('data-figure="marches-deals"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
      checkOutDir(join(dir, 'a', 'b'), ['f.txt'], false);
      expect(readFileSync(writeWhole(join(dir, 'a', 'b'), 'f.txt', 'whole'), 'utf8')).toBe('whole');
      expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['f.txt']);
      // Earlier results are kept unless --force.
      expect(() => checkOutDir(join(dir, 'a', 'b'), ['f.txt'], false)).toThrow(/f\.txt exists \(earlier results\)/);
      checkOutDir(join(dir, 'a', 'b'), ['f.txt'], true);
    } finally {
      rmSync(dir, { recursive: true });
    }
    expect(() => checkOutDir('/dev/null/x', [], false)).toThrow(TafelError);
  });
});

describe('tune (issue 20)', () => {
  it('tunes from a bad start and from the defaults, measures and reports: the same CSV twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tafel-tune-'));
    const args = [
      '--iterations',
      '20',
      '--pairs',
      '4',
      '--measure',
      '40',
      '--cross',
      '10',
      '--workers',
      '1',
      '--out-dir',
      dir,
    ];
    const play = (extra: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'dist', 'experiments', 'tune.js'), ...args, ...extra], {
        encoding: 'utf8',
      });
    try {
      const first = play([]);
      expect(first.status, first.stderr).toBe(0);
      const csv = readFileSync(join(dir, 'tune-viersche.csv'), 'utf8');
      const rows = csv.trim().split('\n').slice(1);
      const quantities = new Set(rows.map((r) => r.split(',')[2]));
      for (const q of ['start_vs_default', 'tuned_vs_default', 'gap_recovered', 'verify_tuned_vs_start'])
        expect(quantities).toContain(q);
      expect(quantities).toContain('verify_tuned_vs_default');
      for (const bot of ['random', 'montecarlo']) expect(quantities).toContain(`gain_vs_${bot}`);
      // Four parameters, two tunings: a trajectory of five checkpoints and the tuned value each.
      expect(rows.filter((r) => r.split(',')[2] === 'theta')).toHaveLength(2 * 4 * 5);
      const md = readFileSync(join(dir, 'tune-viersche.md'), 'utf8');
      expect(md).toMatch(/Share of the start-to-default gap recovered: -?\d+% \[/);
      expect(md).toContain('Tuned in ');
      const page = join(dir, 'tunings.html');
      const again = play(['--force', '--report', page]);
      expect(again.status, again.stderr).toBe(0);
      expect(readFileSync(join(dir, 'tune-viersche.csv'), 'utf8')).toBe(csv);
      // The page holds both tunings, each with its tuned bot and its verification.
      const html = readFileSync(page, 'utf8');
      expect(html.match(/<h2[^>]*>Tuning heuristic/g)).toHaveLength(2);
      for (const tuned of md.matchAll(/Tuned in .*: `(heuristic:[^`]*)`/g)) expect(html).toContain(tuned[1]);
      expect(play(['--report', page]).stderr).toMatch(/--report .*tunings\.html: the file exists/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('tafel experiment', () => {
  const EXAMPLE = join(ROOT, 'experiments', 'plans', 'example.json');
  const withDir = (body: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'tafel-experiment-'));
    try {
      body(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const ok = (args: readonly string[]) => {
    const r = tafel(['experiment', ...args]);
    expect(r.status, r.stderr).toBe(0);
    return r;
  };
  const ladderFlags = ['--game', 'viersche', '--deals', '4', '--matches', '1', '--seed', 't', '--bots', 'random'];

  it('--list names every built-in and its question, --json too', () => {
    const r = ok(['--list']);
    for (const name of ['ladder', 'versus', 'plan']) expect(r.stdout).toMatch(new RegExp(`^${name}: \\S`, 'm'));
    const list = JSON.parse(ok(['--list', '--json']).stdout) as { name: string; flags: { flag: string }[] }[];
    expect(list.find((e) => e.name === 'ladder')!.flags.map((f) => f.flag)).toContain('--margin <x>');
    // `plan` by itself is the example: --plan-only prints it, checked and complete, as a start.
    const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as object;
    expect(JSON.parse(ok(['plan', '--plan-only', '-']).stdout)).toEqual({
      ...example,
      experiment: 'plan',
      command: 'tafel experiment plan',
      options: {},
      figures: [],
    });
  });

  it("ladder --help lists the ladder's own flags and the shared ones", () => {
    const r = ok(['ladder', '--help']);
    for (const flag of [
      '--game',
      '--players',
      '--deals',
      '--matches',
      '--margin',
      '--workers',
      '--shard',
      '--plan-only',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('runs the ladder; its --plan-only plan runs again to the same CSV', () =>
    withDir((dir) => {
      const page = join(dir, 'page.html');
      const r = ok([
        'ladder',
        ...ladderFlags,
        '--workers',
        '2',
        '--out-dir',
        dir,
        '--work-dir',
        join(dir, 'w'),
        '--report',
        page,
      ]);
      expect(r.stdout).toMatch(/^# Strength ladder: viersche/);
      expect(readFileSync(page, 'utf8')).toContain('data-figure');
      const csv = readFileSync(join(dir, 'ladder-viersche.csv'), 'utf8');
      expect(csv.split('\n')[0]).toBe('game,seats,bot,cheats,quantity,n,mean,ci95_low,ci95_high');
      const plan = ok(['ladder', ...ladderFlags, '--plan-only', '-']).stdout;
      expect(JSON.parse(plan)).toEqual(JSON.parse(readFileSync(join(dir, 'ladder-viersche.plan.json'), 'utf8')));
      expect(JSON.parse(plan)).toMatchObject({
        experiment: 'ladder',
        command: `tafel experiment ladder ${ladderFlags.join(' ')}`,
      });
      const again = join(dir, 'again');
      ok(['ladder', ...ladderFlags, '--plan-only', '--out-dir', again]);
      ok([
        join(again, 'ladder-viersche.plan.json'),
        '--workers',
        '1',
        '--out-dir',
        again,
        '--work-dir',
        join(dir, 'w1'),
      ]);
      const timeless = (text: string) => text.replace(/(ms_per_move,\d+),[\d.]*/g, '$1,');
      expect(timeless(readFileSync(join(again, 'ladder-viersche.csv'), 'utf8'))).toBe(timeless(csv));
    }));

  it('runs versus: a row per candidate and quantity', () =>
    withDir((dir) => {
      const args = ['--game', 'hindersi-jass', '--champion', 'heuristic', '--bots', 'random', '--deals', '3'];
      ok(['versus', ...args, '--tag', 't', '--out-dir', dir, '--work-dir', join(dir, 'w')]);
      const rows = readFileSync(join(dir, 'versus-hindersi-jass-t.csv'), 'utf8').trim().split('\n');
      expect(rows[0]).toBe('game,champion,bot,quantity,n,mean,ci95_low,ci95_high');
      expect(rows[1]).toMatch(/^hindersi-jass,heuristic,random,deal_vs_champion,3,/);
    }));

  it("runs a user's JSON plan: each table is what its SQL gives, runs.name naming the runs", () =>
    withDir((dir) => {
      const r = ok([EXAMPLE, '--workers', '2', '--out-dir', dir, '--work-dir', join(dir, 'w')]);
      expect(r.stdout).toMatch(/^# Does the heuristic beat random at Viersche/);
      expect(r.stdout).toContain('| heuristic-random | viersche |');
      // The second table: deals per run, as tafel query counts them in each run's database.
      const count = (run: string) =>
        tafel(['query', join(dir, 'w', `${run}.duckdb`), 'SELECT count(*) AS deals FROM deals', '--csv']).stdout;
      expect(count('heuristic-random')).toBe('deals\n200\n');
      expect(readFileSync(join(dir, 'example-deals.csv'), 'utf8')).toBe(
        'run,deals\nheuristic-random,200\nrandom-random,100\n',
      );
      const points = readFileSync(join(dir, 'example.csv'), 'utf8').trim().split('\n');
      expect(points[0]).toBe('run,bot,seat_deals,mean_points');
      expect(points.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
        'heuristic-random,heuristic,400',
        'heuristic-random,random,400',
        'random-random,random,400',
      ]);
      // The plan saved beside runs again to the same tables.
      const again = join(dir, 'again');
      ok([join(dir, 'example.plan.json'), '--workers', '1', '--out-dir', again, '--work-dir', join(dir, 'w1')]);
      for (const f of ['example.csv', 'example-deals.csv'])
        expect(readFileSync(join(again, f), 'utf8')).toBe(readFileSync(join(dir, f), 'utf8'));
    }));

  it('a plan played in shards, then --resume, gives the CSV of one machine', () =>
    withDir((dir) => {
      const work = join(dir, 'w');
      ok([EXAMPLE, '--workers', '1', '--out-dir', join(dir, 'whole'), '--work-dir', join(dir, 'whole-w')]);
      for (const shard of ['0/2', '1/2']) {
        const r = ok([EXAMPLE, '--workers', '1', '--shard', shard, '--work-dir', work]);
        expect(r.stderr).toMatch(new RegExp(`example: shard ${shard} played`));
      }
      expect(readdirSync(work).filter((f) => f.endsWith('.duckdb'))).toHaveLength(4);
      ok([EXAMPLE, '--workers', '1', '--resume', '--out-dir', join(dir, 'joined'), '--work-dir', work]);
      for (const f of ['example.csv', 'example-deals.csv'])
        expect(readFileSync(join(dir, 'joined', f), 'utf8')).toBe(readFileSync(join(dir, 'whole', f), 'utf8'));
    }));

  it.each([
    [['nosuch'], /^tafel: experiment: unknown experiment 'nosuch' \(known: ladder, versus, plan/],
    [['ladder', '--bogus'], /^tafel: unknown option '--bogus'/],
    [['ladder', '--deals', 'x'], /^tafel: --deals 'x': a whole number from 1/],
    [['ladder', '--game', 'skat'], /^tafel: unknown game 'skat'/],
    [['ladder', '--margin', '0'], /^tafel: --margin '0': a number above 0/],
    [['ladder', '--players', '5'], /^tafel: --players 5: viersche is played by exactly 4 players/],
    [['ladder', '--workers', '0'], /^tafel: .*--workers must be a positive whole number/],
    [['ladder', '--shard', '2/2'], /^tafel: --shard '2\/2'/],
    [['versus', '--game', 'viersche'], /^tafel: --game, --champion and --bots are required/],
    [['versus', '--tag', 'a/b'], /^tafel: --tag 'a\/b': 1-32 letters, digits or _ \. -/],
    // The committed results are never replaced without --force.
    [['ladder'], /^tafel: --out-dir results: ladder-viersche\.csv exists \(earlier results\)/],
    [['ladder', '--out-dir', '/dev/null/x'], /^tafel: --out-dir \/dev\/null\/x: cannot write/],
    [['ladder', '--shard', '0/2', '--report', 'x.html'], /^tafel: --report: a shard writes no results/],
    [['ladder', '--plan-only', 'x'], /^tafel: .*--plan-only/],
    [['no-such.json'], /^tafel: no-such\.json: cannot read/],
  ] as const)('%j: one line, status 2, before any play', (args, line) => {
    expectUserError(tafel(['experiment', ...args]), line);
  });

  it('a plan file that is not a valid plan is refused with its field named', () =>
    withDir((dir) => {
      const run = { name: 'a', game: 'viersche', bots: 'random', unit: 'deal', groups: 2, seed: 's' };
      const table = { name: 't', sql: 'SELECT 1 AS x' };
      const cases: [unknown, RegExp][] = [
        ['[1]', /: the plan: an object/],
        [
          { plan: 2, name: 'x', runs: [run], tables: [table] },
          /: plan: version 2 is newer than this tafel reads \(1\)/,
        ],
        [
          { plan: 1, name: 'x', runs: [{ ...run, groups: 0 }], tables: [table] },
          /: runs\[0\]\.groups: a whole number from 1/,
        ],
        [
          { plan: 1, name: 'x', runs: [{ ...run, unit: 'hand' }], tables: [table] },
          /: runs\[0\]\.unit: 'deal' or 'match'/,
        ],
        [{ plan: 1, name: 'x', runs: [{ ...run, seeds: 's' }], tables: [table] }, /: runs\[0\]\.seeds: not a field/],
        [{ plan: 1, name: 'x', runs: [run, run], tables: [table] }, /: runs: two runs named a/],
        [
          { plan: 1, name: 'x', runs: [run], tables: [{ name: 't' }] },
          /: tables\[0\]\.sql: a user's plan makes each table by its SQL/,
        ],
        [{ plan: 1, name: 'x', runs: [{ ...run, game: 'skat' }], tables: [table] }, /run a: unknown game 'skat'/],
        [
          { plan: 1, name: 'x', experiment: 'nope', runs: [run], tables: [table] },
          /: experiment: unknown experiment 'nope'/,
        ],
      ];
      for (const [i, [plan, line]] of cases.entries()) {
        const file = join(dir, `p${i}.json`);
        writeFileSync(file, typeof plan === 'string' ? plan : JSON.stringify(plan));
        expectUserError(
          tafel(['experiment', file, '--out-dir', join(dir, 'out'), '--work-dir', join(dir, `w${i}`)]),
          line,
        );
      }
      // SQL is asked of the runs once they are played (kept for --resume): a bad one still names its field.
      const file = join(dir, 'sql.json');
      writeFileSync(file, JSON.stringify({ plan: 1, name: 'x', runs: [run], tables: [{ ...table, sql: 'SELEC 1' }] }));
      const r = tafel(['experiment', file, '--out-dir', join(dir, 'out'), '--work-dir', join(dir, 'w-sql')]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n').pop()).toMatch(
        /^tafel: tables\[0\]\.sql: Parser Error: syntax error at or near "SELEC"/,
      );
    }));
});
