/**
 * A run split into shards and merged gives exactly what one machine gives: the same
 * summary CSV and table, the same journal (a single machine's, byte for byte), and
 * records and per-deal rows that concatenate in shard order to the single run's.
 * Bad shard specs and bad sets of journals are one line and exit 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectUserError, journalGroups, journalState, read, tafel, tmpDir } from './cli-helpers.js';

const RUN = [
  'run',
  '--game',
  'viersche',
  '--bots',
  'heuristic,random',
  '--deals',
  '100',
  '--seed',
  'sh',
  '--workers',
  '1',
];
const N = 3;

/** stdout without its head line (which says how the run was played). */
function table(stdout: string): string {
  return stdout.slice(stdout.indexOf('\n') + 1);
}

let single = '';
let plain = '';
let plainStdout = '';
let shards = '';
const part = (i: number, ext: string) => join(shards, `part-${i}.${ext}`);

beforeAll(() => {
  single = tmpDir();
  plain = tmpDir();
  shards = tmpDir();
  expect(
    tafel([...RUN, '--out', 'all.csv', '--records', 'all.jsonl', '--deal-csv', 'all.deals.csv'], single).status,
  ).toBe(0);
  const p = tafel([...RUN, '--out', 'all.csv'], plain);
  expect(p.status).toBe(0);
  plainStdout = p.stdout;
  for (let i = 0; i < N; i++) {
    const r = tafel(
      [
        ...RUN,
        '--shard',
        `${i}/${N}`,
        '--out',
        `part-${i}.csv`,
        '--records',
        `part-${i}.jsonl`,
        '--deal-csv',
        `part-${i}.deals.csv`,
      ],
      shards,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `, shard ${i}/${N} (groups ${Math.floor((i * 100) / N)} to ${Math.floor(((i + 1) * 100) / N) - 1})`,
    );
  }
});

