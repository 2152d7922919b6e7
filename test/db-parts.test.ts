/**
 * The run database's parts (src/harness/db/parts.ts): rows written as Parquet parts by
 * the threads that played them and committed by committed.json; the same tables for 1
 * and 2 workers; parts past the journal's last checkpoint (a crash) cut by --resume; a
 * run in progress read by `tafel query`, which says how many groups it has committed,
 * while the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, journalGroups, read, start, tafel, tmpDir } from './cli-helpers.js';
import { runQuery } from '../src/harness/db/query.js';
import { partFile, type Manifest } from '../src/harness/db/parts.js';

const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '300', '--seed', 'parts'];

/** Every row of every table, ordered, as text (the runs row without its times). */
async function contents(file: string): Promise<string> {
  const q = async (sql: string) => JSON.stringify((await runQuery([file], sql)).rows);
  return [
    await q('SELECT run, game, seats, rules, bots, seed, unit, groups, rotations, tafel FROM runs'),
    await q('SELECT * FROM bots'),
    await q('SELECT * FROM deals'),
    await q('SELECT * FROM seats'),
    await q('SELECT * FROM faults'),
  ].join('\n');
}

function manifest(db: string): Manifest {
  return JSON.parse(readFileSync(join(`${db}.parts`, 'committed.json'), 'utf8')) as Manifest;
}

/** The part files on disk, relative to the parts directory. */
function partFiles(db: string): string[] {
  const dir = `${db}.parts`;
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => readdirSync(join(dir, e.name)).map((f) => `${e.name}/${f}`))
    .sort();
}

function committedFiles(m: Manifest): string[] {
  return m.parts.flatMap((p) => [partFile(p[0], 'deals', p[1]), partFile(p[0], 'seats', p[1])]).sort();
}

describe('parts', () => {
  it('are written per batch, all committed at the end, and give the same tables for 1 and 2 workers', async () => {
    const dirs = [tmpDir(), tmpDir()];
    for (const [i, d] of dirs.entries()) {
      const r = tafel([...RUN, '--workers', String(i + 1), '--out', 'x.csv', '--db', 'x.duckdb'], d);
      expect(r.status, r.stderr).toBe(0);
    }
    const db = join(dirs[1], 'x.duckdb');
    const m = manifest(db);
    expect(m.live).toBe(false);
    // Batches of consecutive groups, each whole, covering the run.
    const parts = [...m.parts].sort((a, b) => a[1] - b[1]);
    expect(parts.length).toBeGreaterThan(1);
    let next = 0;
    for (const p of parts) {
      expect(p[1]).toBe(next);
      next += p[2];
      expect(p[3]).toBe(2 * p[2]);
      expect(p[4]).toBe(8 * p[2]);
    }
    expect(next).toBe(300);
    // Nothing on disk but the committed parts.
    expect(partFiles(db)).toEqual(committedFiles(m));
    expect(await contents(db)).toBe(await contents(join(dirs[0], 'x.duckdb')));
    // The catalogue holds no rows of deals: they are read from the parts.
    const journal = tafel(['query', 'x.duckdb', 'SELECT count(*) FROM deals'], dirs[1]);
    expect(journal.stdout).toMatch(/\b600\b/);
    expect(journal.stderr).toBe('');
  });

  it('played past the journal (a crash) are cut by --resume, which ends with the rows of an uninterrupted run', async () => {
    const whole = tmpDir();
    expect(tafel([...RUN, '--workers', '2', '--out', 'x.csv', '--db', 'x.duckdb'], whole).status).toBe(0);
    const d = tmpDir();
    expect(tafel([...RUN, '--workers', '2', '--out', 'x.csv', '--db', 'x.duckdb'], d).status).toBe(0);
    const db = join(d, 'x.duckdb');
    const m = manifest(db);
    // As a crash leaves it: the journal's checkpoints lost (a run this short checkpoints
    // once, at its end), committed.json still live and naming every part, and a part on
    // disk that no commit names.
    const journal = join(d, 'x.journal.jsonl');
    const lines = read(journal).split('\n');
    writeFileSync(
      journal,
      lines
        .slice(
          0,
          lines.findIndex((l) => l.startsWith('{"groups":')),
        )
        .join('\n') + '\n',
    );
    expect(journalGroups(read(journal))).toBe(0);
    expect(m.parts.length).toBeGreaterThan(1);
    writeFileSync(join(`${db}.parts`, 'committed.json'), JSON.stringify({ ...m, live: true }));
    const stray = partFile(m.parts[0][0], 'deals', 100_000);
    copyFileSync(join(`${db}.parts`, partFile(m.parts[0][0], 'deals', 0)), join(`${db}.parts`, stray));
    const r = tafel(['run', '--resume', 'x.journal.jsonl'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(`${db}.parts`, stray))).toBe(false);
    expect(partFiles(db)).toEqual(committedFiles(manifest(db)));
    expect(await contents(db)).toBe(await contents(join(whole, 'x.duckdb')));
  });

  it('of a run in progress are read by tafel query, which says how many groups are committed, while the run goes on', async () => {
    const d = tmpDir();
    const slow = `heuristic,${join(ROOT, 'test/fixtures/slow-bot.js')}:ms=0.3`;
    const run = ['run', '--game', 'viersche', '--bots', slow, '--deals', '1200', '--seed', 'live'];
    const { child, done } = start([...run, '--out', 'x.csv', '--db', 'x.duckdb', '--workers', '2'], d);
    const committed = join(d, 'x.duckdb.parts', 'committed.json');
    const until = Date.now() + 30_000;
    const has = () => existsSync(committed) && (JSON.parse(read(committed)) as Manifest).parts.length > 0;
    while (!has() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    try {
      const q = tafel(
        ['query', '--csv', 'x.duckdb', 'SELECT count(*) AS deals, count(DISTINCT grp) AS groups FROM deals'],
        d,
      );
      expect(q.status, q.stderr).toBe(0);
      const said = /^query: x\.duckdb: run in progress: (\d+) of 1200 groups committed$/.exec(q.stderr.trim());
      expect(said, q.stderr).not.toBeNull();
      const groups = Number(said![1]);
      expect(groups).toBeGreaterThan(0);
      expect(groups).toBeLessThan(1200);
      // The rows of exactly the groups it said (two deals a group).
      expect(q.stdout.trim().split('\n')[1]).toBe(`${2 * groups},${groups}`);
      // The run was not stopped by the reader.
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGINT');
    }
    const stopped = await done;
    expect(stopped.status, stopped.stderr).toBe(130);
    // Stopped: what it committed, and no longer in progress.
    const after = tafel(['query', 'x.duckdb', 'SELECT count(*) FROM deals'], d);
    expect(after.status, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
    const kept = journalGroups(read(join(d, 'x.journal.jsonl')));
    expect(after.stdout).toMatch(new RegExp(`\\b${2 * kept}\\b`));
  });
});
