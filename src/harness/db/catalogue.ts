/**
 * A run's catalogue (FILE.duckdb) opened for a moment, to be made or to be closed
 * (db.ts), through DuckDB's bindings themselves rather than @duckdb/node-api: the
 * catalogue takes a few statements and reads no result, and the API's hundred-odd
 * modules take 0.2-0.35 s of the main thread's CPU to load, against 0.04 s for the
 * bindings (bench/README.md, "Run database"). Readers (`tafel query`) use the API.
 */
import { TafelError } from '../../core/errors.js';

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

/** Run `work` on the catalogue at `path`, opened for it alone (one thread), then closed. */
export async function withCatalogue(path: string, work: (c: Catalogue) => Promise<void>): Promise<void> {
  const { default: duckdb } = await import('@duckdb/node-bindings');
  const config = duckdb.create_config();
  duckdb.set_config(config, 'threads', '1');
  let db;
  for (let tries = 0; ; tries++) {
    try {
      db = await duckdb.open(path, config);
      break;
    } catch (e) {
      if (!isLocked(e) || tries >= 200) throw openError(path, e);
      await waitMs(50);
    }
  }
  try {
    const connection = await duckdb.connect(db);
    try {
      await work({
        run: async (sql) => {
          await duckdb.query(connection, sql);
        },
      });
    } finally {
      duckdb.disconnect_sync(connection);
    }
  } finally {
    duckdb.close_sync(db);
  }
}
