/**
 * What the commands share about the command line: commander's parsers of flag text
 * (their failures are commander's one-line InvalidArgumentError), paths as the user
 * sees them, stopping on a signal, and the resume policy (flags given with `--resume`
 * against the journal). A run's parts from those values (game, table,
 * boards, journal) are src/harness/run/parts.ts, which the experiments share.
 */
import { isAbsolute, relative } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { TafelError } from '../core/errors.js';
import { PROGRAM_NAME, SEED, SEED_RULE, wholeNumber } from '../harness/run/flag-rules.js';
import type { Difference, Field, Files, PlaySpec } from '../harness/run/spec.js';
import { BUILTIN_BOT_NAMES } from '../../bots/names.js';

export function positiveInt(what: string) {
  return (text: string): number => {
    const n = wholeNumber(text.trim());
    if (n === null || n <= 0) {
      throw new InvalidArgumentError(`${what} must be a positive whole number`);
    }
    return n;
  };
}

export function nonNegativeInt(what: string) {
  return (text: string): number => {
    const n = wholeNumber(text.trim());
    if (n === null) {
      throw new InvalidArgumentError(`${what} must be a whole number, 0 or more`);
    }
    return n;
  };
}

/** Any whole number (negative too: the command checks the range and says what it is). */
export function integer(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) {
      throw new InvalidArgumentError(`${what} must be a whole number`);
    }
    return n;
  };
}

/** Any finite number (the command checks the range and says what it is). */
export function finiteNumber(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${what} must be a number`);
    return n;
  };
}

/** A share from 0 to 1. */
export function shareOf(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !(n >= 0 && n <= 1))
      throw new InvalidArgumentError(`${what} must be a share from 0 to 1`);
    return n;
  };
}

export function seedText(text: string): string {
  if (!SEED.test(text)) {
    throw new InvalidArgumentError(`a seed is ${SEED_RULE}`);
  }
  return text;
}

/** A path as short as it can be said from here (a resumed run knows its files by absolute path). */
export function shown(path: string): string {
  const r = relative(process.cwd(), path);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : path;
}

/** A file's size as the messages give it: `116 KB`. */
export function kilobytes(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}

/** The exit status of a command that a signal stopped. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * SIGINT and SIGTERM stop a long command cleanly: the first aborts `controller` (the
 * command finishes what it can and keeps its files valid), the second exits at once,
 * saying `what` of the files is still sound. `signal()` names the first signal that
 * came; `exitStatus()` is the status to end with; `release()` removes the handlers.
 */
export function stopOnSignals(
  controller: AbortController,
  what: string,
): { signal: () => string | null; exitStatus: () => number; release: () => void } {
  let first: string | null = null;
  const on = (name: string) => {
    if (first) {
      process.stderr.write(`\ntafel: ${name} again: stopped at once; ${what}\n`);
      process.exit(SIGNAL_EXIT[name] ?? 1);
    }
    first = name;
    controller.abort();
  };
  const handlers = ['SIGINT', 'SIGTERM'].map((name) => [name, () => on(name)] as const);
  for (const [name, h] of handlers) process.on(name, h);
  return {
    signal: () => first,
    exitStatus: () => SIGNAL_EXIT[first ?? 'SIGINT'],
    release: () => {
      for (const [name, h] of handlers) process.off(name, h);
    },
  };
}

/** What `stopOnSignals` returns: the signal that stopped the work, if one did. */
export type Signals = ReturnType<typeof stopOnSignals>;

/**
 * The line of a run or tuning stopped by a signal: how far it came and how to go on
 * (the resume command, or what to give next time); the exit status is the signal's.
 */
export function reportInterrupted(signals: Signals, after: string, resume: string | null, otherwise: string): void {
  process.stderr.write(
    `tafel: interrupted by ${signals.signal()} after ${after}; ${resume ? `resume with: ${resume}` : otherwise}\n`,
  );
  process.exitCode = signals.exitStatus();
}

/**
 * `--program name=command`, repeatable: the commands by name. A name is a word (it is
 * written in `--bots` like a bot's), not a built-in bot's, and given once.
 */
export function addProgram(text: string, before: Readonly<Record<string, string>> = {}): Record<string, string> {
  const eq = text.indexOf('=');
  const name = eq < 0 ? '' : text.slice(0, eq).trim();
  const command = eq < 0 ? '' : text.slice(eq + 1).trim();
  if (!PROGRAM_NAME.test(name) || command === '')
    throw new InvalidArgumentError(`--program '${text}': expected NAME=COMMAND, NAME a word (letters, digits, _ -)`);
  if (BUILTIN_BOT_NAMES.includes(name))
    throw new InvalidArgumentError(`--program ${name}: a built-in bot has that name; give the program another`);
  if (name in before) throw new InvalidArgumentError(`--program ${name} is given twice`);
  return { ...before, [name]: command };
}

/**
 * The resume policy of run and tune: a flag given with `--resume` must agree with the
 * journal's spec (the first that differs is named, with both values); the fields
 * compared are each command's own table (`differenceOf`).
 */
export function refuseDifference(path: string, what: 'run' | 'tuning', d: Difference | null): void {
  if (!d) return;
  const show = (v: unknown) =>
    v === undefined || v === null ? 'none' : typeof v === 'string' ? `'${v}'` : JSON.stringify(v);
  throw new TafelError(
    'bad-resume',
    `resume file ${path} is from a different ${what}: ${d.flag} differs (the journal has ${show(d.old)}, the command line ${show(d.new)})`,
  );
}

/** The flags that were on the command line (not commander's defaults): what a resume compares. */
export function givenOnly<F extends object>(o: F, given: (name: string) => boolean): Partial<F> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => given(k))) as Partial<F>;
}

/** `--program name=command` given with `--resume`: a program the journal names must keep its command. */
export function programFields(
  programs: Readonly<Record<string, string>> | undefined,
): Field<PlaySpec<Files<string>>, unknown>[] {
  return Object.entries(programs ?? {}).map(([name, command]) => ({
    flag: `--program ${name}`,
    old: (s) => s.programs[name],
    new: (_, s) => (s.programs[name] === undefined ? undefined : command),
  }));
}
