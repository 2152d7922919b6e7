/**
 * The database's rows as a worker makes them, for deals, seats and matches (the
 * `numbers` columns of db-schema.ts): each table's columns, typed arrays of 32-bit ints
 * (every column but the DOUBLE ones; NULL is `NULL_INT`, narrower types are narrowed by
 * the views that read them) and doubles, filled value by value as each deal (and match)
 * ends. Every `ROW_GROUP` deals, as the next group begins, the columns are written as a
 * row group of the tables' part files (part-file.ts) and filled again from their start,
 * so they stay small enough for the core's cache. The worker hands the main thread only
 * the parts' row counts. Rows of a group that is dropped after a bot failed are taken
 * back (the group under way is never in a row group written).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Game } from '../../games/game.js';
import { runNumber, schemaOf, type ColumnType, type RowTable } from './schema.js';
import type { DbSink } from '../table/table.js';
import { pathOf, type RunSpec } from '../run/spec.js';
import { partFile, partsDir, TABLE_NAMES, type PartTable } from './parts.js';
import { PartWriter, plainText, type PartColumn } from './part-file.js';

/** An int column's NULL (no fact or metric takes this value). */
export const NULL_INT = -0x80000000;

/**
 * A batch's part of the database: the groups `start`.. `start + groups - 1` (played or
 * dropped), whose rows of each table are in their part files.
 */
export interface DbBatch {
  readonly start: number;
  readonly groups: number;
  readonly deals: number;
  readonly seats: number;
  readonly matches: number;
}

/**
 * Deals written as a row group of each part at a time: about 300 KB of columns for random
 * Viersche, which stay in the core's cache while they are filled and written. A row group
 * costs a system call and its headers, so much smaller ones cost more again.
 */
const ROW_GROUP = 2048;

/**
 * A table's columns, grown as needed and kept from row group to row group: an int
 * column's values in `ints[c]` (`doubles[c]` empty), a DOUBLE column's in `doubles[c]`.
 * Every column has an array of each type, so that every store sees one kind of array.
 */
class Columns {
  readonly double: Uint8Array;
  ints: Int32Array[];
  doubles: Float64Array[];
  capacity = 0;
  rows = 0;

  constructor(types: readonly ColumnType[]) {
    this.double = Uint8Array.from(types, (t) => (t === 'DOUBLE' ? 1 : 0));
    this.ints = types.map(() => new Int32Array(0));
    this.doubles = types.map(() => new Float64Array(0));
    this.grow(1024);
  }

  /** Room for `rows` rows in all. */
  ensure(rows: number): void {
    if (rows > this.capacity) this.grow(Math.max(rows, 2 * this.capacity));
  }

  private grow(capacity: number): void {
    const keep = this.rows;
    this.ints = this.ints.map((old, c) => {
      const a = new Int32Array(this.double[c] ? 0 : capacity);
      a.set(old.subarray(0, Math.min(keep, old.length)));
      return a;
    });
    this.doubles = this.doubles.map((old, c) => {
      const a = new Float64Array(this.double[c] ? capacity : 0);
      a.set(old.subarray(0, Math.min(keep, old.length)));
      return a;
    });
    this.capacity = capacity;
  }

  /** Column `c` of row `row`: `v`, or NULL when `v` is NaN. */
  set(row: number, c: number, v: number): void {
    if (this.double[c] === 1) this.doubles[c][row] = v;
    else this.ints[c][row] = v === v ? v : NULL_INT;
  }

  /** The columns of the rows held (views, valid until the columns grow). */
  values(): (Int32Array | Float64Array)[] {
    return this.ints.map((a, c) => (this.double[c] ? this.doubles[c] : a).subarray(0, this.rows));
  }
}

/** The table's column types, in the order the worker writes them. */
function typesOf(t: RowTable | null): ColumnType[] {
  return t ? t.numbers.map((c) => c.type) : [];
}

/**
 * Values `from`.. `from + n - 1` of `values`, `stride` apart, into columns `c`.. `c + n - 1`
 * of `row`: NaN as NULL in an int column. The facts and metrics of a deal or a seat.
 */
