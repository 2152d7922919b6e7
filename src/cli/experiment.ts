/**
 * `tafel experiment`: run a built-in experiment by name (`tafel experiment ladder
 * --game hindersche`, its own flags from `Experiment.flags`), or a saved plan
 * (`tafel experiment PLAN.json`: a user's, or one `--plan-only` wrote), with the flags
 * every experiment shares: how it is played (--workers, --work-dir, --resume, --shard)
 * and where its results go (--out-dir, --report, --force). This module defines the
 * command; experiment-run.ts plays it, loaded only then.
 */
import { availableParallelism } from 'node:os';
import { Option, type Command } from 'commander';
import { parseShard } from '../harness/run/shard.js';
import type { Experiment } from '../../experiments/experiment.js';
import { positiveInt } from './common.js';
import type { SharedFlags } from './experiment-run.js';

/** The flags every experiment takes, defined as `tafel run` defines the ones they share. */
function addSharedFlags(cmd: Command): Command {
  return cmd
    .option(
      '--workers <n>',
      "worker threads, and DuckDB's threads for the queries",
      positiveInt('--workers'),
      availableParallelism(),
    )
    .option('--work-dir <dir>', "where each run's journal and database go (default work/<name>)")
    .option('--resume', 'continue the runs in --work-dir (an interrupted experiment)')
    .option(
      '--shard <i/n>',
      'play part i of n of every run (i from 0); then make the results from all parts in one --work-dir, with --resume',
      (text: string) => parseShard(text),
    )
    .option('--out-dir <dir>', 'where <name>.csv, .md and .plan.json go (default results)')
    .option('--report <file.html>', "also write the results' page, as tafel report draws it")
    .option('--force', 'replace earlier results and runs')
    .addOption(
      new Option(
        '--plan-only [-]',
        'play nothing: write the plan, <name>.plan.json, to --out-dir (or print it with -), to run again or edit',
      ),
    );
}

/**
 * The command, and under it a subcommand for each of `experiments` (the built-ins, whose
 * modules load the harness): main.ts passes them only when the command line names the
 * command, and `null` otherwise, since no other command needs them, `tafel --help` included.
 */
export function addExperimentCommand(program: Command, experiments: readonly Experiment[] | null): void {
  const parent = program
    .command('experiment')
    .description(
      'run an experiment: a built-in by name (tafel experiment NAME --help lists its flags) or a saved plan, PLAN.json (docs/experiments.md)',
    )
    .argument('[plan.json]', "a saved plan: a user's own, or one that --plan-only wrote")
    .option('--list', 'list the built-in experiments and the questions they answer')
    .option('--json', 'with --list: as one JSON document');
  addSharedFlags(parent).action(
    async (file: string | undefined, o: SharedFlags & { list?: boolean; json?: boolean }) => {
      const { experimentCommand } = await import('./experiment-run.js');
      await experimentCommand(file, o);
    },
  );
  for (const e of experiments ?? []) {
    const sub = parent.command(e.name).description(e.question);
    for (const f of e.flags)
      sub.option(f.flag, f.default === undefined ? f.description : `${f.description} (default ${f.default})`);
    // The shared flags are defined here for the help; `experiment` itself reads them wherever they stand.
    addSharedFlags(sub).action(async (_: unknown, cmd: Command) => {
      const { builtinCommand } = await import('./experiment-run.js');
      await builtinCommand(e, cmd.optsWithGlobals<SharedFlags & Record<string, string | boolean | undefined>>());
    });
  }
}
