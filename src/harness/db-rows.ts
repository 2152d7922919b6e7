/**
 * The database's rows as a worker makes them: numbers, row after row, in the layout of
 * db-schema.ts (the `numbers` columns; NaN for NULL), for deals, seats and matches. A
 * batch hands them back in shared memory like its tally rows; the main thread appends
 * them (db.ts). Rows of a group that is dropped after a bot failed are taken back.
 */
import type { Game } from '../games/game.js';
import { rowWidths } from './db-schema.js';
import type { DbSink } from './table.js';

/** Rows of `width` numbers, grown as needed. */
class RowBuffer {
  private data: Float64Array;
  rows = 0;

  constructor(readonly width: number) {
    this.data = new Float64Array(width * 1024);
  }

  /** Make room for one more row and return the array and the row's offset in it. */
  add(): Float64Array {
    const need = (this.rows + 1) * this.width;
    if (need > this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.rows++;
    return this.data;
  }

  /** The rows so far in shared memory; the buffer starts empty again. */
  take(): Float64Array {
    const bytes = this.rows * this.width * Float64Array.BYTES_PER_ELEMENT;
    const out = new SharedArrayBuffer(bytes);
    // As bytes: a Float64Array copied into shared memory goes element by element, 30 times slower.
    new Uint8Array(out).set(new Uint8Array(this.data.buffer, 0, bytes));
    this.rows = 0;
    return new Float64Array(out);
  }
}

/** A batch's rows for each table (`matches` empty for a run of single deals). */
export interface DbBatch {
  readonly deals: Float64Array;
  readonly seats: Float64Array;
  readonly matches: Float64Array;
}

export class DbRows implements DbSink {
  private readonly deals: RowBuffer;
  private readonly seats: RowBuffer;
  private readonly matches: RowBuffer;
  private readonly metrics: number;
  private readonly matchMetrics: number;
  private readonly dealFacts: number;
  private readonly seatFacts: number;
  private mark = { deals: 0, seats: 0, matches: 0 };

  constructor(
    game: Game,
    private readonly rotations: number,
  ) {
    const w = rowWidths(game);
    this.deals = new RowBuffer(w.deals);
    this.seats = new RowBuffer(w.seats);
    this.matches = new RowBuffer(w.matches);
    this.metrics = game.dealMetrics.length;
    this.matchMetrics = game.matchMetrics.length;
    this.dealFacts = game.facts?.deal.length ?? 0;
    this.seatFacts = game.facts?.seat.length ?? 0;
  }

  /** A group begins: its rows can be taken back with `dropGroup`. */
  beginGroup(): void {
    this.mark = { deals: this.deals.rows, seats: this.seats.rows, matches: this.matches.rows };
  }

  dropGroup(): void {
    this.deals.rows = this.mark.deals;
    this.seats.rows = this.mark.seats;
    this.matches.rows = this.mark.matches;
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
    let d = this.deals.add();
    let at = (this.deals.rows - 1) * this.deals.width;
    d[at++] = g;
    d[at++] = r;
    d[at++] = g * this.rotations + r;
    d[at++] = k;
    for (let f = 0; f < this.dealFacts; f++) d[at++] = dealFacts[f];
    const M = this.metrics;
    const F = this.seatFacts;
    for (let seat = 0; seat < seatEntrant.length; seat++) {
      d = this.seats.add();
      at = (this.seats.rows - 1) * this.seats.width;
      d[at++] = g;
      d[at++] = r;
      d[at++] = k;
      d[at++] = seat;
      d[at++] = seatEntrant[seat];
      for (let m = 0; m < M; m++) d[at++] = metrics[seat * M + m];
      for (let f = 0; f < F; f++) d[at++] = seatFacts[seat * F + f];
    }
  }

  match(g: number, r: number, seatEntrant: Int32Array, metrics: Float64Array): void {
    const M = this.matchMetrics;
    for (let seat = 0; seat < seatEntrant.length; seat++) {
      const d = this.matches.add();
      let at = (this.matches.rows - 1) * this.matches.width;
      d[at++] = g;
      d[at++] = r;
      d[at++] = g * this.rotations + r;
      d[at++] = seat;
      d[at++] = seatEntrant[seat];
      for (let m = 0; m < M; m++) d[at++] = metrics[seat * M + m];
    }
  }

  take(): DbBatch {
    return { deals: this.deals.take(), seats: this.seats.take(), matches: this.matches.take() };
  }
}
