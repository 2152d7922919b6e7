/**
 * The database's rows as a worker makes them, for deals, seats and matches (the
 * `numbers` columns of db-schema.ts). A deal's numbers are staged as one record as it
 * ends, and at the end of a batch turned into the tables' columns, typed arrays of
 * 32-bit ints (every column but the DOUBLE ones; NULL is `NULL_INT`, narrower types
 * are narrowed by the views that read them) and doubles; matches are kept column by
 * column as they end. The worker writes the columns as its part files (part-file.ts)
 * and hands the main thread only their row counts. Rows of a group that is dropped
 * after a bot failed are taken back.
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
 * dropped), whose rows of each table are in their part files (db-parts.ts).
 */
export interface DbBatch {
  readonly start: number;
  readonly groups: number;
  readonly deals: number;
  readonly seats: number;
  readonly matches: number;
}

/** Where each column of a table lives: among the doubles or the ints, and at which place. */
interface ColumnPlaces {
  readonly double: Uint8Array;
  readonly place: Int32Array;
  readonly ints: number;
  readonly doubles: number;
}

function columnPlaces(types: readonly ColumnType[]): ColumnPlaces {
  const double = Uint8Array.from(types, (t) => (t === 'DOUBLE' ? 1 : 0));
  const place = new Int32Array(types.length);
  let ints = 0;
  let doubles = 0;
  for (let c = 0; c < types.length; c++) place[c] = double[c] ? doubles++ : ints++;
  return { double, place, ints, doubles };
}

/** A table's rows of the batch under way, column-major in local memory, grown as needed. */
class ColumnBuffer {
  private intData: Int32Array;
  private doubleData: Float64Array;
  private capacity = 1024;
  rows = 0;

  constructor(readonly places: ColumnPlaces) {
    this.intData = new Int32Array(places.ints * this.capacity);
    this.doubleData = new Float64Array(places.doubles * this.capacity);
  }

  /** A new row: its index. */
  add(): number {
    if (this.rows === this.capacity) this.grow();
    return this.rows++;
  }

  /** Column `c` of row `row`: `v`, or NULL when `v` is NaN. */
  set(row: number, c: number, v: number): void {
    const at = this.places.place[c] * this.capacity + row;
    if (this.places.double[c] === 1) this.doubleData[at] = v;
    else this.intData[at] = v === v ? v : NULL_INT;
  }

  private grow(): void {
    const { ints: ni, doubles: nd } = this.places;
    const old = this.capacity;
    this.capacity *= 2;
    const ints = new Int32Array(ni * this.capacity);
    for (let c = 0; c < ni; c++) ints.set(this.intData.subarray(c * old, (c + 1) * old), c * this.capacity);
    const doubles = new Float64Array(nd * this.capacity);
    for (let c = 0; c < nd; c++) doubles.set(this.doubleData.subarray(c * old, (c + 1) * old), c * this.capacity);
    this.intData = ints;
    this.doubleData = doubles;
  }

  /** Column `c`'s values so far (a view of the buffer: valid until the next `add`). */
  column(c: number): { kind: 'int'; values: Int32Array } | { kind: 'double'; values: Float64Array } {
    const at = this.places.place[c] * this.capacity;
    return this.places.double[c] === 1
      ? { kind: 'double', values: this.doubleData.subarray(at, at + this.rows) }
      : { kind: 'int', values: this.intData.subarray(at, at + this.rows) };
  }
}

/** The table's column types, in the order the worker writes them. */
function typesOf(t: RowTable | null): ColumnType[] {
  return t ? t.numbers.map((c) => c.type) : [];
}

/**
 * Where a column's values are in a staged deal: at `at`, and for the seats table seat
 * j's at `at + j * width` (width 0: the deal's value, the same for every seat).
 */
interface Source {
  readonly at: number;
  readonly width: number;
  readonly double: boolean;
}

/** Deals staged before they are written as a row group of each part (about 360 KB of columns for random Viersche). */
const ROW_GROUP = 1024;

/** Deals turned into columns at a time: their staged records stay in the core's cache while every column takes its values. */
const BLOCK = 64;

/**
 * A table's columns (`per` rows a deal: 1, or the seats) from staged deals of `length`
 * numbers each, into arrays kept from batch to batch (grown as needed).
 */
class Transposer {
  private ints: Int32Array[];
  private doubles: Float64Array[];
  private capacity = 0;
  /** Rows held. */
  rows = 0;

  constructor(
    private readonly sources: readonly Source[],
    private readonly per: number,
  ) {
    this.ints = sources.map(() => new Int32Array(0));
    this.doubles = sources.map(() => new Float64Array(0));
  }

