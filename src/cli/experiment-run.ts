/**
 * `tafel experiment` played (the command is defined in experiment.ts): a plan from a
 * built-in's flags or a saved file, every output checked before any play, and the
 * results written whole at the end: `<name>.csv` (and `<name>-<table>.csv` for further
 * tables), `<name>.md`, `<name>.plan.json`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { shardText, type Shard } from '../harness/run/shard.js';
import type { Experiment, Plan, Session } from '../../experiments/experiment.js';
import { EXPERIMENTS, findExperiment } from '../../experiments/index.js';
import { checkOutputs, writeWhole, type OutputFile } from '../harness/run/outputs.js';
import { flagKey, writeExperimentReport } from '../../experiments/command.js';
import { planText, readPlan } from '../../experiments/plan-file.js';

/** The flags every experiment takes (experiment.ts defines them). */
export interface SharedFlags {
  workers: number;
  workDir?: string;
  resume?: boolean;
  shard?: Shard;
  outDir?: string;
  report?: string;
  force?: boolean;
  planOnly?: string | true;
}

/** The files of a plan's results in the out-dir: its tables' CSVs, its report, itself (unless it is read from there). */
function resultFiles(plan: Plan, outDir: string, source: string | null): string[] {
  const saved = `${plan.name}.plan.json`;
  const again = source !== null && resolve(source) === resolve(outDir, saved);
  return [...plan.tables.map((_, i) => tableFile(plan, i)), `${plan.name}.md`, ...(again ? [] : [saved])];
}

function tableFile(plan: Plan, i: number): string {
  return i === 0 ? `${plan.name}.csv` : `${plan.name}-${plan.tables[i].name}.csv`;
}

/**
 * The outputs of a plan, checked before any play (or a refusal in one line): the files
 * `names` in the out-dir, and the `--report` page, which may go in the out-dir still to be made.
 */
function checkResults(outDir: string, names: readonly string[], report: string | undefined, force: boolean): void {
  const page: OutputFile[] =
    report === undefined ? [] : [{ flag: '--report', kind: 'html', shown: report, path: resolve(report) }];
  checkOutputs(page, {
    existing: force ? 'replace' : 'refuse',
    dirs: [{ flag: '--out-dir', shown: outDir, path: resolve(outDir), files: names }],
  });
}

/** Check every output, play the plan and write its results (or only the plan, with --plan-only). */
async function runPlan(experiment: Experiment, plan: Plan, o: SharedFlags, source: string | null): Promise<void> {
  const force = o.force === true;
  const outDir = o.outDir ?? 'results';
  // Each result written whole, under the flag that names where it goes.
  const write = (name: string, text: string): string => {
    const path = join(outDir, name);
    writeWhole(path, text, '--out-dir');
    return path;
  };
  if (o.planOnly !== undefined) {
    if (o.planOnly !== true && o.planOnly !== '-')
      throw new TafelError('bad-option', `--plan-only '${o.planOnly}': give - to print the plan, or nothing`);
    if (o.planOnly === '-') return void process.stdout.write(planText(plan));
    checkResults(outDir, [`${plan.name}.plan.json`], undefined, force);
    process.stderr.write(`wrote ${write(`${plan.name}.plan.json`, planText(plan))}\n`);
    return;
  }
  const shard = o.shard ?? null;
  // A shard writes no results, so it makes no page either.
  if (shard && o.report !== undefined)
    throw new TafelError('bad-option', '--report: a shard writes no results; ask for the page when making the report');
  if (!shard) checkResults(outDir, resultFiles(plan, outDir, source), o.report, force);
  const session: Session = {
    workDir: o.workDir ?? join('work', plan.name),
    workers: o.workers,
    resume: o.resume === true,
    force,
    shard,
    progress: (line) => process.stderr.write(`${line}\n`),
  };
  const started = performance.now();
  const results = await experiment.run(plan, session);
  if (!results) {
    process.stderr.write(
      `${plan.name}: shard ${shardText(shard!)} played into ${session.workDir}; with every shard's files there, run it again with --resume (no --shard) for the results\n`,
    );
    return;
  }
  const seconds = (performance.now() - started) / 1000;
  const csvs = plan.tables.map((t, i) => {
    const text = results.tables[t.name];
    if (text === undefined) throw new Error(`${experiment.name} made no table ${t.name}`);
    return write(tableFile(plan, i), text);
  });
  write(`${plan.name}.plan.json`, planText(plan));
  const report = results.report(seconds);
  write(`${plan.name}.md`, report);
  process.stdout.write(report);
  if (o.report !== undefined) {
    await writeExperimentReport(resolve(o.report), csvs[0]);
    process.stderr.write(`wrote ${o.report}\n`);
  }
}

/** The experiment a saved plan names. */
function experimentOf(plan: Plan, file: string): Experiment {
  const e = findExperiment(plan.experiment);
  if (!e)
    throw new TafelError(
      'bad-input',
      `${file}: experiment: unknown experiment '${plan.experiment}' (known: ${EXPERIMENTS.map((x) => x.name).join(', ')})`,
    );
  return e;
}

/** `tafel experiment [PLAN.json]`: the list of built-ins, or a saved plan played. */
export async function experimentCommand(
  file: string | undefined,
  o: SharedFlags & { list?: boolean; json?: boolean },
): Promise<void> {
  if (o.list) {
    if (o.json) {
      // Each flag as the listing has always shown it (its `min` is how the flag is read, not shown).
      const flags = (e: Experiment) =>
        e.flags.map((f) => ({ flag: f.flag, description: f.description, default: f.default }));
      const list = EXPERIMENTS.map((e) => ({ name: e.name, question: e.question, flags: flags(e) }));
      return void process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    }
    for (const e of EXPERIMENTS) process.stdout.write(`${e.name}: ${e.question}\n`);
    return;
  }
  if (o.json) throw new TafelError('bad-option', 'experiment: --json goes with --list');
  if (file === undefined)
    throw new TafelError('missing-option', 'experiment: give a built-in name (see --list) or a PLAN.json file');
  if (!file.endsWith('.json') && !existsSync(file))
    throw new TafelError(
      'bad-option',
      `experiment: unknown experiment '${file}' (known: ${EXPERIMENTS.map((e) => e.name).join(', ')}; or a PLAN.json file)`,
    );
  const plan = readPlan(file);
  await runPlan(experimentOf(plan, file), plan, o, file);
}

/** `tafel experiment NAME`: the built-in's plan from its flags (`o`, with the shared ones), played. */
export async function builtinCommand(
  e: Experiment,
  o: SharedFlags & Record<string, string | boolean | undefined>,
): Promise<void> {
  // The experiment's own flags, as given (absent for a default).
  const values = Object.fromEntries(e.flags.map((f) => [flagKey(f.flag), o[flagKey(f.flag)]]));
  await runPlan(e, e.plan(values), o, null);
}
