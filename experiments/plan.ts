/**
 * Playing a plan: each run (experiment.ts's `PlannedRun`, plain JSON) is resolved here
 * through the harness (its game, table and bots) and played (`playRun`: the worker
 * pool, its journal, `--resume`, shards; the runs one after another on one pool, without
 * draining it between them, lanes.ts) into a database of its own in the
 * experiment's work directory; the experiment's tables are queries over those
 * databases read together (`queryPlan`: `runs.name` names each run). So an experiment
 * scales as a run does, gives the same bytes for any number of workers, continues after
 * an interrupt (`--resume`), and can be split over machines (`--shard i/n` plays that
 * part of every run; the tables are made once every shard's files are in one directory).
 *
 * Files, per run `name` (a shard adds `.part-i-of-n`): `NAME.journal.jsonl` and
 * `NAME.duckdb` in the work directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TafelError } from '../src/core/errors.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { sqlString } from '../src/harness/db/db.js';
import { runQueries, type QueryResult } from '../src/harness/db/query.js';
import { runNumber } from '../src/harness/db/schema.js';
import { isComplete, readJournal, type JournalContents } from '../src/harness/run/journal.js';
import { Lanes } from '../src/harness/run/lanes.js';
import { gameNamed, tableFor } from '../src/harness/run/parts.js';
import { checkOutputs } from '../src/harness/run/outputs.js';
import { createRunner } from '../src/harness/run/pool.js';
import { playRun, type RunResult } from '../src/harness/run/run.js';
import type { Shard } from '../src/harness/run/shard.js';
import { specOf, type RunSpec } from '../src/harness/run/spec.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import type { PlannedRun } from './experiment.js';

export interface PlanOptions {
  readonly workDir: string;
  readonly workers: number;
  /** Continue the runs whose files are in the work directory (else they are refused, unless `force`). */
  readonly resume: boolean;
  readonly force: boolean;
  readonly shard: Shard | null;
  /** A line per run for the user (stderr). */
  readonly progress?: (line: string) => void;
  /** Each run played in this session (not one already finished in the work directory), with its result. */
  readonly onResult?: (run: PlannedRun, result: RunResult) => void;
}

/** A run's game and table: its game by name, its players (the game's default) and rules (defaults for the rest), checked. */
export function tableOf(run: PlannedRun): { game: Game; table: TableConfig } {
  const where = `run ${run.name}`;
  const game = gameNamed(run.game, where);
  return { game, table: tableFor(game, run.players, run.rules ?? {}, where) };
}

function fileName(name: string, shard: Shard | null): string {
  return shard ? `${name}.part-${shard.index}-of-${shard.count}` : name;
}

/** The run specs of a plan, with their files in the work directory, checked before any play. */
async function specsOf(runs: readonly PlannedRun[], workDir: string, shard: Shard | null): Promise<RunSpec[]> {
  const specs: RunSpec[] = [];
  for (const r of runs) {
    const { game, table } = tableOf(r);
    const lineup = await resolveLineup(r.bots, game, table.seats);
    const base = fileName(r.name, shard);
    specs.push(
      specOf({
        game,
        table,
        lineup,
        bots: r.bots.split(','),
        seed: r.seed,
        unit: r.unit,
        groups: r.groups,
        shard,
        files: { dir: resolve(workDir), journal: `${base}.journal.jsonl`, db: `${base}.duckdb` },
        timeMoves: r.timeMoves,
      }),
    );
  }
  return specs;
}

/**
 * Play every run of the plan (those already finished in the work directory are kept
 * when resuming) and return the paths of the databases to query: the work directory's
 * databases of these runs, every shard's.
 */
export async function playPlan(runs: readonly PlannedRun[], o: PlanOptions): Promise<string[]> {
  const specs = await specsOf(runs, o.workDir, o.shard);
  // Before any play: refuse earlier files unless resuming or replacing them.
  checkOutputs([], {
    existing: o.resume ? 'continue' : o.force ? 'replace' : 'refuse',
    dirs: [
      {
        flag: '--work-dir',
        shown: o.workDir,
        path: resolve(o.workDir),
        files: specs.flatMap((s) => [s.files.journal!, s.files.db!]),
        resumable: true,
      },
    ],
  });
  const toPlay = specs.flatMap((spec, i) => {
    const journal = join(o.workDir, spec.files.journal!);
    const resume = o.resume && existsSync(journal) ? readJournal(journal, 'resume file') : undefined;
    if (resume && isComplete(resume)) return [];
    // Resuming the whole plan over every shard's files: the parts stand for the run.
    if (o.resume && !o.shard && !resume && shardsDone(runs[i].name, o.workDir)) return [];
    return [{ run: runs[i], spec, resume }];
  });
  if (toPlay.length > 0) await playTogether(toPlay, o);
  return databasesOf(runs, o.workDir);
}

/** Runs begun and not ended at a time: each holds its files, its database and its players in the workers. */
const OPEN = 3;

/**
 * The runs on one pool (threads started and bots loaded once), each in a lane of its
 * own (lanes.ts): one after another, the next filling the workers the one before leaves
 * idle, at most `OPEN` begun at a time. Each run's result is reported in plan order. A
 * run that fails stops the runs after it (at their last finished group, their files
 * valid for `--resume`) and is thrown once the runs before it have finished, as when
 * they were played one by one.
 */
