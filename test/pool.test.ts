/**
 * The worker pool: whatever the number of workers, a run writes the same bytes (the
 * summary CSV, the journal, the records, the per-deal CSV) and prints the same table,
 * for single deals, whole matches and bot modules, when a bot fails and when failing
 * groups are skipped. Also the per-deal CSV itself, the move timeout and the bench.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, journalGroups, journalState, read, results, tafel, tmpDir } from './cli-helpers.js';

const FILES = ['s.csv', 's.journal.jsonl', 'r.jsonl', 'd.csv'];

/** A file as runs with any number of workers agree on it: the journal's final state (journal.ts), other files whole. */
const same = (x: { file: (f: string) => string }, f: string) =>
  f.endsWith('.journal.jsonl') ? journalState(x.file(f)) : x.file(f);

/** Outputs outside the run's directory: the journal's `files` entry differs, nothing else may. */
function expectSameOutputs(a: { file: (f: string) => string }, b: { file: (f: string) => string }): void {
  for (const f of ['s.csv', 'r.jsonl', 'd.csv']) expect(b.file(f), f).toBe(a.file(f));
  const [ja, jb] = [a, b].map((x) => same(x, 's.journal.jsonl'));
  expect(jb.slice(jb.indexOf('\n'))).toBe(ja.slice(ja.indexOf('\n')));
  const run = (j: string) => (JSON.parse(j.slice(0, j.indexOf('\n'))) as { run: unknown }).run;
  expect(run(jb)).toEqual(run(ja));
}

/** The same run with 1 and with `many` workers, each in a directory of its own; the outputs side by side. */
function both(args: string[], cwd?: (dir: string) => string, many = 4) {
  return [1, many].map((workers) => {
    const dir = tmpDir();
    const at = (f: string) => (cwd ? join(dir, f) : f);
    const r = tafel(
      [
        'run',
        ...args,
        '--out',
        at('s.csv'),
        '--records',
        at('r.jsonl'),
        '--deal-csv',
        at('d.csv'),
        '--workers',
        String(workers),
      ],
      cwd ? cwd(dir) : dir,
    );
    return { r, dir, file: (f: string) => read(join(dir, f)) };
  });
}

