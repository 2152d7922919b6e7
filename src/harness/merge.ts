/**
 * `tafel merge`: the journals of a run's shards, put side by side, are the journal of
 * the whole run. Shards are checked to be of one run (every part of the header but
 * the shard agrees), each present once and each complete; their group lines are
 * concatenated in shard order, which is group order. The tally and summary are
 * computed from them exactly as one machine would have.
 */
import { TafelError } from '../core/errors.js';
import type { Game } from '../games/game.js';
import { RowLayout } from './batch.js';
import { Collector } from './collect.js';
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
  type JournalFiles,
  type RunIdentity,
} from './journal.js';
import { TextFile } from './outputs.js';
import { shardRange, shardText } from './shard.js';
import { RunTally } from './tally.js';
import type { RunInfo } from './report.js';

export interface MergeInput {
  readonly path: string;
  readonly contents: JournalContents;
}

export interface Merged {
  /** The run, as a single machine's journal states it (no shard). */
  readonly run: RunIdentity;
  readonly lines: readonly GroupLine[];
}

/** The first way in which two runs differ, named by the flag that sets it, or null. */
function runDifference(a: RunIdentity, b: RunIdentity): string | null {
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  if (a.game !== b.game) return '--game';
  if (a.seats !== b.seats) return '--players';
  if (!same(a.rules, b.rules)) return '--rules';
  if (!same(a.bots, b.bots) || a.rotations !== b.rotations || !same(a.cheats, b.cheats)) return '--bots';
  if (a.seed !== b.seed) return '--seed';
  if (a.unit !== b.unit) return '--deals/--matches';
  if (a.groups !== b.groups) return a.unit === 'deal' ? '--deals' : '--matches';
  if (!same(a.metrics, b.metrics)) return "the tafel version (the game's metrics)";
  return null;
}

export function mergeJournals(inputs: readonly MergeInput[]): Merged {
  if (inputs.length === 0) throw new TafelError('bad-merge', 'merge: no journals given');
  const first = inputs[0];
  for (const x of inputs.slice(1)) {
    const diff = runDifference(first.contents.header.run, x.contents.header.run);
    if (diff)
      throw new TafelError('bad-merge', `merge: ${x.path} is from a different run than ${first.path}: ${diff} differs`);
  }
  const unsharded = inputs.find((x) => x.contents.header.run.shard === null);
  if (unsharded && inputs.length > 1)
    throw new TafelError('bad-merge', `merge: ${unsharded.path} is a whole run, not a shard; merge shards only`);
  const count = first.contents.header.run.shard?.count ?? 1;
  const byIndex = new Array<MergeInput | undefined>(count);
  for (const x of inputs) {
    const shard = x.contents.header.run.shard ?? { index: 0, count: 1 };
    if (shard.count !== count)
      throw new TafelError(
        'bad-merge',
        `merge: ${x.path} is shard ${shardText(shard)} but ${first.path} is one of ${count} shards`,
      );
    const seen = byIndex[shard.index];
    if (seen)
      throw new TafelError('bad-merge', `merge: shard ${shardText(shard)} is given twice (${seen.path} and ${x.path})`);
    byIndex[shard.index] = x;
  }
  const missing = byIndex.findIndex((x) => x === undefined);
  if (missing >= 0) throw new TafelError('bad-merge', `merge: shard ${missing}/${count} is missing`);
  const lines: GroupLine[] = [];
  for (const x of byIndex as MergeInput[]) {
    const c = x.contents;
    if (!isComplete(c)) {
      const { from, to } = shardRange(c.header.run.groups, c.header.run.shard);
      throw new TafelError(
        'bad-merge',
        `merge: ${x.path} is unfinished (${c.lines.length} of ${to - from} groups); finish it with: tafel run --resume ${x.path}`,
      );
    }
    lines.push(...c.lines);
  }
  return { run: { ...first.contents.header.run, shard: null }, lines };
}

/** The distinct labels of a --bots list, in order of first appearance (the entrants). */
function entrantLabels(bots: readonly string[]): string[] {
  return [...new Set(bots)];
}

export function mergedInfo(run: RunIdentity): RunInfo {
  return {
    game: run.game,
    seed: run.seed,
    unit: run.unit,
    labels: entrantLabels(run.bots),
    rotations: run.rotations,
    cheats: run.cheats,
  };
}

/** The tally of the merged run; also checks every line against the game's metrics. */
export function mergedTally(game: Game, m: Merged, path: string): { tally: RunTally; skipped: number } {
  const layout = RowLayout.of(game, entrantLabels(m.run.bots).length);
  checkMetrics(path, m.run, game);
  checkLines(path, m.lines, layout);
  const tally = new RunTally(game.dealMetrics, m.run.unit === 'match' ? game.matchMetrics : null, layout.entrants);
  const collector = new Collector(layout, tally, { journal: null, records: null, dealCsv: null });
  collector.addLines(m.lines);
  return { tally, skipped: collector.skipped.length };
}

/** Write the merged journal: a single machine's journal of the run. */
export function writeMergedJournal(path: string, game: Game, m: Merged, files: JournalFiles): void {
  const group = RowLayout.of(game, entrantLabels(m.run.bots).length).newGroup();
  const out = new TextFile(path, '--journal');
  try {
    let text = headerText({ run: m.run, files });
    for (const line of m.lines) {
      if ('skipped' in line) {
        text += skippedText(line.g, line.skipped);
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
