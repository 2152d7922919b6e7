/**
 * A tuning: SPSA (spsa.ts) over duplicate deals, played on one worker pool kept open
 * from the first iteration to the verification.
 *
 * Iteration k plays groups [(k-1)P, kP) of the tuning's seed: that part of one pair
 * run of N x P groups, with theta+ and theta- as its two bots (or, with
 * `against`, two such runs on the same groups: theta+ against that bot, theta- against
 * it). Each group gives one paired difference on the headline metric, oriented so that
 * positive means theta+ did better (against a bot: theta+'s paired difference against
 * it minus theta-'s); the iteration's result is their scaled sum
 * (`scaledResult`). The groups arrive in group order whatever the number of workers,
 * and the flips and rounding come from the seed alone, so the trajectory, the tuned
 * values and every output are the same bytes for any --workers.
 *
 * Each finished iteration is a journal line. An interrupt (`signal`) drops the
 * iteration under way and keeps the rest; a resume replays the journal's differences
 * (checking that they give back its thetas) and plays on, to the same end. Then the
 * verification: a two-bot run of the tuned values against the start on fresh deals
 * (the seed `S:verify`), with its own summary and journal, so that it resumes like any
 * run.
 */
import { existsSync, truncateSync } from 'node:fs';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { findGame } from '../../games/index.js';
import { RowLayout, type Failure } from '../run/batch.js';
import { readJournal } from '../run/journal.js';
import { TextFile, checkOutputs, outputFiles, writeCsv, type OutputKind } from '../run/outputs.js';
import { createRunner, type Runner } from '../run/pool.js';
import type { Progress } from '../run/progress.js';
import { playRun, type RunResult } from '../run/run.js';
import { playInOrder } from '../run/schedule.js';
import { pathOf, type RunSpec } from '../run/spec.js';
import { finalValue, scaledResult, stepOf, updated, type SpsaStep } from './spsa.js';
import type { Estimate } from '../stats/stats.js';
import type { GroupTally } from '../table/table.js';
import { iterationText, tuneHeaderText, type IterationLine, type TuneJournal } from './journal.js';
import { tuneColumns, tuneRows } from './report.js';
import { headline, pairRun, scheduleOf, spsaKey, variant, verifySeed, type TuneFiles, type TuneSpec } from './spec.js';

export interface TuneSession {
  readonly workers: number;
  /** The journal of this very tuning, to continue it. */
  readonly resume?: TuneJournal;
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** The progress of the iterations (`update` gets the iterations done and theta as text). */
  readonly progress?: (iterations: { total: number; before: number }) => Progress;
  /** The progress of the verification run. */
  readonly verifyProgress?: (groups: { total: number; before: number }) => Progress;
  /** Sees every group of the verification run, in order, the resumed part first (what a report is drawn from). */
  readonly onVerifyGroup?: (group: GroupTally) => void;
}

/** A finished iteration: its journal line, what it played and its result. */
export interface Iteration extends IterationLine {
  readonly step: SpsaStep;
  readonly result: number;
}

export interface Verified {
  readonly run: RunResult;
  /** Tuned minus start on the headline metric per group, positive when the tuned bot did better. */
  readonly difference: Estimate;
  /** better / worse / none (the interval holds 0), or the SPRT's H1 / H0 / none; unfinished when it was stopped. */
  readonly verdict: string;
}

export interface TuneResult {
  readonly spec: TuneSpec;
  readonly iterations: readonly Iteration[];
  readonly theta: readonly number[];
  /** The tuned values as the bot plays them, in `spec.tune` order. */
  readonly values: readonly number[];
  readonly verified: Verified | null;
  readonly interrupted: boolean;
  readonly failure?: TafelError;
  readonly seconds: number;
  /** Iterations finished before this session. */
  readonly resumed: number;
}

const FLAGS: Record<Exclude<keyof TuneFiles, 'dir'>, readonly [string, OutputKind]> = {
  out: ['--out', 'csv'],
  journal: ['--out (its journal)', 'jsonl'],
  verifyOut: ['--out (the verification summary)', 'csv'],
  verifyJournal: ['--out (the verification journal)', 'jsonl'],
  verifyDb: ['--db', 'duckdb'],
  report: ['--report', 'html'],
};

/**
 * The iterations of a journal played again on paper: each one's step from the theta
 * before it, its result from its differences, and theta after it, which must be the
 * journal's own (else a `bad-journal` error that begins with `where`).
 */
