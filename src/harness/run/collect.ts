/**
 * The main thread's end of a run: groups come in, in group order, and go to the
 * tally and to every output file. For each batch the records and per-deal rows are
 * written first, the database commits next, and only then does the journal get its
 * skipped lines and, now and then, a checkpoint of the whole state (journal.ts), so the
 * journal never claims a group whose rows are not yet in their files (a resume trusts
 * the checkpoint and cuts the other files back to it).
 */
import type { BatchResult, Failure, RowLayout } from './batch.js';
import type { RunDatabase } from '../db/db.js';
import { toGroupTally, type GroupLine } from './journal.js';
import type { TextFile } from './outputs.js';
import type { GroupTally } from '../table/table.js';
import type { RunTally } from '../stats/tally.js';
import type { RunSpec } from './spec.js';

export interface CollectorFiles {
  readonly journal: TextFile | null;
  readonly records: TextFile | null;
  readonly dealCsv: TextFile | null;
  /** The run's database, and the run it appends to. */
  readonly db?: { readonly database: RunDatabase; readonly spec: RunSpec } | null;
}

/**
 * The database commits (and the journal names its groups) once this many rows wait, or
 * after this long: a commit of fewer rows than DuckDB's row group (122,880) goes through
 * its write-ahead log and is written again at the next checkpoint, which costs fast runs
 * half as much again; several row groups at once are written once.
 */
const DB_FLUSH_ROWS = 1 << 19;
const DB_FLUSH_MS = 2000;

/** A checkpoint at least this often, once a quarter of `Checkpoints.every` groups came in (besides every `every` groups and at the end of a session). */
const CHECKPOINT_MS = 5 * 60_000;

/** When and what the journal's checkpoints are. */
export interface Checkpoints {
  /** Groups (taken in since the collector was made) between two checkpoints: 1/64 of the run. */
  readonly every: number;
  /** The checkpoint line of the state now. */
  readonly text: () => string;
}

export class Collector {
  private readonly group: GroupTally;
  /** Groups dropped after a bot failed in them. */
  readonly skipped: Failure[] = [];
  /** Groups taken in (played or skipped), and deals played, since the collector was made. */
  groupsIn = 0;
  dealsIn = 0;
  /** Journal text waiting for the database to commit its rows. */
  private pending: Uint8Array[] = [];
  private flushed = performance.now();
  /** Groups in at the last checkpoint, and when it was written. */
  private checkpointed = 0;
  private checkpointedAt = performance.now();

  constructor(
    private readonly layout: RowLayout,
    readonly tally: RunTally,
    private readonly files: CollectorFiles,
    /** Sees each group tallied, in group order (the SPRT's input). */
    private readonly onGroup: ((group: GroupTally) => void) | null = null,
    private readonly checkpoints: Checkpoints | null = null,
  ) {
    this.group = layout.newGroup();
  }

  /** Groups dropped before a checkpoint a run resumes from. Nothing is written. */
  addSkipped(failures: readonly Failure[]): void {
    this.skipped.push(...failures);
  }

  /** Groups already in a journal of format 2 (a resumed run's prefix, or a shard being merged). Nothing is written. */
  addLines(lines: readonly GroupLine[]): void {
    for (const line of lines) {
      if ('skipped' in line) {
        this.skipped.push(line.failure);
        continue;
      }
      toGroupTally(line, this.group);
      this.tally.add(this.group);
      this.onGroup?.(this.group);
    }
  }

  /** The `done` groups of a batch, the next in order. */
  add(r: BatchResult): void {
    const { layout, group, files } = this;
    let s = 0;
    for (let i = 0; i < r.done; i++) {
      const g = r.start + i;
      if (s < r.skipped.length && r.skipped[s].group === g) {
        this.skipped.push(r.skipped[s]);
        s++;
        continue;
      }
      layout.read(r.rows, i, group);
      this.tally.add(group);
      this.onGroup?.(group);
      this.dealsIn += group.deals;
    }
    this.groupsIn += r.done;
    for (const [file, bytes] of [
      [files.records, r.records],
      [files.dealCsv, r.dealRows],
    ] as const) {
      if (!file) continue;
      if (!bytes) throw new Error(`Collector: the batch made no text for ${file.path}`);
      file.write(bytes);
    }
    const db = files.db;
    if (db) {
      if (!r.db) throw new Error('Collector: the batch made no rows for the database');
      db.database.append(db.spec, r.db);
      if (r.skipped.length) db.database.appendFaults(db.spec, r.skipped);
    }
    if (files.journal) {
      if (!r.journal) throw new Error(`Collector: the batch made no text for ${files.journal.path}`);
      this.pending.push(r.journal);
      if (!db || db.database.waiting >= DB_FLUSH_ROWS || performance.now() - this.flushed >= DB_FLUSH_MS) this.flush();
    }
  }

  /**
   * Commit the database's rows, then write the journal lines that name them, and a
   * checkpoint when one is due; at the `end` of a session, one for every group taken in.
   */
  flush(end = false): void {
    this.files.db?.database.flush();
    const journal = this.files.journal;
    for (const bytes of this.pending) journal?.write(bytes);
    this.pending = [];
    const now = performance.now();
    this.flushed = now;
    const cp = this.checkpoints;
    if (!journal || !cp || this.groupsIn === this.checkpointed) return;
    const grown = this.groupsIn - this.checkpointed;
    // A slow run checkpoints every 5 minutes, but at most every 1/256 of the run: the journal stays small however long it runs.
    if (end || grown >= cp.every || (now - this.checkpointedAt >= CHECKPOINT_MS && grown >= cp.every / 4)) {
      journal.write(cp.text());
      this.checkpointed = this.groupsIn;
      this.checkpointedAt = now;
    }
  }
}
