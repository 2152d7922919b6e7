/**
 * `tafel merge`: the journals of a run's shards, added up, are the journal of the whole
 * run. Shards are checked to be of one run (every part of the spec that the results
 * depend on agrees), each present once and each complete; their last checkpoints'
 * tallies are added (exact sums: the order of addition does not matter, see
 * stats/exact.ts) and their skipped groups concatenated in shard order, which is group
 * order. So the tally and summary are what one machine computes, and the shards'
 * records and per-deal rows joined in the same order are one machine's files byte for
 * byte. Journals of format 2 are read too, their group lines tallied.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { RowLayout, dealColumns } from './batch.js';
import { Collector } from './collect.js';
import { countFaults, type FaultCounts } from './fault-counts.js';
import type { Failure } from './batch.js';
import {
  checkLines,
  checkMetrics,
  checkpointText,
  groupsDone,
  headerText,
  isComplete,
  skippedText,
  type JournalContents,
} from './journal.js';
import { TextFile } from './outputs.js';
import { shardFileRange } from './resume.js';
import { shardRange } from './shard.js';
import { checkSpec, identityDifference, pathOf, type RunSpec } from './spec.js';
import { RunTally } from '../stats/tally.js';
import type { GroupTally } from '../table/table.js';

export interface MergeInput {
  readonly path: string;
  readonly contents: JournalContents;
}

export interface Merged {
  /** The run, as a single machine's journal states it (no shard; the first shard's files until the merge names its own). */
  readonly spec: RunSpec;
  /** The shards in order. */
  readonly shards: readonly MergeInput[];
}

function shardName(spec: RunSpec): string {
  return spec.shard ? `${spec.shard.index}/${spec.shard.count}` : 'the whole run';
}

export function mergeJournals(inputs: readonly MergeInput[]): Merged {
  if (inputs.length === 0) throw new TafelError('bad-merge', 'merge: no journals given');
  const first = inputs[0];
  for (const x of inputs.slice(1)) {
    const diff = identityDifference(first.contents.spec, x.contents.spec);
    if (diff)
      throw new TafelError('bad-merge', `merge: ${x.path} is from a different run than ${first.path}: ${diff} differs`);
  }
  const unsharded = inputs.find((x) => x.contents.spec.shard === null);
  if (unsharded && inputs.length > 1)
    throw new TafelError('bad-merge', `merge: ${unsharded.path} is a whole run, not a shard; merge shards only`);
  const count = first.contents.spec.shard?.count ?? 1;
  const byIndex = new Array<MergeInput | undefined>(count);
  for (const x of inputs) {
    const shard = x.contents.spec.shard ?? { index: 0, count: 1 };
    if (shard.count !== count)
      throw new TafelError(
        'bad-merge',
        `merge: ${x.path} is shard ${shardName(x.contents.spec)} but ${first.path} is one of ${count} shards`,
      );
    const seen = byIndex[shard.index];
    if (seen)
      throw new TafelError(
        'bad-merge',
        `merge: shard ${shardName(x.contents.spec)} is given twice (${seen.path} and ${x.path})`,
      );
    byIndex[shard.index] = x;
  }
  const missing = byIndex.findIndex((x) => x === undefined);
  if (missing >= 0) throw new TafelError('bad-merge', `merge: shard ${missing}/${count} is missing`);
  const shards = byIndex as MergeInput[];
  for (const x of shards) {
    const c = x.contents;
    if (!isComplete(c)) {
      const { from, to } = shardRange(c.spec.groups, c.spec.shard);
      throw new TafelError(
        'bad-merge',
        `merge: ${x.path} is unfinished (${groupsDone(c)} of ${to - from} groups); finish it with: tafel run --resume ${x.path}`,
      );
    }
  }
  return { spec: checkSpec({ ...first.contents.spec, shard: null }), shards };
}

/** A journal's state: its last checkpoint's (format 3), or its group lines tallied (format 2). */
export interface JournalState {
  readonly tally: RunTally;
  /** Groups dropped, in order. */
  readonly skipped: readonly Failure[];
}

/** The state of the journal `c` (a run or a shard of it) for `game`, checked against the game's metrics. */
export function journalState(
  game: Game,
  c: JournalContents,
  path: string,
  onGroup: ((g: GroupTally) => void) | null = null,
): JournalState {
  const layout = RowLayout.of(game, c.spec.entrants.length);
  checkMetrics(path, c.spec, game);
  const tally = new RunTally(game.dealMetrics, c.spec.unit === 'match' ? game.matchMetrics : null, layout.entrants);
  if (c.version === 2) {
    checkLines(path, c, layout);
    const collector = new Collector(layout, tally, { journal: null, records: null, dealCsv: null }, onGroup);
    collector.addLines(c.lines);
    return { tally, skipped: collector.skipped };
  }
  const last = c.checkpoints.at(-1);
  if (!last) return { tally, skipped: [] };
  try {
    tally.restore(last.tally);
  } catch {
    throw new TafelError(
      'bad-journal',
      `journal ${path}: its checkpoint after ${last.groups} groups does not fit the run's bots and metrics (a corrupt journal)`,
    );
  }
  return { tally, skipped: last.skipped };
}

