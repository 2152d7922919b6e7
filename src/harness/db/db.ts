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
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { botText, rulesText, type RunSpec } from '../run/spec.js';
import { contentsOf, runNumber, schemaOf, type ColumnType, type DbSchema, type RowTable } from './schema.js';
import type { Failure } from '../run/batch.js';
import { columnPlaces, NULL_INT, type ColumnPlaces, type DbBatch, type DbColumns } from './rows.js';
import { macroSql } from './macros.js';
import { shardRange, shardText } from '../run/shard.js';

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

type Narrow = Int16Array<ArrayBuffer> | Int8Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>;

/** The typed array a narrow column's vector holds (INTEGER and DOUBLE columns are copied as they come). */
function narrowOf(t: ColumnType): Narrow | null {
  if (typeof t !== 'string') return t.enum.length <= 255 ? new Uint8Array(CHUNK) : new Uint16Array(CHUNK);
  switch (t) {
    case 'SMALLINT':
      return new Int16Array(CHUNK);
    case 'TINYINT':
    case 'BOOLEAN':
      return new Int8Array(CHUNK);
    default:
      return null;
  }
}

const RUNS_COLUMNS = `run INTEGER, game VARCHAR, seats INTEGER, rules VARCHAR, bots VARCHAR, seed VARCHAR,
  unit VARCHAR, groups INTEGER, rotations INTEGER, shard VARCHAR, tafel VARCHAR, started TIMESTAMP,
  finished TIMESTAMP, spec JSON`;
const BOTS_COLUMNS = 'run INTEGER, label VARCHAR, bot VARCHAR, source VARCHAR, params JSON, cheats BOOLEAN';
const BOARDS_COLUMNS = 'run INTEGER, grp INTEGER, board VARCHAR, line INTEGER, deal JSON';
const FAULTS_COLUMNS =
  'run INTEGER, grp INTEGER, rotation SMALLINT, deal INTEGER, seat SMALLINT, bot VARCHAR, kind VARCHAR, message VARCHAR';

/** The statements that make an empty database for `schema`. */
function createSql(schema: DbSchema): string[] {
  const table = (t: RowTable) =>
    `CREATE TABLE ${t.name} (run INTEGER, ${[...t.numbers, ...t.text].map((c) => `${sqlName(c.name)} ${sqlType(c.type)}`).join(', ')})`;
  return [
    `CREATE TABLE runs (${RUNS_COLUMNS})`,
    `CREATE TABLE bots (${BOTS_COLUMNS})`,
    `CREATE TABLE boards (${BOARDS_COLUMNS})`,
    `CREATE TABLE faults (${FAULTS_COLUMNS})`,
    table(schema.deals),
    table(schema.seats),
    ...(schema.matches ? [table(schema.matches)] : []),
    ...macroSql(false),
  ];
}

/**
 * Narrows `size` values of an int column from `ints[from]` into `out`. One function per
 * column, each seeing one kind of array, so that the loop stays monomorphic (a loop
 * that stores into several kinds runs several times slower).
 */
type Fill = (ints: Int32Array, from: number, size: number) => void;

function fillInt16(out: Int16Array): Fill {
  return (ints, from, size) => {
    for (let i = 0; i < size; i++) out[i] = ints[from + i];
  };
}
function fillInt8(out: Int8Array): Fill {
  return (ints, from, size) => {
    for (let i = 0; i < size; i++) out[i] = ints[from + i];
  };
}
function fillUint8(out: Uint8Array): Fill {
  return (ints, from, size) => {
    for (let i = 0; i < size; i++) out[i] = ints[from + i];
  };
}
function fillUint16(out: Uint16Array): Fill {
  return (ints, from, size) => {
    for (let i = 0; i < size; i++) out[i] = ints[from + i];
  };
}
/** The `bot` column: entrant indices mapped to the database's labels. */
function fillBot(out: Uint8Array | Uint16Array, map: { bot: Int32Array }): Fill {
  return (ints, from, size) => {
    const bot = map.bot;
    for (let i = 0; i < size; i++) out[i] = bot[ints[from + i]];
  };
}

function fillOf(out: Narrow, map: { bot: Int32Array } | null): Fill {
  if (map) return fillBot(out as Uint8Array | Uint16Array, map);
  if (out instanceof Int16Array) return fillInt16(out);
  if (out instanceof Int8Array) return fillInt8(out);
  if (out instanceof Uint8Array) return fillUint8(out);
  return fillUint16(out);
}