async function playTogether(
  toPlay: readonly { run: PlannedRun; spec: RunSpec; resume: JournalContents | undefined }[],
  o: PlanOptions,
): Promise<void> {
  const runner = createRunner(o.workers);
  const lanes = new Lanes(runner);
  const stops = toPlay.map(() => new AbortController());
  const stopAfter = (i: number) => stops.slice(i + 1).forEach((s) => s.abort());
  const began = performance.now();
  const played: Promise<RunResult | null>[] = [];
  for (const [i, { spec, resume }] of toPlay.entries()) {
    // A run opens its files and database once the run OPEN places before it has ended.
    const before = i >= OPEN ? played[i - OPEN] : null;
    played.push(
      (async () => {
        await before?.catch(() => undefined);
        // Not begun: a run before it failed.
        if (stops[i].signal.aborted) return null;
        const lane = lanes.lane(i);
        try {
          const r = await playRun(spec, {
            workers: o.workers,
            resume,
            force: o.force && !resume,
            runner: lane,
            signal: stops[i].signal,
          });
          if (r.failure) stopAfter(i);
          return r;
        } catch (e) {
          stopAfter(i);
          throw e;
        } finally {
          await lane.close();
        }
      })(),
    );
  }
  // Each is awaited in turn below; one that fails meanwhile is not an unhandled rejection.
  for (const p of played) p.catch(() => undefined);
  try {
    for (const [i, p] of played.entries()) {
      const r = await p;
      // Not begun: the run before it that failed was thrown at its own turn.
      if (!r) continue;
      if (r.failure) throw r.failure;
      const { run, spec } = toPlay[i];
      o.onResult?.(run, r);
      const after = (performance.now() - began) / 1000;
      o.progress?.(`${spec.bots.join(',')} (${spec.unit} x ${spec.groups}): done after ${after.toFixed(1)} s`);
    }
  } finally {
    await Promise.allSettled(played);
    await runner.close();
  }
}

/** The databases of the plan's runs in the work directory: whole runs, or all their shards' parts. */
function databasesOf(runs: readonly PlannedRun[], workDir: string): string[] {
  return runs.flatMap((r) => databasesOfRun(r.name, workDir));
}

/**
 * Whether every shard of run `name` has finished in the work directory (false when it
 * has no shards' files there; a refusal when some are missing or unfinished).
 */
function shardsDone(name: string, workDir: string): boolean {
  const parts = readdirSync(workDir).flatMap((f) => {
    const m = /^(.+)\.part-(\d+)-of-(\d+)\.journal\.jsonl$/.exec(f);
    return m && m[1] === name ? [{ index: Number(m[2]), count: Number(m[3]), file: join(workDir, f) }] : [];
  });
  if (parts.length === 0) return false;
  const count = parts[0].count;
  for (let i = 0; i < count; i++) {
    const part = parts.find((p) => p.index === i && p.count === count);
    if (!part || !isComplete(readJournal(part.file, 'resume file')))
      throw new TafelError(
        'missing-input',
        `--work-dir ${workDir}: run ${name}: shard ${i}/${count} ${part ? 'is unfinished' : 'is missing'}; play it (--shard ${i}/${count} --resume) before the whole plan`,
      );
  }
  if (parts.some((p) => p.count !== count))
    throw new TafelError('bad-input', `--work-dir ${workDir}: run ${name}: shards of different splits`);
  return true;
}

/** The databases of one run in the work directory: the whole run's, or else all its shards' parts. */
export function databasesOfRun(name: string, workDir: string): string[] {
  const files = existsSync(workDir) ? readdirSync(workDir) : [];
  const whole = files.includes(`${name}.duckdb`);
  const mine = files.filter((f) =>
    whole ? f === `${name}.duckdb` : f.startsWith(`${name}.part-`) && f.endsWith('.duckdb'),
  );
  if (mine.length === 0) throw new TafelError('missing-input', `--work-dir ${workDir}: no database of run ${name}`);
  return mine.sort().map((f) => join(workDir, f));
}

/**
 * `sql` (one statement) over the databases of the plan's runs in the work directory,
 * read together, with `runs.name` naming each run as the plan does. `where` names the
 * SQL in an error (a plan's field).
 */
export async function queryPlan(
  runs: readonly PlannedRun[],
  workDir: string,
  sql: string,
  where: string,
  /** DuckDB's threads: an experiment's `--workers`. */
  threads: number,
): Promise<QueryResult> {
  const specs = await specsOf(runs, workDir, null);
  const names = specs.map((s, i) => `(${runNumber(s)}, ${sqlString(runs[i].name)})`).join(', ');
  // The session's `runs` view, one row per run (its shards' rows as one: started by the
  // first, finished by the last) with its name, copied and put back under its name; then the plan's SQL.
  const named = [
    `CREATE TEMP TABLE plan_runs AS
     SELECT r.* REPLACE (NULL::VARCHAR AS shard, t.started AS started, t.finished AS finished), n.name
     FROM (SELECT DISTINCT ON (run) * FROM runs ORDER BY run, shard) r
     JOIN (SELECT run, min(started) AS started, max(finished) AS finished FROM runs GROUP BY run) t USING (run)
     JOIN (VALUES ${names}) n(run, name) USING (run)`,
    'CREATE OR REPLACE TEMP VIEW runs AS SELECT * FROM plan_runs',
  ];
  let results: QueryResult[];
  try {
    results = await runQueries(databasesOf(runs, workDir), [...named, sql].join(';\n'), { threads });
  } catch (e) {
    if (e instanceof TafelError && e.code === 'bad-sql')
      throw new TafelError('bad-sql', `${where}: ${e.message.replace(/^query: /, '')}`);
    throw e;
  }
  if (results.length !== named.length + 1)
    throw new TafelError('bad-sql', `${where}: ${results.length - named.length} statements, where one is asked`);
  return results[results.length - 1];
}
