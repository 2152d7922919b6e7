/**
 * experiments/: the command lines of the ladder and versus (bad input: one line, status
 * 2, nothing played) and the checks every experiment shares. The other built-in
 * experiments are tested through their `Experiment` interface in
 * experiments-builtin.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutDir, count, parseFlags, seed, writeWhole } from '../experiments/command.js';
import { TafelError } from '../src/core/errors.js';
import { ROOT } from './cli-helpers.js';

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
    // The committed results are never replaced without --force.
    [
      'ladder',
      ['--out-dir', 'results'],
      /^ladder: --out-dir results: ladder-viersche\.csv exists \(earlier results\); replace them with --force, or choose another --out-dir\n/,
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
