/**
 * A run's database (`--db FILE.duckdb`): DuckDB tables of every deal, seat and match
 * played (db-schema.ts), written by the main thread through DuckDB's appender from the
 * rows the workers make (db-rows.ts).
 *
 * Rows go in as data chunks of 2048 rows, column by column: each column is converted
 * from the batch's numbers into a typed array and copied into the chunk's vector in one
 * piece (a value at a time through the appender costs about 25 times more).
 *
 * Never half-written: the appenders are flushed (each flush a committed transaction,
 * DuckDB's write-ahead log makes it durable) before the journal names the groups they
 * hold, so the committed tables always hold at least the journal's groups. Ctrl-C
 * flushes and stops at the journal's last group; after a crash a table may hold rows of
 * groups after it, which `--resume` deletes (`cutBack`) before it plays them again. So
 * the database is a valid DuckDB file at every moment, and a resumed run ends with the
 * same rows as an uninterrupted one.
 */
import { existsSync, rmSync } from 'node:fs';
import {
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBInstance,
  ENUM,
  INTEGER,
  SMALLINT,
  TINYINT,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
} from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { TafelError } from '../core/errors.js';
import type { Game } from '../games/game.js';
import { botText, rulesText, type RunSpec } from './spec.js';
import { contentsOf, runNumber, schemaOf, type ColumnType, type DbSchema, type RowTable } from './db-schema.js';
import type { DbBatch } from './db-rows.js';
import { macroSql } from './db-macros.js';
import { shardRange, shardText } from './shard.js';

const CHUNK = 2048;

function sqlType(t: ColumnType): string {
  if (typeof t !== 'string') return `ENUM(${t.enum.map(sqlString).join(', ')})`;
  return t;
}

function duckType(t: ColumnType): DuckDBType {
  if (typeof t !== 'string') return ENUM(t.enum);
  return { INTEGER, SMALLINT, TINYINT, DOUBLE, BOOLEAN, JSON: VARCHAR }[t];
}

