/**
 * The main thread's end of a run: groups come in, in group order, and go to the
 * tally and to every output file. For each batch the records and per-deal rows are
 * written before the journal lines, so the journal never claims a group whose
 * records are not yet in their file (a resume trusts the journal and cuts the other
 * files back to it).
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

  constructor(
    private readonly layout: RowLayout,
    readonly tally: RunTally,
    private readonly files: CollectorFiles,
    /** Sees each group tallied, in group order (the SPRT's input). */
    private readonly onGroup: ((group: GroupTally) => void) | null = null,
  ) {
    this.group = layout.newGroup();
  }

  /** Groups already in a journal (a resumed run's prefix, or a shard being merged). Nothing is written. */
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

  /** Commit the database's rows, then write the journal lines that name them. */
  flush(): void {
    this.files.db?.database.flush();
    for (const bytes of this.pending) this.files.journal?.write(bytes);
    this.pending = [];
    this.flushed = performance.now();
  }
}