export function replay(t: TuneSpec, lines: readonly IterationLine[], where: string): Iteration[] {
  const schedule = scheduleOf(t);
  const key = spsaKey(t);
  let theta: readonly number[] = t.tune.map((p) => p.start);
  return lines.map((line) => {
    const step = stepOf(t.tune, schedule, theta, line.i, key);
    const result = scaledResult(line.d);
    theta = updated(t.tune, theta, step, result);
    if (theta.some((x, i) => x !== line.theta[i])) {
      throw new TafelError(
        'bad-journal',
        `${where}: iteration ${line.i} does not lead to the theta it holds (a corrupt journal, or one of another version of tafel); tune again`,
      );
    }
    return { ...line, step, result };
  });
}

type Played<T> = ({ end: 'done'; deals: number } & T) | { end: 'aborted' } | { end: 'failed'; failure: Failure };

/**
 * Play groups [from, from + count) of two-bot runs together on the runner and return,
 * per run, each group's mean headline value of its two bots: means[s][2g + e] for
 * entrant e in group from + g of run s. `batch` fixes the groups a batch (a tuning's
 * iteration: one batch a worker); by default batches adapt to the bots' speed.
 */
export async function headlineMeans(
  specs: readonly RunSpec[],
  runner: Runner,
  o: { from: number; count: number; signal?: AbortSignal; batch?: number },
): Promise<Played<{ means: Float64Array[] }>> {
  const game = findGame(specs[0].game)!;
  const unit = specs[0].unit;
  const layout = RowLayout.of(game, 2);
  const group = layout.newGroup();
  const means = specs.map(() => new Float64Array(2 * o.count));
  let deals = 0;
  const ends = await Promise.all(
    specs.map((spec, s) =>
      playInOrder({
        spec,
        runner,
        from: o.from,
        to: o.from + o.count,
        batch: o.batch,
        signal: o.signal,
        onBatch: (r) => {
          for (let i = 0; i < r.done; i++) {
            layout.read(r.rows, i, group);
            const sums = unit === 'match' ? group.matchSums : group.dealSums;
            const counts = unit === 'match' ? group.matchCounts : group.dealCounts;
            const k = sums.length / 2;
            for (let e = 0; e < 2; e++) means[s][(r.start + i - o.from) * 2 + e] = sums[e * k] / counts[e];
            deals += group.deals;
          }
        },
      }),
    ),
  );
  const failed = ends.flatMap((e) => (e.end === 'failed' ? [e.failure] : []));
  if (failed.length) return { end: 'failed', failure: failed.sort((a, b) => a.group - b.group)[0] };
  if (ends.some((e) => e.end !== 'done')) return { end: 'aborted' };
  return { end: 'done', means, deals };
}

/** Play iteration k's groups and return their paired differences (positive: theta+ did better), in group order. */
async function playIteration(
  t: TuneSpec,
  game: Game,
  runner: Runner,
  step: SpsaStep,
  signal: AbortSignal | undefined,
): Promise<Played<{ d: number[] }>> {
  const plus = variant(t, 'plus', step.plus);
  const minus = variant(t, 'minus', step.minus);
  // One pair run of all the tuning's groups, of which this iteration plays its own.
  const run = { seed: t.seed, groups: t.iterations * t.pairs };
  const specs = t.against
    ? [pairRun(t, plus, t.against, run), pairRun(t, minus, t.against, run)]
    : [pairRun(t, plus, minus, run)];
  const batch = Math.ceil((t.pairs * specs.length) / runner.slots);
  const played = await headlineMeans(specs, runner, { from: (step.k - 1) * t.pairs, count: t.pairs, signal, batch });
  if (played.end !== 'done') return played;
  const sign = headline(game, t.unit).higherIsBetter ? 1 : -1;
  // Each table's own paired difference (a metric need not sum to the same at every table:
  // Hindersche's marks do not); against a fixed bot, theta+'s against it minus theta-'s.
  const [x, y] = played.means.map((m) => Array.from({ length: t.pairs }, (_, g) => m[2 * g] - m[2 * g + 1]));
  const d = x.map((v, g) => sign * (y ? v - y[g] : v));
  return { end: 'done', d, deals: played.deals };
}

/** The verification's run spec: the tuned values against the start, on the verification's deals. */
export function verifySpec(t: TuneSpec, values: readonly number[]): RunSpec {
  if (!t.verify) throw new Error('verifySpec: the tuning has no verification');
  return pairRun(t, variant(t, 'tuned', values), t.bot, {
    seed: verifySeed(t),
    groups: t.verify.groups,
    boards: t.verify.boards ?? null,
    sprt: t.verify.sprt,
    files: { out: t.files.verifyOut, journal: t.files.verifyJournal, db: t.files.verifyDb },
  });
}