export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function sqlName(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

type Scratch =
  | Int32Array<ArrayBuffer>
  | Int16Array<ArrayBuffer>
  | Int8Array<ArrayBuffer>
  | Float64Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>;

/** The typed array a column's vector holds. */
function scratchOf(t: ColumnType): Scratch {
  if (typeof t !== 'string') return t.enum.length <= 255 ? new Uint8Array(CHUNK) : new Uint16Array(CHUNK);
  switch (t) {
    case 'INTEGER':
      return new Int32Array(CHUNK);
    case 'SMALLINT':
      return new Int16Array(CHUNK);
    case 'TINYINT':
    case 'BOOLEAN':
      return new Int8Array(CHUNK);
    case 'DOUBLE':
      return new Float64Array(CHUNK);
    case 'JSON':
      return new Uint8Array(0);
  }
}

const RUNS_COLUMNS = `run INTEGER, game VARCHAR, seats INTEGER, rules VARCHAR, bots VARCHAR, seed VARCHAR,
  unit VARCHAR, groups INTEGER, rotations INTEGER, shard VARCHAR, tafel VARCHAR, started TIMESTAMP,
  finished TIMESTAMP, spec JSON`;
const BOTS_COLUMNS = 'run INTEGER, label VARCHAR, bot VARCHAR, source VARCHAR, params JSON, cheats BOOLEAN';

/** The statements that make an empty database for `schema`. */
function createSql(schema: DbSchema): string[] {
  const table = (t: RowTable) =>
    `CREATE TABLE ${t.name} (run INTEGER, ${[...t.numbers, ...t.text].map((c) => `${sqlName(c.name)} ${sqlType(c.type)}`).join(', ')})`;
  return [
    `CREATE TABLE runs (${RUNS_COLUMNS})`,
    `CREATE TABLE bots (${BOTS_COLUMNS})`,
    table(schema.deals),
    table(schema.seats),
    ...(schema.matches ? [table(schema.matches)] : []),
    ...macroSql(false),
  ];
}

/**
 * Converts column `c` of `size` rows from `start` (rows of `width` numbers) into `out`,
 * returning whether a value was NaN (a NULL). One function per column, each seeing one
 * kind of array, so that the loop stays monomorphic.
 */
type Fill = (rows: Float64Array, start: number, size: number, width: number) => boolean;

// One loop per kind of array (a loop that stores into several kinds runs several times slower).
function fillInt32(c: number, out: Int32Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
function fillInt16(c: number, out: Int16Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
function fillInt8(c: number, out: Int8Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
function fillUint8(c: number, out: Uint8Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
function fillUint16(c: number, out: Uint16Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
function fillFloat64(c: number, out: Float64Array): Fill {
  return (rows, start, size, width) => {
    let nulls = false;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      const v = rows[at];
      if (v !== v) nulls = true;
      else out[i] = v;
    }
    return nulls;
  };
}
/** The `bot` column: entrant indices mapped to the database's labels. */
function fillBot(c: number, out: Uint8Array | Uint16Array, map: { bot: Int32Array }): Fill {
  return (rows, start, size, width) => {
    const bot = map.bot;
    for (let i = 0, at = start * width + c; i < size; i++, at += width) out[i] = bot[rows[at]];
    return false;
  };
}

function fillOf(c: number, out: Scratch, map: { bot: Int32Array } | null): Fill {
  if (map) return fillBot(c, out as Uint8Array | Uint16Array, map);
  if (out instanceof Int32Array) return fillInt32(c, out);
  if (out instanceof Int16Array) return fillInt16(c, out);
  if (out instanceof Int8Array) return fillInt8(c, out);
  if (out instanceof Uint8Array) return fillUint8(c, out);
  if (out instanceof Uint16Array) return fillUint16(c, out);
  return fillFloat64(c, out);
}

/** Appends one table's rows, a chunk at a time. */
class TableWriter {
  private readonly chunk: DuckDBDataChunk;
  private readonly scratch: Scratch[];
  private readonly fills: Fill[];
  private readonly run = new Int32Array(CHUNK);
  private readonly validity = new Uint32Array(CHUNK / 32);
  /** Where this batch's entrants are among the database's labels (see `append`). */
  private readonly bots: { bot: Int32Array } = { bot: new Int32Array(0) };
  private local = new Float64Array(0);

  constructor(
    readonly table: RowTable,
    private readonly appender: DuckDBAppender,
  ) {
    const columns = [...table.numbers, ...table.text];
    this.chunk = DuckDBDataChunk.create([INTEGER, ...columns.map((c) => duckType(c.type))]);
    this.scratch = table.numbers.map((c) => scratchOf(c.type));
    this.fills = table.numbers.map((col, c) => fillOf(c, this.scratch[c], col.name === 'bot' ? this.bots : null));
  }

  /**
   * Append `shared` (the table's numbers, row after row) of run `run`; `bot` maps a
   * `bot` column's entrant index to its place among the database's labels; `text[i]` is
   * the text column of row i, if the table has one.
   */
  append(shared: Float64Array, run: number, bot: Int32Array, text: readonly string[] | null): void {
    const width = this.table.numbers.length;
    const n = shared.length / width;
    if (n === 0) return;
    // Read out of shared memory once, as bytes (element by element it is far slower).
    if (this.local.length < shared.length) this.local = new Float64Array(shared.length);
    new Uint8Array(this.local.buffer).set(new Uint8Array(shared.buffer, shared.byteOffset, shared.byteLength));
    const rows = this.local;
    this.bots.bot = bot;
    const raw = this.chunk.chunk;
    this.run.fill(run);
    for (let start = 0; start < n; start += CHUNK) {
      const size = Math.min(CHUNK, n - start);
      duckdb.data_chunk_reset(raw);
      duckdb.copy_data_to_vector(duckdb.data_chunk_get_vector(raw, 0), 0, this.run.buffer, 0, size * 4);
      for (let c = 0; c < width; c++) {
        const out = this.scratch[c];
        const nulls = this.fills[c](rows, start, size, width);
        const vector = duckdb.data_chunk_get_vector(raw, c + 1);
        duckdb.copy_data_to_vector(vector, 0, out.buffer, 0, size * out.BYTES_PER_ELEMENT);
        if (nulls) this.setNulls(vector, rows, start, size, width, c);
      }
      if (text) {
        const vector = duckdb.data_chunk_get_vector(raw, width + 1);
        for (let i = 0; i < size; i++) duckdb.vector_assign_string_element(vector, i, text[start + i]);
      }
      duckdb.data_chunk_set_size(raw, size);
      this.appender.appendDataChunk(this.chunk);
    }
  }

  private setNulls(
    vector: duckdb.Vector,
    rows: Float64Array,
    start: number,
    size: number,
    width: number,
    c: number,
  ): void {
    const bits = this.validity;
    bits.fill(0xffffffff);
    for (let i = 0, at = start * width + c; i < size; i++, at += width) {
      if (rows[at] !== rows[at]) bits[i >>> 5] &= ~(1 << (i & 31));
    }
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, bits.buffer, 0, Math.ceil(size / 64) * 8);
  }

  flush(): void {
    this.appender.flushSync();
  }

  close(): void {
    this.appender.closeSync();
  }
}

/** Why a file cannot be opened as a database, in one line. */
function openError(path: string, e: unknown): TafelError {
  const why = (e as Error).message.split('\n')[0];
  return new TafelError('bad-db', `${path}: not a database tafel can open (${why})`);
}

async function openDuckDb(path: string, o: { readOnly?: boolean } = {}): Promise<DuckDBInstance> {
  try {
    // One thread: appending gains nothing from more, and the machine's cores play.
    return await DuckDBInstance.create(path, { threads: '1', ...(o.readOnly ? { access_mode: 'READ_ONLY' } : {}) });
  } catch (e) {
    throw openError(path, e);
  }
}

/** What a run's rows are appended with: one writer per table, for one run or for several (an experiment's). */
export class RunDatabase {
  private readonly writers: { deals: TableWriter; seats: TableWriter; matches: TableWriter | null };
  /** Per run number: where each entrant's label is among the database's labels. */
  private readonly botIndex = new Map<number, Int32Array>();

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly schema: DbSchema,
    appenders: { deals: DuckDBAppender; seats: DuckDBAppender; matches: DuckDBAppender | null },
    labels: readonly string[],
    specs: readonly RunSpec[],
  ) {
    this.writers = {
      deals: new TableWriter(schema.deals, appenders.deals),
      seats: new TableWriter(schema.seats, appenders.seats),
      matches: schema.matches && appenders.matches ? new TableWriter(schema.matches, appenders.matches) : null,
    };
    for (const s of specs)
      this.botIndex.set(
        runNumber(s),
        Int32Array.from(s.entrants, (e) => labels.indexOf(e.label)),
      );
  }

  /**
   * Open the database at `path` for the runs `specs` (one game): `create` makes it anew
   * (replacing a file there: the caller has checked that it may), `continue` opens the
   * one they were started in (a resume) and checks that it holds them.
   */
  static async open(
    path: string,
    game: Game,
    specs: readonly RunSpec[],
    mode: 'create' | 'continue',
    /** The runs whose columns the tables have (by default `specs`; a merge's are its shards'). */
    like: readonly RunSpec[] = specs,
  ): Promise<RunDatabase> {
    const contents = contentsOf(like);
    const schema = schemaOf(game, contents);
    if (mode === 'create') {
      rmSync(path, { force: true });
      rmSync(`${path}.wal`, { force: true });
    } else if (!existsSync(path)) {
      throw new TafelError('bad-resume', `cannot resume: the database ${path} is missing`);
    }
    const instance = await openDuckDb(path);
    const connection = await instance.connect();
    try {
      if (mode === 'create') {
        for (const sql of createSql(schema)) await connection.run(sql);
        for (const s of specs) await addRun(connection, s);
      } else {
        await checkHolds(connection, path, schema, specs);
      }
      const appender = (t: string) => connection.createAppender(t);
      const appenders = {
        deals: await appender('deals'),
        seats: await appender('seats'),
        matches: schema.matches ? await appender('matches') : null,
      };
      return new RunDatabase(path, instance, connection, schema, appenders, contents.labels, specs);
    } catch (e) {
      connection.closeSync();
      instance.closeSync();
      throw e;
    }
  }

  /** Append a batch's rows of run `spec`; `records` is its deal records' text (one line a deal) when the deals table keeps them. */
  append(spec: RunSpec, rows: DbBatch, records: Uint8Array | null): void {
    const run = runNumber(spec);
    const bots = this.botIndex.get(run)!;
    const text = this.schema.deals.text.length && records ? Buffer.from(records).toString('utf8').split('\n') : null;
    this.writers.deals.append(rows.deals, run, bots, text);
    this.writers.seats.append(rows.seats, run, bots, null);
    this.writers.matches?.append(rows.matches, run, bots, null);
  }

  /** Commit what was appended (before the journal names it). */
  flush(): void {
    this.writers.deals.flush();
    this.writers.seats.flush();
    this.writers.matches?.flush();
  }

  /**
   * Before a resume: delete the rows of `spec`'s groups from its shard's `kept`-th on,
   * and check that the groups before hold `deals` deals, as the journal says.
   */
  async cutBack(spec: RunSpec, kept: number, deals: number): Promise<void> {
    const run = runNumber(spec);
    const { from, to } = shardRange(spec.groups, spec.shard);
    const cut = from + kept;
    for (const t of ['deals', 'seats', 'matches'] as const) {
      if (t === 'matches' && !this.schema.matches) continue;
      await this.connection.run(`DELETE FROM ${t} WHERE run = ${run} AND grp >= ${cut} AND grp < ${to}`);
    }
    const r = await this.connection.runAndReadAll(
      `SELECT count(*)::INTEGER FROM deals WHERE run = ${run} AND grp >= ${from} AND grp < ${cut}`,
    );
    const have = r.getRows()[0][0] as number;
    if (have !== deals) {
      throw new TafelError(
        'bad-resume',
        `cannot resume: the database ${this.path} holds ${have} deals of the run's first ${kept} groups, but the journal has ${deals}`,
      );
    }
  }

  /**
   * Copy the rows of shard `spec` (of the run this database holds whole) from its own
   * database at `path`, in play order, after checking that it holds the `deals` deals
   * its journal names.
   */
  async copyShard(path: string, spec: RunSpec, deals: number): Promise<void> {
    const run = runNumber(spec);
    const { from, to } = shardRange(spec.groups, spec.shard);
    const shard = await openDuckDb(path, { readOnly: true });
    shard.closeSync();
    await this.connection.run(`ATTACH ${sqlString(path)} AS shard (READ_ONLY)`);
    try {
      const where = `WHERE run = ${run} AND grp >= ${from} AND grp < ${to}`;
      const r = await this.connection.runAndReadAll(`SELECT count(*)::INTEGER FROM shard.deals ${where}`);
      const have = r.getRows()[0][0] as number;
      if (have !== deals) {
        throw new TafelError(
          'bad-merge',
          `merge --db: ${path} holds ${have} deals of shard ${shardText(spec.shard!)}, but its journal has ${deals}`,
        );
      }
      const order = {
        deals: 'grp, rotation, deal',
        seats: 'grp, rotation, deal, seat',
        matches: 'grp, rotation, seat',
      };
      for (const t of ['deals', 'seats', 'matches'] as const) {
        if (t === 'matches' && !this.schema.matches) continue;
        await this.connection.run(`INSERT INTO ${t} SELECT * FROM shard.${t} ${where} ORDER BY ${order[t]}`);
      }
    } catch (e) {
      if (e instanceof TafelError) throw e;
      throw new TafelError('bad-merge', `merge --db: ${path}: ${(e as Error).message.split('\n')[0]}`);
    } finally {
      await this.connection.run('DETACH shard');
    }
  }

  /** Write the run's end time, commit and close. */
  async close(finished: readonly RunSpec[] = []): Promise<void> {
    try {
      this.flush();
      for (const s of finished) {
        await this.connection.run(
          `UPDATE runs SET finished = now()::TIMESTAMP WHERE run = ${runNumber(s)} AND shard IS NOT DISTINCT FROM ${shardSql(s)}`,
        );
      }
    } finally {
      this.writers.deals.close();
      this.writers.seats.close();
      this.writers.matches?.close();
      this.connection.closeSync();
      this.instance.closeSync();
    }
  }
}

function shardSql(spec: RunSpec): string {
  return spec.shard ? sqlString(shardText(spec.shard)) : 'NULL';
}

/** The run's rows of `runs` and `bots`. */
async function addRun(c: DuckDBConnection, s: RunSpec): Promise<void> {
  const run = runNumber(s);
  const { files, moveTimeout, onBotError, timeMoves, ...identity } = s;
  void files;
  void moveTimeout;
  void onBotError;
  void timeMoves;
  const values = [
    run,
    sqlString(s.game),
    s.seats,
    sqlString(rulesText(s.rules)),
    sqlString(s.bots.join(',')),
    sqlString(s.seed),
    sqlString(s.unit),
    s.groups,
    s.seatings.length,
    shardSql(s),
    sqlString(s.tafel),
    'now()::TIMESTAMP',
    'NULL',
    sqlString(JSON.stringify(identity)),
  ];
  await c.run(`INSERT INTO runs VALUES (${values.join(', ')})`);
  for (const e of s.entrants) {
    await c.run(
      `INSERT INTO bots VALUES (${run}, ${sqlString(e.label)}, ${sqlString(botText(e))}, ${sqlString(e.source)}, ${sqlString(JSON.stringify(e.params))}, ${e.cheats})`,
    );
  }
}

/** A resumed run's database: its tables as this tafel makes them, and a row of each run in `runs`. */
async function checkHolds(
  c: DuckDBConnection,
  path: string,
  schema: DbSchema,
  specs: readonly RunSpec[],
): Promise<void> {
  const bad = (why: string): never => {
    throw new TafelError('bad-resume', `cannot resume: the database ${path} ${why}`);
  };
  for (const t of [schema.deals, schema.seats, schema.matches]) {
    if (!t) continue;
    const r = await c.runAndReadAll(
      `SELECT column_name FROM information_schema.columns WHERE table_name = ${sqlString(t.name)} ORDER BY ordinal_position`,
    );
    const have = r.getRows().map((row) => String(row[0]));
    const want = ['run', ...t.numbers.map((x) => x.name), ...t.text.map((x) => x.name)];
    if (have.join() !== want.join())
      bad(`has other columns in ${t.name} than this run writes (another tafel, or another run's?)`);
  }
  for (const s of specs) {
    const r = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM runs WHERE run = ${runNumber(s)}`);
    if (r.getRows()[0][0] === 0) bad('is not the one this run was started in');
  }
}
