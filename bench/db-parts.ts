/**
 * What a run database costs, per deal, where it is paid. The rows of a database that
 * `tafel run --db` made are read back from its parts, then in each round:
 *
 *   part write   the worker's cost: the same columns written again as parts of `--batch`
 *                deals (`writePart`, as a worker writes a batch), CPU µs and bytes a deal
 *   DuckDB COPY  the alternative of writing parts through DuckDB in the worker: the same
 *                rows, already in an in-memory table, copied to Parquet with each codec
 *                (the appender that would fill that table costs 2.9-3.5 µs a random
 *                Viersche deal more, bench/README.md)
 *   commit       the main thread's cost: committed.json rewritten with the parts of a
 *                run of 10^8 deals in batches of `--batch` deals, ms a commit
 *
 *   npm run build
 *   node dist/src/cli/main.js run --game viersche --bots random --deals 300000 --db /tmp/r.duckdb --force
 *   node dist/bench/db-parts.js /tmp/r.duckdb [--batch 20000] [--rounds 5]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { writePart, type PartColumn } from '../src/harness/db/part-file.js';
import {
  partFile,
  partsDir,
  readManifest,
  sqlString,
  TABLE_NAMES,
  writeManifest,
  type PartEntry,
} from '../src/harness/db/parts.js';

const { values, positionals } = parseArgs({
  options: { batch: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } },
  allowPositionals: true,
});
const source = positionals[0];
if (!source) throw new Error('usage: node dist/bench/db-parts.js RUN.duckdb [--batch DEALS] [--rounds N]');
const batchDeals = Number(values.batch);
const rounds = Number(values.rounds);
const m = readManifest(source);
if (!m) throw new Error(`${source}: no committed.json (not a database of parts)`);

const connection = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
const work = mkdtempSync(join(tmpdir(), 'db-parts-'));
let deals = 0;
for (const p of m.parts) deals += p[3];

/** A table's raw part columns, in the parts' own types. */
async function columnsOf(table: string): Promise<PartColumn[]> {
  const files = m!.parts.map((p) => sqlString(resolve(partsDir(source), partFile(p[0], table as 'deals', p[1]))));
  await connection.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet([${files.join(', ')}])`);
  const r = await connection.runAndReadAll(`SELECT * FROM ${table}`);
  const types = r.columnTypes().map((t) => t.toString());
  return r.columnNames().map((name, c) => {
    const v = r.getColumnsJS()[c];
    if (types[c] === 'DOUBLE') return { name, kind: 'double', values: Float64Array.from(v as number[]) };
    if (types[c] === 'INTEGER') return { name, kind: 'int', values: Int32Array.from(v as number[]) };
    throw new Error(`${table}.${name}: ${types[c]} (give a run without --records)`);
  });
}

const tables: { name: string; rows: number; columns: PartColumn[] }[] = [];
for (const t of TABLE_NAMES) {
  if (!m.tables[t] || !m.parts.some((p) => p[3 + TABLE_NAMES.indexOf(t)] > 0)) continue;
  const columns = await columnsOf(t);
  tables.push({ name: t, rows: columns[0].values.length, columns });
}

function cpuUs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const writes: number[] = [];
let bytes = 0;
for (let round = 0; round < rounds; round++) {
  bytes = 0;
  const us = cpuUs(() => {
    for (const t of tables) {
      const per = Math.max(1, Math.round((t.rows / deals) * batchDeals));
      for (let from = 0, k = 0; from < t.rows; from += per, k++) {
        const n = Math.min(per, t.rows - from);
        const cols = t.columns.map((c) => ({ ...c, values: c.values.subarray(from, from + n) }) as PartColumn);
        const file = join(work, `${t.name}-${k}.parquet`);
        writePart(file, n, cols);
        bytes += statSync(file).size;
      }
    }
  });
  writes.push(us / deals);
}
console.log(
  `${deals} deals, parts of ${batchDeals} deals: part write ${median(writes).toFixed(3)} µs/deal (median of ${rounds}; ${writes.map((x) => x.toFixed(3)).join(' ')}), ${(bytes / deals).toFixed(1)} bytes/deal`,
);

for (const codec of ['uncompressed', 'snappy', 'zstd']) {
  const times: number[] = [];
  let size = 0;
  for (let round = 0; round < rounds; round++) {
    size = 0;
    const t = performance.now();
    for (const { name } of tables) {
      const file = join(work, `${name}-copy.parquet`);
      await connection.run(`COPY ${name} TO ${sqlString(file)} (FORMAT parquet, COMPRESSION ${codec})`);
      size += statSync(file).size;
    }
    times.push(((performance.now() - t) * 1000) / deals);
  }
  console.log(
    `DuckDB COPY ${codec}: ${median(times).toFixed(3)} µs/deal (wall, one thread), ${(size / deals).toFixed(1)} bytes/deal`,
  );
}

// The commit of a run of 10^8 deals at its end: committed.json with all its parts.
const parts = Math.ceil(1e8 / batchDeals);
const big = {
  ...m,
  parts: Array.from({ length: parts }, (_, i): PartEntry => [1, i, batchDeals, batchDeals, 4 * batchDeals, 0]),
};
const commits: number[] = [];
const fake = join(work, 'r.duckdb');
mkdirSync(partsDir(fake));
for (let round = 0; round < rounds; round++) {
  const t = performance.now();
  writeManifest(fake, big);
  commits.push(performance.now() - t);
}
console.log(`commit with ${parts} parts (10^8 deals): ${median(commits).toFixed(2)} ms`);
rmSync(work, { recursive: true, force: true });
