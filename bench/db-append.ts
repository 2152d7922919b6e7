/**
 * What a run database costs the main thread, alone: the deals and seats of a database
 * that `tafel run --db` made are handed, a batch at a time, to the same appender the
 * run uses (`RunDatabase.append`, in batches of the workers' layout, committed as a
 * run commits), into a new database in this thread, and the CPU it took is printed per
 * deal. Against `tafel run` without `--db` (its CPU per deal), it says how much of a
 * run's throughput the database can take at best.
 *
 * Each round also prints the floor, DuckDB alone: the same rows through a bare appender
 * into an in-memory database, every int column as INTEGER and every column copied
 * straight into its vector (no narrowing, no NULL scan, no file), committed once.
 *
 *   npm run build
 *   node dist/src/cli/main.js run --game viersche --bots random --deals 300000 --db /tmp/r.duckdb --force
 *   node dist/bench/db-append.js /tmp/r.duckdb [--batch 20000] [--rounds 3]
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DOUBLE, DuckDBDataChunk, DuckDBInstance, INTEGER } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { findGame } from '../src/games/index.js';
import { RunDatabase, sqlName } from '../src/harness/db/db.js';
import { columnPlaces, NULL_INT, type DbBatch, type DbColumns } from '../src/harness/db/rows.js';
import type { RowTable } from '../src/harness/db/schema.js';
import type { RunSpec } from '../src/harness/run/spec.js';

const { values, positionals } = parseArgs({
  options: { batch: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } },
  allowPositionals: true,
});
const source = positionals[0];
if (!source) throw new Error('usage: node dist/bench/db-append.js RUN.duckdb [--batch DEALS] [--rounds N]');
const batchDeals = Number(values.batch);

const db = await (await DuckDBInstance.create(source, { access_mode: 'READ_ONLY' })).connect();
const run = (await db.runAndReadAll('SELECT spec FROM runs LIMIT 1')).getRows()[0][0] as string;
const identity = JSON.parse(run) as Omit<RunSpec, 'files' | 'moveTimeout' | 'onBotError' | 'timeMoves'>;
const spec: RunSpec = {
  ...identity,
  files: { dir: '.', out: null, journal: null, records: null, dealCsv: null, db: 'bench', report: null },
  moveTimeout: null,
  onBotError: 'stop',
  timeMoves: false,
};
const game = findGame(spec.game)!;

/** A table's rows in the workers' layout (column after column), read back from the source. */
interface Columns {
  rows: number;
  ints: Int32Array<ArrayBuffer>;
  doubles: Float64Array<ArrayBuffer>;
  nulls: Uint8Array;
}

async function columnsOf(t: RowTable, order: string): Promise<Columns> {
  const places = columnPlaces(t.numbers.map((c) => c.type));
  const select = t.numbers.map((c) => {
    const name = sqlName(c.name);
    if (c.name === 'bot') return '0';
    return typeof c.type !== 'string' ? `enum_code(${name})::INTEGER` : c.type === 'DOUBLE' ? name : `${name}::INTEGER`;
  });
  const r = await db.runAndReadAll(`SELECT ${select.join(', ')} FROM ${t.name} ORDER BY ${order}`);
  const cols = r.getColumns();
  const rows = cols[0].length;
  const ints = new Int32Array(rows * places.ints);
  const doubles = new Float64Array(rows * places.doubles);
  const nulls = new Uint8Array(t.numbers.length);
  t.numbers.forEach((_, c) => {
    const at = places.place[c] * rows;
    for (let i = 0; i < rows; i++) {
      const v = cols[c][i];
      if (v === null) nulls[c] = 1;
      if (places.double[c]) doubles[at + i] = v === null ? NaN : Number(v);
      else ints[at + i] = v === null ? NULL_INT : Number(v);
    }
  });
  return { rows, ints, doubles, nulls };
}

