/**
 * A batch: consecutive duplicate groups played by one table, in a worker thread or in
 * the main thread alike, and what they produced packed for the trip back: one row of
 * numbers per group (its `GroupTally`), and, when asked, the groups' deal records,
 * per-deal CSV rows and the journal's skipped lines as finished text. Text is made here and not in
 * the main thread, so that formatting is spread over the workers too (formatting a
 * deal's record or CSV rows costs about as much as playing a random deal).
 */
import { stringify } from 'csv-stringify/sync';
import { isTafelError, type ErrorCode } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { DbRows, type DbBatch } from '../db/rows.js';
import { skippedText } from './journal.js';
import { BotFault, type FaultKind } from '../programs/fault.js';
import type { LiveRun } from './spec.js';
import { GroupTally, MoveFault, Table } from '../table/table.js';
import { closeProgram, takeRestarts } from '../programs/bot.js';
import type { MoveSite, MoveWatch } from '../table/watch.js';

/** What stopped a group (and a batch, unless dropped): a bot's fault, or a bot that could not be loaded. */
export interface Failure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly group: number;
  /** The fault's kind; null for a failure that is no bot's fault in play (a bot that could not be loaded). */
  readonly fault: FaultKind | null;
  /** The entrant at fault, or -1 when not known (a journal line written before faults had kinds). */
  readonly entrant: number;
  /** Where the faulty move was (its rotation, deal and seat), or null when not known. */
  readonly at: MoveSite | null;
}

/** The `Failure` that error `e`, thrown while group `g` was played, stands for. */
export function failureOf(e: { code: ErrorCode; message: string }, g: number): Failure {
  if (e instanceof MoveFault) return { ...base(e, g), fault: e.fault, entrant: e.entrant, at: e.site };
  if (e instanceof BotFault) return { ...base(e, g), fault: e.fault, entrant: -1, at: null };
  // A bot-failed error without a kind (thrown by older code paths) is the bot's own failure.
  return { ...base(e, g), fault: e.code === 'bot-failed' ? 'threw' : null, entrant: -1, at: null };
}

function base(e: { code: ErrorCode; message: string }, group: number) {
  return { code: e.code, message: e.message, group };
}

export interface BatchResult {
  readonly start: number;
  /** Groups finished (played or skipped) from `start`: all asked, unless `failure`. */
  readonly done: number;
  /** `done` rows of `rowLength` numbers (see `RowLayout`); a skipped group's row is zeros. */
  readonly rows: Float64Array;
  /** Groups dropped after a bot failed in them (with `skipFailures`), in order. */
  readonly skipped: readonly Failure[];
  /**
   * The text the `done` groups add to each file (UTF-8), or null when not asked:
   * deal records, per-deal CSV rows (a skipped group has none) and the journal's skipped lines.
   */
  readonly records: Uint8Array | null;
  readonly dealRows: Uint8Array | null;
  readonly journal: Uint8Array | null;
  /** The rows of the run's database (db/rows.ts), or null when it has none. */
  readonly db: readonly DbBatch[] | null;
  readonly failure: Failure | null;
  /** Time spent playing (not loading bots), for sizing the next batches. */
  readonly ms: number;
  /**
   * With `spec.timeMoves`, per entrant e: moves made [2e] and their milliseconds [2e + 1]
   * in this batch (a dropped group's too); else null. Wall time: kept out of every result.
   */
  readonly moveTime: Float64Array | null;
  /**
   * Per entrant: programs started again after a fault in this batch (programs/restarts.ts),
   * or null when no entrant's program was restarted. Not journaled.
   */
  readonly restarts: Float64Array | null;
}

/** One group's `GroupTally` as a row: deals, dealSums, dealCounts, matchSums, matchCounts. */
export class RowLayout {
  readonly length: number;

  constructor(
    readonly entrants: number,
    readonly dealMetrics: number,
    readonly matchMetrics: number,
  ) {
    this.length = 1 + entrants * (dealMetrics + 1 + matchMetrics + 1);
  }

  static of(game: Game, entrants: number): RowLayout {
    return new RowLayout(entrants, game.dealMetrics.length, game.matchMetrics.length);
  }

  newGroup(): GroupTally {
    return new GroupTally(this.entrants, this.dealMetrics, this.matchMetrics);
  }