/** Appends one table's rows, a chunk at a time. */
class TableWriter {
  private readonly chunk: DuckDBDataChunk;
  private readonly places: ColumnPlaces;
  private readonly narrow: (Narrow | null)[];
  private readonly fills: (Fill | null)[];
  private readonly run = new Int32Array(CHUNK);
  private readonly validity = new Uint32Array(CHUNK / 32);
  /** Where this batch's entrants are among the database's labels (see `append`). */
  private readonly bots: { bot: Int32Array } = { bot: new Int32Array(0) };
  private ints = new Int32Array(0);
  private doubles = new Float64Array(0);
  private readonly nulls: Uint8Array;

  constructor(
    readonly table: RowTable,
    private readonly appender: DuckDBAppender,
  ) {
    const columns = [...table.numbers, ...table.text];
    this.chunk = DuckDBDataChunk.create([INTEGER, ...columns.map((c) => duckType(c.type))]);
    this.places = columnPlaces(table.numbers.map((c) => c.type));
    this.narrow = table.numbers.map((c) => narrowOf(c.type));
    this.fills = table.numbers.map((col, c) => {
      const out = this.narrow[c];
      return out && fillOf(out, col.name === 'bot' ? this.bots : null);
    });
    this.nulls = new Uint8Array(table.numbers.length);
  }

  /**
   * Append `part` (a batch's rows of this table) of run `run`, and release its shared
   * memory; `bot` maps a `bot` column's entrant index to its place among the database's
   * labels; `text[i]` is the text column of row i, if the table has one.
   */
  append(part: DbColumns, run: number, bot: Int32Array, text: readonly string[] | null): void {
    const n = part.rows;
    this.readOut(part);
    if (n === 0) return;
    const { ints, doubles, nulls, places } = this;
    this.bots.bot = bot;
    const raw = this.chunk.chunk;
    const width = this.table.numbers.length;
    this.run.fill(run);
    for (let start = 0; start < n; start += CHUNK) {
      const size = Math.min(CHUNK, n - start);
      duckdb.data_chunk_reset(raw);
      duckdb.copy_data_to_vector(duckdb.data_chunk_get_vector(raw, 0), 0, this.run.buffer, 0, size * 4);
      for (let c = 0; c < width; c++) {
        const vector = duckdb.data_chunk_get_vector(raw, c + 1);
        const from = places.place[c] * n + start;
        if (places.double[c] === 1) {
          duckdb.copy_data_to_vector(vector, 0, doubles.buffer, from * 8, size * 8);
        } else {
          const out = this.narrow[c];
          if (out) {
            this.fills[c]!(ints, from, size);
            duckdb.copy_data_to_vector(vector, 0, out.buffer, 0, size * out.BYTES_PER_ELEMENT);
          } else {
            duckdb.copy_data_to_vector(vector, 0, ints.buffer, from * 4, size * 4);
          }
        }
        if (nulls[c] === 1) this.setNulls(vector, c, from, size);
      }
      if (text) {
        const vector = duckdb.data_chunk_get_vector(raw, width + 1);
        for (let i = 0; i < size; i++) duckdb.vector_assign_string_element(vector, i, text[start + i]);
      }
      duckdb.data_chunk_set_size(raw, size);
      this.appender.appendDataChunk(this.chunk);
    }
  }

