/**
 * `tafel tune`: tune a bot's numeric parameters by SPSA on duplicate deals, then verify
 * the tuned values against the start on fresh deals. A new tuning from its flags, or
 * `--resume` of a tuning journal, which holds the tuning whole: flags given with it
 * must agree with it (as with run --resume), and only --workers and --move-timeout may
 * change. SIGINT and SIGTERM end a tuning cleanly: the
 * finished iterations are kept, the CSV is written, and the command that resumes is
 * printed; a second signal stops at once.
 */
import { relative, resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { resolveLineup } from '../harness/table/lineup.js';
import { logPath } from '../harness/programs/logs.js';
import { createProgress } from '../harness/run/progress.js';
import { parseSprt, specText } from '../harness/stats/sprt.js';
import { playTuning, type TuneResult } from '../harness/tune/tune.js';
import { readTuneJournal } from '../harness/tune/journal.js';
import { tuneSummary } from '../harness/tune/report.js';
import { tuneSpecOf, tuneText, tuneTextAsTyped, type TuneSpec } from '../harness/tune/spec.js';
import { differenceOf, pathOf, shellWord, type Field } from '../harness/run/spec.js';
import type { Unit } from '../harness/table/table.js';
import { RunDigest } from '../report/digest.js';
import { boardSetFor, defaultJournal, gameNamed, tableFor } from '../harness/run/parts.js';
import {
  givenOnly,
  kilobytes,
  programFields,
  refuseDifference,
  reportInterrupted,
  shown,
  stopOnSignals,
} from './common.js';

/** The flags as commander gives them. */
export interface TuneFlags {
  game?: string;
  bot?: string;
  tune?: string;
  against?: string;
  unit?: Unit;
  iterations?: number;
  pairs?: number;
  seed?: string;
  rules?: string;
  players?: number;
  alpha?: number;
  gamma?: number;
  aRatio?: number;
  verify?: number;
  boards?: string;
  sprt?: string;
  workers: number;
  out?: string;
  db?: string;
  report?: string;
  force?: boolean;
  resume?: string;
  moveTimeout?: number;
  program?: Record<string, string>;
}

/** The groups an SPRT verification may play when --verify does not say. */
const SPRT_GROUPS = 10_000;
/** A path flag that must name the file the journal's spec names. */
function pathField(
  flag: string,
  key: 'out' | 'verifyDb' | 'report',
  typed: (o: Partial<TuneFlags>) => string | undefined,
) {
  const field: Field<TuneSpec, Partial<TuneFlags>> = {
    flag,
    old: (t) => pathOf(t, key),
    new: (o) => (typed(o) === undefined ? undefined : resolve(typed(o)!)),
    shown: { old: (t) => t.files[key], new: typed },
  };
  return field;
}

/** A flag compared as the journal holds it. */
function plain(
  flag: string,
  old: (t: TuneSpec) => unknown,
  typed: (o: Partial<TuneFlags>) => unknown,
): Field<TuneSpec, Partial<TuneFlags>> {
  return { flag, old, new: typed };
}

/**
 * The flags of `tafel tune --resume` that must agree with the journal's spec, in the
 * order a difference is named; a flag not given is not compared. `--workers` and
 * `--move-timeout` are not part of the tuning and may change.
 */
const RESUME_FIELDS: readonly Field<TuneSpec, Partial<TuneFlags>>[] = [
  plain(
    '--game',
    (t) => t.game,
    (o) => o.game,
  ),
  plain(
    '--bot',
    (t) => t.bot.bot,
    (o) => o.bot,
  ),
  {
    flag: '--tune',
    old: tuneText,
    new: (o, t) => (o.tune === undefined ? undefined : tuneTextAsTyped(t, o.tune)),
    shown: { new: (o) => o.tune },
  },
  plain(
    '--against',
    (t) => t.against?.bot,
    (o) => o.against,
  ),
  plain(
    '--unit',
    (t) => t.unit,
    (o) => o.unit,
  ),
  plain(
    '--iterations',
    (t) => t.iterations,
    (o) => o.iterations,
  ),
  plain(
    '--pairs',
    (t) => t.pairs,
    (o) => o.pairs,
  ),
  plain(
    '--seed',
    (t) => t.seed,
    (o) => o.seed,
  ),
  plain(
    '--players',
    (t) => t.seats,
    (o) => o.players,
  ),
  {
    flag: '--rules',
    old: (t) => t.rules,
    new: (o, t) => (o.rules === undefined ? undefined : tableFor(gameNamed(t.game), t.seats, o.rules).rules),
    shown: { new: (o) => o.rules },
  },
  plain(
    '--alpha',
    (t) => t.alpha,
    (o) => o.alpha,
  ),
  plain(
    '--gamma',
    (t) => t.gamma,
    (o) => o.gamma,
  ),
  plain(
    '--a-ratio',
    (t) => t.aRatio,
    (o) => o.aRatio,
  ),
  plain(
    '--verify',
    (t) => t.verify?.groups,
    (o) => o.verify,
  ),
  {
    flag: '--boards',
    old: (t) => resolve(t.files.dir, t.verify?.boards?.file ?? ''),
    new: (o) => (o.boards === undefined ? undefined : resolve(o.boards)),
    shown: { old: (t) => t.verify?.boards?.file ?? null, new: (o) => o.boards },
  },
  {
    flag: '--sprt',
    old: (t) => t.verify?.sprt ?? null,
    new: (o) => (o.sprt === undefined ? undefined : specText(parseSprt(o.sprt))),
    shown: { new: (o) => o.sprt },
  },
  pathField('--out', 'out', (o) => o.out),
  pathField('--db', 'verifyDb', (o) => o.db),
  pathField('--report', 'report', (o) => o.report),
];

export async function tuneCommand(o: TuneFlags, given: (name: string) => boolean): Promise<void> {
  if (o.resume && o.force)
    throw new TafelError('bad-option', '--force replaces a tuning, --resume continues one: give one of them');
  const resume = o.resume ? readTuneJournal(o.resume) : undefined;
  let spec: TuneSpec;
  if (resume) {
    refuseDifference(
      o.resume!,
      'tuning',
      differenceOf(resume.spec, givenOnly(o, given), [...RESUME_FIELDS, ...programFields(o.program)]),
    );
    // The journal continues where it is, whatever its header remembers of its own name.
    const journal = relative(resume.spec.files.dir, resolve(o.resume!));
    spec = {
      ...resume.spec,
      files: { ...resume.spec.files, journal },
      moveTimeout: given('moveTimeout') ? (o.moveTimeout ?? null) : resume.spec.moveTimeout,
    };
  } else {
    spec = await fromFlags(o);
  }
  const controller = new AbortController();
  const signals = stopOnSignals(controller, 'the journal is consistent, the CSV was not rewritten');
  const tty = process.stderr.isTTY === true;
  const write = (text: string) => process.stderr.write(text);
  // The verification's groups, for the report's SPRT walk.
  const digest =
    spec.files.report && spec.verify ? new RunDigest(gameNamed(spec.game), 2, spec.unit, spec.verify.sprt) : null;
  let result: TuneResult;
  try {
    result = await playTuning(spec, {
      workers: o.workers,
      resume,
      force: o.force,
      signal: controller.signal,
      progress: ({ total, before }) => createProgress({ write, tty, total, before, unit: 'iterations' }),
      verifyProgress: ({ total, before }) =>
        createProgress({ write, tty, total, before, unit: 'groups of the verification' }),
      onVerifyGroup: digest?.add,
    });
  } finally {
    signals.release();
  }
  process.stdout.write(tuneSummary(result) + '\n');
  const report = pathOf(spec, 'report');
  if (report) {
    // The plotting library takes a second to load: only when a report is asked for.
    const { writeTuneReport } = await import('../report/tune-report.js');
    const bytes = writeTuneReport(result, digest);
    process.stderr.write(`tafel: report written to ${shown(report)} (${kilobytes(bytes)})\n`);
  }
  const journal = o.resume ?? spec.files.journal;
  if (result.interrupted) {
    reportInterrupted(
      signals,
      `${result.iterations.length} of ${spec.iterations} iterations${result.iterations.length === spec.iterations ? ', in the verification' : ''}`,
      journal ? resumeCommand(journal, o, given) : null,
      'the tuning so far is printed above; use --out to make a tuning resumable',
    );
    return;
  }
  if (result.failure) {
    const how = journal ? `; after fixing the bot, continue with: ${resumeCommand(journal, o, given)}` : '';
    throw new TafelError(result.failure.code, `${result.failure.message}${how}`);
  }
  for (const [what, key] of [
    ['tuning CSV', 'out'],
    ['tuning journal', 'journal'],
    ['verification summary', 'verifyOut'],
    ['verification journal', 'verifyJournal'],
    ['verification database', 'verifyDb'],
  ] as const) {
    const path = result.verified || !key.startsWith('verify') ? pathOf(spec, key) : null;
    if (path) process.stderr.write(`tafel: ${what} written to ${shown(path)}\n`);
  }
}

async function fromFlags(o: TuneFlags): Promise<TuneSpec> {
  for (const [value, flag] of [
    [o.game, '--game <name>'],
    [o.bot, '--bot <spec>'],
    [o.tune, '--tune <list>'],
    [o.iterations, '--iterations <n>'],
  ] as const) {
    if (value === undefined)
      throw new TafelError('missing-option', `required option '${flag}' not specified (or --resume a journal)`);
  }
  const seed = o.seed ?? '1';
  const game = gameNamed(o.game!);
  const table = tableFor(game, o.players, o.rules);
  const one = async (text: string, flag: string) => {
    if (text.includes(',')) throw new TafelError('bad-bot', `${flag} '${text}': one bot, not a list`);
    const log = (label: string) => logPath({ dir: process.cwd(), outputs: [o.out ?? null] }, label, 0);
    return (await resolveLineup(text, game, table.seats, undefined, { commands: o.program ?? {}, table, log }))
      .entrants[0];
  };
  const bot = await one(o.bot!, '--bot');
  const against = o.against === undefined ? null : await one(o.against, '--against');
  const sprt = o.sprt === undefined ? null : specText(parseSprt(o.sprt));
  // --boards: the verification plays those deals (the first --verify of them, if given).
  const boards = o.boards === undefined ? null : boardSetFor(o.boards, game, table, o.verify);
  const verify =
    boards !== null
      ? { groups: boards.boards.length, sprt, boards }
      : o.verify !== undefined || sprt !== null
        ? { groups: o.verify ?? SPRT_GROUPS, sprt }
        : null;
  const out = o.out ?? null;
  const stem = out && out.replace(/\.csv$/i, '');
  return tuneSpecOf({
    game,
    table,
    unit: o.unit ?? 'deal',
    bot,
    tune: o.tune!,
    against,
    iterations: o.iterations!,
    pairs: o.pairs ?? 8,
    alpha: o.alpha,
    gamma: o.gamma,
    aRatio: o.aRatio,
    seed,
    verify,
    files: {
      dir: process.cwd(),
      out,
      journal: out && defaultJournal(out),
      verifyOut: verify && stem ? `${stem}.verify.csv` : null,
      verifyJournal: verify && stem ? `${stem}.verify.journal.jsonl` : null,
      verifyDb: o.db ?? null,
      report: o.report ?? null,
    },
    moveTimeout: o.moveTimeout ?? null,
    programs: o.program,
  });
}

/** The command that continues this tuning: the journal, and the flags that are not part of it. */
function resumeCommand(journal: string, o: TuneFlags, given: (name: string) => boolean): string {
  const words = ['tafel', 'tune', '--resume', journal];
  if (given('workers')) words.push('--workers', String(o.workers));
  if (o.moveTimeout !== undefined) words.push('--move-timeout', String(o.moveTimeout));
  return words.map(shellWord).join(' ');
}