  // Plain loops: an array of the four parts, or a subarray view, would allocate once
  // per group, which is garbage in a play loop that otherwise makes none.
  write(rows: Float64Array, i: number, g: GroupTally): void {
    let at = i * this.length;
    rows[at++] = g.deals;
    at = copyInto(rows, at, g.dealSums);
    at = copyInto(rows, at, g.dealCounts);
    at = copyInto(rows, at, g.matchSums);
    copyInto(rows, at, g.matchCounts);
  }

  read(rows: Float64Array, i: number, g: GroupTally): void {
    let at = i * this.length;
    g.deals = rows[at++];
    at = copyFrom(g.dealSums, rows, at);
    at = copyFrom(g.dealCounts, rows, at);
    at = copyFrom(g.matchSums, rows, at);
    copyFrom(g.matchCounts, rows, at);
  }
}

/**
 * `length` numbers of shared memory: `reuse` (or its start) when it is large enough,
 * else a new buffer rounded up to a power of two, so that later batches of about the
 * same size fit in it.
 */
function rowsFor(length: number, reuse: Float64Array | null): Float64Array {
  if (reuse !== null && reuse.length >= length) return reuse.length === length ? reuse : reuse.subarray(0, length);
  const size = length <= 1 ? length : 2 ** Math.ceil(Math.log2(length));
  return new Float64Array(new SharedArrayBuffer(size * Float64Array.BYTES_PER_ELEMENT)).subarray(0, length);
}

function copyInto(rows: Float64Array, at: number, part: Float64Array): number {
  for (let j = 0; j < part.length; j++) rows[at + j] = part[j];
  return at + part.length;
}

function copyFrom(part: Float64Array, rows: Float64Array, at: number): number {
  for (let j = 0; j < part.length; j++) part[j] = rows[at + j];
  return at + part.length;
}

/** Columns of the per-deal CSV (documented in docs/run.md). */
export function dealColumns(game: Game): string[] {
  return ['game', 'seed', 'group', 'rotation', 'match', 'deal', 'seat', 'bot', ...game.dealMetrics.map((m) => m.key)];
}

/**
 * Text gathered as UTF-8 bytes, encoded 64 KB at a time: one string of a whole batch,
 * built by appending, costs several times more (its pieces outlive the young
 * generation). The bytes are in shared memory, like the rows (see `play`).
 */
class Utf8Chunks {
  private text = '';
  private readonly parts: Buffer[] = [];
  private size = 0;

  add(s: string): void {
    this.text += s;
    if (this.text.length > 1 << 16) this.flush();
  }

  bytes(): Uint8Array {
    this.flush();
    const out = new Uint8Array(new SharedArrayBuffer(this.size));
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  private flush(): void {
    if (!this.text) return;
    const b = Buffer.from(this.text);
    this.parts.push(b);
    this.size += b.length;
    this.text = '';
  }
}

/**
 * Plays batches of one run on one table. Synchronous: callers decide where it runs.
 * What it makes besides the tally rows follows from the spec's files: records, per-deal
 * rows and skipped lines when the run writes them.
 */
export class BatchPlayer {
  private table: Table;
  private readonly layout: RowLayout;
  private readonly group: GroupTally;
  private readonly groupRecords: string[] = [];
  private readonly groupDeals: (string | number)[][] = [];
  private readonly make: { readonly records: boolean; readonly dealRows: boolean; readonly journal: boolean };
  private readonly db: DbRows | null;
  private readonly moveTime: Float64Array | null;

  constructor(private readonly run: LiveRun) {
    const { files } = run.spec;
    this.make = { records: files.records !== null, dealRows: files.dealCsv !== null, journal: files.journal !== null };
    this.db = files.db !== null ? new DbRows(run.game, run.lineup.rotations, run.spec) : null;
    this.layout = RowLayout.of(run.game, run.lineup.entrants.length);
    this.group = this.layout.newGroup();
    this.moveTime = run.spec.timeMoves ? new Float64Array(2 * run.lineup.entrants.length) : null;
    this.table = this.newTable();
  }

