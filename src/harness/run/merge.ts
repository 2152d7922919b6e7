/**
 * `tafel merge`: the journals of a run's shards, put side by side, are the journal of
 * the whole run. Shards are checked to be of one run (every part of the spec that the
 * results depend on agrees), each present once and each complete; their group lines
 * are concatenated in shard order, which is group order. The tally and summary are
 * computed from them exactly as one machine would have, and the shards' records and
 * per-deal rows joined in the same order are one machine's files byte for byte.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { RowLayout, dealColumns } from './batch.js';
import { Collector } from './collect.js';
import { countFaults, type FaultCounts } from './fault-counts.js';
import {
  checkLines,
  checkMetrics,
  groupText,
  headerText,
  isComplete,
  skippedText,
  toGroupTally,
  type GroupLine,
  type JournalContents,
} from './journal.js';
import { TextFile } from './outputs.js';
import { fileEnds } from './resume.js';
import { shardRange } from './shard.js';
import { checkSpec, identityDifference, pathOf, type RunSpec } from './spec.js';
import { RunTally } from '../stats/tally.js';

export interface MergeInput {
  readonly path: string;
  readonly contents: JournalContents;
}

export interface Merged {
  /** The run, as a single machine's journal states it (no shard; the first shard's files until the merge names its own). */
  readonly spec: RunSpec;
  readonly lines: readonly GroupLine[];
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
  const lines: GroupLine[] = [];
  for (const x of shards) {
    const c = x.contents;
    if (!isComplete(c)) {
      const { from, to } = shardRange(c.spec.groups, c.spec.shard);
      throw new TafelError(
        'bad-merge',
        `merge: ${x.path} is unfinished (${c.lines.length} of ${to - from} groups); finish it with: tafel run --resume ${x.path}`,
      );
    }
    lines.push(...c.lines);
  }
  return { spec: checkSpec({ ...first.contents.spec, shard: null }), lines, shards };
}

/** The tally of the merged run; also checks every line against the game's metrics. */
export function mergedTally(
  game: Game,
  m: Merged,
  path: string,
): { tally: RunTally; skipped: number; faults: FaultCounts } {
  const layout = RowLayout.of(game, m.spec.entrants.length);
  checkMetrics(path, m.spec, game);
  checkLines(path, m.lines, layout);
  const tally = new RunTally(game.dealMetrics, m.spec.unit === 'match' ? game.matchMetrics : null, layout.entrants);
  const collector = new Collector(layout, tally, { journal: null, records: null, dealCsv: null });
  collector.addLines(m.lines);
  const skipped = collector.skipped;
  // Restarts are not journaled: a merge counts the faults only.
  const faults = countFaults(layout.entrants, tally.groups + skipped.length, skipped, null);
  return { tally, skipped: skipped.length, faults };
}

/** Write the merged journal (the spec with the merge's own files): a single machine's journal of the run. */
export function writeMergedJournal(path: string, game: Game, m: Merged): void {
  const group = RowLayout.of(game, m.spec.entrants.length).newGroup();
  const out = new TextFile(path, '--journal');
  try {
    let text = headerText(m.spec, path);
    for (const line of m.lines) {
      if ('skipped' in line) {
        text += skippedText(line.failure);
      } else {
        toGroupTally(line, group);
        text += groupText(line.g, group);
      }
      if (text.length > 1 << 20) {
        out.write(text);
        text = '';
      }
    }
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
      const ends = fileEnds(x.contents, kind, file, {
        dealHeader,
        seats: x.contents.spec.seats,
        rotations: x.contents.spec.seatings.length,
      });
      if (ends.length - 1 < x.contents.lines.length) {
        throw new TafelError(
          'bad-merge',
          `merge ${flag}: ${file} of shard ${x.path} holds ${ends.length - 1} of its ${x.contents.lines.length} groups; finish it with: tafel run --resume ${x.path}`,
        );
      }
      copyRange(file, i === 0 || kind === 'records' ? 0 : ends[0], ends[ends.length - 1], out);
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
  const db = await RunDatabase.open(path, game, [m.spec], 'create', shardSpecs);
  try {
    for (const x of m.shards) {
      const file = pathOf(x.contents.spec, 'db');
      if (file === null)
        throw new TafelError('bad-merge', `merge --db: shard ${x.path} was run without --db, so it has none to join`);
      let deals = 0;
      for (const line of x.contents.lines) if (!('skipped' in line)) deals += line.deals;
      db.copyShard(file, x.contents.spec, deals);
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
