/**
 * An experiment as a declared set of runs: each run is played through the harness
 * (`playRun`: the worker pool, its journal, `--resume`, shards) into a database of its
 * own in the experiment's work directory, and the experiment's CSV and report are
 * queries over those databases read together (`runQuery`: the tables of every file as
 * one, each run under its number; `runs.bots` names it). So an experiment scales as a
 * run does, gives the same bytes for any number of workers, continues after an
 * interrupt (`--resume`), and can be split over machines (`--shard i/n` plays that part
 * of every run; the report is made once every shard's files are in one directory).
 *
 * Files, per run `name` (a shard adds `.part-i-of-n`): `NAME.journal.jsonl` and
 * `NAME.duckdb` in the work directory.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TafelError } from '../src/core/errors.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { isComplete, readJournal } from '../src/harness/run/journal.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { createRunner } from '../src/harness/run/pool.js';
import { playRun, type RunResult } from '../src/harness/run/run.js';
import type { Shard } from '../src/harness/run/shard.js';
import { specOf, type RunSpec } from '../src/harness/run/spec.js';
import type { Unit } from '../src/harness/table/table.js';

export interface PlannedRun {
  /** The run's name in the work directory (letters, digits, `-`). */
  readonly name: string;
  readonly game: Game;
  readonly table: TableConfig;
  /** As `--bots` takes it. */
  readonly bots: string;
  readonly unit: Unit;
  readonly groups: number;
  readonly seed: string;
  /** Time every bot's moves (`RunSpec.timeMoves`), for `onResult`. */
  readonly timeMoves?: boolean;
}

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

function fileName(name: string, shard: Shard | null): string {
  return shard ? `${name}.part-${shard.index}-of-${shard.count}` : name;
}

/** The run specs of a plan, with their files in the work directory, checked before any play. */
async function specsOf(runs: readonly PlannedRun[], o: PlanOptions): Promise<RunSpec[]> {
  const specs: RunSpec[] = [];
  for (const r of runs) {
    const lineup = await resolveLineup(r.bots, r.game, r.table.seats);
    const base = fileName(r.name, o.shard);
    specs.push(
      specOf({
        game: r.game,
        table: r.table,
        lineup,
        bots: r.bots.split(','),
        seed: r.seed,
        unit: r.unit,
        groups: r.groups,
        shard: o.shard,
        files: { dir: resolve(o.workDir), journal: `${base}.journal.jsonl`, db: `${base}.duckdb` },
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
  mkdirSync(o.workDir, { recursive: true });
  const specs = await specsOf(runs, o);
  // Before any play: refuse earlier files unless resuming or replacing them.
  if (!o.resume && !o.force) {
    for (const s of specs) {
      for (const f of [s.files.journal!, s.files.db!]) {
        if (existsSync(join(o.workDir, f)))
          throw new TafelError(
            'bad-output',
            `--work-dir ${o.workDir}: ${f} exists (an earlier run's); continue with --resume, or replace with --force`,
          );
      }
    }
  }
  // One pool for every run: starting threads and loading the bots once.
  const runner = createRunner(o.workers);
  try {
    for (const [i, s] of specs.entries()) {
      const journal = join(o.workDir, s.files.journal!);
      const resume = o.resume && existsSync(journal) ? readJournal(journal, 'resume file') : undefined;
      if (resume && isComplete(resume)) continue;
      const r = await playRun(s, { workers: o.workers, resume, force: o.force && !resume, runner });
      if (r.failure) throw r.failure;
      o.onResult?.(runs[i], r);
      o.progress?.(`${s.bots.join(',')} (${s.unit} x ${s.groups}): ${r.seconds.toFixed(1)} s`);
    }
  } finally {
    await runner.close();
  }
  return databasesOf(runs, o.workDir);
}

/** The databases of the plan's runs in the work directory: whole runs, or all their shards' parts. */
function databasesOf(runs: readonly PlannedRun[], workDir: string): string[] {
  return runs.flatMap((r) => databasesOfRun(r.name, workDir));
}

/** The databases of one run in the work directory: the whole run's, or all its shards' parts. */
export function databasesOfRun(name: string, workDir: string): string[] {
  const files = existsSync(workDir) ? readdirSync(workDir) : [];
  const mine = files.filter((f) => f === `${name}.duckdb` || (f.startsWith(`${name}.part-`) && f.endsWith('.duckdb')));
  if (mine.length === 0) throw new TafelError('missing-input', `--work-dir ${workDir}: no database of run ${name}`);
  return mine.sort().map((f) => join(workDir, f));
}