  /** Add the rows of `deals` staged deals after the rows held. */
  add(stage: Float64Array, length: number, deals: number): void {
    const { sources, per } = this;
    const base = this.rows;
    const rows = base + deals * per;
    if (rows > this.capacity) this.grow(Math.max(1024, rows * 2));
    for (let from = 0; from < deals; from += BLOCK) {
      const to = Math.min(deals, from + BLOCK);
      for (let c = 0; c < sources.length; c++) {
        const { at, width, double } = sources[c];
        if (double) doublesOf(this.doubles[c], base, stage, length, from, to, at, per, width);
        else intsOf(this.ints[c], base, stage, length, from, to, at, per, width);
      }
    }
    this.rows = rows;
  }

  /** The columns of the rows held (views, valid until the next `add`). */
  columns(): (Int32Array | Float64Array)[] {
    return this.sources.map((c, i) => (c.double ? this.doubles[i] : this.ints[i]).subarray(0, this.rows));
  }

  private grow(capacity: number): void {
    const keep = this.rows;
    this.capacity = capacity;
    this.ints = this.sources.map((c, i) => {
      const a = new Int32Array(c.double ? 0 : capacity);
      if (!c.double) a.set(this.ints[i].subarray(0, keep));
      return a;
    });
    this.doubles = this.sources.map((c, i) => {
      const a = new Float64Array(c.double ? capacity : 0);
      if (c.double) a.set(this.doubles[i].subarray(0, keep));
      return a;
    });
  }
}

/** Rows of deals `from`.. `to - 1` of an int column, after `base` rows: NaN as NULL. */
function intsOf(
  out: Int32Array,
  base: number,
  stage: Float64Array,
  length: number,
  from: number,
  to: number,
  at: number,
  per: number,
  width: number,
): void {
  for (let i = from, row = base + from * per; i < to; i++) {
    for (let j = 0, x = i * length + at; j < per; j++, x += width) {
      const v = stage[x];
      out[row++] = v === v ? v : NULL_INT;
    }
  }
}

/** The same for a DOUBLE column (NaN kept): two functions, so that each loop sees one array type. */
function doublesOf(
  out: Float64Array,
  base: number,
  stage: Float64Array,
  length: number,
  from: number,
  to: number,
  at: number,
  per: number,
  width: number,
): void {
  for (let i = from, row = base + from * per; i < to; i++)
    for (let j = 0, x = i * length + at; j < per; j++, x += width) out[row++] = stage[x];
}

/**
 * The rows of a batch's deals and seats, staged deal by deal in one array of numbers (a
 * deal's record: g, r, k, its match, the seats' numbers, then every seat's entrant,
 * metrics and facts, then the deal's facts) and turned into the tables' columns block by
 * block (a store per value into its column as each deal ends cost the worker about twice
 * as much). Once `ROW_GROUP` deals are staged, as the next group begins, they are
 * written as a row group of each table's part: the stage and the columns stay small
 * enough for the core's cache, and the group under way, which may yet be dropped, is
 * never in a row group written. With `--records` the deals' columns are kept for the
 * whole batch instead, and written with the records (made for the batch) at its end.
 */
export class DbRows implements DbSink {
  private readonly seats: number;
  /** A staged deal: its length, and where its parts begin. */
  private readonly length: number;
  private readonly atSeats = 4;
  private readonly atEntrants: number;
  private readonly atMetrics: number;
  private readonly atSeatFacts: number;
  private readonly atDealFacts: number;
  private stage: Float64Array;
  /** Deals staged since the last row group. */
  private staged = 0;
  private readonly dealColumns: Transposer;
  private readonly seatColumns: Transposer;
  private readonly matches: ColumnBuffer;
  /** Where the group under way began (`dropGroup` goes back there). */
  private markDeals = 0;
  private markMatches = 0;

