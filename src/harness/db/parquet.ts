/**
 * `tafel query ... --parquet`: a run's tables as Parquet, for DuckDB, Polars, Spark or
 * pandas without tafel. `--parquet DIR` writes every table of the databases (read
 * together as `tafel query` reads them: one view of all their rows per table) as
 * `DIR/<table>.parquet`, with a `README.md` naming each table's rows and columns (the
 * files carry the types, not the meanings); `--parquet FILE.parquet` with SQL writes
 * that one query's result. Each file is written by DuckDB's `COPY ... (FORMAT parquet)`
 * under a temporary name and renamed into place once all are written, so a failure
 * never leaves a half-written file, and a replaced export keeps no table of the earlier one.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TafelError } from '../../core/errors.js';
import { checkOutputs, writeWhole } from '../run/outputs.js';
import { firstLine, openQuery, TABLES } from './query.js';
import { sqlString } from './db.js';

/** What one row of each table is (docs/database.md and schema.ts say more). */
const ROWS: Readonly<Record<(typeof TABLES)[number], string>> = {
  runs: 'run (or shard): its identity, the tafel version, start and end, its spec (JSON)',
  bots: 'bot of a run: label, full spec, parameters (JSON)',
  boards: 'group of a run of chosen deals (--boards): its board id, line and deal (JSON)',
  faults: "bot's fault: where (run, grp, rotation, deal, seat), the bot's label, kind, message",
  deals:
    "deal played: run, grp (duplicate group), rotation, match, deal, the game's deal facts, record (JSON, with --records)",
  seats: "seat of a deal: run, grp, rotation, deal, seat, bot (its label), every deal metric, the game's seat facts",
  matches: 'seat of a whole match (--matches): run, grp, rotation, match, seat, bot, every match metric',
};

/** zstd: a third smaller than DuckDB's default snappy at the same speed, and read by Polars, pyarrow and Spark 3. */
const PARQUET = '(FORMAT parquet, COMPRESSION zstd)';

interface Target {
  /** As the user wrote it, for messages. */
  readonly shown: string;
  readonly force: boolean;
}

/** Refusal if an output is one of the databases read. */
function inputsOf(files: readonly string[]) {
  return [{ who: 'query', what: 'one of the databases read', paths: files.map((f) => resolve(f)) }];
}

/** Every table of `files` as `<table>.parquet` in directory `dir`, with a README.md. */
export async function exportTables(files: readonly string[], dir: Target): Promise<string[]> {
  const path = resolve(dir.shown);
  const names = [...TABLES.map((t) => `${t}.parquet`), 'README.md'];
  if (existsSync(path) && !statSync(path).isDirectory())
    throw new TafelError(
      'bad-output',
      `--parquet ${dir.shown}: is a file; give a directory for every table, or SQL and a name ending .parquet for its result`,
    );
  // The databases opened first: one that is not a run's leaves no directory made.
  const session = await openQuery(files);
  const tmp = join(path, `.tafel-tmp-${process.pid}`);
  try {
    checkOutputs([], {
      existing: dir.force ? 'replace' : 'refuse',
      dirs: [{ flag: '--parquet', shown: dir.shown, path, files: names }],
      inputs: inputsOf(files),
    });
    mkdirSync(tmp);
    const written: string[] = [];
    const readme: string[] = [];
    for (const t of TABLES) {
      const has = await session.connection.runAndReadAll(
        `SELECT count(*) FROM duckdb_views() WHERE view_name = ${sqlString(t)} AND temporary`,
      );
      if (Number(has.getRows()[0][0]) === 0) continue;
      await session.connection.run(`COPY ${t} TO ${sqlString(join(tmp, `${t}.parquet`))} ${PARQUET}`);
      const columns = await session.connection.runAndReadAll(`DESCRIBE ${t}`);
      const count = Number((await session.connection.runAndReadAll(`SELECT count(*) FROM ${t}`)).getRows()[0][0]);
      readme.push(
        `## ${t}.parquet (${count} ${count === 1 ? 'row' : 'rows'})`,
        '',
        `One row per ${ROWS[t]}.`,
        '',
        ...columns.getRows().map((row) => `- \`${String(row[0])}\` ${columnType(String(row[1]))}`),
        '',
      );
      written.push(`${t}.parquet`);
    }
    writeReadme(join(tmp, 'README.md'), readme);
    written.push('README.md');
    // Only now replace: a table an earlier export had but these databases lack goes too.
    for (const name of names) if (!written.includes(name)) rmSync(join(path, name), { force: true });
    for (const name of written) renameSync(join(tmp, name), join(path, name));
    return written;
  } catch (e) {
    throw e instanceof TafelError ? e : new TafelError('unwritable', `--parquet ${dir.shown}: ${firstLine(e)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    session.close();
  }
}

/** How a DuckDB column type reads back from Parquet (enums are dictionary-coded text). */
function columnType(type: string): string {
  return type.startsWith('ENUM') ? 'VARCHAR (one of the labels)' : type === 'JSON' ? 'VARCHAR (JSON text)' : type;
}

function writeReadme(path: string, tables: readonly string[]): void {
  const text = [
    '# A tafel run as Parquet',
    '',
    'Written by `tafel query ... --parquet DIR` from run databases (`tafel run ... --db`); the',
    'databases read together (shards, or the runs of an experiment) give one file per table.',
    'A row belongs to the run its `run` column names (a row of `runs`). A seat out of a deal',
    "has NULL metrics and facts. The metric and fact columns are the game's: tafel's",
    'docs/database.md ("The run database and `tafel query`") says what each means.',
    '',
    'Read with Polars, pandas or DuckDB:',
    '',
    '```python',
    'import polars as pl',
    'seats = pl.read_parquet("seats.parquet")',
    'print(seats.group_by("bot").agg(pl.col("points").mean()))',
    '```',
    '',
    '```sql',
    "SELECT bot, avg(points) FROM 'seats.parquet' GROUP BY bot;",
    '```',
    '',
    ...tables,
  ].join('\n');
  writeWhole(path, text, '--parquet');
}

/** The result of one SQL statement over `files` as Parquet file `file`. */
export async function exportQuery(files: readonly string[], sql: string, file: Target): Promise<void> {
  const path = resolve(file.shown);
  checkOutputs([{ flag: '--parquet', kind: 'parquet', shown: file.shown, path }], {
    existing: file.force ? 'replace' : 'refuse',
    inputs: inputsOf(files),
  });
  const session = await openQuery(files);
  const tmp = `${path}.tmp-${process.pid}`;
  const failed = (e: unknown): never => {
    throw new TafelError('bad-sql', `query: ${firstLine(e).replace(/^Failed to extract statements: /, '')}`);
  };
  try {
    const statements = await session.connection.extractStatements(sql).catch(failed);
    if (statements.count !== 1)
      throw new TafelError(
        'bad-option',
        `query: --parquet FILE.parquet writes one result, but the SQL has ${statements.count} statements: give one`,
      );
    // Prepared alone first, so an error in it is told in the user's own SQL.
    await statements.prepare(0).catch(failed);
    const one = sql.trim().replace(/;\s*$/, '');
    await session.connection.run(`COPY (${one}) TO ${sqlString(tmp)} ${PARQUET}`).catch(failed);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
    session.close();
  }
}
