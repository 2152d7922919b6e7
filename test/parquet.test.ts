/**
 * `tafel query ... --parquet`: the tables of run databases (two shards read together)
 * as Parquet, read back by a DuckDB of the test's own with plain `read_parquet` (no
 * tafel code: the views, macros and schema stay out of it), equal in rows and sums to
 * what `tafel query` says of the databases; one query's result as one file; an
 * existing export or a bad combination refused in one line with nothing written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expectUserError, read, tafel, tmpDir } from './cli-helpers.js';

const RUN = ['run', '--game', 'viersche', '--bots', 'heuristic,random', '--deals', '40', '--seed', 'pq'];
const SHARDS = ['s1.duckdb', 's2.duckdb'];

/** What a user's own DuckDB says of `sql` over Parquet files, as JSON text. */
async function plainDuckDb(sql: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const r = await connection.runAndReadAll(sql);
    return JSON.stringify(r.getRowsJS(), (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What `tafel query --json` says of `sql` over the shards, as the same JSON text. */
function tafelQuery(d: string, sql: string): string {
  const r = tafel(['query', ...SHARDS, sql, '--json'], d);
  expect(r.status, r.stderr).toBe(0);
  return JSON.stringify((JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => Object.values(row)));
}

let d = '';
beforeAll(() => {
  d = tmpDir();
  for (const [i, db] of SHARDS.entries()) {
    const r = tafel([...RUN, '--shard', `${i}/2`, '--out', `s${i + 1}.csv`, '--db', db], d);
    expect(r.status, r.stderr).toBe(0);
  }
});

describe('tafel query --parquet DIR', () => {
  it('writes every table of the databases, read together, as Parquet that reads back without tafel', async () => {
    const r = tafel(['query', ...SHARDS, '--parquet', 'out'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(d, 'out')).sort()).toEqual([
      'README.md',
      'boards.parquet',
      'bots.parquet',
      'deals.parquet',
      'faults.parquet',
      'runs.parquet',
      'seats.parquet',
    ]);
    const file = (t: string) => `read_parquet('${join(d, 'out', `${t}.parquet`)}')`;
    for (const t of ['runs', 'bots', 'deals', 'seats'])
      expect(await plainDuckDb(`SELECT count(*) FROM ${file(t)}`), t).toBe(tafelQuery(d, `SELECT count(*) FROM ${t}`));
    expect(JSON.parse(tafelQuery(d, 'SELECT count(*) FROM deals'))).toEqual([[80]]);
    const perBot = 'SELECT bot::VARCHAR, count(*), sum(points), sum(taken) FROM %s GROUP BY ALL ORDER BY 1';
    expect(await plainDuckDb(perBot.replace('%s', file('seats')))).toBe(tafelQuery(d, perBot.replace('%s', 'seats')));
    const perTrump = 'SELECT trump::VARCHAR, count(*), sum(tricks) FROM %s GROUP BY ALL ORDER BY 1';
    expect(await plainDuckDb(perTrump.replace('%s', file('deals')))).toBe(
      tafelQuery(d, perTrump.replace('%s', 'deals')),
    );
    const readme = read(join(d, 'out', 'README.md'));
    expect(readme).toMatch(/## seats\.parquet \(320 rows\)/);
    expect(readme).toMatch(/- `points` /);
    expect(readme).toMatch(/pl\.read_parquet\("seats\.parquet"\)/);
  });

  it('refuses an earlier export without --force in one line, writing nothing; replaces it with --force', () => {
    const dir = join(d, 'again');
    expect(tafel(['query', ...SHARDS, '--parquet', 'again'], d).status).toBe(0);
    const before = statSync(join(dir, 'seats.parquet')).mtimeMs;
    expectUserError(
      tafel(['query', ...SHARDS, '--parquet', 'again'], d),
      /^tafel: --parquet again: \w+\.parquet exists \(earlier results\); replace them with --force/,
    );
    expect(readdirSync(dir)).toHaveLength(7);
    expect(statSync(join(dir, 'seats.parquet')).mtimeMs).toBe(before);
    const r = tafel(['query', SHARDS[0], '--parquet', 'again', '--force'], d);
    expect(r.status, r.stderr).toBe(0);
    const deals = tafel(['query', SHARDS[0], 'SELECT count(*) AS n FROM deals', '--json'], d);
    const n = (JSON.parse(deals.stdout) as { n: number }[])[0].n;
    expect(n).toBeLessThan(80);
    expect(read(join(dir, 'README.md'))).toContain(`## deals.parquet (${n} rows)`);
  });
});

describe('tafel query SQL --parquet FILE.parquet', () => {
  it("writes the query's result as one file", async () => {
    const sql = 'SELECT bot::VARCHAR AS bot, avg(points) AS points FROM seats GROUP BY ALL ORDER BY 1';
    const r = tafel(['query', ...SHARDS, sql, '--parquet', 'bots.parquet'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(await plainDuckDb(`SELECT * FROM read_parquet('${join(d, 'bots.parquet')}')`)).toBe(tafelQuery(d, sql));
  });

  it('refuses bad combinations in one line, writing nothing', () => {
    const e = (args: string[], pattern: RegExp) => expectUserError(tafel(['query', ...args], d), pattern);
    e([...SHARDS, 'SELECT 1', '--parquet', 'x'], /^tafel: query: --parquet DIR writes every table and takes no SQL/);
    e([...SHARDS, '--parquet', 'x.parquet'], /^tafel: query: --parquet FILE\.parquet writes a query's result/);
    e([...SHARDS, 'SELECT 1; SELECT 2', '--parquet', 'x.parquet'], /has 2 statements: give one$/);
    e([...SHARDS, 'SELECT nope', '--parquet', 'x.parquet'], /^tafel: query: Binder Error: .*LINE 1: SELECT nope/);
    e([...SHARDS, 'SELECT 1', '--csv', '--parquet', 'x.parquet'], /^tafel: query: give --csv or --parquet, not both$/);
    e([...SHARDS, 'SELECT 1', '--parquet', 's1.csv'], /takes no SQL/);
    e(['s1.csv', '--parquet', 'x'], /^tafel: query: s1\.csv: not a DuckDB database$/);
    e([...SHARDS, '--parquet', 's1.csv'], /^tafel: --parquet s1\.csv: is a file; give a directory/);
    expect(existsSync(join(d, 'x'))).toBe(false);
    expect(readdirSync(d).filter((f) => f.startsWith('x.parquet'))).toEqual([]);
    e([...SHARDS, 'SELECT 1', '--parquet', 'bots.parquet'], /^tafel: --parquet bots\.parquet: the file exists/);
  });
});