function setRow(
  ints: Int32Array[],
  doubles: Float64Array[],
  double: Uint8Array,
  row: number,
  c: number,
  values: Float64Array,
  from: number,
  n: number,
): void {
  for (let i = 0; i < n; i++, c++) {
    const v = values[from + i];
    if (double[c] === 1) doubles[c][row] = v;
    else ints[c][row] = v === v ? v : NULL_INT;
  }
}

/**
 * The rows of a batch's deals, seats and matches, column by column as they end; written
 * a row group at a time. With `--records` the deals' columns are kept for the whole
 * batch instead, and written with the records (made for the batch) at its end.
 */
export class DbRows implements DbSink {
  private readonly seats: number;
  private readonly deals: Columns;
  private readonly seatRows: Columns;
  private readonly matches: Columns;
  /** Where the group under way began (`dropGroup` goes back there). */
  private markDeals = 0;
  private markSeats = 0;
  private markMatches = 0;

  private readonly names: { readonly [T in PartTable]: readonly string[] };
  private readonly dir: string;
  private readonly run: number;
  private readonly rotations: number;
  private readonly dealMetrics: number;
  private readonly seatFacts: number;
  private readonly records: boolean;
  private readonly hasMatches: boolean;
  private runColumn = new Int32Array(0);
  private made = false;
  /** The batch's parts being written, and its rows so far. */
  private parts: { [T in PartTable]?: PartWriter } = {};
  private start = 0;
  private dealRows = 0;
  private matchRows = 0;

  constructor(game: Game, rotations: number, spec: RunSpec) {
    // The column types do not depend on the labels, records or matches asked for.
    // Their order is the schema's (schema.ts): deals grp, rotation, match, deal, facts;
    // seats grp, rotation, deal, seat, bot, metrics, facts; matches grp, rotation, match, seat, bot, metrics.
    const schema = schemaOf(game, { matches: true, records: false, labels: [] });
    const names = (t: RowTable | null) => (t ? t.numbers.map((c) => c.name) : []);
    this.names = { deals: names(schema.deals), seats: names(schema.seats), matches: names(schema.matches) };
    this.dir = partsDir(pathOf(spec, 'db')!);
    this.run = runNumber(spec);
    this.rotations = rotations;
    this.records = spec.files.records !== null;
    this.hasMatches = spec.unit === 'match';
    this.seats = spec.seats;
    this.dealMetrics = game.dealMetrics.length;
    this.seatFacts = game.facts?.seat.length ?? 0;
    this.deals = new Columns(typesOf(schema.deals));
    this.seatRows = new Columns(typesOf(schema.seats));
    this.matches = new Columns(typesOf(schema.matches));
  }

  /** A batch begins with group `start`: its parts are named by it. */
  beginBatch(start: number): void {
    if (!this.made) {
      mkdirSync(join(this.dir, String(this.run)), { recursive: true });
      this.made = true;
    }
    // Parts a batch that threw left unfinished are given up.
    for (const t of TABLE_NAMES) this.parts[t]?.abort();
    this.parts = {};
    this.start = start;
    this.deals.rows = 0;
    this.seatRows.rows = 0;
    this.matches.rows = 0;
    this.dealRows = 0;
    this.matchRows = 0;
  }

  /** A group begins: its rows can be taken back with `dropGroup`. */
  beginGroup(): void {
    if (this.seatRows.rows >= ROW_GROUP * this.seats) this.rowGroup();
    this.markDeals = this.deals.rows;
    this.markSeats = this.seatRows.rows;
    this.markMatches = this.matches.rows;
  }

  dropGroup(): void {
    this.deals.rows = this.markDeals;
    this.seatRows.rows = this.markSeats;
    this.matches.rows = this.markMatches;
  }