  /** Copy the part out of shared memory (DuckDB copies only from ordinary buffers) and release it to its worker. */
  private readOut(part: DbColumns): void {
    if (this.ints.length < part.ints.length) this.ints = new Int32Array(part.ints.length * 2);
    if (this.doubles.length < part.doubles.length) this.doubles = new Float64Array(part.doubles.length * 2);
    const bytes = (a: Int32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    new Uint8Array(this.ints.buffer).set(bytes(part.ints));
    new Uint8Array(this.doubles.buffer).set(bytes(part.doubles));
    this.nulls.set(part.nulls);
    Atomics.store(part.lease, 0, 0);
  }

  /** Column `c`'s validity for rows `from`.. (NULL_INT or NaN is NULL). */
  private setNulls(vector: duckdb.Vector, c: number, from: number, size: number): void {
    const bits = this.validity;
    bits.fill(0xffffffff);
    if (this.places.double[c] === 1) {
      const d = this.doubles;
      for (let i = 0; i < size; i++) if (d[from + i] !== d[from + i]) bits[i >>> 5] &= ~(1 << (i & 31));
    } else {
      const v = this.ints;
      for (let i = 0; i < size; i++) if (v[from + i] === NULL_INT) bits[i >>> 5] &= ~(1 << (i & 31));
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
  /** Rows appended since the last commit. */
  waiting = 0;

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly schema: DbSchema,
    appenders: { deals: DuckDBAppender; seats: DuckDBAppender; matches: DuckDBAppender | null },
    private readonly faults: DuckDBAppender,
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
        // A database begun before faults were kept gains their table.
        await connection.run(`CREATE TABLE IF NOT EXISTS faults (${FAULTS_COLUMNS})`);
      }
      const appender = (t: string) => connection.createAppender(t);
      const appenders = {
        deals: await appender('deals'),
        seats: await appender('seats'),
        matches: schema.matches ? await appender('matches') : null,
      };
      const faults = await appender('faults');
      return new RunDatabase(path, instance, connection, schema, appenders, faults, contents.labels, specs);
    } catch (e) {
      connection.closeSync();
      instance.closeSync();
      throw e;
    }
  }

  /**
   * Append a batch's rows of run `spec` (its parts in order) and release their shared
   * memory; `records` is its deal records' text (one line a deal) when the deals table
   * keeps them.
   */
  append(spec: RunSpec, parts: readonly DbBatch[], records: Uint8Array | null): void {
    const run = runNumber(spec);
    const bots = this.botIndex.get(run)!;
    const lines = this.schema.deals.text.length && records ? Buffer.from(records).toString('utf8').split('\n') : null;
    let line = 0;
    for (const rows of parts) {
      const text = lines && lines.slice(line, line + rows.deals.rows);
      line += rows.deals.rows;
      this.waiting += rows.deals.rows + rows.seats.rows + rows.matches.rows;
      this.writers.deals.append(rows.deals, run, bots, text);
      this.writers.seats.append(rows.seats, run, bots, null);
      if (this.writers.matches) this.writers.matches.append(rows.matches, run, bots, null);
      else Atomics.store(rows.matches.lease, 0, 0);
    }
  }

  /** A row of `faults` for each bot's fault among `failures` (of run `spec`, in group order). */
  appendFaults(spec: RunSpec, failures: readonly Failure[]): void {
    const run = runNumber(spec);
    const a = this.faults;
    for (const f of failures) {
      if (f.fault === null) continue;
      a.appendInteger(run);
      a.appendInteger(f.group);
      if (f.at) {
        a.appendSmallInt(f.at.rotation);
        a.appendInteger(f.at.deal);
        a.appendSmallInt(f.at.seat);
      } else for (let i = 0; i < 3; i++) a.appendNull();
      const bot = spec.entrants[f.entrant]?.label;
      if (bot === undefined) a.appendNull();
      else a.appendVarchar(bot);
      a.appendVarchar(f.fault);
      a.appendVarchar(f.message);
      a.endRow();
    }
  }

  /** Commit what was appended (before the journal names it). */
  flush(): void {
    this.waiting = 0;
    this.faults.flushSync();
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
    for (const t of ['deals', 'seats', 'matches', 'faults'] as const) {
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
      // A shard's database begun before faults were kept has no such table (and no rows for it).
      const faults = await this.connection.runAndReadAll(
        "SELECT count(*)::INTEGER FROM duckdb_tables() WHERE database_name = 'shard' AND table_name = 'faults'",
      );
      if (faults.getRows()[0][0] !== 0)
        await this.connection.run(`INSERT INTO faults SELECT * FROM shard.faults ${where} ORDER BY grp`);
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
      this.faults.closeSync();
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
  // A run of boards: the board of each of its (its shard's) groups.
  const { from, to } = shardRange(s.groups, s.shard);
  const boards = s.boards?.boards.slice(from, to) ?? [];
  if (boards.length) {
    const rows = boards.map(({ id, line, dealer, hands, turnup }, i) => {
      const deal = sqlString(JSON.stringify({ dealer, hands, turnup }));
      return `(${run}, ${from + i}, ${sqlString(id)}, ${line}, ${deal})`;
    });
    await c.run(`INSERT INTO boards VALUES ${rows.join(', ')}`);
  }
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