  /**
   * Play groups start.. start+count-1. What a batch hands back lives in shared memory,
   * which a worker posts without copying: a copy costs the main thread (whose time the
   * workers share) several milliseconds a batch, and a transfer would detach the
   * buffer, which slows this thread's typed arrays from then on (see worker.ts).
   *
   * The rows go into `reuse` when it is large enough: the rows of an earlier batch that
   * its receiver has read (the scheduler hands them back). Writing fresh memory costs
   * a page fault every 4 KB, and on this machine's virtualised kernel those faults took
   * a tenth of the time of random play.
   */
  play(start: number, count: number, watch: MoveWatch | null = null, reuse: Float64Array | null = null): BatchResult {
    const started = performance.now();
    this.table.watch = watch;
    const { layout, group, make } = this;
    const skipFailures = this.run.spec.onBotError === 'skip';
    const rows = rowsFor(count * layout.length, reuse);
    const skipped: Failure[] = [];
    const records = make.records ? new Utf8Chunks() : null;
    const dealRows = make.dealRows ? new Utf8Chunks() : null;
    const journal = make.journal ? new Utf8Chunks() : null;
    let failure: Failure | null = null;
    let done = 0;
    this.db?.beginBatch(start);
    for (let g = start; g < start + count; g++, done++) {
      group.clear();
      // Only when there is something to drop: a length store is a runtime call even on an empty array.
      if (this.groupRecords.length > 0) this.groupRecords.length = 0;
      if (this.groupDeals.length > 0) this.groupDeals.length = 0;
      this.db?.beginGroup();
      try {
        this.table.playGroup(g, group);
      } catch (e) {
        if (!isTafelError(e)) throw e;
        this.db?.dropGroup();
        // The failed deal left the table and its bots mid-play.
        this.takeMoveTime();
        this.table.abandon();
        this.table = this.newTable();
        this.table.watch = watch;
        const f = failureOf(e, g);
        if (!(e.code === 'bot-failed' && skipFailures)) {
          failure = f;
          break;
        }
        skipped.push(f);
        rows.fill(0, done * layout.length, (done + 1) * layout.length);
        journal?.add(skippedText(f));
        continue;
      }
      layout.write(rows, done, group);
      if (this.groupRecords.length) records?.add(this.groupRecords.join('\n') + '\n');
      if (this.groupDeals.length) dealRows?.add(stringify(this.groupDeals));
    }
    const ms = performance.now() - started;
    this.takeMoveTime();
    const moveTime = this.moveTime?.slice() ?? null;
    this.moveTime?.fill(0);
    const restarts = this.takeRestarts();
    const recordBytes = records?.bytes() ?? null;
    return {
      start,
      done,
      rows: rows.length === done * layout.length ? rows : rows.subarray(0, done * layout.length),
      skipped,
      records: recordBytes,
      dealRows: dealRows?.bytes() ?? null,
      journal: journal?.bytes() ?? null,
      // The rows are written here, in the thread that made them (db/parts.ts).
      db: this.db ? [this.db.write(done, recordBytes)] : null,
      failure,
      ms,
      moveTime,
      restarts,
    };
  }

  /** Quit the bot programs this player started in this thread (its run is over here). */
  close(): void {
    for (const e of this.run.lineup.entrants) closeProgram(e.spec);
  }

  /** The restarts each entrant's programs counted since the last take, or null when there were none. */
  private takeRestarts(): Float64Array | null {
    const { entrants } = this.run.lineup;
    let out: Float64Array | null = null;
    for (let e = 0; e < entrants.length; e++) {
      const n = takeRestarts(entrants[e].spec);
      if (n === 0) continue;
      out ??= new Float64Array(entrants.length);
      out[e] = n;
    }
    return out;
  }

  /** Add the table's move times since the last take to the batch's (before the table is replaced, and at the end). */
  private takeMoveTime(): void {
    const sum = this.moveTime;
    if (!sum) return;
    const t = this.table.moveTime;
    for (let i = 0; i < t.length; i++) sum[i] += t[i];
    t.fill(0);
  }

  private newTable(): Table {
    const { game, lineup, spec } = this.run;
    const recordSink = this.make.records
      ? (r: Record<string, unknown>) => void this.groupRecords.push(JSON.stringify(r))
      : null;
    const labels = lineup.entrants.map((e) => e.label);
    const dealSink = this.make.dealRows
      ? (g: number, r: number, k: number, seatEntrant: Int32Array, values: Float64Array) => {
          const dm = game.dealMetrics.length;
          for (let seat = 0; seat < seatEntrant.length; seat++) {
            const row: (string | number)[] = [
              game.name,
              spec.seed,
              g,
              r,
              g * lineup.rotations + r,
              k,
              seat,
              labels[seatEntrant[seat]],
            ];
            // An empty cell for a seat that took no part in the deal (NaN metrics).
            for (let m = 0; m < dm; m++) row.push(Number.isNaN(values[seat * dm + m]) ? '' : values[seat * dm + m]);
            this.groupDeals.push(row);
          }
        }
      : null;
    return new Table(this.run, recordSink, dealSink, this.db);
  }
}
