/**
 * The `tafel` command as a user meets it: results, files, determinism, and one clear
 * line with a non-zero exit for every kind of bad input.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');

function tafel(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: join(import.meta.dirname, '..') });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tmp(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'tafel-cli-')), name);
}

/** A user error: exit 2, exactly one line on stderr, no stack trace. */
function expectUserError(args: string[], pattern: RegExp): void {
  const r = tafel(...args);
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('tafel run', () => {
  it('plays duplicate deals and prints a table with intervals and paired differences', () => {
    const r = tafel('run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '200', '--seed', 'cli');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('200 deals x 2 seat rotations (400 deals played), seed cli');
    expect(r.stdout).toMatch(/heuristic\s+\d+\.\d+ ± \d/);
    expect(r.stdout).toMatch(/heuristic - random\s+\+\d/);
  });

  it('writes the same CSV and records for the same seed, different ones for another seed', () => {
    const run = (seed: string) => {
      const out = tmp('s.csv');
      const rec = tmp('r.jsonl');
      const r = tafel(
        'run',
        '--game',
        'viersche',
        '--bots',
        'heuristic,random',
        '--deals',
        '30',
        '--seed',
        seed,
        '--out',
        out,
        '--records',
        rec,
      );
      expect(r.status, r.stderr).toBe(0);
      return [readFileSync(out, 'utf8'), readFileSync(rec, 'utf8')];
    };
    const [a, b, c] = [run('x'), run('x'), run('y')];
    expect(a).toEqual(b);
    expect(a[1]).not.toEqual(c[1]);
    const header = a[0].split('\n')[0];
    expect(header).toBe(
      'game,seats,rules,players,seed,section,bot,bot_spec,opponent,opponent_spec,metric,n,mean,ci95_low,ci95_high,interval,verdict,cheats',
    );
    const records = a[1]
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(60);
    expect(records[0]).toMatchObject({ v: 1, game: 'viersche', seed: 'x', match: 0, deal: 0, rotation: 0, seats: 4 });
    expect(records[1]).toMatchObject({ match: 1, rotation: 1 });
    // Duplicate: both rotations of a group are dealt the same cards.
    expect(records[1].hands).toEqual(records[0].hands);
    expect(records[1].bots).toEqual(['random', 'heuristic', 'random', 'heuristic']);
  });

  it('plays whole matches and reports per-match metrics', () => {
    const r = tafel('run', '--game', 'viersche', '--bots', 'heuristic,random', '--matches', '4');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('per match');
    expect(r.stdout).toMatch(/won\s/);
  });

  it('loads a bot module from a path', () => {
    const r = tafel('run', '--game', 'viersche', '--bots', './bots/examples/lowest.js,random', '--deals', '20');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('./bots/examples/lowest.js - random');
  });

  it('names bot, seat, seed and deal when a bot throws, and keeps the finished groups', () => {
    const out = tmp('s.csv');
    const r = tafel(
      'run',
      '--game',
      'viersche',
      '--bots',
      'random,./test/fixtures/throwing-bot.js',
      '--deals',
      '5',
      '--seed',
      's1',
      '--out',
      out,
    );
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /bot \.\/test\/fixtures\/throwing-bot\.js at seat \d threw boom \(seed s1, deal 0, rotation 0\)/,
    );
    expect(existsSync(out)).toBe(true);
  });

  it('reports an illegal move with the move, bot and seat', () => {
    const r = tafel('run', '--game', 'viersche', '--bots', './test/fixtures/illegal-bot.js,random', '--deals', '3');
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(
      /bot \.\/test\/fixtures\/illegal-bot\.js at seat \d played an illegal move \(code 125 \(no card\)\) \(seed 1, deal 0, rotation 0\)/,
    );
  });

  it.each([
    [['run', '--game', 'skat', '--bots', 'random'], /unknown game 'skat' \(known: viersche/],
    [['run', '--game', 'viersche', '--bots', 'genius'], /unknown bot 'genius'/],
    [['run', '--game', 'viersche', '--bots', 'random', '--deals', '0'], /--deals must be a positive whole number/],
    [['run', '--game', 'viersche', '--bots', 'random', '--deals', 'many'], /--deals must be a positive whole number/],
    [['run', '--game', 'viersche', '--bots', 'random', '--seed', 'a b'], /seed/],
    [['run', '--game', 'viersche', '--bots', 'random', '--seed', ''], /seed/],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--out', '/nonexistent/dir/x.csv'],
      /--out \/nonexistent\/dir\/x\.csv: cannot write/,
    ],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--records', '/nonexistent/x.jsonl'],
      /--records \/nonexistent\/x\.jsonl: cannot write/,
    ],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--players', '5'],
      /viersche is played by exactly 4 players, not 5/,
    ],
    [['run', '--game', 'viersche', '--bots', 'random', '--rules', 'trumps=none'], /unknown setting 'trumps'/],
    [['run', '--game', 'viersche', '--bots', 'random:speed=3'], /bot random: unknown parameter 'speed'/],
    [['run', '--game', 'viersche', '--bots', 'a,b,c,d,e'], /names 5 bots but viersche has 4 seats/],
    [['run', '--game', 'viersche', '--bots', './nowhere.js'], /bot file \.\/nowhere\.js: not found/],
    [['run', '--game', 'viersche', '--bots', './test/fixtures/not-a-bot.js'], /must export a bot spec/],
    [['run', '--game', 'viersche', '--bots', 'random', '--deals', '5', '--matches', '5'], /cannot be used with/],
    [['run', '--game', 'viersche', '--bots', 'random', '--bogus'], /unknown option '--bogus'/],
    [
      ['run', '--game', 'viersche', '--bots', 'random', '--out', 'test'],
      /--out test: is a directory; give a file name/,
    ],
    [['run', '--game', 'viersche', '--bots', 'random', '--deal-csv', 'results'], /--deal-csv results: is a directory/],
    [['run', '--game', 'viersche', '--bots', 'a=random,a=heuristic'], /label a names two different bots/],
    [['run', '--game', 'vier-anderle', '--bots', 'random', '--rules', 'pot=6'], /pot=6: the pot holds a whole number/],
    [['merge', 'test'], /journal test: cannot read \(EISDIR\)/],
    [['replay', '--game', 'viersche', '--match', '0'], /give --records FILE, or --game and --bots/],
    [['bench', '--game', 'nope'], /unknown game 'nope'/],
  ])('rejects %j with one clear line', (args, pattern) => {
    expectUserError(args, pattern);
  });
});

describe('tafel bench, games, bots', () => {
  it('bench ends with the throughput line and counts garbage collections', () => {
    const r = tafel('bench', '--game', 'viersche', '--deals', '20000');
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^throughput: \d+ deals\/s$/);
    expect(r.stdout).toMatch(/gc: \d+ collections/);
  });

  it('bench counts the garbage collections a bot causes during the timed run', () => {
    const r = tafel(
      'bench',
      '--game',
      'viersche',
      '--deals',
      '50000',
      '--workers',
      '1',
      '--bots',
      './test/fixtures/allocating-bot.js',
    );
    expect(r.status, r.stderr).toBe(0);
    const count = Number(/gc: (\d+) collections during the run/.exec(r.stdout)?.[1]);
    expect(count).toBeGreaterThan(10);
  });

  it('lists games and bots with their parameters', () => {
    expect(tafel('games').stdout).toMatch(/^viersche \(4 players\)/m);
    const bots = tafel('bots').stdout;
    expect(bots).toMatch(/^random \[every game\]/m);
    expect(bots).toMatch(/^heuristic \[viersche\]/m);
    expect(bots).toMatch(/^ {2}montecarlo:worlds=/m);
  });
});
