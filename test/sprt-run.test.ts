/**
 * `--sprt` in a real run: the test stops the run at the group where it decides, the
 * same group whatever the number of workers, and a resumed run continues the test.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { expectUserError, read, results, tafel, tmpDir } from './cli-helpers.js';

const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '3000', '--seed', 'sprt'];

describe('tafel run --sprt', () => {
  it('stops when H1 is accepted, at the same group and with the same files for 1 and 3 workers', () => {
    const dir = tmpDir();
    const runs = [1, 3].map((w) => {
      const out = join(dir, `w${w}.csv`);
      const r = tafel([
        ...RUN,
        '--sprt',
        'elo0=0,elo1=20',
        '--workers',
        String(w),
        '--out',
        out,
        '--journal',
        join(dir, `w${w}.journal.jsonl`),
      ]);
      expect(r.status, r.stderr).toBe(0);
      return {
        r,
        csv: read(out),
        groups: read(join(dir, `w${w}.journal.jsonl`))
          .split('\n')
          .slice(1),
      };
    });
    const verdict = /SPRT: H1 accepted \(LLR [\d.]+ >= 2\.94\) after (\d+) groups/.exec(runs[0].r.stdout);
    expect(verdict, runs[0].r.stdout).not.toBeNull();
    const n = Number(verdict![1]);
    expect(n).toBeGreaterThan(5);
    expect(n).toBeLessThan(3000);
    expect(runs[0].r.stdout).toContain(`${n} deals x 2 seat rotations`);
    expect(runs[1].csv).toBe(runs[0].csv);
    expect(runs[1].groups).toEqual(runs[0].groups);
    expect(results(runs[1].r).replace(/w3/g, 'w1')).toBe(results(runs[0].r));
  });

  it('accepts H0 when the bots are equal and runs out with "no decision" when the run is too short', () => {
    const same = tafel([
      'run',
      '--game',
      'viersche',
      '--bots',
      'heuristic,heuristic:aggression=0.3',
      '--deals',
      '3000',
      '--sprt',
      'mean0=0,mean1=15',
    ]);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/SPRT: H0 accepted/);
    const short = tafel([...RUN.slice(0, -4), '--deals', '3', '--sprt', 'elo0=0,elo1=5']);
    expect(short.stdout).toMatch(/SPRT: no decision yet .* after 3 groups/);
  });

  it('a resumed run continues the same test and ends where the whole run ends', () => {
    const dir = tmpDir();
    const whole = join(dir, 'whole.csv');
    tafel([...RUN, '--sprt', 'elo0=0,elo1=20', '--out', whole]);
    // A run of the same test cut short by its size, then resumed as the longer run is not
    // the same run; instead resume a finished run: it must decide again at the same place.
    const r = tafel(['run', '--resume', join(dir, 'whole.journal.jsonl')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SPRT: H1 accepted/);
    expectUserError(
      tafel(['run', '--resume', join(dir, 'whole.journal.jsonl'), '--sprt', 'elo0=0,elo1=10']),
      /--sprt differs/,
    );
  });

  it.each([
    [['--sprt', 'elo0=0,elo1=5,mean0=1'], /mixes|elo and mean/],
    [['--sprt', 'elo0=5,elo1=0'], /elo1/],
    [['--sprt', 'elo0=0,elo1=5,alpha=0.7'], /alpha/],
    [['--sprt', 'elo0=0,elo1=5', '--shard', '0/2'], /cannot be split with --shard/],
  ])('rejects %j with one clear line', (extra, pattern) => {
    expectUserError(tafel([...RUN, ...extra]), pattern);
  });

  it('needs exactly two bots', () => {
    expectUserError(
      tafel([
        'run',
        '--game',
        'hindersche',
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
