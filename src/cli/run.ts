/**
 * `tafel run`: a new run from its flags, or `--resume` of a journal, whose header
 * holds the run (flags then given are only checked against it). SIGINT and SIGTERM
 * end a run cleanly: the finished groups are kept, the files are closed valid, and
 * the command that resumes the run is printed. A second signal stops at once (the
 * files are still consistent, the summary CSV is not rewritten).
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import type { Game, TableConfig } from '../games/game.js';
import { resolveParams } from '../games/params.js';
import { readJournal, type JournalContents, type JournalFiles } from '../harness/journal.js';
import { resolveLineup, type Lineup } from '../harness/lineup.js';
import { createProgress } from '../harness/progress.js';
import { playTournament, type TournamentResult } from '../harness/run.js';
import { parseShard, shardText, type Shard } from '../harness/shard.js';
import { parseSprt, specText, type SprtSpec } from '../harness/sprt.js';
import type { Unit } from '../harness/table.js';
import { defaultJournal, gameNamed, tableFor } from './common.js';

export interface RunFlags {
  game?: string;
  bots?: string;
  deals?: number;
  matches?: number;
  seed: string;
  rules?: string;
  players?: number;
  out?: string;
  records?: string;
  dealCsv?: string;
  journal?: string;
  workers: number;
  shard?: string;
  moveTimeout?: number;
  onBotError: 'stop' | 'skip';
  resume?: string;
  sprt?: string;
}

/** A run as the flags or the journal describe it. */
interface RunSetup {
  game: Game;
  table: TableConfig;
  lineup: Lineup;
  bots: string[];
  seed: string;
  unit: Unit;
  groups: number;
  shard: Shard | null;
  out?: string;
  records?: string;
  dealCsv?: string;
  journal?: string;
  journalFiles?: JournalFiles;
  resume?: JournalContents;
  sprt?: SprtSpec;
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** `given(name)`: whether the flag was on the command line (not a default). */
export async function runCommand(o: RunFlags, given: (name: string) => boolean): Promise<void> {
  const s = o.resume ? await fromJournal(o.resume, o, given) : await fromFlags(o);
  const { game, table, lineup, unit } = s;
  const controller = new AbortController();
  let signal: string | null = null;
  const onSignal = (name: string) => {
    if (signal) {
      process.stderr.write(
        `\ntafel: ${name} again: stopped at once; the journal and records are consistent, the summary CSV was not rewritten\n`,
      );
      process.exit(SIGNAL_EXIT[name] ?? 1);
    }
    signal = name;
    controller.abort();
  };
  const handlers = ['SIGINT', 'SIGTERM'].map((name) => [name, () => onSignal(name)] as const);
  for (const [name, h] of handlers) process.on(name, h);
  const tty = process.stderr.isTTY === true;
  let result: TournamentResult;
  try {
    result = await playTournament({
      game,
      table,
      lineup,
      seed: s.seed,
      unit,
      groups: s.groups,
      bots: s.bots,
      shard: s.shard,
      out: s.out,
      records: s.records,
      dealCsv: s.dealCsv,
      journal: s.journal,
      journalFiles: s.journalFiles,
      resume: s.resume,
      workers: o.workers,
      moveTimeout: o.moveTimeout ?? null,
      skipFailures: o.onBotError === 'skip',
      signal: controller.signal,
      sprt: s.sprt,
      progress: ({ total, before }) => createProgress({ write: (t) => process.stderr.write(t), tty, total, before }),
    });
  } finally {
    for (const [name, h] of handlers) process.off(name, h);
  }

  const { tally } = result;
  const units = unit === 'deal' ? 'deals' : 'matches';
  const where = s.shard ? `, shard ${shardText(s.shard)} (groups ${result.from} to ${result.to - 1})` : '';
  const resumed = result.resumed ? `, resumed after ${result.resumed} groups` : '';
  const head = `${game.name}: ${tally.groups} ${units} x ${lineup.rotations} seat rotations (${tally.deals} deals played), seed ${s.seed}${where}${resumed}, ${result.seconds.toFixed(1)} s`;
  const seats = Array.from({ length: table.seats }, (_, i) => lineup.entrants[lineup.base[i]].label).join(', ');
  process.stdout.write(`${head}\nseats in rotation 0: ${seats}\n`);
  if (tally.groups > 0) process.stdout.write(`${result.text}\n`);
  if (result.sprt) process.stdout.write(`\n${result.sprt}\n`);
  if (result.skipped.length) {
    process.stdout.write(
      `\ndropped: ${result.skipped.length} ${units} in which a bot failed (--on-bot-error skip), left out of the results above\n`,
    );
  }
  if (s.out) process.stdout.write(`\nsummary written to ${shown(s.out)}\n`);
  if (s.records) process.stdout.write(`deal records written to ${shown(s.records)}\n`);
  if (s.dealCsv) process.stdout.write(`per-deal rows written to ${shown(s.dealCsv)}\n`);
  if (s.journal) process.stdout.write(`journal written to ${shown(s.journal)}\n`);
  if (result.skipped.length) {
    const total = result.to - result.from;
    process.stderr.write(
      `tafel: dropped ${result.skipped.length} of ${total} groups in which a bot failed; the first: ${result.skipped[0].message}\n`,
    );
  }
  if (result.interrupted) {
    const so = `tafel: interrupted by ${signal} after ${tally.groups + result.skipped.length} of ${result.to - result.from} groups`;
    const how = s.journal
      ? `resume with: ${resumeCommand(o.resume ?? s.journal, o, given)}`
      : 'the results so far are printed above; use --out or --journal to make a run resumable';
    process.stderr.write(`${so}; ${how}\n`);
    process.exitCode = SIGNAL_EXIT[signal ?? 'SIGINT'];
    return;
  }
  if (result.failure) {
    const kept = tally.groups
      ? `the ${tally.groups} groups finished before it are reported above`
      : 'no group had finished';
    throw new TafelError(result.failure.code, `${result.failure.message}; ${kept}`);
  }
}

async function fromFlags(o: RunFlags): Promise<RunSetup> {
  for (const [value, flag] of [
    [o.game, '--game <name>'],
    [o.bots, '--bots <list>'],
  ] as const) {
    if (value === undefined)
      throw new TafelError('missing-option', `required option '${flag}' not specified (or --resume a journal)`);
  }
  const game = gameNamed(o.game!);
  const table = tableFor(game, o.players, o.rules);
  const lineup = await resolveLineup(o.bots!, game, table.seats);
  const journal = o.journal ?? (o.out ? defaultJournal(o.out) : undefined);
  const sprt = o.sprt === undefined ? undefined : parseSprt(o.sprt);
  if (sprt && lineup.entrants.length !== 2) {
    throw new TafelError(
      'bad-sprt',
      `--sprt compares two bots, but --bots names ${lineup.entrants.length} different bots`,
    );
  }
  if (sprt && o.shard !== undefined)
    throw new TafelError('bad-sprt', '--sprt stops a run as a whole, so it cannot be split with --shard');
  const outputs = [o.out, o.records, o.dealCsv, journal]
    .filter((p): p is string => p !== undefined)
    .map((p) => resolve(p));
  if (new Set(outputs).size !== outputs.length)
    throw new TafelError('bad-output', 'two outputs (--out, --records, --deal-csv, --journal) name the same file');
  return {
    game,
    table,
    lineup,
    bots: o.bots!.split(',').map((b) => b.trim()),
    seed: o.seed,
    unit: o.matches ? 'match' : 'deal',
    groups: o.matches ?? o.deals ?? 1000,
    shard: o.shard === undefined ? null : parseShard(o.shard),
    sprt,
    out: o.out,
    records: o.records,
    dealCsv: o.dealCsv,
    journal,
    // Paths as typed, from the run's directory, which is recorded relative to the
    // journal: a bare --resume then finds everything from any directory.
    journalFiles: journal
      ? {
          cwd: relative(dirname(resolve(journal)), process.cwd()) || '.',
          out: o.out ?? null,
          records: o.records ?? null,
          dealCsv: o.dealCsv ?? null,
        }
      : undefined,
  };
}

async function fromJournal(path: string, o: RunFlags, given: (name: string) => boolean): Promise<RunSetup> {
  const contents = readJournal(path, 'resume file');
  const { run, files } = contents.header;
  const base = resolve(dirname(resolve(path)), files.cwd);
  const at = (p: string | null) => (p === null ? undefined : resolve(base, p));
  const differs = (flag: string, journal: unknown, line: unknown): never => {
    const show = (v: unknown) =>
      v === undefined || v === null ? 'none' : typeof v === 'string' ? `'${v}'` : JSON.stringify(v);
    throw new TafelError(
      'bad-resume',
      `resume file ${path} is from a different run: ${flag} differs (the journal has ${show(journal)}, the command line ${show(line)})`,
    );
  };
  if (given('game') && o.game !== run.game) differs('--game', run.game, o.game);
  const game = gameNamed(run.game);
  if (
    given('bots') &&
    o
      .bots!.split(',')
      .map((b) => b.trim())
      .join(',') !== run.bots.join(',')
  )
    differs('--bots', run.bots.join(','), o.bots);
  if (given('seed') && o.seed !== run.seed) differs('--seed', run.seed, o.seed);
  const size = `${run.unit === 'deal' ? '--deals' : '--matches'} ${run.groups}`;
  for (const [flag, unit, value] of [
    ['--deals', 'deal', o.deals],
    ['--matches', 'match', o.matches],
  ] as const) {
    if (value !== undefined && (run.unit !== unit || run.groups !== value)) differs(flag, size, `${flag} ${value}`);
  }
  if (given('players') && o.players !== run.seats) differs('--players', run.seats, o.players);
  if (given('rules') && JSON.stringify(tableFor(game, run.seats, o.rules).rules) !== JSON.stringify(run.rules))
    differs('--rules', run.rules, o.rules);
  if (given('shard')) {
    const shard = parseShard(o.shard!);
    if (!run.shard || shard.index !== run.shard.index || shard.count !== run.shard.count)
      differs('--shard', run.shard && shardText(run.shard), o.shard);
  }
  const paths = [
    ['out', '--out', files.out],
    ['records', '--records', files.records],
    ['dealCsv', '--deal-csv', files.dealCsv],
  ] as const;
  for (const [key, flag, stored] of paths) {
    const typed = o[key];
    if (typed !== undefined && resolve(typed) !== at(stored)) differs(flag, stored, typed);
  }
  if (o.journal !== undefined && resolve(o.journal) !== resolve(path)) differs('--journal', path, o.journal);
  if (o.sprt !== undefined && specText(parseSprt(o.sprt)) !== run.sprt) differs('--sprt', run.sprt, o.sprt);

  const table = { seats: run.seats, rules: resolveParams(game.variants, run.rules, `resume file ${path}: rules`) };
  game.checkTable(table);
  const lineup = await resolveLineup(run.bots.join(','), game, run.seats, base);
  const cheats = lineup.entrants.map((e) => e.spec.cheats === true);
  if (lineup.rotations !== run.rotations || cheats.join() !== run.cheats.join()) {
    throw new TafelError(
      'bad-resume',
      `resume file ${path}: its bots no longer resolve as they did (a bot module changed?)`,
    );
  }
  return {
    game,
    table,
    lineup,
    bots: [...run.bots],
    seed: run.seed,
    unit: run.unit,
    groups: run.groups,
    shard: run.shard,
    sprt: run.sprt === null ? undefined : parseSprt(run.sprt),
    out: at(files.out),
    records: at(files.records),
    dealCsv: at(files.dealCsv),
    journal: path,
    resume: contents,
  };
}

/** A path as short as it can be said from here (a resumed run knows its files by absolute path). */
function shown(path: string): string {
  const r = relative(process.cwd(), path);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : path;
}

/** The command that continues this run: the journal and the flags that are not part of the run. */
function resumeCommand(journal: string, o: RunFlags, given: (name: string) => boolean): string {
  const words = ['tafel', 'run', '--resume', journal];
  if (given('workers')) words.push('--workers', String(o.workers));
  if (o.moveTimeout !== undefined) words.push('--move-timeout', String(o.moveTimeout));
  if (o.onBotError !== 'stop') words.push('--on-bot-error', o.onBotError);
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
