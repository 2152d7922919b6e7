/**
 * `tafel query`: SQL over one or more run databases. Each catalogue's small tables (runs,
 * bots, boards) are copied into an in-memory session and the file let go at once (so a
 * run that is writing it is never kept waiting); its faults and the rows of deals, seats
 * and matches are read from what its committed.json names (parts.ts), so a run in
 * progress shows what it has committed so far. Each table that any of them has is a
 * view of all their rows (`UNION ALL BY NAME`), so shards of one run, or runs of an
 * experiment kept in several files, are asked as one. A database written before parts
 * (its rows in its own tables) is read as it is. The interval macros (db-macros.ts) are
 * defined in the session.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { DuckDBConnection, JS } from '@duckdb/node-api';
import { TafelError } from '../../core/errors.js';
import { macroSql } from './macros.js';
import { isLocked, waitMs } from './catalogue.js';
import { FAULTS_COLUMNS, faultValues, sqlName, sqlString } from './db.js';
import { partsDir, progressOf, readManifest, tableSql, TABLE_NAMES, type Manifest } from './parts.js';

export const TABLES = ['runs', 'bots', 'boards', 'faults', 'deals', 'seats', 'matches'] as const;

/** A value of a result: what JSON can hold. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Value[])[];
}

/** A DuckDB value as plain data: big integers as numbers (as text beyond 2^53), times as ISO text. */
export function plain(v: JS): Value {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return Object.fromEntries(Object.entries(v as Record<string, JS>).map(([k, x]) => [k, plain(x)]));
}

/** Whether the file starts as a DuckDB database does ("DUCK" at byte 8). */
function isDuckDbFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(12);
    return readSync(fd, head, 0, 12, 0) === 12 && head.toString('latin1', 8, 12) === 'DUCK';
  } finally {
    closeSync(fd);
  }
}

/** One line of a DuckDB error. */
export function firstLine(e: unknown): string {
  return (e as Error).message.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Why a file would not attach. A run (or merge) that writes a database holds DuckDB's
 * lock on it until it ends, and DuckDB lets no other process open it meanwhile, not
 * even to read; a copy of the file alone lacks what is still in its write-ahead log.
 */
function attachFailure(error: string): string {
  if (!/Could not set lock on file/i.test(error)) return `not a DuckDB database (${error})`;
  const pid = /\(PID (\d+)\)/.exec(error)?.[1];
  return `a run is writing it${pid ? ` (process ${pid} holds its lock)` : ''}, and DuckDB lets nothing else open it meanwhile: ask it when the run has ended, or stop the run with Ctrl-C (the finished groups are kept, and --resume continues a run that has a journal)`;
}

/** Attach `f` read-only as `name`, waiting a moment while a run opens it to begin or end. */
async function attach(connection: DuckDBConnection, f: string, name: string, who: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await connection.run(`ATTACH ${sqlString(f)} AS ${name} (READ_ONLY)`);
      return;
    } catch (e) {
      if (isLocked(e) && tries < 100) {
        await waitMs(50);
        continue;
      }
      throw new TafelError('bad-db', `${who}: ${f}: ${attachFailure(firstLine(e))}`);
    }
  }
}

/** How a session runs: `threads`, DuckDB's threads (by default one a core). */
export interface QueryOptions {
  readonly threads?: number;
}

