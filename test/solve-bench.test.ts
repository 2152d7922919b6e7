/**
 * `tafel bench --solve`: the exact solver timed on seeded positions. The command's
 * output (the summary ending with the median and the p90) and its errors through the
 * built CLI; the signature's determinism, --node-limit and every game in process
 * (starting the command costs more than these short runs).
 */
import { describe, expect, it } from 'vitest';
import { expectUserError, start, tafel } from './cli-helpers.js';
import { GAMES } from '../src/games/index.js';
import { tableFor } from '../src/harness/run/parts.js';
import {
  fasterSolve,
  solveBench,
  summaryLines,
  type SolveBenchOptions,
  type SolvedPosition,
} from '../bench/solve-bench.js';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** The value of the line `key: value` (the first such line). */
function field(out: string, key: string): string {
  const line = out.split('\n').find((l) => l.startsWith(`${key}: `));
  expect(line, `no '${key}:' line in\n${out}`).toBeDefined();
  return line!.slice(key.length + 2);
}

/** The summary of a run that solved every position: ends with the median and the p90. */
function expectSummary(out: string, positions: number): void {
  const lines = out.trimEnd().split('\n');
  // The summary ends with exactly these two lines, in this order, with numbers.
  const [median, p90] = lines.slice(-2);
  expect(median).toMatch(/^solve-median-ms: \d+\.\d\d$/);
  expect(p90).toMatch(/^solve-p90-ms: \d+\.\d\d$/);
  expect(Number(p90.split(': ')[1])).toBeGreaterThanOrEqual(Number(median.split(': ')[1]));
  expect(field(out, 'positions')).toBe(String(positions));
  expect(field(out, 'solved')).toBe(String(positions));
  expect(field(out, 'aborted')).toBe('0');
  expect(field(out, 'solve-mean-ms')).toMatch(NUMBER);
  expect(field(out, 'solve-max-ms')).toMatch(NUMBER);
  expect(field(out, 'nodes-per-second')).toMatch(NUMBER);
  expect(field(out, 'nodes-total')).toMatch(/^[1-9]\d*$/);
  expect(field(out, 'nodes-max')).toMatch(/^\d+ \(position \d+\)$/);
  expect(field(out, 'signature')).toMatch(/^[0-9a-f]{8}$/);
  // 95% intervals for the median and the p90, from the order statistics: around the estimates.
  for (const [key, estimate] of [
    ['solve-median-ci95-ms', median],
    ['solve-p90-ci95-ms', p90],
  ]) {
    const m = /^\[(0|\d+\.\d\d), (\d+\.\d\d|inf)\]$/.exec(field(out, key));
    expect(m, `${key} in\n${out}`).not.toBeNull();
    const x = Number(estimate.split(': ')[1]);
    expect(Number(m![1])).toBeLessThanOrEqual(x);
    expect(m![2] === 'inf' ? Infinity : Number(m![2])).toBeGreaterThanOrEqual(x);
  }
}

/** `tafel bench --solve --game G --players P? --rules R? ...` run in process: its summary. */
function solveRun(
  game: string,
  o: Omit<SolveBenchOptions, 'nodeLimit'> & { nodeLimit?: number; players?: number; rules?: string },
): string {
  const g = GAMES.find((x) => x.name === game)!;
  // No warm-up: it changes no value, and these runs are not timed.
  const r = solveBench(g, tableFor(g, o.players, o.rules), { nodeLimit: Infinity, warmUpNodes: 0, ...o });
  return summaryLines(r).join('\n');
}

