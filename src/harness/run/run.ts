/**
 * A tournament run: check the outputs, play the duplicate groups on the worker pool,
 * take them in group order into the tally and the output files, and write the summary.
 * The summary and the table are computed from the groups in order, so they are the
 * same byte for byte however the run was scheduled: over any number of workers,
 * interrupted and resumed, or split into shards and merged.
 *
 * If a bot fails (and failures are not skipped), the groups before it are still
 * tallied and written, and the failure is returned for the CLI to report. An
 * interrupt (`signal`) ends the run the same way: finished groups kept, files valid.
 *
 * The HTML report (`files.report`) is checked here with the other outputs; its page is
 * drawn after play by the caller (src/report), from the groups `onGroup` sees and the
 * tally, so that play never waits for the plotting library.
 */
import { existsSync, statSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { findGame } from '../../games/index.js';
import { BatchPlayer, RowLayout, dealColumns, type Failure } from './batch.js';
import { Collector } from './collect.js';
import type { RunDatabase } from '../db/db.js';
import { countFaults, type FaultCounts } from './fault-counts.js';
import {
  checkLines,
  checkMetrics,
  checkpointText,
  headerText,
  skippedText,
  type Checkpoint,
  type GroupLine,
  type JournalContents,
} from './journal.js';
import { TextFile, checkOutputs, writeCsv } from './outputs.js';
import { runOutputs } from './parts.js';
import { createRunner, type Runner } from './pool.js';
import type { Progress } from './progress.js';
import { SUMMARY_COLUMNS, renderTable, summaryRows } from './report.js';
import { cutBack, cutBackToCheckpoint } from './resume.js';
import { playInOrder, type ScheduleEnd } from './schedule.js';
import { shardRange } from './shard.js';
import { identityDifference, pathOf, type LiveRun, type RunSpec } from './spec.js';
import { Sprt, groupDifference, parseSprt } from '../stats/sprt.js';
import type { GroupTally } from '../table/table.js';
import { RunTally } from '../stats/tally.js';
import { Withdrawal, type Withdrawn } from './withdrawal.js';

/** How this session plays the run (none of it changes the results). */
export interface Session {
  /** Worker threads (the pool is used even for one: the main thread stays free for signals and the timeout). */
  readonly workers: number;
  /** The journal of this very run, to continue it (the caller has checked it is the same run). */
  readonly resume?: JournalContents;
  /** Replace output files that exist (else they are refused). */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  readonly progress?: (groups: { total: number; before: number }) => Progress;
  /** A pool to play on, kept open by the caller across runs (an experiment's, a tuning's); by default one of `workers` for this run. */
  readonly runner?: Runner;
  /** Sees every group tallied, in group order, the resumed part first (what a report is drawn from). */
  readonly onGroup?: (group: GroupTally) => void;
  /**
   * With `onBotError: skip`, withdraw a bot (end the run) that failed in more than this
   * share of the groups so far (withdrawal.ts); 1, the default, never does.
   */
  readonly maxFaultShare?: number;
}

export interface RunResult {
  readonly spec: RunSpec;
  readonly tally: RunTally;
  /** The readable table. */
  readonly text: string;
  readonly seconds: number;
  /** The failure that stopped the run early, if any (already written around). */
  readonly failure?: TafelError;
  readonly interrupted: boolean;
  /** Groups dropped after a bot failed in them, in order (from the resumed part too). */
  readonly skipped: readonly Failure[];
  /** Faults per bot and kind (the skipped groups' and the stopping failure's), and this session's restarts. */
  readonly faults: FaultCounts;
  /** The bot withdrawn for failing too often (`Session.maxFaultShare`), which ended the run after its group. */
  readonly withdrawn: Withdrawn | null;
  /** The groups of this run or shard: [from, to). */
  readonly from: number;
  readonly to: number;
  /** Groups finished before this session (the part of a resumed run already done). */
  readonly resumed: number;
  /** The SPRT, when one ran. */
  readonly sprt: Sprt | null;
  /**
   * With `spec.timeMoves`, per entrant: the moves made in the groups this session
   * delivered and their wall time in ms (so not those of a resumed part); else null.
   */
  readonly moveTime: readonly MoveTime[] | null;
}

export interface MoveTime {
  readonly moves: number;
  readonly ms: number;
}

/** Sums of the batches' move times (`BatchResult.moveTime`). */
class MoveTimes {
  private readonly sum: Float64Array;

  constructor(entrants: number) {
    this.sum = new Float64Array(2 * entrants);
  }

  add(batch: Float64Array | null): void {
    if (batch) for (let i = 0; i < this.sum.length; i++) this.sum[i] += batch[i];
  }

  result(): MoveTime[] {
    return Array.from({ length: this.sum.length / 2 }, (_, e) => ({ moves: this.sum[2 * e], ms: this.sum[2 * e + 1] }));
  }
}

function gameOf(spec: RunSpec): Game {
  const game = findGame(spec.game);
  if (!game) throw new TafelError('unknown-game', `unknown game '${spec.game}'`);
  return game;
}

function newTally(game: Game, spec: RunSpec): RunTally {
  return new RunTally(game.dealMetrics, spec.unit === 'match' ? game.matchMetrics : null, spec.entrants.length);
}

export async function playRun(spec: RunSpec, session: Session): Promise<RunResult> {
  const game = gameOf(spec);
  const { from, to } = shardRange(spec.groups, spec.shard);
  const resume = session.resume;
  const outputs = runOutputs(spec.files);
  const journalPath = pathOf(spec, 'journal');
  // The one resume policy's last word: a journal continues only its own run (a plan or
  // a tuning's verification may have changed since it was written).
  const differs = resume && identityDifference(resume.spec, spec);
  if (differs)
    throw new TafelError(
      'bad-resume',
      `cannot resume: the journal ${spec.files.journal ?? journalPath} is of another run (${differs} differs)`,
    );
  checkOutputs(outputs, {
    existing: resume ? 'continue' : session.force ? 'replace' : 'refuse',
    journal: outputs.find((f) => f.path === journalPath) ?? null,
  });
  const records = pathOf(spec, 'records');
  const dealCsv = pathOf(spec, 'dealCsv');
  const layout = new RowLayout(spec.entrants.length, game.dealMetrics.length, game.matchMetrics.length);
  const dealHeader = stringify([], { header: true, columns: dealColumns(game) });
  const resumeFiles = {
    journal: journalPath ?? '',
    records,
    dealCsv,
    dealHeader,
    seats: spec.seats,
    rotations: spec.seatings.length,
  };
  const shown = spec.files.journal ?? journalPath ?? '';
  // What the journal holds: every group line of a format-2 journal, or a checkpoint.
  let prefix: GroupLine[] = [];
  let restored: Checkpoint | null = null;
  if (resume && journalPath) {
    checkMetrics(shown, resume.spec, game);
    checkLines(shown, resume, layout);
    if (resume.version === 2) prefix = cutBack(resume, resumeFiles);
    else restored = cutBackToCheckpoint(resume, resume.ends[0], from, resumeFiles);
  }
  const done = resume?.version === 2 ? prefix.length : (restored?.groups ?? 0);
  // A format-2 journal is written again as format 3, from its header on.
  const append = resume !== undefined;
  const rewrite = resume?.version === 2;
  const files = {
    journal: null as TextFile | null,
    records: null as TextFile | null,
    dealCsv: null as TextFile | null,
  };
  const closeFiles = () => Object.values(files).forEach((f) => f?.close());
  try {
    if (records) files.records = new TextFile(records, '--records', append);
    if (dealCsv) {
      const fresh = !append || !existsSync(dealCsv) || statSync(dealCsv).size === 0;
      files.dealCsv = new TextFile(dealCsv, '--deal-csv', append);
      if (fresh) files.dealCsv.write(dealHeader);
    }
    if (journalPath) {
      files.journal = new TextFile(journalPath, '--journal', append && !rewrite);
      if (!append || rewrite) files.journal.write(headerText(spec, journalPath));
    }
  } catch (e) {
    closeFiles();
    throw e;
  }

  const dbPath = pathOf(spec, 'db');
  let database: RunDatabase | null = null;
  try {
    if (dbPath) {
      // DuckDB's native module is loaded only by runs that write a database.
      const { RunDatabase } = await import('../db/db.js');
      database = RunDatabase.open(dbPath, game, [spec], resume ? 'continue' : 'create');
      if (resume) await database.cutBack(spec, done, restored ? restored.deals : dealsIn(prefix));
    }
  } catch (e) {
    closeFiles();
    await database?.close();
    throw e;
  }

  const tally = newTally(game, spec);
  const test = spec.sprt ? new Sprt(parseSprt(spec.sprt)) : null;
  const difference = groupDifference(game, spec.unit);
  const onGroup = (g: GroupTally) => {
    const d = test && difference(g);
    if (test && d !== null) test.add(d);
    session.onGroup?.(g);
  };
  const checkpoints = {
    every: Math.max(1, Math.ceil((to - from) / 64)),
    text: () => checkpointText(done + collector.groupsIn, tally, tally.deals, test),
  };
  const collector = new Collector(
    layout,
    tally,
    { ...files, db: database && { database, spec } },
    onGroup,
    checkpoints,
  );
  const share = spec.onBotError === 'skip' ? (session.maxFaultShare ?? 1) : 1;
  const withdrawal = share < 1 ? new Withdrawal(spec.entrants.length, share) : null;
  if (restored) {
    try {
      tally.restore(restored.tally);
      if (test) test.restore(restored.sprt);
    } catch {
      closeFiles();
      await database?.close();
      throw new TafelError(
        'bad-journal',
        `journal ${shown}: its checkpoint after ${restored.groups} groups does not fit the run's bots, metrics or test (a corrupt journal)`,
      );
    }
    collector.addSkipped(restored.skipped);
    withdrawal?.restore(restored.groups, restored.skipped);
  } else {
    collector.addLines(prefix);
    withdrawal?.addLines(prefix);
    if (rewrite && files.journal && done > 0) {
      for (const f of collector.skipped) files.journal.write(skippedText(f));
      files.journal.write(checkpoints.text());
    }
  }
  const restarts = new Float64Array(spec.entrants.length);
  // A resumed run whose test had already decided plays nothing more.
  const start = test?.decision ? to : from + done;
  const progress = session.progress?.({ total: to - from, before: done });
  const moveTimes = spec.timeMoves ? new MoveTimes(spec.entrants.length) : null;
  // Nothing left to play (a finished resume, an empty shard): no threads to start.
  const runner =
    session.runner ?? createRunner(Math.max(1, Math.min(session.workers, to - start)), { inline: start >= to });
  const started = performance.now();
  let end: ScheduleEnd;
  try {
    // The catalogue was being made while the workers started.
    await database?.ready();
    end = await playInOrder({
      spec,
      runner,
      from: start,
      to,
      signal: session.signal,
      maxBatch: test ? 1 : undefined,
      // A withdrawal at the last group stops nothing: the run is done.
      cut: withdrawal
        ? (r) => {
            const last = withdrawal.check(r.start, r.done, r.skipped);
            return last === to - 1 ? null : last;
          }
        : undefined,
      onBatch: (r) => {
        collector.add(r);
        withdrawal?.add(r.start, r.done, r.skipped);
        addInto(restarts, r.restarts);
        moveTimes?.add(r.moveTime);
        progress?.update(collector.groupsIn, collector.dealsIn);
        return test?.decision ? 'stop' : undefined;
      },
    });
  } finally {
    progress?.end();
    try {
      collector.flush(true);
    } finally {
      closeFiles();
      if (!session.runner) await runner.close();
    }
  }
  // The fault that stopped the run is kept too (a resume deletes it with its group, which is played again).
  if (end.end === 'failed') database?.appendFaults(spec, [end.failure]);
  // The end time says when the run was finished, not when a session of it stopped.
  await database?.close(end.end === 'done' || end.end === 'stopped' ? [spec] : []);
  const faults = countFaults(
    spec.entrants.length,
    tally.groups + collector.skipped.length,
    collector.skipped,
    end.end === 'failed' ? end.failure : null,
  );
  faults.addRestarts(restarts);
  const seconds = (performance.now() - started) / 1000;
  const out = pathOf(spec, 'out');
  if (out) writeCsv(out, SUMMARY_COLUMNS, summaryRows(spec, tally, test, faults));
  return {
    spec,
    tally,
    text: renderTable(spec, tally),
    seconds,
    failure: end.end === 'failed' ? new TafelError(end.failure.code, end.failure.message) : undefined,
    interrupted: end.end === 'aborted',
    skipped: collector.skipped,
    faults,
    withdrawn: end.end === 'withdrawn' ? withdrawal!.withdrawn : null,
    from,
    to,
    resumed: done,
    sprt: test,
    moveTime: moveTimes?.result() ?? null,
  };
}

function addInto(sum: Float64Array, batch: Float64Array | null): void {
  if (batch) for (let i = 0; i < sum.length; i++) sum[i] += batch[i];
}

function dealsIn(lines: readonly GroupLine[]): number {
  let n = 0;
  for (const line of lines) if (!('skipped' in line)) n += line.deals;
  return n;
}

/**
 * A run in this thread, synchronously, without journal, workers or SPRT: for tests and
 * tools that want a run's records or tally in a few lines. Writes the records file
 * and the summary when the spec names them (no output check: the caller's files).
 */
export function runTournament(run: LiveRun): RunResult {
  const { spec, game } = run;
  const records = pathOf(spec, 'records');
  const out = pathOf(spec, 'out');
  const recordsFile = records ? new TextFile(records, '--records') : null;
  const player = new BatchPlayer({
    ...run,
    spec: { ...spec, files: { ...spec.files, journal: null, dealCsv: null, db: null } },
  });
  const tally = newTally(game, spec);
  const layout = new RowLayout(spec.entrants.length, game.dealMetrics.length, game.matchMetrics.length);
  const collector = new Collector(layout, tally, { journal: null, records: recordsFile, dealCsv: null });
  const started = performance.now();
  const moveTimes = spec.timeMoves ? new MoveTimes(spec.entrants.length) : null;
  let failure: TafelError | undefined;
  let stopped: Failure | null = null;
  const restarts = new Float64Array(spec.entrants.length);
  try {
    for (let g = 0; g < spec.groups && !failure; g += 1000) {
      const r = player.play(g, Math.min(1000, spec.groups - g));
      collector.add(r);
      moveTimes?.add(r.moveTime);
      addInto(restarts, r.restarts);
      if (r.failure) {
        stopped = r.failure;
        failure = new TafelError(r.failure.code, r.failure.message);
      }
    }
  } finally {
    recordsFile?.close();
  }
  const faults = countFaults(spec.entrants.length, tally.groups + collector.skipped.length, collector.skipped, stopped);
  faults.addRestarts(restarts);
  if (out) writeCsv(out, SUMMARY_COLUMNS, summaryRows(spec, tally, null, faults));
  return {
    spec,
    tally,
    text: renderTable(spec, tally),
    seconds: (performance.now() - started) / 1000,
    failure,
    interrupted: false,
    skipped: collector.skipped,
    faults,
    withdrawn: null,
    from: 0,
    to: spec.groups,
    resumed: 0,
    sprt: null,
    moveTime: moveTimes?.result() ?? null,
  };
}