/** A session with `files` attached and their tables as views; `who` begins its messages. */
export async function openQuery(
  files: readonly string[],
  who = 'query',
  o: QueryOptions = {},
): Promise<{ connection: DuckDBConnection; close(): void }> {
  for (const [i, f] of files.entries()) {
    if (!existsSync(f)) throw new TafelError('unreadable', `${who}: ${f}: no such file`);
    if (statSync(f).isDirectory()) throw new TafelError('unreadable', `${who}: ${f}: is a directory, not a database`);
    if (!isDuckDbFile(f)) throw new TafelError('bad-db', `${who}: ${f}: not a DuckDB database`);
    if (files.findIndex((g) => resolve(g) === resolve(f)) < i)
      throw new TafelError('bad-option', `${who}: ${f} is given twice`);
  }
  // The API (0.1 s of CPU to load, catalogue.ts) only when a session opens: an experiment
  // that queries once its play is over does not load it before its workers start.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', o.threads ? { threads: String(o.threads) } : undefined);
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    const has = new Map<string, string[]>();
    const add = (t: string, relation: string) => has.set(t, [...(has.get(t) ?? []), relation]);
    for (const [i, f] of files.entries()) {
      const name = `db${i}`;
      let manifest: Manifest | null;
      try {
        manifest = readManifest(f);
      } catch (e) {
        throw new TafelError('bad-db', `${who}: ${f}: ${(e as Error).message}`);
      }
      await attach(connection, f, name, who);
      const r = await connection.runAndReadAll(
        `SELECT table_name FROM duckdb_tables() WHERE database_name = ${sqlString(name)} AND schema_name = 'main'`,
      );
      const tables = r.getRows().map((row) => String(row[0]));
      if (!tables.includes('runs') || (!manifest && !tables.includes('deals')))
        throw new TafelError(
          'bad-db',
          `${who}: ${f}: a DuckDB database, but not one tafel wrote (no runs and deals tables)`,
        );
      if (!manifest) {
        for (const t of tables) if ((TABLES as readonly string[]).includes(t)) add(t, `${name}.main.${sqlName(t)}`);
        continue;
      }
      // The catalogue's own tables copied, and the file let go.
      for (const t of ['runs', 'bots', 'boards']) {
        if (!tables.includes(t)) continue;
        await connection.run(`CREATE TEMP TABLE ${name}_${t} AS SELECT * FROM ${name}.main.${sqlName(t)}`);
        add(t, `${name}_${t}`);
      }
      await connection.run(`DETACH ${name}`);
      await connection.run(`CREATE TEMP TABLE ${name}_faults (${FAULTS_COLUMNS})`);
      for (let k = 0; k < manifest.faults.length; k += 1000)
        await connection.run(
          `INSERT INTO ${name}_faults VALUES ${manifest.faults
            .slice(k, k + 1000)
            .map(faultValues)
            .join(', ')}`,
        );
      add('faults', `${name}_faults`);
      const dir = resolve(partsDir(f));
      for (const t of TABLE_NAMES) {
        const sql = tableSql(manifest, t, (part) => resolve(dir, part));
        if (sql === null) continue;
        await connection.run(`CREATE TEMP VIEW ${name}_${t} AS ${sql}`);
        add(t, `${name}_${t}`);
      }
      if (manifest.live) {
        const { committed, total } = progressOf(manifest);
        process.stderr.write(`${who}: ${f}: run in progress: ${committed} of ${total} groups committed\n`);
      }
    }
    for (const [t, relations] of has) {
      const union = relations.map((d) => `SELECT * FROM ${d}`).join(' UNION ALL BY NAME ');
      await connection.run(`CREATE TEMP VIEW ${sqlName(t)} AS ${union}`);
    }
    for (const sql of macroSql(true)) await connection.run(sql);
    return { connection, close };
  } catch (e) {
    close();
    throw e;
  }
}

/** The result of every statement of `sql`, in order (DuckDB runs only the last of several given as one). */
export async function runQueries(files: readonly string[], sql: string, o: QueryOptions = {}): Promise<QueryResult[]> {
  if (!/[^\s;]/.test(sql)) throw new TafelError('bad-sql', 'query: no SQL statement given');
  const session = await openQuery(files, 'query', o);
  const failed = (e: unknown): never => {
    throw new TafelError('bad-sql', `query: ${firstLine(e).replace(/^Failed to extract statements: /, '')}`);
  };
  try {
    const statements = await session.connection.extractStatements(sql).catch(failed);
    const results: QueryResult[] = [];
    for (let i = 0; i < statements.count; i++) {
      const prepared = await statements.prepare(i).catch(failed);
      const r = await prepared.runAndReadAll().catch(failed);
      results.push({ columns: r.columnNames(), rows: r.getRowsJS().map((row) => row.map(plain)) });
    }
    return results;
  } finally {
    session.close();
  }
}

/** The result of `sql`, which must be one statement. */
export async function runQuery(files: readonly string[], sql: string, o: QueryOptions = {}): Promise<QueryResult> {
  const results = await runQueries(files, sql, o);
  if (results.length !== 1)
    throw new TafelError('bad-sql', `query: ${results.length} statements given, where one is asked`);
  return results[0];
}

/** A value as a table cell: numbers to 6 decimals at most, structs as {key: value, ...}. */
function cell(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(6)));
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(cell).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${k}: ${cell(x)}`)
    .join(', ')}}`;
}

/** The result as an aligned text table: numbers right-aligned, a rule under the header. */
export function tableText(r: QueryResult): string {
  const cells = r.rows.map((row) => row.map(cell));
  const numeric = r.columns.map((_, c) => r.rows.every((row) => row[c] === null || typeof row[c] === 'number'));
  const widths = r.columns.map((name, c) => Math.max(name.length, ...cells.map((row) => row[c].length)));
  const line = (row: readonly string[]) =>
    row
      .map((x, c) => (numeric[c] ? x.padStart(widths[c]) : x.padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  const rows = r.rows.length === 1 ? '1 row' : `${r.rows.length} rows`;
  return (
    [line(r.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line), `(${rows})`].join('\n') + '\n'
  );
}

export function csvText(r: QueryResult): string {
  const value = (v: Value) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : v);
  return stringify(
    r.rows.map((row) => row.map(value)),
    { header: true, columns: [...r.columns] },
  );
}

export function jsonText(r: QueryResult): string {
  return JSON.stringify(r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]])))) + '\n';
}
