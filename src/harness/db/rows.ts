/**
 * The database's rows as a worker makes them, for deals, seats and matches (the
 * `numbers` columns of db-schema.ts), column by column in local typed arrays:
 *
 *   ints      every column but the DOUBLE ones, `rows` values each, in the table's order
 *             (NULL is `NULL_INT`); narrower types are narrowed by the views that read them
 *   doubles   the DOUBLE columns, `rows` values each
 *
 * At the end of a batch the worker writes them as its part files (db-parts.ts), straight
 * from these arrays, and hands the main thread only their row counts. Rows of a group
 * that is dropped after a bot failed are taken back.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Game } from '../../games/game.js';
import { runNumber, schemaOf, type ColumnType, type RowTable } from './schema.js';
import type { DbSink } from '../table/table.js';
import { pathOf, type RunSpec } from '../run/spec.js';
import { partFile, partsDir, type PartTable } from './parts.js';
import { plainText, writePart, type PartColumn } from './part-file.js';

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

export class DbRows implements DbSink {
  private readonly deals: ColumnBuffer;
  private readonly seats: ColumnBuffer;
  private readonly matches: ColumnBuffer;
  private readonly metrics: number;
  private readonly matchMetrics: number;
  private readonly dealFacts: number;
  private readonly seatFacts: number;
  /** Where the group under way began in each table (`dropGroup` goes back there). */
  private markDeals = 0;
  private markSeats = 0;
  private markMatches = 0;

  private readonly names: { readonly [T in PartTable]: readonly string[] };
  private readonly dir: string;
  private readonly run: number;
  private readonly records: boolean;
  private readonly hasMatches: boolean;
  private runColumn = new Int32Array(0);
  private made = false;

  constructor(
    game: Game,
    private readonly rotations: number,
    spec: RunSpec,
  ) {
    // The column types do not depend on the labels, records or matches asked for.
    const schema = schemaOf(game, { matches: true, records: false, labels: [] });
    const names = (t: RowTable | null) => (t ? t.numbers.map((c) => c.name) : []);
    this.names = { deals: names(schema.deals), seats: names(schema.seats), matches: names(schema.matches) };
    this.dir = partsDir(pathOf(spec, 'db')!);
    this.run = runNumber(spec);
    this.records = spec.files.records !== null;
    this.hasMatches = spec.unit === 'match';
    this.deals = new ColumnBuffer(columnPlaces(typesOf(schema.deals)));
    this.seats = new ColumnBuffer(columnPlaces(typesOf(schema.seats)));
    this.matches = new ColumnBuffer(columnPlaces(typesOf(schema.matches)));
    this.metrics = game.dealMetrics.length;
    this.matchMetrics = game.matchMetrics.length;
    this.dealFacts = game.facts?.deal.length ?? 0;
    this.seatFacts = game.facts?.seat.length ?? 0;
  }

  /** A group begins: its rows can be taken back with `dropGroup`. */
  beginGroup(): void {
    this.markDeals = this.deals.rows;
    this.markSeats = this.seats.rows;
    this.markMatches = this.matches.rows;
  }

  dropGroup(): void {
    this.deals.rows = this.markDeals;
    this.seats.rows = this.markSeats;
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
    const row = d.add();
    d.set(row, 0, g);
    d.set(row, 1, r);
    d.set(row, 2, g * this.rotations + r);
    d.set(row, 3, k);
    for (let f = 0; f < this.dealFacts; f++) d.set(row, 4 + f, dealFacts[f]);
    const s = this.seats;
    const M = this.metrics;
    const F = this.seatFacts;
    for (let seat = 0; seat < seatEntrant.length; seat++) {
      const at = s.add();
      s.set(at, 0, g);
      s.set(at, 1, r);
      s.set(at, 2, k);
      s.set(at, 3, seat);
      s.set(at, 4, seatEntrant[seat]);
      for (let m = 0; m < M; m++) s.set(at, 5 + m, metrics[seat * M + m]);
      for (let f = 0; f < F; f++) s.set(at, 5 + M + f, seatFacts[seat * F + f]);
    }
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

  /**
   * Write the rows of the batch's `groups` groups from `start` as its part files, and
   * start empty again; `records` is their deal records (one line a deal) when the
   * deals table keeps them.
   */
  write(start: number, groups: number, records: Uint8Array | null): DbBatch {
    if (!this.made) {
      mkdirSync(join(this.dir, String(this.run)), { recursive: true });
      this.made = true;
    }
    const counts = { deals: this.deals.rows, seats: this.seats.rows, matches: this.matches.rows };
    this.writeTable('deals', this.deals, this.records ? (records ?? new Uint8Array(0)) : null, start);
    this.writeTable('seats', this.seats, null, start);
    if (this.hasMatches) this.writeTable('matches', this.matches, null, start);
    return { start, groups, deals: counts.deals, seats: counts.seats, matches: this.hasMatches ? counts.matches : 0 };
  }

  private writeTable(table: PartTable, b: ColumnBuffer, records: Uint8Array | null, start: number): void {
    const n = b.rows;
    if (this.runColumn.length < n) {
      this.runColumn = new Int32Array(n * 2);
      this.runColumn.fill(this.run);
    }
    const columns: PartColumn[] = [{ name: 'run', kind: 'int', values: this.runColumn }];
    const names = this.names[table];
    for (let c = 0; c < names.length; c++) columns.push({ name: names[c], ...b.column(c) });
    if (records) columns.push({ name: 'record', kind: 'text', values: plainText(records, n) });
    writePart(join(this.dir, partFile(this.run, table, start)), n, columns);
    b.rows = 0;
  }
}