  private readonly names: { readonly [T in PartTable]: readonly string[] };
  private readonly dir: string;
  private readonly run: number;
  private readonly rotations: number;
  private readonly matchMetrics: number;
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
    const schema = schemaOf(game, { matches: true, records: false, labels: [] });
    const names = (t: RowTable | null) => (t ? t.numbers.map((c) => c.name) : []);
    this.names = { deals: names(schema.deals), seats: names(schema.seats), matches: names(schema.matches) };
    this.dir = partsDir(pathOf(spec, 'db')!);
    this.run = runNumber(spec);
    this.rotations = rotations;
    this.records = spec.files.records !== null;
    this.hasMatches = spec.unit === 'match';
    this.matchMetrics = game.matchMetrics.length;
    const S = (this.seats = spec.seats);
    const M = game.dealMetrics.length;
    const dealFacts = game.facts?.deal.length ?? 0;
    const F = game.facts?.seat.length ?? 0;
    this.atEntrants = this.atSeats + S;
    this.atMetrics = this.atEntrants + S;
    this.atSeatFacts = this.atMetrics + S * M;
    this.atDealFacts = this.atSeatFacts + S * F;
    this.length = this.atDealFacts + dealFacts;
    this.stage = new Float64Array(ROW_GROUP * this.length);
    const double = (t: ColumnType) => t === 'DOUBLE';
    const dealTypes = typesOf(schema.deals);
    const seatTypes = typesOf(schema.seats);
    // The columns' order is the schema's (schema.ts): deals grp, rotation, match, deal, facts;
    // seats grp, rotation, deal, seat, bot, metrics, facts.
    this.dealColumns = new Transposer(
      [0, 1, 3, 2]
        .map((at) => ({ at, width: 0, double: false }))
        .concat(dealTypes.slice(4).map((t, f) => ({ at: this.atDealFacts + f, width: 0, double: double(t) }))),
      1,
    );
    this.seatColumns = new Transposer(
      [
        { at: 0, width: 0, double: false },
        { at: 1, width: 0, double: false },
        { at: 2, width: 0, double: false },
        { at: this.atSeats, width: 1, double: false },
        { at: this.atEntrants, width: 1, double: false },
        ...seatTypes.slice(5, 5 + M).map((t, m) => ({ at: this.atMetrics + m, width: M, double: double(t) })),
        ...seatTypes.slice(5 + M).map((t, f) => ({ at: this.atSeatFacts + f, width: F, double: double(t) })),
      ],
      S,
    );
    this.matches = new ColumnBuffer(columnPlaces(typesOf(schema.matches)));
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
    this.staged = 0;
    this.matches.rows = 0;
    this.dealColumns.rows = 0;
    this.seatColumns.rows = 0;
    this.dealRows = 0;
    this.matchRows = 0;
  }

  /** A group begins: its rows can be taken back with `dropGroup`. */
  beginGroup(): void {
    if (this.staged >= ROW_GROUP) this.rowGroup();
    this.markDeals = this.staged;
    this.markMatches = this.matches.rows;
  }

  dropGroup(): void {
    this.staged = this.markDeals;
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
    const L = this.length;
    if ((this.staged + 1) * L > this.stage.length) {
      const grown = new Float64Array(this.stage.length * 2);
      grown.set(this.stage);
      this.stage = grown;
    }
    const stage = this.stage;
    let at = this.staged++ * L;
    stage[at++] = g;
    stage[at++] = r;
    stage[at++] = k;
    stage[at++] = g * this.rotations + r;
    // Plain loops: `TypedArray.set` costs more than copying a few dozen numbers.
    for (let i = 0; i < seatEntrant.length; i++) stage[at++] = i;
    for (let i = 0; i < seatEntrant.length; i++) stage[at++] = seatEntrant[i];
    for (let i = 0; i < metrics.length; i++) stage[at++] = metrics[i];
    for (let i = 0; i < seatFacts.length; i++) stage[at++] = seatFacts[i];
    for (let i = 0; i < dealFacts.length; i++) stage[at++] = dealFacts[i];
  }

  match(g: number, r: number, seatEntrant: Int32Array, metrics: Float64Array): void {
    const t = this.matches;
    const M = this.matchMetrics;
    for (let seat = 0; seat < seatEntrant.length; seat++) {
      const at = t.add();
      t.set(at, 0, g);
      t.set(at, 1, r);
      t.set(at, 2, g * this.rotations + r);
      t.set(at, 3, seat);
      t.set(at, 4, seatEntrant[seat]);
      for (let m = 0; m < M; m++) t.set(at, 5 + m, metrics[seat * M + m]);
    }
  }

  /** Write the staged rows as a row group of each table (the deals' kept for the batch with records). */
  private rowGroup(): void {
    const { stage, length, staged } = this;
    this.dealRows += staged;
    this.dealColumns.add(stage, length, staged);
    this.seatColumns.add(stage, length, staged);
    this.staged = 0;
    if (!this.records) this.writeRows('deals', this.dealColumns.rows, this.dealColumns.columns(), null);
    this.writeRows('seats', this.seatColumns.rows, this.seatColumns.columns(), null);
    this.seatColumns.rows = 0;
    if (!this.records) this.dealColumns.rows = 0;
    if (this.hasMatches) {
      const m = this.matches;
      this.matchRows += m.rows;
      this.writeRows(
        'matches',
        m.rows,
        this.names.matches.map((_, c) => m.column(c).values),
        null,
      );
      m.rows = 0;
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
      if (this.staged > 0 || !this.parts.seats) this.rowGroup();
      if (this.records) {
        const text = records ?? new Uint8Array(0);
        const rows = this.dealColumns.rows;
        this.writeRows('deals', rows, this.dealColumns.columns(), plainText(text, rows));
        this.dealColumns.rows = 0;
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

  private writeRows(
    table: PartTable,
    n: number,
    values: readonly (Int32Array | Float64Array)[],
    text: Uint8Array | null,
  ): void {
    if (this.runColumn.length < n) {
      this.runColumn = new Int32Array(n * 2);
      this.runColumn.fill(this.run);
    }
    const columns: PartColumn[] = [{ name: 'run', kind: 'int', values: this.runColumn.subarray(0, n) }];
    const names = this.names[table];
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
  }
}
