/**
 * Honest intervals in what a run prints (issue 32): a rate's interval is over duplicate
 * groups, never over seats that share one outcome, and a sample that gives no interval
 * says so in words, with the Wilson bound over the groups where one exists, in the
 * table, the summary CSV and the HTML page drawn from it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { read, tafel, tmpDir } from './cli-helpers.js';

// Heuristic wins every one of the 20 matches at Viersche: partners hold identical values.
const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--matches', '20'];

let dir = '';
let table = '';
beforeAll(() => {
  dir = tmpDir();
  const r = tafel([...RUN, '--out', 'v.csv'], dir);
  expect(r.status, r.stderr).toBe(0);
  table = r.stdout;
});

/** The summary rows of `section`, as bot, opponent, metric, n, mean, ci95_low, ci95_high, interval. */
function rows(section: string): string[][] {
  return read(join(dir, 'v.csv'))
    .split('\n')
    .map((l) => l.split(','))
    .filter((c) => c[5] === section)
    .map((c) => [c[6], c[8], ...c.slice(10, 16)]);
}

describe('a run whose groups all go one way', () => {
  it('prints the match rate over the 20 groups, in words, with the Wilson bound (not [95.4, 100.0] over 80 seats)', () => {
    expect(table).toMatch(/heuristic\s+100\.0% \(20 of 20 groups; >= 83\.9%, 95% Wilson bound\)/);
    expect(table).toMatch(/random\s+0\.0% \(0 of 20 groups; <= 16\.1%, 95% Wilson bound\)/);
    expect(table).not.toMatch(/\[95\.4, 100\.0\]/);
  });

  it('prints a paired difference without spread as no interval, not ± 0.000 *', () => {
    expect(table).toMatch(/heuristic - random\s+\+1\.00 \(20 groups alike; no interval\)/);
    expect(table).not.toMatch(/± 0\.000/);
  });

  it('writes the same in the summary CSV: n counts groups, the bound on its side, the interval kind says which', () => {
    const match = rows('match');
    expect(match).toContainEqual(['heuristic', '', 'won_rate', '20', '1.000000', '0.838875', '', 'wilson-bound']);
    expect(match).toContainEqual(['random', '', 'won_rate', '20', '0.000000', '', '0.161125', 'wilson-bound']);
    expect(match).toContainEqual(['heuristic', 'random', 'won', '20', '1.000000', '', '', 'none']);
    // Per deal the rates have an interval over the groups.
    const deal = rows('deal').filter((r) => r[2] === 'won_rate');
    expect(deal.map((r) => [r[3], r[7]])).toEqual([
      ['20', 'ratio-t'],
      ['20', 'ratio-t'],
    ]);
  });

  it('and the HTML page drawn from the CSV says it in the same words', () => {
    const r = tafel(['report', 'v.csv', '--out', 'v.html'], dir);
    expect(r.status, r.stderr).toBe(0);
    const page = read(join(dir, 'v.html'));
    expect(page).toContain('20 of 20 groups; &gt;= 83.89, 95% Wilson bound');
    expect(page).toContain('20 groups alike; no interval');
  });
});

describe('a run of one group', () => {
  it('says group in the singular, and gives no likelihood of superiority from groups that all went alike', () => {
    const r = tafel(['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '1'], tmpDir());
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('n = 1 duplicate group)');
    expect(r.stdout).toMatch(/\(1 of 1 group (won|lost); 95% Wilson bound\)/);
    expect(r.stdout).toContain('LOS none (every group alike)');
    expect(r.stdout).not.toMatch(/LOS 100\.0%/);
  });
});
