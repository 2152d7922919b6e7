/**
 * A run's catalogue (FILE.duckdb) opened for a moment, to be made or to be closed
 * (db.ts), through DuckDB's bindings themselves rather than @duckdb/node-api: the
 * catalogue takes a few statements and reads no result, and the API takes 0.1 s of the
 * main thread's CPU to load as the bundle holds it (0.33 s as its package's sixty-odd
 * modules), against 0.05 s for the bindings (bench/README.md, "Run database"). Readers
 * (`tafel query`) use the API, loaded when they open a session (query.ts).
 *
 * One in-memory DuckDB (one thread) serves every catalogue of the process: each is
 * attached for its statements and detached after them (which checkpoints it and lets
 * the file go), so making a run's catalogue and closing it start DuckDB once, not twice.
 */
import { TafelError } from '../../core/errors.js';
import { sqlString } from './parts.js';

/** Statements on an open catalogue. */
export interface Catalogue {
  run(sql: string): Promise<void>;
}

/** Why a file cannot be opened as a database, in one line. */
function openError(path: string, e: unknown): TafelError {
  const why = (e as Error).message.split('\n')[0];
  return new TafelError('bad-db', `${path}: not a database tafel can open (${why})`);
}

/** Whether DuckDB refused because another process holds the file (a reader copying the catalogue: a moment). */
export function isLocked(e: unknown): boolean {
  return /Could not set lock on file/i.test((e as Error).message);
}

export async function waitMs(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

async function startDuckdb() {
  const { default: duckdb } = await import('@duckdb/node-bindings');
  const config = duckdb.create_config();
  duckdb.set_config(config, 'threads', '1');
  return { duckdb, db: await duckdb.open(':memory:', config) };
}

/** The process's DuckDB, started at the first call. */
let session: ReturnType<typeof startDuckdb> | null = null;

let attached = 0;

/** Run `work` on the catalogue at `path`, attached for it alone, then detached. */
export async function withCatalogue(path: string, work: (c: Catalogue) => Promise<void>): Promise<void> {
  const { duckdb, db } = await (session ??= startDuckdb());
  const connection = await duckdb.connect(db);
  const name = `catalogue${++attached}`;
  try {
    for (let tries = 0; ; tries++) {
      try {
        await duckdb.query(connection, `ATTACH ${sqlString(path)} AS ${name}`);
        break;
      } catch (e) {
        if (!isLocked(e) || tries >= 200) throw openError(path, e);
        await waitMs(50);
      }
    }
    try {
      await duckdb.query(connection, `USE ${name}`);
      await work({
        run: async (sql) => {
          await duckdb.query(connection, sql);
        },
      });
    } finally {
      await duckdb.query(connection, 'USE memory');
      await duckdb.query(connection, `DETACH ${name}`);
    }
  } finally {
    duckdb.disconnect_sync(connection);
  }
}