describe('--shard and tafel merge', () => {
  it("merges shard journals (in any order) into the single machine's summary, table and journal", () => {
    const merged = tmpDir();
    const r = tafel(
      ['merge', part(2, 'journal.jsonl'), part(0, 'journal.jsonl'), part(1, 'journal.jsonl'), '--out', 'all.csv'],
      merged,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^viersche: 100 deals x 2 seat rotations \(200 deals played\), seed sh, merged from 3 shards\n/,
    );
    expect(read(join(merged, 'all.csv'))).toBe(read(join(single, 'all.csv')));
    // Its final state, that is: the single machine's has checkpoints on the way, the merge's one.
    expect(journalState(read(join(merged, 'all.journal.jsonl')))).toBe(
      journalState(read(join(plain, 'all.journal.jsonl'))),
    );
    expect(table(r.stdout)).toBe(table(plainStdout));
  });

  it("joins the shards' records and per-deal rows into the single machine's files, byte for byte", () => {
    const merged = tmpDir();
    const j = (i: number) => part(i, 'journal.jsonl');
    const r = tafel(
      ['merge', j(1), j(0), j(2), '--out', 'all.csv', '--records', 'all.jsonl', '--deal-csv', 'all.deals.csv'],
      merged,
    );
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['all.csv', 'all.jsonl', 'all.deals.csv'])
      expect(read(join(merged, f)), f).toBe(read(join(single, f)));
    // A shard run without records has none to join.
    const bare = tmpDir();
    for (let i = 0; i < N; i++)
      expect(tafel([...RUN, '--shard', `${i}/${N}`, '--out', `p${i}.csv`], bare).status).toBe(0);
    expectUserError(
      tafel(['merge', 'p0.journal.jsonl', 'p1.journal.jsonl', 'p2.journal.jsonl', '--records', 'all.jsonl'], bare),
      /^tafel: merge --records: shard p0\.journal\.jsonl was run without --records, so it has none to join$/,
    );
  });

  it("writes shard records and per-deal rows that concatenate in shard order to the single run's", () => {
    const records = Array.from({ length: N }, (_, i) => read(part(i, 'jsonl'))).join('');
    expect(records).toBe(read(join(single, 'all.jsonl')));
    const deals = Array.from({ length: N }, (_, i) =>
      read(part(i, 'deals.csv'))
        .split('\n')
        .slice(i ? 1 : 0)
        .join('\n'),
    ).join('');
    expect(deals).toBe(read(join(single, 'all.deals.csv')));
  });

  it('resumes an unfinished shard, after which it merges', () => {
    // A copy of shard 1's files, its journal cut after its first checkpoint.
    const dir = tmpDir();
    for (const ext of ['jsonl', 'deals.csv']) copyFileSync(part(1, ext), join(dir, `part-1.${ext}`));
    const j = join(dir, 'part-1.journal.jsonl');
    const lines = read(part(1, 'journal.jsonl')).split('\n');
    const first = lines.findIndex((l) => l.startsWith('{"groups":'));
    writeFileSync(j, lines.slice(0, first + 1).join('\n') + '\n');
    const done = journalGroups(read(j));
    expect(done).toBeLessThan(33);
    expectUserError(
      tafel(['merge', part(0, 'journal.jsonl'), j, part(2, 'journal.jsonl')]),
      new RegExp(
        `^tafel: merge: ${j} is unfinished \\(${done} of 33 groups\\); finish it with: tafel run --resume ${j}$`,
      ),
    );
    const r = tafel(['run', '--resume', j]);
    expect(r.status, r.stderr).toBe(0);
    for (const ext of ['jsonl', 'deals.csv']) expect(read(join(dir, `part-1.${ext}`)), ext).toBe(read(part(1, ext)));
    expect(journalState(read(j))).toBe(journalState(read(part(1, 'journal.jsonl'))));
    expect(tafel(['merge', part(0, 'journal.jsonl'), j, part(2, 'journal.jsonl')]).status).toBe(0);
  });

  it.each([
    ['3/3', /^tafel: --shard '3\/3': the shard index counts from 0, so it must be below 3$/],
    ['x/2', /^tafel: --shard 'x\/2': expected i\/n, the shard index i \(from 0\) and the number of shards n/],
    ['1/0', /^tafel: --shard '1\/0': the number of shards must be at least 1$/],
    ['-1/2', /^tafel: --shard '-1\/2': expected i\/n/],
  ])('rejects --shard %s with one line', (spec, pattern) => {
    expectUserError(tafel([...RUN, '--shard', spec]), pattern);
  });

  it('refuses a missing, doubled or foreign shard, or a file that is not a journal, with one line', () => {
    const j = (i: number) => part(i, 'journal.jsonl');
    expectUserError(tafel(['merge', j(0), j(2)]), /^tafel: merge: shard 1\/3 is missing$/);
    expectUserError(
      tafel(['merge', j(0), j(1), j(1), j(2)]),
      /^tafel: merge: shard 1\/3 is given twice \(.*part-1\.journal\.jsonl and .*part-1\.journal\.jsonl\)$/,
    );
    const other = tmpDir();
    expect(tafel([...RUN, '--seed', 'other', '--shard', '1/3', '--journal', 'p.jsonl'], other).status).toBe(0);
    expectUserError(
      tafel(['merge', j(0), join(other, 'p.jsonl'), j(2)]),
      /^tafel: merge: \S+p\.jsonl is from a different run than \S+part-0\.journal\.jsonl: --seed differs$/,
    );
    expectUserError(
      tafel(['merge', j(0), j(1), j(2), join(plain, 'all.journal.jsonl')]),
      /is a whole run, not a shard/,
    );
    expectUserError(
      tafel(['merge', j(0), part(1, 'csv'), j(2)]),
      /^tafel: journal \S+part-1\.csv: not a tafel journal/,
    );
    expectUserError(
      tafel(['merge', j(0), j(1), j(2), '--out', part(0, 'csv'), '--journal', j(0)]),
      /is one of the journals being merged$/,
    );
  });
});
