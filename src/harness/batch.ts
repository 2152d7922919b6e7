/**
 * A batch: consecutive duplicate groups played by one table, in a worker thread or in
 * the main thread alike, and what they produced packed for the trip back: one row of
 * numbers per group (its `GroupTally`), and, when asked, the groups' deal records,
 * per-deal CSV rows and journal lines as finished text. Text is made here and not in
 * the main thread, so that formatting is spread over the workers too (formatting a
 * journal line costs about as much as playing a random deal).
 */
import { stringify } from 'csv-stringify/sync';
import { isTafelError, type TafelError } from '../core/errors.js';
import { seedKey } from '../core/rng.js';
import type { Game, TableConfig } from '../games/game.js';
import type { Bot, BotSpec } from '../../bots/bot.js';
import { groupText, skippedText } from './journal.js';
import type { Lineup } from './lineup.js';
import { GroupTally, Table, type Unit } from './table.js';

export interface BatchOptions {
  /** Make each deal's RECORD.md record. */
  readonly records: boolean;
  /** Make the per-deal CSV rows. */
  readonly dealRows: boolean;
  /** Make the journal lines (here rather than in the main thread, which would be the bottleneck). */
  readonly journal: boolean;
  /** The longest a bot may take over one move, in ms; null: moves are not timed. */
  readonly moveTimeout: number | null;
  /** Drop a group in which a bot fails and go on, instead of stopping at it. */
  readonly skipFailures: boolean;
}

/** What stopped a batch: a bot that failed, or a bot that could not be loaded. */
export interface Failure {
  readonly code: string;
  readonly message: string;
  readonly group: number;
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
   * deal records, per-deal CSV rows (a skipped group has none) and journal lines.
   */
  readonly records: Uint8Array | null;
  readonly dealRows: Uint8Array | null;
  readonly journal: Uint8Array | null;
  readonly failure: Failure | null;
  /** Time spent playing (not loading bots), for sizing the next batches. */
  readonly ms: number;
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

function copyInto(rows: Float64Array, at: number, part: Float64Array): number {
  for (let j = 0; j < part.length; j++) rows[at + j] = part[j];
  return at + part.length;
}

function copyFrom(part: Float64Array, rows: Float64Array, at: number): number {
  for (let j = 0; j < part.length; j++) part[j] = rows[at + j];
  return at + part.length;
}

/** Columns of the per-deal CSV (documented in the README). */
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

/** The message the timing wrapper throws; the table turns it into "bot ... threw <it>". */
const TIMEOUT = 'exceeded the move timeout';

/** Plays batches of one plan on one table. Synchronous: callers decide where it runs. */
export class BatchPlayer {
  private table: Table;
  private readonly layout: RowLayout;
  private readonly group: GroupTally;
  private readonly lineup: Lineup;
  private readonly groupRecords: string[] = [];
  private readonly groupDeals: (string | number)[][] = [];
  /** Set by a timed bot just before it throws: how long its move took. */
  private slowMove = -1;

  constructor(
    private readonly game: Game,
    private readonly tableConfig: TableConfig,
    lineup: Lineup,
    private readonly seed: string,
    private readonly unit: Unit,
    private readonly options: BatchOptions,
  ) {
    const limit = options.moveTimeout;
    this.lineup =
      limit === null
        ? lineup
        : { ...lineup, entrants: lineup.entrants.map((e) => ({ ...e, spec: this.timed(e.spec, limit) })) };
    this.layout = RowLayout.of(game, lineup.entrants.length);
    this.group = this.layout.newGroup();
    this.table = this.newTable();
  }

  /**
   * Play groups start.. start+count-1. What a batch hands back lives in shared memory,
   * which a worker posts without copying: a copy costs the main thread (whose time the
   * workers share) several milliseconds a batch, and a transfer would detach the
   * buffer, which slows this thread's typed arrays from then on (see worker.ts).
   */
  play(start: number, count: number): BatchResult {
    const started = performance.now();
    const { layout, group, options } = this;
    const rows = new Float64Array(new SharedArrayBuffer(count * layout.length * Float64Array.BYTES_PER_ELEMENT));
    const skipped: Failure[] = [];
    const records = options.records ? new Utf8Chunks() : null;
    const dealRows = options.dealRows ? new Utf8Chunks() : null;
    const journal = options.journal ? new Utf8Chunks() : null;
    let failure: Failure | null = null;
    let done = 0;
    for (let g = start; g < start + count; g++, done++) {
      group.clear();
      // Only when there is something to drop: a length store is a runtime call even on an empty array.
      if (this.groupRecords.length > 0) this.groupRecords.length = 0;
      if (this.groupDeals.length > 0) this.groupDeals.length = 0;
      try {
        this.table.playGroup(g, group);
      } catch (e) {
        if (!isTafelError(e)) throw e;
        const message = this.explain(e);
        // The failed deal left the table and its bots mid-play.
        this.table = this.newTable();
        if (!(e.code === 'bot-failed' && options.skipFailures)) {
          failure = { code: e.code, message, group: g };
          break;
        }
        skipped.push({ code: e.code, message, group: g });
        journal?.add(skippedText(g, message));
        continue;
      }
      layout.write(rows, done, group);
      journal?.add(groupText(g, group));
      if (this.groupRecords.length) records?.add(this.groupRecords.join('\n') + '\n');
      if (this.groupDeals.length) dealRows?.add(stringify(this.groupDeals));
    }
    const ms = performance.now() - started;
    return {
      start,
      done,
      rows: done === count ? rows : rows.subarray(0, done * layout.length),
      skipped,
      records: records?.bytes() ?? null,
      dealRows: dealRows?.bytes() ?? null,
      journal: journal?.bytes() ?? null,
      failure,
      ms,
    };
  }

  private newTable(): Table {
    const { game, tableConfig: table, lineup, seed, unit, options } = this;
    const plan = { game, table, lineup, seed, key: seedKey(seed), unit };
    const recordSink = options.records
      ? (r: Record<string, unknown>) => void this.groupRecords.push(JSON.stringify(r))
      : null;
    const labels = lineup.entrants.map((e) => e.label);
    const dealSink = options.dealRows
      ? (g: number, r: number, k: number, seatEntrant: Int32Array, values: Float64Array) => {
          const dm = game.dealMetrics.length;
          for (let seat = 0; seat < seatEntrant.length; seat++) {
            const row: (string | number)[] = [
              game.name,
              seed,
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
    return new Table(plan, recordSink, dealSink);
  }

  /** Wraps a bot so that a move slower than `limit` ms fails; only when --move-timeout is set. */
  private timed(spec: BotSpec, limit: number): BotSpec {
    const create = (ctx: Parameters<BotSpec['create']>[0]): Bot => {
      const bot = spec.create(ctx);
      return {
        act: (obs, legal, count) => {
          const t = performance.now();
          const move = bot.act(obs, legal, count);
          const took = performance.now() - t;
          if (took > limit) {
            this.slowMove = took;
            throw new Error(TIMEOUT);
          }
          return move;
        },
      };
    };
    return { ...spec, create };
  }

  private explain(e: TafelError): string {
    if (this.slowMove < 0 || !e.message.includes(`threw ${TIMEOUT}`)) return e.message;
    const text = `took ${Math.round(this.slowMove)} ms over one move (move timeout ${this.options.moveTimeout} ms)`;
    this.slowMove = -1;
    return e.message.replace(`threw ${TIMEOUT}`, text);
  }
}