/** Rows `from`.. `from + n` of a table, as one batch hands them over. */
function slice(t: RowTable, all: Columns, from: number, n: number): DbColumns {
  const places = columnPlaces(t.numbers.map((c) => c.type));
  const ints = new Int32Array(new SharedArrayBuffer(Math.max(4, n * places.ints * 4)), 0, n * places.ints);
  const doubles = new Float64Array(new SharedArrayBuffer(Math.max(8, n * places.doubles * 8)), 0, n * places.doubles);
  for (let c = 0; c < places.ints; c++)
    ints.set(all.ints.subarray(c * all.rows + from, c * all.rows + from + n), c * n);
  for (let c = 0; c < places.doubles; c++)
    doubles.set(all.doubles.subarray(c * all.rows + from, c * all.rows + from + n), c * n);
  return { rows: n, ints, doubles, nulls: all.nulls.slice(), lease: new Int32Array(new SharedArrayBuffer(4)) };
}

const target = `${source}.bench.duckdb`;
const schemaDb = await RunDatabase.open(target, game, [spec], 'create');
const { deals: dealTable, seats: seatTable } = schemaDb.schema;
await schemaDb.close();
const deals = await columnsOf(dealTable, 'grp, rotation, deal');
const seats = await columnsOf(seatTable, 'grp, rotation, deal, seat');
const seatsPerDeal = seats.rows / deals.rows;
const empty = slice(dealTable, deals, 0, 0);
const batches: DbBatch[] = [];
for (let d = 0; d < deals.rows; d += batchDeals) {
  const n = Math.min(batchDeals, deals.rows - d);
  batches.push({
    deals: slice(dealTable, deals, d, n),
    seats: slice(seatTable, seats, d * seatsPerDeal, n * seatsPerDeal),
    matches: empty,
  });
}

/** CPU microseconds that DuckDB alone takes to append `all` (rows of `t`), as the header says. */
async function bareAppend(t: RowTable, all: Columns): Promise<number> {
  const places = columnPlaces(t.numbers.map((c) => c.type));
  const before = process.cpuUsage();
  const memory = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await memory.connect();
  const types = t.numbers.map((_, c) => (places.double[c] ? DOUBLE : INTEGER));
  await connection.run(`CREATE TABLE t (${types.map((type, c) => `c${c} ${type.toString()}`).join(', ')})`);
  const appender = await connection.createAppender('t');
  const chunk = DuckDBDataChunk.create(types);
  const CHUNK = 2048;
  for (let start = 0; start < all.rows; start += CHUNK) {
    const size = Math.min(CHUNK, all.rows - start);
    duckdb.data_chunk_reset(chunk.chunk);
    for (let c = 0; c < types.length; c++) {
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
      const from = places.place[c] * all.rows + start;
      if (places.double[c]) duckdb.copy_data_to_vector(vector, 0, all.doubles.buffer, from * 8, size * 8);
      else duckdb.copy_data_to_vector(vector, 0, all.ints.buffer, from * 4, size * 4);
    }
    duckdb.data_chunk_set_size(chunk.chunk, size);
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
  connection.closeSync();
  memory.closeSync();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

for (let round = 0; round < Number(values.rounds); round++) {
  rmSync(target, { force: true });
  const before = process.cpuUsage();
  const out = await RunDatabase.open(target, game, [spec], 'create');
  for (const b of batches) {
    out.append(spec, [b], null);
    if (out.waiting >= 1 << 19) out.flush();
  }
  await out.close([spec]);
  const used = process.cpuUsage(before);
  const us = (used.user + used.system) / deals.rows;
  const bare = ((await bareAppend(dealTable, deals)) + (await bareAppend(seatTable, seats))) / deals.rows;
  console.log(
    `${spec.game}: ${deals.rows} deals (${seats.rows} seat rows) appended in ${((used.user + used.system) / 1e6).toFixed(2)} s of CPU: ${us.toFixed(2)} µs a deal; DuckDB alone ${bare.toFixed(2)} µs a deal`,
  );
}
rmSync(target, { force: true });
rmSync(`${target}.wal`, { force: true });
