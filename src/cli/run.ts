/**
 * `tafel run`: a new run from its flags, or `--resume` of a journal, whose header
 * holds the run spec (flags then given are only checked against it). SIGINT and
 * SIGTERM end a run cleanly: the finished groups are kept, the files are closed valid,
 * and the command that resumes the run is printed. A second signal stops at once (the
 * files are still consistent, the summary CSV is not rewritten). Play runs in worker
 * threads, so this thread answers signals even while a bot computes for ever.
 */
import { relative, resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { readJournal } from '../harness/run/journal.js';
import { parseBots, resolveLineup } from '../harness/table/lineup.js';
import { createProgress } from '../harness/run/progress.js';
import { identityLines } from '../harness/run/report.js';
import { playRun, type RunResult } from '../harness/run/run.js';
import { withdrawnText } from '../harness/run/withdrawal.js';
import { parseShard, shardRange, shardText } from '../harness/run/shard.js';
import {
  differenceOf,
  pathOf,
  runOutputsOf,
  shellWord,
  specOf,
  type Field,
  type OnBotError,
  type RunSpec,
} from '../harness/run/spec.js';
import { parseTimeControl } from '../harness/programs/clock.js';
import { logPath } from '../harness/programs/logs.js';
import { parseSprt, specText } from '../harness/stats/sprt.js';
import { RunDigest } from '../report/digest.js';
import { boardSetFor, gameNamed, runFilesFor, tableFor } from '../harness/run/parts.js';
import {
  givenOnly,
  kilobytes,
  programFields,
  refuseDifference,
  reportInterrupted,
  shown,
  stopOnSignals,
} from './common.js';

/** The flags as commander gives them (nothing else reads them). */
export interface RunFlags {
  game?: string;
  bots?: string;
  deals?: number;
  matches?: number;
  boards?: string;
  seed: string;
  rules?: string;
  players?: number;
  out?: string;
  records?: string;
  dealCsv?: string;
  db?: string;
  journal?: string;
  report?: string;
  workers: number;
  shard?: string;
  moveTimeout?: number;
  program?: Record<string, string>;
  timeControl?: string;
  onBotError?: OnBotError;
  maxFaultShare: number;
  resume?: string;
  sprt?: string;
  force?: boolean;
}

/** `given(name)`: whether the flag was on the command line (not a default). */
export async function runCommand(o: RunFlags, given: (name: string) => boolean): Promise<void> {
  if (o.resume && o.force)
    throw new TafelError('bad-option', '--force replaces a run, --resume continues one: give one of them');
  const resume = o.resume ? readJournal(o.resume, 'resume file') : undefined;
  const spec = resume ? checkedAgainst(resume.spec, o.resume!, o, given) : await fromFlags(o);
  const game = gameNamed(spec.game);
  const controller = new AbortController();
  const signals = stopOnSignals(
    controller,
    'the journal and records are consistent, the summary CSV was not rewritten',
  );
  const tty = process.stderr.isTTY === true;
  const digest = spec.files.report ? new RunDigest(game, spec.entrants.length, spec.unit, spec.sprt) : null;
  let result: RunResult;
  try {
    result = await playRun(spec, {
      workers: o.workers,
      resume,
      force: o.force,
      signal: controller.signal,
      progress: ({ total, before }) => createProgress({ write: (t) => process.stderr.write(t), tty, total, before }),
      onGroup: digest?.add,
      maxFaultShare: o.maxFaultShare,
    });
  } finally {
    signals.release();
  }
  report(result);
  if (digest) {
    // The plotting library takes a second to load: only when a report is asked for.
    const { writeRunReport } = await import('../report/run-report.js');
    const bytes = writeRunReport({
      spec,
      game,
      tally: result.tally,
      digest,
      skipped: result.skipped.length,
      seconds: result.seconds,
      resumed: result.resumed,
    });
    process.stderr.write(`tafel: report written to ${shown(pathOf(spec, 'report')!)} (${kilobytes(bytes)})\n`);
  }
  if (!result.interrupted && !result.failure && !result.withdrawn) written(spec);
  if (result.interrupted) {
    const journal = o.resume ?? spec.files.journal;
    reportInterrupted(
      signals,
      `${result.tally.groups + result.skipped.length} of ${result.to - result.from} groups`,
      journal ? resumeCommand(journal, o, given) : null,
      'the results so far are printed above; use --out or --journal to make a run resumable',
    );
    return;
  }
  if (result.failure) {
    const kept = result.tally.groups
      ? `the ${result.tally.groups} groups finished before it are reported above${spec.files.out ? ' and in the summary' : ''}`
      : 'no group had finished';
    const how = spec.files.journal
      ? `; after fixing the bot, continue with: tafel run --resume ${shellWord(spec.files.journal)}`
      : '';
    throw new TafelError(result.failure.code, `${result.failure.message}; ${kept}${how}`);
  }
  if (result.withdrawn) {
    const w = result.withdrawn;
    const how = spec.files.journal ? `; continue with: ${resumeCommand(o.resume ?? spec.files.journal, o, given)}` : '';
    throw new TafelError('bot-withdrawn', `${withdrawnText(w, spec.entrants[w.entrant].label, o.maxFaultShare)}${how}`);
  }
  if (result.tally.groups === 0 && result.skipped.length > 0) {
    // Nothing was measured: an empty table is no result, whatever --on-bot-error allowed.
    throw new TafelError(
      'bot-failed',
      `every one of the ${result.skipped.length} groups was dropped (--on-bot-error skip): no results; the first failure: ${result.skipped[0].message}`,
    );
  }
}

/** The results on stdout; where they were written, and what was dropped, on stderr. */
function report(result: RunResult): void {
  const { spec, tally } = result;
  const units = spec.unit === 'deal' ? 'deals' : 'matches';
  const where = spec.shard
    ? `, shard ${shardText(spec.shard)} (${result.from < result.to ? `groups ${result.from} to ${result.to - 1}` : 'no groups'})`
    : '';
  const resumed = result.resumed ? `, resumed after ${result.resumed} groups` : '';
  const head = `${spec.game}: ${tally.groups} ${units} x ${spec.seatings.length} seat rotations (${tally.deals} deals played), seed ${spec.seed}${where}${resumed}, ${result.seconds.toFixed(1)} s`;
  const out = [head, ...identityLines(spec)];
  if (tally.groups > 0) out.push(result.text);
  if (result.sprt) out.push('', result.sprt.describe());
  if (result.skipped.length) {
    out.push(
      '',
      `dropped: ${result.skipped.length} ${units} in which a bot failed (--on-bot-error skip), left out of the results above`,
    );
  }
  const faults = result.faults.line(spec.entrants.map((e) => e.label));
  if (faults) out.push(faults);
  process.stdout.write(out.join('\n') + '\n');
  if (result.skipped.length) {
    // A run that stopped early (a withdrawn bot) dropped them of the groups it finished.
    const total = result.withdrawn ? result.tally.groups + result.skipped.length : result.to - result.from;
    process.stderr.write(
      `tafel: dropped ${result.skipped.length} of ${total} groups in which a bot failed; the first: ${result.skipped[0].message}\n`,
    );
  }
}

/** Where a finished run's files are, on stderr. */
function written(spec: RunSpec): void {
  const files = [
    ['summary', 'out'],
    ['deal records', 'records'],
    ['per-deal rows', 'dealCsv'],
    ['database', 'db'],
    ['journal', 'journal'],
  ] as const;
  for (const [what, key] of files) {
    const path = pathOf(spec, key);
    if (path) process.stderr.write(`tafel: ${what} written to ${shown(path)}\n`);
  }
}

async function fromFlags(o: RunFlags): Promise<RunSpec> {
  for (const [value, flag] of [
    [o.game, '--game <name>'],
    [o.bots, '--bots <list>'],
  ] as const) {
    if (value === undefined)
      throw new TafelError('missing-option', `required option '${flag}' not specified (or --resume a journal)`);
  }
  const game = gameNamed(o.game!);
  const table = tableFor(game, o.players, o.rules);
  const bots = parseBots(o.bots!);
  const files = runFilesFor(o, process.cwd());
  const outputs = runOutputsOf(files);
  const lineup = await resolveLineup(o.bots!, game, table.seats, undefined, {
    commands: o.program ?? {},
    table,
    log: (label) => logPath({ dir: process.cwd(), outputs }, label, 0),
  });
  const sprt = o.sprt === undefined ? null : specText(parseSprt(o.sprt));
  const boards = o.boards === undefined ? null : boardSetFor(o.boards, game, table, o.matches ?? o.deals);
  const groups = boards ? boards.boards.length : (o.matches ?? o.deals ?? 1000);
  const shard = o.shard === undefined ? null : parseShard(o.shard);
  const spec = specOf({
    game,
    table,
    lineup,
    bots: botsAsWritten(o.bots!),
    seed: o.seed,
    unit: o.matches ? 'match' : 'deal',
    groups,
    boards,
    shard,
    sprt,
    files,
    programs: o.program,
    moveTimeout: o.moveTimeout ?? null,
    timeControl: o.timeControl === undefined ? null : parseTimeControl(o.timeControl, o.matches ? 'match' : 'deal'),
    onBotError: o.onBotError ?? 'stop',
  });
  // Notes after the spec's rules (checkSpec), so that a refused run says one line.
  if (bots.length > 1 && lineup.entrants.length === 1) {
    const b = lineup.entrants[0].label;
    process.stderr.write(
      `tafel: note: --bots names ${b} ${bots.length} times, which is one bot at every seat: nothing is compared (label copies to compare them, e.g. x=${b},y=${b})\n`,
    );
  }
  if (shard) {
    const { from, to } = shardRange(groups, shard);
    if (from === to) {
      process.stderr.write(
        `tafel: note: shard ${shardText(shard)} holds no group (the run's ${groups} groups split ${shard.count} ways); it writes a finished, empty part for merge\n`,
      );
    }
  }
  return spec;
}

/** Typed bots as a spec lists them: `label=bot`, or the bot alone where it is its own label. */
const botsAsWritten = (text: string) => parseBots(text).map((b) => (b.label === b.bot ? b.bot : `${b.label}=${b.bot}`));

/** A path flag that must name the file the journal's spec names. */
function pathField(flag: string, key: 'out' | 'records' | 'dealCsv' | 'db' | 'report'): Field<RunSpec, RunFlags> {
  return {
    flag,
    old: (s) => pathOf(s, key),
    new: (o) => (o[key] === undefined ? undefined : resolve(o[key])),
    shown: { old: (s) => s.files[key], new: (o) => o[key] },
  };
}

/** The size flags: the journal's unit and groups, as the flag that set them says them. */
function sizeField(flag: '--deals' | '--matches'): Field<RunSpec, RunFlags> {
  const typed = (o: RunFlags) => (flag === '--deals' ? o.deals : o.matches);
  return {
    flag,
    old: (s) => `${s.unit === 'deal' ? '--deals' : '--matches'} ${s.groups}`,
    new: (o) => (typed(o) === undefined ? undefined : `${flag} ${typed(o)}`),
  };
}

/**
 * The flags of `tafel run --resume` that must agree with the journal's spec, in the
 * order a difference is named. A flag not given is not compared; the failure handling
 * (`--move-timeout`, `--time-control`, `--on-bot-error`) may change and is not here.
 */
const RESUME_FIELDS: readonly Field<RunSpec, RunFlags>[] = [
  { flag: '--game', old: (s) => s.game, new: (o) => o.game },
  {
    flag: '--bots',
    old: (s) => s.bots.join(','),
    new: (o) => (o.bots === undefined ? undefined : botsAsWritten(o.bots).join(',')),
    shown: { new: (o) => o.bots },
  },
  { flag: '--seed', old: (s) => s.seed, new: (o) => o.seed },
  sizeField('--deals'),
  sizeField('--matches'),
  { flag: '--players', old: (s) => s.seats, new: (o) => o.players },
  {
    flag: '--rules',
    old: (s) => s.rules,
    new: (o, s) => (o.rules === undefined ? undefined : tableFor(gameNamed(s.game), s.seats, o.rules).rules),
    shown: { new: (o) => o.rules },
  },
  {
    flag: '--shard',
    old: (s) => s.shard && shardText(s.shard),
    new: (o) => (o.shard === undefined ? undefined : shardText(parseShard(o.shard))),
    shown: { new: (o) => o.shard },
  },
  pathField('--out', 'out'),
  pathField('--records', 'records'),
  pathField('--deal-csv', 'dealCsv'),
  pathField('--db', 'db'),
  pathField('--report', 'report'),
  {
    flag: '--boards',
    old: (s) => resolve(s.files.dir, s.boards?.file ?? ''),
    new: (o) => (o.boards === undefined ? undefined : resolve(o.boards)),
    shown: { old: (s) => s.boards?.file ?? null, new: (o) => o.boards },
  },
  {
    flag: '--sprt',
    old: (s) => s.sprt,
    new: (o) => (o.sprt === undefined ? undefined : specText(parseSprt(o.sprt))),
    shown: { new: (o) => o.sprt },
  },
];

/** The journal's spec, after checking that every flag given agrees with it; the failure handling may change. */
function checkedAgainst(spec: RunSpec, path: string, o: RunFlags, given: (name: string) => boolean): RunSpec {
  const typed = givenOnly(o, given) as RunFlags;
  const journal: Field<RunSpec, RunFlags> = {
    flag: '--journal',
    old: () => resolve(path),
    new: (f) => (f.journal === undefined ? undefined : resolve(f.journal)),
    shown: { old: () => path, new: (f) => f.journal },
  };
  refuseDifference(path, 'run', differenceOf(spec, typed, [...RESUME_FIELDS, journal, ...programFields(o.program)]));
  // The journal continues where it is, whatever its header remembers of its own name.
  const files = { ...spec.files, journal: relative(spec.files.dir, resolve(path)) };
  return {
    ...spec,
    files,
    moveTimeout: given('moveTimeout') ? (o.moveTimeout ?? null) : spec.moveTimeout,
    timeControl: o.timeControl === undefined ? spec.timeControl : parseTimeControl(o.timeControl, spec.unit),
    onBotError: o.onBotError ?? spec.onBotError,
  };
}

/** The command that continues this run: the journal and the flags that are not part of the run. */
function resumeCommand(journal: string, o: RunFlags, given: (name: string) => boolean): string {
  const words = ['tafel', 'run', '--resume', journal];
  if (given('workers')) words.push('--workers', String(o.workers));
  if (o.moveTimeout !== undefined) words.push('--move-timeout', String(o.moveTimeout));
  if (o.timeControl !== undefined) words.push('--time-control', o.timeControl);
  if (o.onBotError !== undefined && o.onBotError !== 'stop') words.push('--on-bot-error', o.onBotError);
  if (given('maxFaultShare')) words.push('--max-fault-share', String(o.maxFaultShare));
  return words.map(shellWord).join(' ');
}
