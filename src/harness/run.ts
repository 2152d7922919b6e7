/**
 * A tournament run: play the duplicate groups, take them in group order into the
 * tally and the output files, and write the summary. The summary and the table are
 * computed from the groups in order, so they are the same byte for byte however the
 * run was scheduled: over any number of workers, interrupted and resumed, or split
 * into shards and merged.
 *
 * If a bot fails (and failures are not skipped), the groups before it are still
 * tallied and written, and the failure is returned for the CLI to report. An
 * interrupt (`signal`) ends the run the same way: finished groups kept, files valid.
 */
import { existsSync, statSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../core/errors.js';
import type { Game, TableConfig } from '../games/game.js';
import { BatchPlayer, RowLayout, dealColumns, type Failure } from './batch.js';
import { Collector } from './collect.js';
import {
  checkLines,
  checkMetrics,
  headerText,
  metricKeys,
  type GroupLine,
  type JournalContents,
  type JournalFiles,
} from './journal.js';
import type { Lineup } from './lineup.js';
import { TextFile, probeWritable, writeCsv } from './outputs.js';
import { planOf } from './plan.js';
import { createRunner } from './pool.js';
import type { Progress } from './progress.js';
import { SUMMARY_COLUMNS, renderTable, summaryRows, type RunInfo } from './report.js';
import { cutBack } from './resume.js';
import { playInOrder, type ScheduleEnd } from './schedule.js';
import { shardRange, type Shard } from './shard.js';
import type { Unit } from './table.js';
import { RunTally } from './tally.js';
import { Sprt, specText, type SprtSpec } from './sprt.js';
import type { GroupTally } from './table.js';

export interface RunOptions {
  game: Game;
  table: TableConfig;
  lineup: Lineup;
  seed: string;
  unit: Unit;
  /** Number of duplicate groups: deals with --deals, matches with --matches. */
  groups: number;
  /** Summary CSV path. */
  out?: string;
  /** Deal records (JSON Lines) path. */
  records?: string;
}

export interface RunResult {
  info: RunInfo;
  tally: RunTally;
  /** The readable table. */
  text: string;
  seconds: number;
  /** The failure that stopped the run early, if any (already written around). */
  failure?: TafelError;
}

export interface TournamentOptions extends RunOptions {
  /** The --bots list as written, for the journal. */
  bots: readonly string[];
  shard: Shard | null;
  /** Per-deal CSV path. */
  dealCsv?: string;
  /** Journal path, and the `files` entry its header records. */
  journal?: string;
  journalFiles?: JournalFiles;
  workers: number;
  /** Milliseconds a bot may take over one move; null: moves are not timed. */
  moveTimeout: number | null;
  /** Drop a group in which a bot fails, instead of stopping the run. */
  skipFailures: boolean;
  /** The journal of this very run, to continue it (the CLI has checked it is the same run). */
  resume?: JournalContents;
  signal?: AbortSignal;
  progress?: (groups: { total: number; before: number }) => Progress;
  /** Stop a head-to-head run as soon as this test decides. */
  sprt?: SprtSpec;
}

export interface TournamentResult extends RunResult {
  interrupted: boolean;
  /** Groups dropped after a bot failed in them, in order (from the resumed part too). */
  skipped: readonly Failure[];
  /** The groups of this run or shard: [from, to). */
  from: number;
  to: number;
  /** Groups finished before this session (the part of a resumed run already done). */
  resumed: number;
  /** The SPRT's verdict (`Sprt.describe`), when one ran. */
  sprt?: string;
}

/**
 * The SPRT's input per group: the first bot's value minus the second's on the
 * headline metric (per match with --matches), oriented so that positive is better.
 */
function sprtFeed(game: Game, unit: Unit, test: Sprt): (g: GroupTally) => void {
  const metric = unit === 'match' ? game.matchMetrics[0] : game.dealMetrics[0];
  const k = unit === 'match' ? game.matchMetrics.length : game.dealMetrics.length;
  return (g) => {
    const sums = unit === 'match' ? g.matchSums : g.dealSums;
    const counts = unit === 'match' ? g.matchCounts : g.dealCounts;
    if (counts[0] === 0 || counts[1] === 0) return;
    const d = sums[0] / counts[0] - sums[k] / counts[1];
    test.add(metric.higherIsBetter ? d : -d);
  };
}

function runInfo(game: Game, seed: string, unit: Unit, lineup: Lineup): RunInfo {
  return {
    game: game.name,
    seed,
    unit,
    labels: lineup.entrants.map((e) => e.label),
    rotations: lineup.rotations,
    cheats: lineup.entrants.map((e) => e.spec.cheats === true),
  };
}

function newTally(game: Game, unit: Unit, lineup: Lineup): RunTally {
  return new RunTally(game.dealMetrics, unit === 'match' ? game.matchMetrics : null, lineup.entrants.length);
}

export async function playTournament(o: TournamentOptions): Promise<TournamentResult> {
  const { game, table, lineup, seed, unit } = o;
  const { from, to } = shardRange(o.groups, o.shard);
  if (o.out) probeWritable(o.out, '--out');
  const layout = RowLayout.of(game, lineup.entrants.length);
  const dealHeader = stringify([], { header: true, columns: dealColumns(game) });
  let prefix: GroupLine[] = [];
  if (o.resume && o.journal) {
    checkMetrics(o.journal, o.resume.header.run, game);
    checkLines(o.journal, o.resume.lines, layout);
    prefix = cutBack(o.resume, {
      journal: o.journal,
      records: o.records ?? null,
      dealCsv: o.dealCsv ?? null,
      dealHeader,
      seats: table.seats,
      rotations: lineup.rotations,
    });
  }
  const append = o.resume !== undefined;
  const files = {
    journal: null as TextFile | null,
    records: null as TextFile | null,
    dealCsv: null as TextFile | null,
  };
  const closeFiles = () => Object.values(files).forEach((f) => f?.close());
  try {
    if (o.records) files.records = new TextFile(o.records, '--records', append);
    if (o.dealCsv) {
      const fresh = !append || !existsSync(o.dealCsv) || statSync(o.dealCsv).size === 0;
      files.dealCsv = new TextFile(o.dealCsv, '--deal-csv', append);
      if (fresh) files.dealCsv.write(dealHeader);
    }
    if (o.journal) {
      files.journal = new TextFile(o.journal, '--journal', append);
      if (!append) {
        const run = {
          game: game.name,
          rules: table.rules,
          seats: table.seats,
          bots: o.bots,
          cheats: lineup.entrants.map((e) => e.spec.cheats === true),
          seed,
          unit,
          groups: o.groups,
          rotations: lineup.rotations,
          shard: o.shard,
          sprt: o.sprt ? specText(o.sprt) : null,
          metrics: metricKeys(game),
        };
        files.journal.write(
          headerText({ run, files: o.journalFiles ?? { cwd: '.', out: null, records: null, dealCsv: null } }),
        );
      }
    }
  } catch (e) {
    closeFiles();
    throw e;
  }

  const tally = newTally(game, unit, lineup);
  const test = o.sprt ? new Sprt(o.sprt) : null;
  const collector = new Collector(layout, tally, files, test && sprtFeed(game, unit, test));
  collector.addLines(prefix);
  // A resumed run whose test had already decided plays nothing more.
  const start = test?.decision ? to : from + prefix.length;
  const progress = o.progress?.({ total: to - from, before: prefix.length });
  const plan = planOf(game, table, lineup, seed, unit, {
    records: o.records !== undefined,
    dealRows: o.dealCsv !== undefined,
    journal: o.journal !== undefined,
    moveTimeout: o.moveTimeout,
    skipFailures: o.skipFailures,
  });
  const runner = createRunner(Math.max(1, Math.min(o.workers, to - start)));
  const started = performance.now();
  let end: ScheduleEnd;
  try {
    end = await playInOrder({
      plan,
      runner,
      from: start,
      to,
      signal: o.signal,
      maxBatch: test ? 1 : undefined,
      onBatch: (r) => {
        collector.add(r);
        progress?.update(collector.groupsIn, collector.dealsIn);
        return test?.decision ? 'stop' : undefined;
      },
    });
  } finally {
    progress?.end();
    closeFiles();
    await runner.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const info = runInfo(game, seed, unit, lineup);
  if (o.out) writeCsv(o.out, SUMMARY_COLUMNS, summaryRows(info, tally));
  return {
    info,
    tally,
    text: renderTable(info, tally),
    seconds,
    failure: end.end === 'failed' ? new TafelError(end.failure.code, end.failure.message) : undefined,
    interrupted: end.end === 'aborted',
    skipped: collector.skipped,
    from,
    to,
    resumed: prefix.length,
    sprt: test?.describe(),
  };
}

/**
 * The same run in this thread, synchronously, without journal or workers: for tests
 * and tools that want a run's records or tally in a few lines.
 */
export function runTournament(opts: RunOptions): RunResult {
  const { game, table, lineup, seed, unit } = opts;
  if (opts.out) probeWritable(opts.out, '--out');
  const records = opts.records ? new TextFile(opts.records, '--records') : null;
  const player = new BatchPlayer(game, table, lineup, seed, unit, {
    records: records !== null,
    dealRows: false,
    journal: false,
    moveTimeout: null,
    skipFailures: false,
  });
  const tally = newTally(game, unit, lineup);
  const collector = new Collector(RowLayout.of(game, lineup.entrants.length), tally, {
    journal: null,
    records,
    dealCsv: null,
  });
  const started = performance.now();
  let failure: TafelError | undefined;
  try {
    for (let g = 0; g < opts.groups && !failure; g += 1000) {
      const r = player.play(g, Math.min(1000, opts.groups - g));
      collector.add(r);
      if (r.failure) failure = new TafelError(r.failure.code, r.failure.message);
    }
  } finally {
    records?.close();
  }
  const info = runInfo(game, seed, unit, lineup);
  if (opts.out) writeCsv(opts.out, SUMMARY_COLUMNS, summaryRows(info, tally));
  return { info, tally, text: renderTable(info, tally), seconds: (performance.now() - started) / 1000, failure };
}