/** Deals played in the groups the journal holds. */
function dealsDone(c: JournalContents): number {
  if (c.version === 3) return c.checkpoints.at(-1)?.deals ?? 0;
  let deals = 0;
  for (const line of c.lines) if (!('skipped' in line)) deals += line.deals;
  return deals;
}

export interface MergedTally {
  readonly tally: RunTally;
  /** Groups dropped, and their failures in order. */
  readonly skipped: number;
  readonly failures: readonly Failure[];
  readonly faults: FaultCounts;
}

/** The tally of the merged run: the shards' added up; also checks each against the game's metrics. */
export function mergedTally(game: Game, m: Merged, path: string): MergedTally {
  checkMetrics(path, m.spec, game);
  const entrants = m.spec.entrants.length;
  const tally = new RunTally(game.dealMetrics, m.spec.unit === 'match' ? game.matchMetrics : null, entrants);
  const failures: Failure[] = [];
  for (const x of m.shards) {
    const s = journalState(game, x.contents, path);
    tally.merge(s.tally);
    failures.push(...s.skipped);
  }
  // Restarts are not journaled: a merge counts the faults only.
  const faults = countFaults(entrants, tally.groups + failures.length, failures, null);
  return { tally, skipped: failures.length, failures, faults };
}

/** Write the merged journal (the spec with the merge's own files): the header, the skipped lines and one checkpoint. */
export function writeMergedJournal(path: string, m: Merged, t: MergedTally): void {
  const out = new TextFile(path, '--journal');
  try {
    let text = headerText(m.spec, path);
    for (const f of t.failures) {
      text += skippedText(f);
      if (text.length > 1 << 20) {
        out.write(text);
        text = '';
      }
    }
    const groups = t.tally.groups + t.failures.length;
    if (groups > 0) text += checkpointText(groups, t.tally, t.tally.deals, null);
    out.write(text);
  } finally {
    out.close();
  }
}

/**
 * Join the shards' deal records (`kind` 'records') or per-deal CSVs ('dealCsv') into
 * `path`, in shard order, each shard's file up to the end of its journal's last group
 * (a per-deal CSV's header once, from the first shard): the file one machine would
 * have written.
 */
export function joinShardFiles(game: Game, m: Merged, kind: 'records' | 'dealCsv', path: string): void {
  const flag = kind === 'records' ? '--records' : '--deal-csv';
  const dealHeader = stringify([], { header: true, columns: dealColumns(game) });
  const out = new TextFile(path, flag);
  try {
    m.shards.forEach((x, i) => {
      const file = pathOf(x.contents.spec, kind);
      if (file === null)
        throw new TafelError(
          'bad-merge',
          `merge ${flag}: shard ${x.path} was run without ${flag}, so it has none to join`,
        );
      const c = x.contents;
      const { to } = shardRange(c.spec.groups, c.spec.shard);
      const range = shardFileRange(kind, file, to, dealsDone(c), {
        dealHeader,
        seats: c.spec.seats,
        rotations: c.spec.seatings.length,
      });
      if (range.lines !== range.want) {
        throw new TafelError(
          'bad-merge',
          `merge ${flag}: ${file} of shard ${x.path} holds ${range.lines} of the ${range.want} lines of its ${groupsDone(c)} groups; finish it with: tafel run --resume ${x.path}`,
        );
      }
      copyRange(file, i === 0 ? 0 : range.start, range.end, out);
    });
  } finally {
    out.close();
  }
}

/**
 * Join the shards' databases into one at `path`: the tables one machine would have
 * written (its rows in the same order; the runs row says when the merge was made).
 */
export async function joinShardDatabases(game: Game, m: Merged, path: string): Promise<void> {
  const shardSpecs = m.shards.map((x) => x.contents.spec);
  const { RunDatabase } = await import('../db/db.js');
  const db = RunDatabase.open(path, game, [m.spec], 'create', shardSpecs);
  try {
    for (const x of m.shards) {
      const file = pathOf(x.contents.spec, 'db');
      if (file === null)
        throw new TafelError('bad-merge', `merge --db: shard ${x.path} was run without --db, so it has none to join`);
      db.copyShard(file, x.contents.spec, dealsDone(x.contents));
    }
  } finally {
    await db.close([m.spec]);
  }
}

function copyRange(file: string, from: number, to: number, out: TextFile): void {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    for (let at = from; at < to;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, to - at), at);
      if (n === 0) throw new TafelError('bad-merge', `merge: ${file} ended early`);
      out.write(buf.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}
