/**
 * Where a run database's rows live. `FILE.duckdb` is a catalogue (runs, bots, boards,
 * faults and the interval macros); the rows of deals, seats and matches are Parquet
 * parts in the directory beside it, `FILE.duckdb.parts/`, each written whole by the
 * worker thread that played its batch (part-file.ts):
 *
 *   <run>/deals-<start>.parquet     the batch's deals (and seats-, matches-), <start> its first group
 *   committed.json                  the parts and faults committed, the runs, the columns
 *
 * The main thread only commits: it rewrites committed.json whole (a temporary file
 * renamed over it) before the journal names the groups, so committed.json always
 * holds at least the journal's groups. Parts not in it (a batch played past the last
 * commit when a run was stopped) are nobody's rows: the run deletes them when it ends
 * and `--resume` before it plays again. Readers (`tafel query`, `tafel report`) read
 * committed.json and the committed parts, never the lock of a running writer, so a
 * run in progress can be asked what it has committed so far.
 *
 * Parts hold numbers as the worker made them (rows.ts): `run` and every int column as
 * INT32 (NULL as NULL_INT), DOUBLE columns as they are, the record as text. The views
 * (`tableSql`) give each column its type: narrow ints, booleans, enums and bot labels,
 * NULLs, JSON; so queries see the same tables as when the rows were appended.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ColumnType, DbSchema, RowTable } from './schema.js';
import { NULL_INT } from './rows.js';

export const TABLE_NAMES = ['deals', 'seats', 'matches'] as const;
export type PartTable = (typeof TABLE_NAMES)[number];

export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function sqlName(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** The directory of a database's parts. */
export function partsDir(db: string): string {
  return `${db}.parts`;
}

/** A part's file, relative to the parts directory. */
export function partFile(run: number, table: PartTable, start: number): string {
  return `${run}/${table}-${String(start).padStart(10, '0')}.parquet`;
}

/** A committed part: run, first group, groups, and its rows of deals, seats, matches. */
export type PartEntry = [run: number, start: number, groups: number, deals: number, seats: number, matches: number];

export interface FaultRow {
  readonly run: number;
  readonly grp: number;
  readonly rotation: number | null;
  readonly deal: number | null;
  readonly seat: number | null;
  readonly bot: string | null;
  readonly kind: string;
  readonly message: string;
}

interface ManifestRun {
  readonly run: number;
  readonly shard: string | null;
  /** The groups of the run (or shard) in this database: from.. to - 1. */
  readonly from: number;
  readonly to: number;
  /** The label of each entrant, in order: what a part's `bot` column (the entrant's index) names. */
  readonly labels: readonly string[];
}

/** committed.json. */
export interface Manifest {
  readonly format: 1;
  /** True from the run's start until it closed the database. */
  live: boolean;
  /** Each table's columns after `run`, as the views type them (matches null for a run of single deals). */
  readonly tables: { readonly [T in PartTable]: readonly { name: string; type: ColumnType }[] | null };
  runs: ManifestRun[];
  parts: PartEntry[];
  faults: FaultRow[];
}

function manifestPath(db: string): string {
  return join(partsDir(db), 'committed.json');
}

export function emptyManifest(schema: DbSchema): Manifest {
  const columns = (t: RowTable | null) => t && [...t.numbers, ...t.text].map(({ name, type }) => ({ name, type }));
  return {
    format: 1,
    live: true,
    tables: { deals: columns(schema.deals), seats: columns(schema.seats), matches: columns(schema.matches) },
    runs: [],
    parts: [],
    faults: [],
  };
}

/** The manifest of database `db`, or null when it has none (a database whose rows are in its own tables). */
export function readManifest(db: string): Manifest | null {
  const path = manifestPath(db);
  if (!existsSync(path)) return null;
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (e) {
    throw new Error(`${path}: not readable (${(e as Error).message.split('\n')[0]})`, { cause: e });
  }
  if (m.format !== 1) throw new Error(`${path}: written by another tafel (format ${String(m.format)})`);
  return m;
}

/** Rewrite the manifest whole: a reader sees the old one or the new one, never a part of either. */
export function writeManifest(db: string, m: Manifest): void {
  const path = manifestPath(db);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(m));
  renameSync(tmp, path);
}

/** Groups committed, and groups in all, of the manifest's runs. */
export function progressOf(m: Manifest): { committed: number; total: number } {
  let committed = 0;
  for (const p of m.parts) committed += p[2];
  const total = m.runs.reduce((n, r) => n + r.to - r.from, 0);
  return { committed, total };
}

function sqlType(t: ColumnType): string {
  if (typeof t !== 'string') return `ENUM(${t.enum.map(sqlString).join(', ')})`;
  return t;
}

function sqlList(xs: readonly string[]): string {
  return `[${xs.map(sqlString).join(', ')}]`;
}

/** A part column `c` as the table's column of type `t` (`labels`: the runs' entrants' labels, for `bot`). */
function columnSql(name: string, t: ColumnType, labels: readonly ManifestRun[], stored: boolean): string {
  const c = sqlName(name);
  const value = `nullif(${c}, ${NULL_INT})`;
  if (typeof t !== 'string') {
    // In a session, the list cast to the ENUM once (a constant), so that each row picks an
    // ENUM value and no text is converted per row; a view stored in a file cannot keep
    // such a constant, and converts the label.
    const list = (xs: readonly string[]) => (stored ? sqlList(xs) : `CAST(${sqlList(xs)} AS ${sqlType(t)}[])`);
    const values =
      name === 'bot'
        ? `CASE run ${labels.map((r) => `WHEN ${r.run} THEN ${list(r.labels)}`).join(' ')} END`
        : list(t.enum);
    const picked = `list_extract(${values}, ${value} + 1)`;
    return stored ? `CAST(${picked} AS ${sqlType(t)})` : picked;
  }
  if (t === 'DOUBLE') return c;
  if (t === 'JSON') return `CAST(${c} AS JSON)`;
  return `CAST(${value} AS ${t})`;
}

/**
 * A SELECT of table `table` from the manifest's committed parts, in run and group order;
 * `file` names a part's file as the reader reaches it; `stored` for a view kept in the
 * database file. Null when the runs have no such table.
 */
export function tableSql(
  m: Manifest,
  table: PartTable,
  file: (relative: string) => string,
  stored = false,
): string | null {
  const columns = m.tables[table];
  if (!columns) return null;
  const order = new Map(m.runs.map((r, i) => [r.run, i]));
  const parts = m.parts
    .filter((p) => p[3 + TABLE_NAMES.indexOf(table)] > 0)
    .sort((a, b) => (order.get(a[0]) ?? 0) - (order.get(b[0]) ?? 0) || a[1] - b[1]);
  const typed = columns.map((c) => `${columnSql(c.name, c.type, m.runs, stored)} AS ${sqlName(c.name)}`);
  if (!parts.length) {
    const nulls = [
      'CAST(NULL AS INTEGER) AS run',
      ...columns.map((c) => `CAST(NULL AS ${sqlType(c.type)}) AS ${sqlName(c.name)}`),
    ];
    return `SELECT ${nulls.join(', ')} LIMIT 0`;
  }
  const files = parts.map((p) => sqlString(file(partFile(p[0], table, p[1]))));
  return `SELECT run, ${typed.join(', ')} FROM read_parquet([${files.join(', ')}])`;
}
