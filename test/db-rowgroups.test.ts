/**
 * A worker writes its parts a row group at a time (rows.ts, part-file.ts): a batch of
 * thousands of deals becomes parts of several row groups, the groups a bot failed in
 * (dropped with --on-bot-error skip) are in none of them, the deal records (kept for
 * the whole batch) line up with their deals, and the rows are the same whatever the
 * batches. A part written row group by row group reads back as written.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ROOT, tafel, tmpDir } from './cli-helpers.js';
import { PartWriter } from '../src/harness/db/part-file.js';
import { BatchPlayer } from '../src/harness/run/batch.js';
import { liveRun, specFromJournal } from '../src/harness/run/spec.js';

const FLAKY = join(ROOT, 'test', 'fixtures', 'flaky-bot.js');
const RUN = ['run', '--game', 'viersche', '--bots', `f=${FLAKY}:rate=0.004,random`, '--deals', '3000', '--seed', 'rg'];
const MORE = ['--on-bot-error', 'skip', '--max-fault-share', '1', '--out', 'a.csv', '--records', 'r.jsonl'];

async function rows(c: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await c.runAndReadAll(sql)).getRows();
}

describe('parts in row groups', () => {
  it('hold every deal played and none of a dropped group, records in line, whatever the batches', async () => {
    // The run's own parts: batches of up to about 100 ms, mostly one row group each.
    const d = tmpDir();
    const r = tafel([...RUN, ...MORE, '--db', 'a.duckdb', '--workers', '2'], d);
    expect(r.status, r.stderr).toBe(0);
    // The same run played here as one batch: a part of several row groups.
    const header = JSON.parse(readFileSync(join(d, 'a.journal.jsonl'), 'utf8').split('\n')[0]) as { spec: unknown };
    const spec = specFromJournal(header.spec, join(d, 'a.journal.jsonl'));
    if (typeof spec === 'string') throw new Error(spec);
    const b = tmpDir();
    const player = new BatchPlayer(await liveRun({ ...spec, files: { ...spec.files, dir: b, db: 'b.duckdb' } }));
    const batch = player.play(0, spec.groups);
    player.close();
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      const ours = (t: string) => `read_parquet('${join(d, 'a.duckdb.parts')}/*/${t}-*.parquet')`;
      const path = (t: string) => `'${join(b, 'b.duckdb.parts')}/*/${t}-0000000000.parquet'`;
      const one = (t: string) => `read_parquet(${path(t)})`;
      const [[groups]] = await rows(c, `SELECT count(DISTINCT row_group_id) FROM parquet_metadata(${path('seats')})`);
      expect(Number(groups)).toBeGreaterThan(1);
      const faults = JSON.parse(readFileSync(join(d, 'a.duckdb.parts', 'committed.json'), 'utf8')) as {
        faults: { grp: number }[];
      };
      const dropped = faults.faults.map((f) => f.grp);
      expect(dropped.length).toBeGreaterThan(5);
      expect(batch.skipped.map((f) => f.group)).toEqual(dropped);
      // Two deals a group (two seatings): a group dropped in its second leaves no row of its first.
      const played = (await rows(c, `SELECT grp FROM ${one('deals')}`)).map((x) => x[0]);
      expect(played.length).toBe(2 * (spec.groups - dropped.length));
      expect(played.filter((g) => dropped.includes(g as number))).toEqual([]);
      // The record column holds the records file's lines, deal by deal.
      const records = readFileSync(join(d, 'r.jsonl'), 'utf8').trimEnd().split('\n');
      expect((await rows(c, `SELECT record FROM ${one('deals')}`)).map((x) => x[0])).toEqual(records);
      for (const [t, order] of [
        ['deals', 'grp, rotation'],
        ['seats', 'grp, rotation, seat'],
      ]) {
        const all = async (from: string) => JSON.stringify(await rows(c, `SELECT * FROM ${from} ORDER BY ${order}`));
        expect(await all(one(t))).toBe(await all(ours(t)));
      }
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('read back as written, row group by row group', async () => {
    const file = join(tmpDir(), 'p.parquet');
    const part = new PartWriter(file);
    // Text as a part holds it: PLAIN BYTE_ARRAY, each value's length, then its bytes.
    const plain = (lines: string[]) => {
      const bytes = lines.map((l) => new TextEncoder().encode(l));
      const out = new Uint8Array(bytes.reduce((n, b) => n + 4 + b.length, 0));
      let at = 0;
      for (const b of bytes) {
        new DataView(out.buffer).setUint32(at, b.length, true);
        out.set(b, at + 4);
        at += 4 + b.length;
      }
      return out;
    };
    // Column c holds one value in each row group (a dictionary page of it).
    part.rowGroup(3, [
      { name: 'c', kind: 'int', values: Int32Array.of(-5, -5, -5) },
      { name: 'i', kind: 'int', values: Int32Array.of(1, -2, 3) },
      { name: 'd', kind: 'double', values: Float64Array.of(0.5, NaN, -1) },
      { name: 't', kind: 'text', values: plain(['a', '', 'ü']) },
    ]);
    part.rowGroup(0, [
      { name: 'c', kind: 'int', values: new Int32Array(0) },
      { name: 'i', kind: 'int', values: new Int32Array(0) },
      { name: 'd', kind: 'double', values: new Float64Array(0) },
      { name: 't', kind: 'text', values: plain([]) },
    ]);
    part.rowGroup(2, [
      { name: 'c', kind: 'int', values: Int32Array.of(70000, 70000) },
      { name: 'i', kind: 'int', values: Int32Array.of(7, 7) },
      { name: 'd', kind: 'double', values: Float64Array.of(2, 3) },
      { name: 't', kind: 'text', values: plain(['x', 'yz']) },
    ]);
    part.finish();
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    const r = await c.runAndReadAll(`SELECT c, i, d::VARCHAR, t FROM read_parquet('${file}')`);
    expect(r.getRows()).toEqual([
      [-5, 1, '0.5', 'a'],
      [-5, -2, 'nan', ''],
      [-5, 3, '-1.0', 'ü'],
      [70000, 7, '2.0', 'x'],
      [70000, 7, '3.0', 'yz'],
    ]);
    const groups = await c.runAndReadAll(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${file}')`);
    expect(Number(groups.getRows()[0][0])).toBe(3);
    c.closeSync();
    instance.closeSync();
  });
});
