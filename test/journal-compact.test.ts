/**
 * The journal of format 3 (journal.ts): checkpoints of the run's exact state instead of a
 * line per group. Exact sums do not depend on the order of addition; the journal's size
 * does not grow with the groups; a run resumed from any checkpoint, or from a format-2
 * journal, ends byte for byte where an uninterrupted one does; shards merge to the whole
 * run; format-2 journals (test/fixtures/journal-v2, written by tafel before format 3)
 * still resume, merge and report.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExactSum } from '../src/harness/stats/exact.js';
import { ExactMoments, RatioMoments } from '../src/harness/stats/stats.js';
import { SectionTally } from '../src/harness/stats/tally.js';
import { ROOT, journalGroups, journalState, read, tafel, tmpDir } from './cli-helpers.js';

/** A seeded stream of doubles (mulberry32), so that a failure can be replayed. */
function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(xs: readonly T[], next: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('exact sums', () => {
  it('are the correctly rounded sum, where plain addition is not', () => {
    const s = new ExactSum();
    for (const x of [1e100, 1, -1e100, 0.1, 0.2]) s.add(x);
    expect(s.value()).toBe(1.3);
    const t = new ExactSum();
    for (let i = 0; i < 10; i++) t.add(0.1);
    expect(t.value()).toBe(1);
    let plain = 0;
    for (let i = 0; i < 10; i++) plain += 0.1;
    expect(plain).not.toBe(1);
  });

  it('give the same value and the same JSON in any order and any split into parts', () => {
    const next = stream(35);
    // Group means as a run makes them: sums over a few seats divided by their count, and a few outliers.
    const xs = Array.from({ length: 5000 }, (_, i) =>
      i % 97 === 0 ? (next() - 0.5) * 1e12 : Math.round(next() * 400 - 200) / [1, 2, 3, 4, 6, 8][i % 6],
    );
    const whole = new ExactMoments();
    for (const x of xs) whole.add(x);
    for (let trial = 0; trial < 5; trial++) {
      const order = shuffled(xs, next);
      const cut = Math.floor(next() * order.length);
      const [a, b] = [new ExactMoments(), new ExactMoments()];
      order.forEach((x, i) => (i < cut ? a : b).add(x));
      b.merge(a);
      expect(b.mean).toBe(whole.mean);
      expect(b.m2).toBe(whole.m2);
      expect(JSON.stringify(b)).toBe(JSON.stringify(whole));
      expect(JSON.stringify(ExactMoments.fromJSON(JSON.parse(JSON.stringify(b))))).toBe(JSON.stringify(whole));
    }
  });

  it('see no spread in equal values, and restore what they wrote', () => {
    const m = new ExactMoments();
    for (let i = 0; i < 1000; i++) m.add(0.1);
    expect(m.m2).toBe(0);
    expect(m.estimate().degenerate).toBe('no-spread');
    const r = new RatioMoments();
    for (const [k, n] of [
      [1, 4],
      [3, 4],
      [0, 2],
    ])
      r.add(k, n);
    const back = RatioMoments.fromJSON(JSON.parse(JSON.stringify(r)));
    expect(back.estimate()).toEqual(r.estimate());
  });

  it('make a tally section whose state written and restored gives the same rows', () => {
    const metrics = [
      { key: 'points', higherIsBetter: true, binary: false },
      { key: 'won', higherIsBetter: true, binary: true },
    ] as never;
    const a = new SectionTally(metrics, 3);
    const next = stream(7);
    for (let g = 0; g < 200; g++) {
      const sums = Float64Array.from({ length: 6 }, (_, i) =>
        i % 2 ? Math.round(next() * 2) : Math.round(next() * 90),
      );
      a.add(sums, Float64Array.of(2, 2, 2));
    }
    const b = new SectionTally(metrics, 3);
    b.restore(JSON.parse(JSON.stringify(a)));
    expect(b.botRows()).toEqual(a.botRows());
    expect(b.pairRows()).toEqual(a.pairRows());
    expect(b.ratings()).toEqual(a.ratings());
    expect(() => new SectionTally(metrics, 2).restore(JSON.parse(JSON.stringify(a)))).toThrow(RangeError);
  });
});

const RUN = ['run', '--game', 'viersche', '--bots', 'random,random', '--seed', 'j3', '--workers', '2'];

describe('a journal of format 3', () => {
  it('does not grow with the groups: 20 times the groups, about the same bytes', () => {
    const dir = tmpDir();
    const size = (deals: number) => {
      const r = tafel([...RUN, '--deals', String(deals), '--journal', `j${deals}.jsonl`], dir);
      expect(r.status, r.stderr).toBe(0);
      return statSync(join(dir, `j${deals}.jsonl`)).size;
    };
    const small = size(1000);
    const large = size(20000);
    // A checkpoint every 1/64 of the run: the count of lines stays, each line a little longer as sums gain partials.
    expect(large).toBeLessThan(2 * small);
    expect(large).toBeLessThan(200_000);
  });

  it('resumes from any checkpoint, and from the start, to the uninterrupted files', () => {
    const OUT = ['--deals', '3000', '--out', 'x.csv', '--records', 'x.jsonl', '--deal-csv', 'x.deals.csv'];
    const ref = tmpDir();
    expect(tafel([...RUN, ...OUT], ref).status).toBe(0);
    const files = ['x.csv', 'x.jsonl', 'x.deals.csv'];
    const journal = read(join(ref, 'x.journal.jsonl'));
    const lines = journal.split('\n');
    const checkpoints = lines.flatMap((l, i) => (l.startsWith('{"groups":') ? [i] : []));
    expect(checkpoints.length).toBeGreaterThan(10);
    for (const keep of [0, checkpoints[0], checkpoints[Math.floor(checkpoints.length / 2)]]) {
      const dir = tmpDir();
      cpSync(ref, dir, { recursive: true });
      writeFileSync(join(dir, 'x.journal.jsonl'), lines.slice(0, keep + 1).join('\n') + '\n');
      const before = keep ? journalGroups(lines[keep]) : 0;
      const r = tafel(['run', '--resume', 'x.journal.jsonl', '--workers', '2'], dir);
      expect(r.status, r.stderr).toBe(0);
      if (before) expect(r.stdout).toContain(`resumed after ${before} groups`);
      for (const f of files) expect(read(join(dir, f)), `${f} after ${before}`).toBe(read(join(ref, f)));
      expect(journalState(read(join(dir, 'x.journal.jsonl')))).toBe(journalState(journal));
    }
  });

  it('falls back to an earlier checkpoint when a file is behind the last', () => {
    const OUT = ['--deals', '2000', '--out', 'x.csv', '--records', 'x.jsonl'];
    const dir = tmpDir();
    expect(tafel([...RUN, ...OUT], dir).status).toBe(0);
    const ref = { csv: read(join(dir, 'x.csv')), records: read(join(dir, 'x.jsonl')) };
    const journal = read(join(dir, 'x.journal.jsonl'));
    const groups = journal
      .split('\n')
      .filter((l) => l.startsWith('{"groups":'))
      .map(journalGroups);
    // The records lose the last few groups, as after a crash of the machine.
    const records = ref.records.split('\n').slice(0, -1);
    const perGroup = records.length / 2000;
    truncateSync(join(dir, 'x.jsonl'), Buffer.byteLength(records.slice(0, perGroup * 1990).join('\n') + '\n'));
    const r = tafel(['run', '--resume', 'x.journal.jsonl'], dir);
    expect(r.status, r.stderr).toBe(0);
    const back = groups.filter((g) => g <= 1990).at(-1)!;
    expect(r.stdout).toContain(`resumed after ${back} groups`);
    expect(read(join(dir, 'x.csv'))).toBe(ref.csv);
    expect(read(join(dir, 'x.jsonl'))).toBe(ref.records);
  });

  it('of 4 shards merges to the whole run: summary, records and final state', () => {
    const dir = tmpDir();
    const OUT = ['--deals', '4000', '--records'];
    expect(tafel([...RUN, ...OUT, 'all.jsonl', '--out', 'all.csv'], dir).status).toBe(0);
    for (let i = 0; i < 4; i++)
      expect(
        tafel([...RUN, ...OUT, `s${i}.jsonl`, '--shard', `${i}/4`, '--journal', `s${i}.journal.jsonl`], dir).status,
      ).toBe(0);
    const shards = Array.from({ length: 4 }, (_, i) => `s${3 - i}.journal.jsonl`);
    const m = tafel(
      ['merge', ...shards, '--out', 'm.csv', '--records', 'm.jsonl', '--journal', 'm.journal.jsonl'],
      dir,
    );
    expect(m.status, m.stderr).toBe(0);
    expect(read(join(dir, 'm.csv'))).toBe(read(join(dir, 'all.csv')));
    expect(read(join(dir, 'm.jsonl'))).toBe(read(join(dir, 'all.jsonl')));
    const body = (f: string) =>
      journalState(read(join(dir, f)))
        .split('\n')
        .slice(1)
        .join('\n');
    expect(body('m.journal.jsonl')).toBe(body('all.journal.jsonl'));
  });
});

describe('a journal of format 2', () => {
  const FIXTURE = join(ROOT, 'test/fixtures/journal-v2');
  const SPEC = [
    'run',
    '--game',
    'viersche',
    '--bots',
    'heuristic,random',
    '--deals',
    '20',
    '--seed',
    'v2',
    '--workers',
    '1',
  ];

  it('resumes, written again as format 3, to the files a run of today writes', () => {
    const dir = tmpDir();
    cpSync(FIXTURE, dir, { recursive: true });
    const v2 = read(join(dir, 'whole.journal.jsonl')).split('\n');
    expect(v2[0]).toMatch(/^\{"tafel":"journal","v":2,/);
    writeFileSync(join(dir, 'whole.journal.jsonl'), v2.slice(0, 12).join('\n') + '\n');
    const r = tafel(['run', '--resume', 'whole.journal.jsonl'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('resumed after 11 groups');
    const fresh = tmpDir();
    const f = tafel(
      [...SPEC, '--journal', 'whole.journal.jsonl', '--records', 'whole.jsonl', '--deal-csv', 'whole.deals.csv'],
      fresh,
    );
    expect(f.status, f.stderr).toBe(0);
    for (const file of ['whole.jsonl', 'whole.deals.csv'])
      expect(read(join(dir, file)), file).toBe(read(join(fresh, file)));
    const resumed = read(join(dir, 'whole.journal.jsonl'));
    expect(resumed).toMatch(/^\{"tafel":"journal","v":3,/);
    expect(journalState(resumed)).toBe(journalState(read(join(fresh, 'whole.journal.jsonl'))));
  });

  it('merges, and reports, as the whole run', () => {
    const dir = tmpDir();
    cpSync(FIXTURE, dir, { recursive: true });
    const m = tafel(['merge', 'shard1.journal.jsonl', 'shard0.journal.jsonl', '--out', 'm.csv'], dir);
    expect(m.status, m.stderr).toBe(0);
    expect(tafel([...SPEC, '--out', 'w.csv'], dir).status).toBe(0);
    expect(read(join(dir, 'm.csv'))).toBe(read(join(dir, 'w.csv')));
    const r = tafel(['report', 'whole.journal.jsonl', '--out', 'r.html'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(join(dir, 'r.html'))).toContain('heuristic');
  });
});
