/** Who sits where in a duplicate group: seat rotations, and the round robin of partnership games. */
import { describe, expect, it } from 'vitest';
import { seatingsOf } from '../src/harness/table/lineup.js';
import { expectUserError, read, tafel, tmpDir } from './cli-helpers.js';
import { join } from 'node:path';

const TEAMS = [0, 1, 0, 1];

describe('seatings', () => {
  it('a,b at a partnership table: both teams swapped (two rotations)', () => {
    expect(seatingsOf([0, 1, 0, 1], 2, 2, TEAMS)).toEqual([
      [0, 1, 0, 1],
      [1, 0, 1, 0],
    ]);
  });

  it('a,b,c,d named seat by seat: the four cyclic rotations, partners kept together', () => {
    const s = seatingsOf([0, 1, 2, 3], 4, 4, TEAMS);
    expect(s).toHaveLength(4);
    for (const seating of s)
      expect(new Set([seating[0], seating[2]])).toSatisfy((p: Set<number>) =>
        p.has(0) ? p.has(2) : p.has(1) && p.has(3),
      );
  });

  it('three bots at a partnership table: a round robin, every pair on both sides', () => {
    const s = seatingsOf([0, 1, 2, 0], 3, 3, TEAMS);
    expect(s).toEqual([
      [0, 1, 0, 1],
      [1, 0, 1, 0],
      [0, 2, 0, 2],
      [2, 0, 2, 0],
      [1, 2, 1, 2],
      [2, 1, 2, 1],
    ]);
  });

  it('an individual game keeps the cyclic rotations of a,b,c,a', () => {
    const s = seatingsOf([0, 1, 2, 0], 3, 3, null);
    expect(s).toEqual([
      [0, 1, 2, 0],
      [0, 0, 1, 2],
      [2, 0, 0, 1],
      [1, 2, 0, 0],
    ]);
  });

  it('one bot everywhere: one seating', () => {
    expect(seatingsOf([0, 0, 0, 0], 1, 1, TEAMS)).toEqual([[0, 0, 0, 0]]);
  });
});

describe('a round robin through the CLI', () => {
  it('rates three Viersche bots, with the same files for 1 and 2 workers', () => {
    const dir = tmpDir();
    const run = (w: number) => {
      const out = join(dir, `rr${w}.csv`);
      const r = tafel([
        'run',
        '--game',
        'viersche',
        '--bots',
        'heuristic,random,./bots/examples/lowest.js',
        '--deals',
        '60',
        '--workers',
        String(w),
        '--out',
        out,
      ]);
      expect(r.status, r.stderr).toBe(0);
      return { r, csv: read(out) };
    };
    const [one, two] = [run(1), run(2)];
    expect(one.r.stdout).toContain('60 deals x 6 seat rotations (360 deals played)');
    expect(one.r.stdout).toMatch(/ratings \(Bradley-Terry/);
    expect(two.csv).toBe(one.csv);
    expect(one.csv).toMatch(/,heuristic,heuristic:[^,]*,,,points_elo,/);
  });

  it('--sprt still needs exactly two bots', () => {
    expectUserError(
      tafel([
        'run',
        '--game',
        'viersche',
        '--bots',
        'heuristic,random,montecarlo',
        '--deals',
        '5',
        '--sprt',
        'elo0=0,elo1=5',
      ]),
      /compares two bots/,
    );
  });
});