async function verify(
  t: TuneSpec,
  values: readonly number[],
  game: Game,
  runner: Runner,
  session: TuneSession,
): Promise<Verified> {
  const spec = verifySpec(t, values);
  const journal = pathOf(spec, 'journal');
  const resume = session.resume && journal && existsSync(journal) ? readJournal(journal, 'resume file') : undefined;
  const run = await playRun(spec, {
    workers: session.workers,
    runner,
    resume,
    // A resumed tuning's verification had not begun: whatever is in its place is replaced.
    force: session.force === true || session.resume !== undefined,
    signal: session.signal,
    progress: session.verifyProgress,
    onGroup: session.onVerifyGroup,
  });
  const metric = headline(game, t.unit);
  const section = t.unit === 'match' ? run.tally.match! : run.tally.deal;
  const pair = section.pairRows().find((p) => p.bot === 0 && p.opponent === 1 && p.metric === metric.key)!;
  const e = pair.estimate;
  const difference = metric.higherIsBetter ? e : { ...e, mean: -e.mean, low: -e.high, high: -e.low };
  const verdict =
    run.interrupted || run.failure
      ? 'unfinished'
      : run.sprt
        ? (run.sprt.decision ?? 'none')
        : difference.low > 0
          ? 'better'
          : difference.high < 0
            ? 'worse'
            : 'none';
  return { run, difference, verdict };
}

export async function playTuning(t: TuneSpec, session: TuneSession): Promise<TuneResult> {
  const game = findGame(t.game);
  if (!game) throw new TafelError('unknown-game', `unknown game '${t.game}'`);
  const resume = session.resume;
  const journalPath = pathOf(t, 'journal');
  const outputs = outputFiles(t.files, FLAGS);
  checkOutputs(outputs, {
    existing: resume ? 'continue' : session.force ? 'replace' : 'refuse',
    journal: outputs.find((f) => f.path === journalPath) ?? null,
  });
  const iterations: Iteration[] = resume ? replay(t, resume.lines, `resume file ${t.files.journal ?? ''}`) : [];
  if (resume && journalPath) truncateSync(journalPath, resume.ends[resume.lines.length]);
  let journal: TextFile | null = null;
  if (journalPath) {
    journal = new TextFile(journalPath, '--out (its journal)', resume !== undefined);
    if (!resume) journal.write(tuneHeaderText(t, journalPath));
  }
  let theta: readonly number[] = iterations.at(-1)?.theta ?? t.tune.map((p) => p.start);
  const schedule = scheduleOf(t);
  const key = spsaKey(t);
  const progress = session.progress?.({ total: t.iterations, before: iterations.length });
  const thetaText = () => t.tune.map((p, i) => `${p.key}=${finalValue(p, theta[i])}`).join(' ');
  const runner = createRunner(session.workers);
  const started = performance.now();
  let failure: TafelError | undefined;
  let interrupted = false;
  let verified: Verified | null = null;
  const valuesOf = () => t.tune.map((p, i) => finalValue(p, theta[i]));
  try {
    let deals = 0;
    let done = 0;
    for (let k = iterations.length + 1; k <= t.iterations; k++) {
      const step = stepOf(t.tune, schedule, theta, k, key);
      const played = await playIteration(t, game, runner, step, session.signal);
      if (played.end === 'aborted') {
        interrupted = true;
        break;
      }
      if (played.end === 'failed') {
        failure = new TafelError(played.failure.code, played.failure.message);
        break;
      }
      const result = scaledResult(played.d);
      theta = updated(t.tune, theta, step, result);
      const line: IterationLine = { i: k, deals: played.deals, d: played.d, theta };
      journal?.write(iterationText(line));
      iterations.push({ ...line, step, result });
      deals += played.deals;
      progress?.update(++done, deals, thetaText());
    }
    progress?.end();
    journal?.close();
    if (t.verify && !interrupted && !failure) {
      verified = await verify(t, valuesOf(), game, runner, session);
      interrupted = verified.run.interrupted;
      failure = verified.run.failure;
    }
  } finally {
    progress?.end();
    journal?.close();
    await runner.close();
  }
  const out = pathOf(t, 'out');
  if (out) writeCsv(out, tuneColumns(t), tuneRows(t, iterations, verified), 'tuning CSV');
  return {
    spec: t,
    iterations,
    theta,
    values: valuesOf(),
    verified,
    interrupted,
    failure,
    seconds: (performance.now() - started) / 1000,
    resumed: resume?.lines.length ?? 0,
  };
}
