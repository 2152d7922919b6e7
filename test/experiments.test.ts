/**
 * experiments/ and `tafel experiment`: the built-ins (ladder, versus) and a user's JSON
 * plan run through the command, --plan-only's plan run again to the same CSV, a plan in
 * shards and resumed, bad flags and plan files refused in one line before any play, and
 * the checks every experiment shares. The other built-ins are tested through their
 * `Experiment` interface in experiments-builtin.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { count, seed, seedOf, wholes } from '../experiments/command.js';
import { TafelError } from '../src/core/errors.js';
import { ROOT, expectUserError, journalGroups, tafel } from './cli-helpers.js';

describe('the shared experiment checks', () => {
  it('shares its checks', () => {
    expect(count(undefined, 7, '--n', 1)).toBe(7);
    expect(count('12', 7, '--n', 1)).toBe(12);
    expect(() => count('-1', 7, '--n', 0)).toThrow(TafelError);
    expect(() => count('1.5', 7, '--n', 0)).toThrow(/--n '1.5'/);
    expect(seed(undefined, 'x-1')).toBe('x-1');
    expect(() => seed('', 'x')).toThrow(/seed/);
    // A whole-number flag's default and least value are read from its one declaration.
    const flags = [
      { flag: '--mc-rubbers <n>', description: '', default: '12', min: 0 },
      { flag: '--tag <t>', description: '' },
      { flag: '--seed <s>', description: '', default: 's-1' },
    ];
    expect(wholes(flags, {})).toEqual({ mcRubbers: 12 });
    expect(wholes(flags, { mcRubbers: '0' })).toEqual({ mcRubbers: 0 });
    expect(() => wholes(flags, { mcRubbers: '-1' })).toThrow(/^--mc-rubbers '-1': a whole number from 0$/);
    expect(seedOf(flags, {})).toBe('s-1');
    expect(() => seedOf(flags, { seed: 'a b' })).toThrow(/^--seed 'a b': a seed is 1-64 letters/);
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
    for (const name of ['hindersche-marches', 'anderle-pot', 'ladder', 'versus', 'pimc-properties', 'tune', 'plan'])
      expect(r.stdout).toMatch(new RegExp(`^${name}: \\S`, 'm'));
    const list = JSON.parse(ok(['--list', '--json']).stdout) as { name: string; flags: { flag: string }[] }[];
    expect(list.find((e) => e.name === 'ladder')!.flags.map((f) => f.flag)).toContain('--margin <x>');
    // `plan` by itself is the example: --plan-only prints it, checked and complete, as a start.
    const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as object;
    expect(JSON.parse(ok(['plan', '--plan-only', '-']).stdout)).toEqual({
      ...example,
      experiment: 'plan',
      command: 'tafel experiment plan',
      options: {},
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

  it('a run that fails stops the runs after it, lets those before it finish, and is reported in one line', () =>
    withDir((dir) => {
      const bot = join(ROOT, 'test', 'fixtures', 'throwing-bot.js');
      const plan = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
        runs: { name: string; groups: number; bots: string }[];
      };
      plan.runs = [
        { ...plan.runs[0], groups: 300 },
        { ...plan.runs[1], name: 'thrower', bots: `random,${bot}` },
        { ...plan.runs[0], name: 'after', groups: 20000 },
      ];
      const file = join(dir, 'failing.json');
      writeFileSync(file, JSON.stringify(plan));
      const work = join(dir, 'w');
      const r = tafel(['experiment', file, '--workers', '2', '--out-dir', join(dir, 'o'), '--work-dir', work]);
      expect(r.status).toBe(3);
      expect(r.stderr.trim().split('\n').pop()).toMatch(/^tafel: .*throwing-bot\.js at seat \d threw boom/);
      expect(existsSync(join(dir, 'o', 'failing.csv'))).toBe(false);
      const groups = (run: string) => journalGroups(readFileSync(join(work, `${run}.journal.jsonl`), 'utf8'));
      expect(groups('heuristic-random')).toBe(300);
      expect(groups('thrower')).toBe(0);
      const after = existsSync(join(work, 'after.journal.jsonl')) ? groups('after') : 0;
      expect(after).toBeLessThan(20000);
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
    [
      ['nosuch'],
      /^tafel: experiment: unknown experiment 'nosuch' \(known: hindersche-marches, anderle-pot, ladder, versus, pimc-properties, tune, plan/,
    ],
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

  it('refuses earlier results in --out-dir without --force, and takes --report in the out-dir it makes', () =>
    withDir((dir) => {
      const out = join(dir, 'out');
      ok(['ladder', ...ladderFlags, '--plan-only', '--out-dir', out]);
      expectUserError(
        tafel(['experiment', 'ladder', ...ladderFlags, '--plan-only', '--out-dir', out]),
        /^tafel: --out-dir \S+out: ladder-viersche\.plan\.json exists \(earlier results\); replace them with --force, or choose another --out-dir$/,
      );
      ok(['ladder', ...ladderFlags, '--plan-only', '--out-dir', out, '--force']);
      // The page goes in the out-dir that the experiment is still to make.
      const fresh = join(dir, 'fresh');
      const flags = ['--game', 'viersche', '--deals', '2', '--matches', '0', '--seed', 't', '--bots', 'random'];
      ok([
        'ladder',
        ...flags,
        '--workers',
        '1',
        '--out-dir',
        fresh,
        '--work-dir',
        join(dir, 'w'),
        '--report',
        join(fresh, 'x.html'),
      ]);
      expect(readdirSync(fresh).sort()).toEqual([
        'ladder-viersche.csv',
        'ladder-viersche.md',
        'ladder-viersche.plan.json',
        'x.html',
      ]);
      // A refusal makes nothing: the out-dir stays unmade.
      const none = join(dir, 'none');
      expectUserError(
        tafel(['experiment', 'ladder', ...flags, '--out-dir', none, '--report', join(fresh, 'x.html')]),
        /^tafel: --report \S+x\.html: the file exists/,
      );
      expect(existsSync(none)).toBe(false);
    }));

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
