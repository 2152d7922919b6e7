/**
 * An experiment: a question, the plan of runs that answers it, and the tables (CSVs),
 * figures and report made from those runs. `tafel experiment NAME|PLAN.json` runs one
 * (src/cli/experiment.ts): a built-in experiment is a module here that makes its plan
 * from its options; a user's plan is a JSON file of the same shape (`Plan`) whose tables
 * are SQL queries over its runs' databases. Every experiment writes `<name>.csv` (one
 * per table), `<name>.md` and `<name>.plan.json` (the plan, which `tafel report` draws
 * the page from and `tafel experiment` runs again).
 *
 * This file is the contract between the command, the built-in experiments and the
 * report; the machinery is plan.ts (playing a plan, asking its SQL) and plan-file.ts
 * (a plan file read and checked); the registry of built-ins is index.ts.
 */
import type { Shard } from '../src/harness/run/shard.js';
import type { DeclaredFigure } from '../src/report/declared.js';

/** The version of the plan format; a reader refuses a plan of a newer one. */
export const PLAN_VERSION = 1;

/** One run of a plan, as plain JSON. */
export interface PlannedRun {
  /** The run's name in the work directory (letters, digits, `-`). */
  readonly name: string;
  /** A game's name (`tafel games`). */
  readonly game: string;
  /** Players at the table; the game's default when absent. */
  readonly players?: number;
  /** Rule variants as `tafel run --rules` takes them; defaults for the rest. */
  readonly rules?: Readonly<Record<string, string>>;
  /** As `--bots` takes it. */
  readonly bots: string;
  readonly unit: 'deal' | 'match';
  /** Duplicate groups (`--deals` or `--matches`). */
  readonly groups: number;
  readonly seed: string;
  /** Time every bot's moves (`RunSpec.timeMoves`): wall time, kept outside the results. */
  readonly timeMoves?: boolean;
}

/** A table of results: `<plan name>.csv` for the first, `<plan name>-<table name>.csv` for others. */
export interface PlannedTable {
  readonly name: string;
  /**
   * SQL over the databases of the plan's runs read together (the tables `tafel query`
   * documents; `runs.name` names each run, one row per run, shards joined). A built-in experiment may compute a table
   * in code instead, and leaves this out.
   */
  readonly sql?: string;
}

export interface Plan {
  readonly plan: typeof PLAN_VERSION;
  /** The stem of its results: `<name>.csv`, `<name>.md`, `<name>.plan.json`. */
  readonly name: string;
  /** The experiment that made it: a built-in's name, or `plan` for a user's JSON plan. */
  readonly experiment: string;
  /** The question it answers: the report's title. */
  readonly question: string;
  /** The command that makes these results again. */
  readonly command: string;
  /** The experiment's own options, resolved (defaults applied): what its code reads back. */
  readonly options: Readonly<Record<string, string | number | boolean | readonly (string | number)[]>>;
  readonly runs: readonly PlannedRun[];
  readonly tables: readonly PlannedTable[];
  readonly figures: readonly DeclaredFigure[];
}

/** What every experiment takes: the shared flags. */
export interface Session {
  readonly workDir: string;
  readonly workers: number;
  /** Continue the runs whose files are in the work directory. */
  readonly resume: boolean;
  /** Replace earlier files (work directory runs and results). */
  readonly force: boolean;
  /** Play part i of n of every run; the results wait for every part. */
  readonly shard: Shard | null;
  /** A line for the user (stderr). */
  readonly progress: (line: string) => void;
}

/** An experiment's own flag, besides the shared ones. */
export interface ExperimentFlag {
  /** As commander takes it: `--sessions <n>`, `--quick`. */
  readonly flag: string;
  readonly description: string;
  readonly default?: string;
  /** A whole number from `min` (its default from `default`): read and checked by `wholes`, command.ts. */
  readonly min?: number;
}

/** What a run of an experiment made. */
export interface Results {
  /** Each table's CSV text, by table name, in the plan's order. */
  readonly tables: Readonly<Record<string, string>>;
  /** The Markdown report, given the seconds the experiment took. */
  report(seconds: number): string;
}

export interface Experiment {
  readonly name: string;
  /** One line: what it asks (`tafel experiment --list`, the help). */
  readonly question: string;
  readonly flags: readonly ExperimentFlag[];
  /**
   * The plan these flag values make (strings as commander gives them, keyed as commander
   * keys them: `--mc-rubbers` as `mcRubbers`; absent for a default), checked: a bad
   * value is a TafelError that names its flag. A plan read back from its file comes with
   * its `options` as they were resolved, which `run` checks again.
   */
  plan(values: Readonly<Record<string, string | boolean | undefined>>): Plan;
  /** Play the plan and make its results; null for a shard (its part played). */
  run(plan: Plan, session: Session): Promise<Results | null>;
}
