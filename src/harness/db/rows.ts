/**
 * The database's rows as a worker makes them, for deals, seats and matches (the
 * `numbers` columns of db-schema.ts). A batch hands them to the main thread column by
 * column in shared memory, the way DuckDB's vectors hold them, so that the main thread
 * appends most columns with one copy each (db.ts):
 *
 *   ints      every column but the DOUBLE ones, `rows` values each, in the table's order
 *             (NULL is `NULL_INT`); narrower types are narrowed by the main thread
 *   doubles   the DOUBLE columns, `rows` values each (NULL is NaN)
 *   nulls     per column, 1 when some row may be NULL
 *
 * The shared buffers are reused: the main thread clears a buffer's lease once it has
 * read it, and the worker hands that buffer out again (allocating shared memory costs
 * far more than filling it). Rows of a group that is dropped after a bot failed are
 * taken back.
 */
import type { Game } from '../../games/game.js';
import { schemaOf, type ColumnType, type RowTable } from './schema.js';
import type { DbSink } from '../table/table.js';

/** An int column's NULL (no fact or metric takes this value). */
export const NULL_INT = -0x80000000;

/** One table's rows of a batch, column after column, in shared memory. */
export interface DbColumns {
  readonly rows: number;
  readonly ints: Int32Array;
  readonly doubles: Float64Array;
  readonly nulls: Uint8Array;
  /** Word 0 is 1 while the main thread has not read the rows; it stores 0 when done with them. */
  readonly lease: Int32Array;
}

/** A batch's rows for each table (`matches` empty for a run of single deals). */
export interface DbBatch {
  readonly deals: DbColumns;
  readonly seats: DbColumns;
  readonly matches: DbColumns;
}

/** Where each column of a table lives: among the doubles or the ints, and at which place. */
export interface ColumnPlaces {
  readonly double: Uint8Array;
  readonly place: Int32Array;
  readonly ints: number;
  readonly doubles: number;
}

export function columnPlaces(types: readonly ColumnType[]): ColumnPlaces {
  const double = Uint8Array.from(types, (t) => (t === 'DOUBLE' ? 1 : 0));
  const place = new Int32Array(types.length);
  let ints = 0;
  let doubles = 0;
  for (let c = 0; c < types.length; c++) place[c] = double[c] ? doubles++ : ints++;
  return { double, place, ints, doubles };
}

/** Shared buffers kept for reuse, per table. */
const KEPT = 8;

/** A table's rows of the batch under way, column-major in local memory, grown as needed. */
class ColumnBuffer {
  private ints: Int32Array;
  private doubles: Float64Array;
  private capacity = 1024;
  private readonly nulls: Uint8Array;
  private readonly kept: SharedArrayBuffer[] = [];
  rows = 0;

  constructor(private readonly places: ColumnPlaces) {
    this.ints = new Int32Array(places.ints * this.capacity);
    this.doubles = new Float64Array(places.doubles * this.capacity);
    this.nulls = new Uint8Array(places.place.length);
  }

  /** A new row: its index. */
  add(): number {
    if (this.rows === this.capacity) this.grow();
    return this.rows++;
  }

  /** Column `c` of row `row`: `v`, or NULL when `v` is NaN. */
  set(row: number, c: number, v: number): void {
    const at = this.places.place[c] * this.capacity + row;
    if (this.places.double[c] === 1) {
      this.doubles[at] = v;
    } else if (v === v) {
      this.ints[at] = v;
    } else {
      this.ints[at] = NULL_INT;
      this.nulls[c] = 1;
    }
  }

  private grow(): void {
    const { ints: ni, doubles: nd } = this.places;
    const old = this.capacity;
    this.capacity *= 2;
    const ints = new Int32Array(ni * this.capacity);
    for (let c = 0; c < ni; c++) ints.set(this.ints.subarray(c * old, (c + 1) * old), c * this.capacity);
    const doubles = new Float64Array(nd * this.capacity);
    for (let c = 0; c < nd; c++) doubles.set(this.doubles.subarray(c * old, (c + 1) * old), c * this.capacity);
    this.ints = ints;
    this.doubles = doubles;
  }

  /** The rows so far in shared memory (a buffer the main thread has released, or a new one); the buffer starts empty again. */
  take(): DbColumns {
    const { ints: ni, doubles: nd, place } = this.places;
    const n = this.rows;
    // Lease word (8 bytes, keeping the doubles aligned), doubles, ints, nulls.
    const doublesAt = 8;
    const intsAt = doublesAt + n * nd * 8;
    const nullsAt = intsAt + n * ni * 4;
    const buffer = this.buffer(nullsAt + place.length);
    const lease = new Int32Array(buffer, 0, 1);
    Atomics.store(lease, 0, 1);
    // As bytes: a typed array copied into shared memory goes element by element, many times slower.
    const bytes = new Uint8Array(buffer);
    for (let c = 0; c < nd; c++) {
      bytes.set(new Uint8Array(this.doubles.buffer, c * this.capacity * 8, n * 8), doublesAt + c * n * 8);
    }
    for (let c = 0; c < ni; c++) {
      bytes.set(new Uint8Array(this.ints.buffer, c * this.capacity * 4, n * 4), intsAt + c * n * 4);
    }
    bytes.set(this.nulls, nullsAt);
    this.rows = 0;
    this.nulls.fill(0);
    return {
      rows: n,
      doubles: new Float64Array(buffer, doublesAt, n * nd),
      ints: new Int32Array(buffer, intsAt, n * ni),
      nulls: new Uint8Array(buffer, nullsAt, place.length),
      lease,
    };
  }

  /**
   * A released buffer of at least `size` bytes, or a new one, kept for reuse in place of
   * the smallest released one when the ring is full (batches grow as the run learns
   * the bots' speed). The first writes into new shared memory cost far more than the
   * copy itself, so buffers are reused whenever one fits.
   */
  private buffer(size: number): SharedArrayBuffer {
    const released = (b: SharedArrayBuffer) => Atomics.load(new Int32Array(b, 0, 1), 0) === 0;
    let smallest = -1;
    for (let i = 0; i < this.kept.length; i++) {
      const b = this.kept[i];
      if (!released(b)) continue;
      if (b.byteLength >= size) return b;
      if (smallest < 0 || b.byteLength < this.kept[smallest].byteLength) smallest = i;
    }
    let bytes = 4096;
    while (bytes < size) bytes *= 2;
    const b = new SharedArrayBuffer(bytes);
    if (this.kept.length < KEPT) this.kept.push(b);
    else if (smallest >= 0) this.kept[smallest] = b;
    return b;
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

  constructor(
    game: Game,
    private readonly rotations: number,
  ) {
    // The column types do not depend on the labels, records or matches asked for.
    const schema = schemaOf(game, { matches: true, records: false, labels: [] });
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

  take(): DbBatch {
    return { deals: this.deals.take(), seats: this.seats.take(), matches: this.matches.take() };
  }
}
