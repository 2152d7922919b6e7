/**
 * Turning command-line text into checked values, shared by the commands. Every
 * failure is a TafelError (or commander's InvalidArgumentError) with one line.
 */
import { isAbsolute, relative } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { TafelError } from '../core/errors.js';
import { GAMES, findGame } from '../games/index.js';
import type { Game, TableConfig } from '../games/game.js';
import { parseAssignments, resolveParams } from '../games/params.js';
import { readBoards, type BoardSet } from '../harness/table/boards.js';
import { PROGRAM_NAME } from '../harness/table/lineup.js';
import type { Difference, Field, Files, PlaySpec } from '../harness/run/spec.js';
import { BUILTIN_BOTS } from '../../bots/registry.js';

export function positiveInt(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n <= 0) {
      throw new InvalidArgumentError(`${what} must be a positive whole number`);
    }
    return n;
  };
}

export function nonNegativeInt(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) {
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
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(text)) {
    throw new InvalidArgumentError('a seed is 1-64 letters, digits or _ . : -');
  }
  return text;
}

export function gameNamed(name: string): Game {
  const game = findGame(name);
  if (!game)
    throw new TafelError('unknown-game', `unknown game '${name}' (known: ${GAMES.map((g) => g.name).join(', ')})`);
  return game;
}

export function tableFor(game: Game, players: number | undefined, rulesText: string | undefined): TableConfig {
  const seats = players ?? game.defaultSeats;
  if (seats < game.minSeats || seats > game.maxSeats) {
    const range = game.minSeats === game.maxSeats ? `exactly ${game.minSeats}` : `${game.minSeats} to ${game.maxSeats}`;
    throw new TafelError('bad-table', `${game.name} is played by ${range} players, not ${seats}`);
  }
  const rules = resolveParams(game.variants, parseAssignments(rulesText ?? '', '--rules'), `--rules for ${game.name}`);
  const table = { seats, rules };
  game.checkTable(table);
  return table;
}

/** `X.csv` -> `X.journal.jsonl`: where a run with `--out X.csv` keeps its journal. */
export function defaultJournal(out: string): string {
  return out.replace(/\.csv$/i, '') + '.journal.jsonl';
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

/**
 * The boards of `--boards FILE` for this table (every one checked), the first `count`
 * of them when `--deals`/`--matches` gives a count.
 */
export function boardSetFor(file: string, game: Game, table: TableConfig, count: number | undefined): BoardSet {
  const boards = readBoards(file, file, game, table);
  if (count !== undefined && count > boards.length) {
    throw new TafelError(
      'bad-board',
      `--boards ${file} holds ${boards.length} boards, fewer than the ${count} asked for (leave out the count to play them all)`,
    );
  }
  return { file, boards: boards.slice(0, count ?? boards.length) };
}

/** The group of board `id` (its id, else its number from 1) in a run of `set`. */
export function boardGroup(set: BoardSet, id: string): number {
  const byId = set.boards.findIndex((b) => b.id === id);
  if (byId >= 0) return byId;
  const n = Number(id);
  if (Number.isSafeInteger(n) && n >= 1 && n <= set.boards.length) return n - 1;
  throw new TafelError('no-deal', `--boards ${set.file} has no board ${id} (ids or numbers 1 to ${set.boards.length})`);
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
  if (BUILTIN_BOTS.some((b) => b.name === name))
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