describe('tafel bench --solve', () => {
  it('prints the head line, a line per position with --verbose, and the summary ending with the median and the p90', () => {
    const r = tafel([
      'bench',
      '--game',
      'viersche',
      '--solve',
      '--deals',
      '6',
      '--from-trick',
      '6',
      '--seed',
      's1',
      '--verbose',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expectSummary(r.stdout, 6);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      'bench --solve: viersche, 4 seats, 6 positions, after 6 tricks of random play (3 left), seed s1, 1 thread, no node limit',
    );
    const per = lines.filter((l) => l.startsWith('position '));
    expect(per).toHaveLength(6);
    expect(lines.indexOf(per[0])).toBe(1);
    expect(per[0]).toMatch(
      /^position 0: seat [0-3], 3 tricks left, value \d+, \d+ nodes, \d+\.\d\d ms(; probes >=\d+\? (>=|<=)\d+ \(\d+\)(, >=\d+\? (>=|<=)\d+ \(\d+\))*)?$/,
    );
    expect(per.some((l) => l.includes('; probes >='))).toBe(true);
    // The same run in process gives the same signature and nodes; another seed another signature.
    const same = solveRun('viersche', { seed: 's1', deals: 6, fromTrick: 6 });
    const again = solveRun('viersche', { seed: 's1', deals: 6, fromTrick: 6 });
    const other = solveRun('viersche', { seed: 's2', deals: 6, fromTrick: 6 });
    expect(field(same, 'signature')).toBe(field(r.stdout, 'signature'));
    expect(field(same, 'nodes-total')).toBe(field(r.stdout, 'nodes-total'));
    expect(field(again, 'signature')).toBe(field(same, 'signature'));
    expect(field(other, 'signature')).not.toBe(field(same, 'signature'));
  });

  it('--passes n solves every position n times, pass after pass, and times it by the fastest: the same values and nodes', () => {
    const r = tafel([
      'bench',
      '--game',
      'viersche',
      '--solve',
      '--deals',
      '6',
      '--from-trick',
      '6',
      '--seed',
      's1',
      '--verbose',
      '--passes',
      '3',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expectSummary(r.stdout, 6);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      'bench --solve: viersche, 4 seats, 6 positions, after 6 tricks of random play (3 left), seed s1, 1 thread, no node limit, best of 3 passes',
    );
    // One line a position (the fastest of its passes), in order.
    expect(lines.filter((l) => l.startsWith('position ')).map((l) => l.split(':')[0])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `position ${i}`),
    );
    const once = solveRun('viersche', { seed: 's1', deals: 6, fromTrick: 6 });
    for (const key of ['signature', 'nodes-total', 'nodes-max']) expect(field(r.stdout, key)).toBe(field(once, key));
    // The fastest solve is kept; solves that disagree in anything but time are a bug, not noise.
    const solve = {
      index: 4,
      seat: 1,
      tricksLeft: 3,
      value: 40,
      nodes: 900,
      ms: 2.5,
      aborted: false,
      probes: [{ target: 40, result: 41, nodes: 600 }],
    };
    expect(fasterSolve(solve, { ...solve, ms: 1.5 }).ms).toBe(1.5);
    expect(fasterSolve({ ...solve, ms: 1.2 }, solve).ms).toBe(1.2);
    expect(
      fasterSolve({ ...solve, value: NaN, aborted: true }, { ...solve, value: NaN, aborted: true, ms: 1 }).ms,
    ).toBe(1);
    expect(() => fasterSolve(solve, { ...solve, nodes: 901 })).toThrow(/position 4 solved twice differently/);
    expect(() => fasterSolve(solve, { ...solve, value: 41 })).toThrow(/position 4 solved twice differently/);
    expect(() => fasterSolve(solve, { ...solve, probes: [{ target: 40, result: 40, nodes: 600 }] })).toThrow(
      /position 4 solved twice differently/,
    );
    expect(() => fasterSolve(solve, { ...solve, probes: [] })).toThrow(/position 4 solved twice differently/);
  });

  it('lists the zero-window searches that found each value: each proof holds, their nodes add up, the last pair brackets the value', () => {
    for (const [game, fromTrick] of [
      ['viersche', 3],
      ['viersche', 6],
      ['hindersche', 5],
      ['vier-anderle', 1],
    ] as const) {
      const g = GAMES.find((x) => x.name === game)!;
      const solved: SolvedPosition[] = [];
      solveBench(g, tableFor(g, undefined, undefined), {
        seed: 'probes',
        deals: 12,
        fromTrick,
        nodeLimit: Infinity,
        warmUpNodes: 0,
        onPosition: (p) => solved.push(p),
      });
      expect(
        solved.some((p) => p.probes.length >= 3),
        game,
      ).toBe(true);
      for (const p of solved) {
        const where = `${game} position ${p.index}`;
        let lower = -Infinity;
        let upper = Infinity;
        for (const q of p.probes) {
          // Each search answered "does the value reach target?" with a fail-soft bound beyond it, and the value obeys it.
          if (q.result >= q.target) {
            expect(p.value, where).toBeGreaterThanOrEqual(q.result);
            lower = Math.max(lower, q.result);
          } else {
            expect(p.value, where).toBeLessThanOrEqual(q.result);
            upper = Math.min(upper, q.result);
          }
          expect(q.nodes, where).toBeGreaterThan(0);
        }
        // The nodes of the searches are the position's, but for the guess's playout.
        expect(
          p.probes.reduce((n, q) => n + q.nodes, 0),
          where,
        ).toBeLessThanOrEqual(p.nodes);
        // Where the searches decided the value, one proved it from below or above.
        if (p.probes.length > 0) expect(lower === p.value || upper === p.value, where).toBe(true);
      }
    }
  });

  it('rejects a --from-trick out of range with one line and status 2', async () => {
    const runs = await Promise.all([
      start(['bench', '--game', 'viersche', '--solve', '--from-trick', '9']).done,
      start(['bench', '--game', 'viersche', '--solve', '--from-trick', '-1']).done,
      start(['bench', '--game', 'viersche', '--from-trick', '2']).done,
      start(['bench', '--game', 'viersche', '--no-endgame']).done,
      start(['bench', '--game', 'viersche', '--passes', '2']).done,
      start(['bench', '--game', 'viersche', '--solve', '--passes', '0']).done,
    ]);
    expectUserError(runs[0], /^tafel: --from-trick must be 0 to 8 for viersche \(a deal of 9 tricks\), not 9$/);
    expectUserError(runs[1], /^tafel: --from-trick must be 0 to 8 for viersche.*not -1$/);
    expectUserError(runs[2], /--from-trick goes with bench --solve/);
    expectUserError(runs[3], /--no-endgame goes with bench --solve/);
    expectUserError(runs[4], /--passes goes with bench --solve/);
    expectUserError(runs[5], /--passes/);
    expect(() => solveRun('vier-anderle', { seed: 'x', deals: 1, fromTrick: 4 })).toThrow(
      /--from-trick must be 0 to 3 for vier-anderle/,
    );
    expect(() => solveRun('hindersi-jass', { seed: 'x', deals: 1, fromTrick: 12, players: 3 })).toThrow(
      /--from-trick must be 0 to 11 for hindersi-jass/,
    );
  });

  it('--no-endgame solves the same values through the game contract alone (another node count)', () => {
    const r = tafel([
      'bench',
      '--game',
      'viersche',
      '--solve',
      '--deals',
      '8',
      '--from-trick',
      '4',
      '--seed',
      's1',
      '--no-endgame',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expectSummary(r.stdout, 8);
    expect(r.stdout.split('\n')[0]).toMatch(/, no node limit, no endgame search$/);
    const fast = solveRun('viersche', { seed: 's1', deals: 8, fromTrick: 4 });
    const plain = solveRun('viersche', { seed: 's1', deals: 8, fromTrick: 4, endgame: false });
    expect(field(plain, 'signature')).toBe(field(r.stdout, 'signature'));
    expect(field(plain, 'nodes-total')).toBe(field(r.stdout, 'nodes-total'));
    expect(field(fast, 'signature')).toBe(field(plain, 'signature'));
    // The shortcut's positions are counted too; the search differs, so the counts do.
    expect(field(fast, 'nodes-total')).not.toBe(field(plain, 'nodes-total'));
  });

  it('reports positions stopped by --node-limit as aborted', () => {
    const out = solveRun('viersche', { seed: 'bench', deals: 3, fromTrick: 5, nodeLimit: 5 });
    expect(field(out, 'positions')).toBe('3');
    expect(field(out, 'solved')).toBe('0');
    expect(field(out, 'aborted')).toMatch(/^3 at the node limit \(positions 0, 1, 2;/);
    expect(out.split('\n').slice(-4)).toEqual([
      'solve-median-ci95-ms: n/a',
      'solve-p90-ci95-ms: n/a',
      'solve-median-ms: n/a',
      'solve-p90-ms: n/a',
    ]);
  });

  it('runs for every game and table size', () => {
    const runs: [string, { fromTrick: number; players?: number }][] = [
      ['hindersche', { fromTrick: 5 }],
      ['hindersi-jass', { fromTrick: 5 }],
      ['hindersi-jass', { fromTrick: 9, players: 3 }],
      ['vier-anderle', { fromTrick: 1 }],
      ['vier-anderle', { fromTrick: 0, players: 6 }],
    ];
    for (const [game, o] of runs) expectSummary(solveRun(game, { seed: 'bench', deals: 4, ...o }), 4);
  });
});