  deal(
    g: number,
    r: number,
    k: number,
    seatEntrant: Int32Array,
    metrics: Float64Array,
    dealFacts: Float64Array,
    seatFacts: Float64Array,
  ): void {
    const d = this.deals;
    d.ensure(d.rows + 1);
    const row = d.rows++;
    const di = d.ints;
    di[0][row] = g;
    di[1][row] = r;
    di[2][row] = g * this.rotations + r;
    di[3][row] = k;
    setRow(di, d.doubles, d.double, row, 4, dealFacts, 0, dealFacts.length);
    const s = this.seatRows;
    const S = seatEntrant.length;
    const M = this.dealMetrics;
    const F = this.seatFacts;
    s.ensure(s.rows + S);
    const si = s.ints;
    for (let seat = 0; seat < S; seat++) {
      const at = s.rows++;
      si[0][at] = g;
      si[1][at] = r;
      si[2][at] = k;
      si[3][at] = seat;
      si[4][at] = seatEntrant[seat];
      setRow(si, s.doubles, s.double, at, 5, metrics, seat * M, M);
      setRow(si, s.doubles, s.double, at, 5 + M, seatFacts, seat * F, F);
    }
  }

  match(g: number, r: number, seatEntrant: Int32Array, metrics: Float64Array): void {
    const t = this.matches;
    const M = metrics.length / seatEntrant.length;
    t.ensure(t.rows + seatEntrant.length);
    for (let seat = 0; seat < seatEntrant.length; seat++) {
      const at = t.rows++;
      t.set(at, 0, g);
      t.set(at, 1, r);
      t.set(at, 2, g * this.rotations + r);
      t.set(at, 3, seat);
      t.set(at, 4, seatEntrant[seat]);
      for (let m = 0; m < M; m++) t.set(at, 5 + m, metrics[seat * M + m]);
    }
  }

  /** Write the rows held as a row group of each table (the deals' kept for the batch with records). */
  private rowGroup(): void {
    if (!this.records) {
      this.dealRows += this.deals.rows;
      this.writeRows('deals', this.deals, null);
    }
    this.writeRows('seats', this.seatRows, null);
    if (this.hasMatches) {
      this.matchRows += this.matches.rows;
      this.writeRows('matches', this.matches, null);
    }
  }

  /**
   * Write the rest of the batch's `groups` groups (from the `start` of `beginBatch`) and
   * finish its parts; `records` is their deal records (one line a deal) when the deals
   * table keeps them.
   */
  write(groups: number, records: Uint8Array | null): DbBatch {
    const start = this.start;
    try {
      // The last row group, or the first: a part holds at least one, if empty.
      if (this.seatRows.rows > 0 || !this.parts.seats) this.rowGroup();
      if (this.records) {
        this.dealRows = this.deals.rows;
        this.writeRows('deals', this.deals, plainText(records ?? new Uint8Array(0), this.deals.rows));
      }
      for (const t of TABLE_NAMES) this.parts[t]?.finish();
    } catch (e) {
      for (const t of TABLE_NAMES) this.parts[t]?.abort();
      throw e;
    } finally {
      this.parts = {};
    }
    const deals = this.dealRows;
    return { start, groups, deals, seats: deals * this.seats, matches: this.matchRows };
  }

  /** Table `table`'s rows held in `t` (and `text`, its records), as a row group of its part; `t` is then empty. */
  private writeRows(table: PartTable, t: Columns, text: Uint8Array | null): void {
    const n = t.rows;
    if (this.runColumn.length < n) {
      this.runColumn = new Int32Array(n * 2);
      this.runColumn.fill(this.run);
    }
    const columns: PartColumn[] = [{ name: 'run', kind: 'int', values: this.runColumn.subarray(0, n) }];
    const names = this.names[table];
    const values = t.values();
    for (let c = 0; c < names.length; c++) {
      const v = values[c];
      columns.push(
        v instanceof Float64Array
          ? { name: names[c], kind: 'double', values: v }
          : { name: names[c], kind: 'int', values: v },
      );
    }
    if (text) columns.push({ name: 'record', kind: 'text', values: text });
    const part = (this.parts[table] ??= new PartWriter(join(this.dir, partFile(this.run, table, this.start))));
    part.rowGroup(n, columns);
    t.rows = 0;
  }
}
