/**
 * What the built-in experiments share about their flags (`tafel experiment NAME`,
 * src/cli/experiment.ts): their values checked (whole numbers and seeds, by the rules
 * of src/harness/run/parts.ts), read back from a saved plan's options, and turned into
 * the plan (`planFor`), which says the command that makes it again. The outputs are
 * checked and written by src/harness/run/outputs.ts, as every command's are.
 */
import { TafelError } from '../src/core/errors.js';
import { SEED, SEED_RULE, wholeNumber } from '../src/harness/run/flag-rules.js';
import { PLAN_VERSION, type ExperimentFlag, type Plan, type PlannedRun } from './experiment.js';
import { FIGURES } from './figures.js';

/** A whole number from `min` (`fallback` when the flag is absent). */
export function count(text: string | boolean | undefined, fallback: number, flag: string, min: number): number {
  if (text === undefined) return fallback;
  const n = typeof text === 'string' ? wholeNumber(text) : null;
  if (n === null || n < min || n > 1e7) {
    throw new TafelError('bad-option', `${flag} '${String(text)}': a whole number from ${min}`);
  }
  return n;
}

/**
 * The whole-number flags' values (each flag with a `min`), checked, by key; a flag's
 * default when it is absent, so that a default is written once, in the flag that shows it.
 */
export function wholes(
  flags: readonly ExperimentFlag[],
  values: Readonly<Record<string, string | boolean | undefined>>,
): Readonly<Record<string, number>> {
  return Object.fromEntries(
    flags.flatMap((f) => {
      if (f.min === undefined) return [];
      const key = flagKey(f.flag);
      return [[key, count(values[key], Number(f.default), f.flag.split(/[ =]/)[0], f.min)]];
    }),
  );
}

/** `--seed`'s value, checked; the flag's default when it is absent. */
export function seedOf(
  flags: readonly ExperimentFlag[],
  values: Readonly<Record<string, string | boolean | undefined>>,
): string {
  const f = flags.find((x) => flagKey(x.flag) === 'seed');
  if (f?.default === undefined) throw new Error('an experiment without a --seed default');
  return seed(values.seed, f.default);
}

/** A master seed, by the rule of every seed (`tafel run --seed`, a plan's runs). */
export function seed(text: string | boolean | undefined, fallback: string): string {
  const s = text === undefined ? fallback : String(text);
  if (!SEED.test(s)) throw new TafelError('bad-seed', `--seed '${s}': a seed is ${SEED_RULE}`);
  return s;
}

/** Write the page of an experiment's results CSV, as `tafel report CSV` draws it; returns its size in bytes. */
export async function writeExperimentReport(out: string, csv: string): Promise<number> {
  // The plotting library takes a second to load: only when a page is asked for.
  const [{ readInputs }, { writeReport }] = await Promise.all([
    import('../src/report/inputs.js'),
    import('../src/report/page.js'),
  ]);
  return writeReport(out, readInputs([csv]), { made: new Date() });
}

/** A flag's key among commander's values: `--mc-rubbers <n>` -> `mcRubbers`. */
export function flagKey(flag: string): string {
  return flag
    .split(/[ =]/)[0]
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Flag values by commander's keys (`mcRubbers`): as given, or an experiment's options resolved (a list as its items joined by commas). */
type FlagValues = Readonly<Record<string, Plan['options'][string] | undefined>>;

/** The command that makes a plan again: `tafel experiment NAME` and the flags that have a value. */
function commandLine(name: string, flags: readonly ExperimentFlag[], values: FlagValues): string {
  const words = ['tafel', 'experiment', name];
  for (const f of flags) {
    const v = values[flagKey(f.flag)];
    if (v === undefined || v === false) continue;
    words.push(f.flag.split(/[ =]/)[0]);
    if (v === true) continue;
    const text = String(v);
    words.push(/^[\w.,:=/+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
  }
  return words.join(' ');
}

/** What a built-in experiment's plan says of its own; the rest every built-in's plan holds alike. */
export interface PlanParts {
  /** The built-in's name: also its one table's, and the stem of its results unless `name` says otherwise. */
  readonly experiment: string;
  readonly name?: string;
  readonly question: string;
  /** Its options, resolved: what its `run` reads back. */
  readonly options: Plan['options'];
  /** None for an experiment that plays no runs of its own (it measures, or tunes). */
  readonly runs?: readonly PlannedRun[];
}

/**
 * A built-in experiment's plan: its parts, its one table, its declared figures, and the
 * command that makes it again from `values` of its `flags`: the values given (a flag
 * left out stays out, so the command keeps following the defaults), or the options
 * resolved (every default written out).
 */
export function planFor(parts: PlanParts, flags: readonly ExperimentFlag[], values: FlagValues): Plan {
  return {
    plan: PLAN_VERSION,
    name: parts.name ?? parts.experiment,
    experiment: parts.experiment,
    question: parts.question,
    command: commandLine(parts.experiment, flags, values),
    options: parts.options,
    runs: parts.runs ?? [],
    tables: [{ name: parts.experiment }],
    figures: FIGURES[parts.experiment],
  };
}

/** A plan's resolved options as flag values again (lists joined by commas), to be checked as flags are. */
export function valuesOf(options: Plan['options']): Record<string, string | boolean> {
  return Object.fromEntries(
    Object.entries(options).map(([k, v]) => [
      k,
      typeof v === 'boolean' ? v : Array.isArray(v) ? v.join(',') : String(v),
    ]),
  );
}

/** The run of a saved plan named `name`, which the experiment's options call for. */
export function plannedRun(runs: readonly PlannedRun[], name: string): PlannedRun {
  const run = runs.find((r) => r.name === name);
  if (!run) throw new TafelError('bad-input', `the plan's runs: no run named ${name}, which its options call for`);
  return run;
}
