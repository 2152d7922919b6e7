/**
 * What the experiments share about their command line (`tafel experiment`,
 * src/cli/experiment.ts): their flags' values checked (numbers, seeds) and turned back
 * into the command that makes a plan again, the outputs checked before any play and
 * written whole, a user's mistake told in one line with exit status 2 instead of a stack.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TafelError, isTafelError } from '../src/core/errors.js';
import { checkOutputs } from '../src/harness/run/outputs.js';
import type { ExperimentFlag, Plan, PlannedRun } from './experiment.js';

type Flags = NonNullable<ParseArgsConfig['options']>;

/** The flags of `argv` as strings (or booleans), or a `bad-option` error; `--help` and `--force` are always known. */
export function parseFlags(argv: string[], flags: Flags): Record<string, string | boolean | undefined> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { ...flags, help: { type: 'boolean', short: 'h' }, force: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
    return values;
  } catch (e) {
    throw new TafelError('bad-option', (e as Error).message);
  }
}

/** A whole number from `min` (`fallback` when the flag is absent). */
export function count(text: string | boolean | undefined, fallback: number, flag: string, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (typeof text !== 'string' || !/^\d+$/.test(text) || n < min || n > 1e7) {
    throw new TafelError('bad-option', `${flag} '${String(text)}': a whole number from ${min}`);
  }
  return n;
}

/** A master seed: 1-64 letters, digits or _ . : - (the same rule as `tafel run --seed`). */
export function seed(text: string | boolean | undefined, fallback: string): string {
  const s = text === undefined ? fallback : String(text);
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(s))
    throw new TafelError('bad-seed', `--seed '${s}': a seed is 1-64 letters, digits or _ . : -`);
  return s;
}

/**
 * Before any play: create `dir`, check that files can be written there, and refuse
 * to replace an experiment's earlier results (`files`) unless `force` (--force).
 */
export function checkOutDir(dir: string, files: readonly string[], force: boolean): void {
  for (const f of files) {
    const path = join(dir, f);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) throw new TafelError('unwritable', `--out-dir ${dir}: ${f} is a directory`);
    if (!force) {
      throw new TafelError(
        'bad-output',
        `--out-dir ${dir}: ${f} exists (earlier results); replace them with --force, or choose another --out-dir`,
      );
    }
  }
  const probe = join(dir, `.probe-${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    throw new TafelError(
      'unwritable',
      `--out-dir ${dir}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

/** Write `text` to `dir/file` through a temporary file, so that a reader never sees half of it. */
export function writeWhole(dir: string, file: string, text: string): string {
  const path = join(dir, file);
  try {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  } catch (e) {
    throw new TafelError(
      'unwritable',
      `${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  return path;
}

/**
 * Run an experiment's `main`: `--help` prints `usage`; a `TafelError` prints
 * `name: message` and the usage line and exits with status 2.
 */
export async function runCommand(name: string, usage: string, main: (argv: string[]) => Promise<void>): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return;
  }
  try {
    await main(argv);
  } catch (e) {
    if (!isTafelError(e)) throw e;
    console.error(`${name}: ${e.message}`);
    console.error(usage.split('\n')[0]);
    process.exitCode = 2;
  }
}

/**
 * `--report FILE.html`, checked before any play like every output (a folder, an
 * unwritable place, or a file that exists without --force is refused in one line);
 * a shard writes no results, so it makes no page either.
 */
export function checkReport(flag: string | boolean | undefined, force: boolean, sharded: boolean): string | null {
  if (flag === undefined) return null;
  const shown = String(flag);
  if (sharded)
    throw new TafelError('bad-option', '--report: a shard writes no results; ask for the page when making the report');
  const path = resolve(shown);
  checkOutputs([{ flag: '--report', kind: 'html', shown, path }], { existing: force ? 'replace' : 'refuse' });
  return path;
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

/** The command that makes a plan again: `tafel experiment NAME` and the experiment's own flags given. */
export function commandLine(
  name: string,
  flags: readonly ExperimentFlag[],
  values: Readonly<Record<string, string | boolean | undefined>>,
): string {
  const words = ['tafel', 'experiment', name];
  for (const f of flags) {
    const v = values[flagKey(f.flag)];
    if (v === undefined || v === false) continue;
    words.push(f.flag.split(/[ =]/)[0]);
    if (v !== true) words.push(/^[\w.,:=/+-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  }
  return words.join(' ');
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