describe('--workers', () => {
  it('writes byte-identical files and tables with 1 and 4 workers (single deals)', () => {
    const [one, four] = both(['--game', 'viersche', '--bots', 'heuristic,random', '--deals', '300', '--seed', 'w']);
    expect(one.r.status, one.r.stderr).toBe(0);
    expect(four.r.status, four.r.stderr).toBe(0);
    for (const f of FILES) expect(same(four, f), f).toBe(same(one, f));
    expect(results(four.r)).toBe(results(one.r));
    expect(one.r.stdout).toContain('300 deals x 2 seat rotations (600 deals played), seed w');
  });

  it('writes byte-identical files and tables with 1 and 4 workers (whole matches)', () => {
    const [one, four] = both(['--game', 'viersche', '--bots', 'heuristic,random', '--matches', '6', '--seed', 'wm']);
    expect(four.r.status, four.r.stderr).toBe(0);
    for (const f of FILES) expect(same(four, f), f).toBe(same(one, f));
    expect(results(four.r)).toBe(results(one.r));
    expect(one.r.stdout).toContain('per match');
  });

  it('loads a bot module in every worker, with the same results', () => {
    // Run from the repository, so the bot's relative path resolves; outputs go to temporary directories.
    const [one, four] = both(
      ['--game', 'viersche', '--bots', './bots/examples/lowest.js,random', '--deals', '60', '--seed', 'wb'],
      () => ROOT,
    );
    expect(four.r.status, four.r.stderr).toBe(0);
    expectSameOutputs(one, four);
    expect(results(four.r).replace(/\/tmp\S+/g, '')).toBe(results(one.r).replace(/\/tmp\S+/g, ''));
    expect(one.r.stdout).toContain('./bots/examples/lowest.js - random');
  });

  it('stops at the same group with 1 and 3 workers when a bot fails, and keeps the groups before it', () => {
    const bots = [
      '--game',
      'viersche',
      '--bots',
      'random,./test/fixtures/flaky-bot.js:rate=0.02',
      '--deals',
      '400',
      '--seed',
      'f',
    ];
    const [one, four] = both(bots, () => ROOT, 3);
    for (const { r } of [one, four]) {
      expect(r.status).toBe(3);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const tmp = (text: string) => text.replace(/\/tmp\/\S+\//g, 'TMP/');
    expect(tmp(four.r.stderr)).toBe(tmp(one.r.stderr));
    expect(one.r.stderr).toMatch(
      /^tafel: bot \.\/test\/fixtures\/flaky-bot\.js:rate=0\.02 at seat \d threw flaked \(seed f, deal (\d+), rotation \d\); the \1 groups finished before it are reported above and in the summary; after fixing the bot, continue with: tafel run --resume \S+s\.journal\.jsonl\n$/,
    );
    expectSameOutputs(one, four);
    const failedAt = Number(/deal (\d+)/.exec(one.r.stderr)![1]);
    expect(journalGroups(one.file('s.journal.jsonl'))).toBe(failedAt);
  });

  it('--on-bot-error skip drops and counts the groups in which a bot failed, the same with 1 and 3 workers', () => {
    const bots = [
      '--game',
      'viersche',
      '--bots',
      'random,./test/fixtures/flaky-bot.js:rate=0.05',
      '--deals',
      '200',
      '--seed',
      'k',
      '--on-bot-error',
      'skip',
      // Its failures early in the run would withdraw it at the default share (faults.test.ts tests that).
      '--max-fault-share',
      '1',
    ];
    const [one, four] = both(bots, () => ROOT, 3);
    expect(one.r.status, one.r.stderr).toBe(0);
    expect(four.r.status, four.r.stderr).toBe(0);
    expectSameOutputs(one, four);
    const journal = one
      .file('s.journal.jsonl')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { g?: number; skipped?: string });
    const skipped = journal.filter((l) => l.skipped) as { g: number }[];
    expect(skipped.length).toBeGreaterThan(0);
    expect(journalGroups(one.file('s.journal.jsonl'))).toBe(200);
    // One stderr line with the count (nothing of it in the CSV), and a line in the summary.
    const dropped = (text: string) => text.split('\n').filter((l) => !l.includes(' written to '));
    expect(dropped(one.r.stderr)).toEqual(dropped(four.r.stderr));
    expect(dropped(one.r.stderr).join('\n')).toMatch(
      new RegExp(
        `^tafel: dropped ${skipped.length} of 200 groups in which a bot failed; the first: bot \\S+ at seat \\d threw flaked \\(seed k, deal ${skipped[0].g}, rotation \\d\\)\\n$`,
      ),
    );
    expect(one.r.stdout).toContain(`dropped: ${skipped.length} deals in which a bot failed`);
    expect(one.r.stdout).toContain(`n = ${200 - skipped.length} duplicate groups`);
    expect(one.file('s.csv')).not.toMatch(/drop|skip/);
    // Records hold the played groups only.
    const matches = new Set(
      one
        .file('r.jsonl')
        .trim()
        .split('\n')
        .map((l) => Math.floor((JSON.parse(l) as { match: number }).match / 2)),
    );
    for (const s of skipped) expect(matches.has(s.g)).toBe(false);
    expect(matches.size).toBe(200 - skipped.length);
  });
});

describe('--deal-csv', () => {
  it('writes one row per group, rotation, deal and seat, agreeing with the records', () => {
    const dir = tmpDir();
    const r = tafel(
      [
        'run',
        '--game',
        'viersche',
        '--bots',
        'heuristic,random',
        '--matches',
        '2',
        '--seed',
        'dc',
        '--records',
        'r.jsonl',
        '--deal-csv',
        'd.csv',
        '--workers',
        '1',
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    const [header, ...rows] = read(join(dir, 'd.csv')).trim().split('\n');
    expect(header).toBe('game,seed,group,rotation,match,deal,seat,bot,points,won,rungs');
    const records = read(join(dir, 'r.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { match: number; deal: number; rotation: number; bots: string[]; points: number[] });
    expect(rows).toHaveLength(records.length * 4);
    records.forEach((rec, i) => {
      for (let seat = 0; seat < 4; seat++) {
        const [game, seed, group, rotation, match, deal, s, bot, points] = rows[i * 4 + seat].split(',');
        expect([game, seed, Number(group), Number(rotation), Number(match), Number(deal), Number(s), bot]).toEqual([
          'viersche',
          'dc',
          Math.floor(rec.match / 2),
          rec.rotation,
          rec.match,
          rec.deal,
          seat,
          rec.bots[seat],
        ]);
        // Viersche's `points` metric is the seat's team's card points.
        expect(Number(points)).toBe(rec.points[seat % 2] + rec.points[(seat % 2) + 2]);
      }
    });
  });
});

describe('--move-timeout', () => {
  it('reports a bot whose move takes longer as a failure, with bot, seat, seed and deal', () => {
    const r = tafel([
      'run',
      '--game',
      'viersche',
      '--bots',
      'random,./test/fixtures/slow-bot.js:ms=60',
      '--deals',
      '3',
      '--seed',
      't',
      '--move-timeout',
      '20',
      '--workers',
      '2',
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^tafel: bot \.\/test\/fixtures\/slow-bot\.js:ms=60 at seat 1 took longer than the move timeout of 20 ms over one move \(seed t, deal 0, rotation 0\); no group had finished\n$/,
    );
  });
});

describe('tafel bench --workers', () => {
  it('plays on several workers and ends with the throughput line', () => {
    const r = tafel(['bench', '--game', 'viersche', '--deals', '20000', '--workers', '2']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^bench: viersche, bots random, 20000 deals, 2 worker threads, /);
    expect(lines.at(-1)).toMatch(/^throughput: \d+ deals\/s$/);
  });
});
