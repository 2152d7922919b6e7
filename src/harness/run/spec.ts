/**
 * The run spec: the one description of a run. Plain data: the command line builds it
 * (or reads it back from a journal), the journal's header is the spec, the workers
 * receive it as it is, and every output names the run from it (the summary's identity
 * columns, the table's head, the reproducing command). A new kind of output or a new
 * setting is a new field here, and nowhere else.
 *
 * The types that describe a run, one of each kind: `PlaySpec`, what a run and a tuning
 * both play (game, table, seed, unit, metrics, bot programs, move timeout, files),
 * which `RunSpec` and `TuneSpec` (tune/spec.ts) extend; `EntrantSpec`, one bot as
 * resolved; `Files<K>`, where a spec writes (`RunFiles`, `TuneFiles`; one `pathOf`);
 * `LiveRun`, a spec made live in the thread that plays it. A spec's shape is checked by
 * its schema (spec-schema.ts), its rules (`Rule`: SPRT needs two bots and a whole run,
 * boards are one a group) by `checkSpec`, which every maker of a spec calls (specOf,
 * so the CLI and experiments; a tuning's pair runs; a journal read, so resume and
 * merge): an error in the words of the flags, or from a journal after the field's name.
 *
 * What the results depend on is the identity (`identityDifference` compares it): the
 * game, seats and rules, the bots with every parameter and where they sit (a bot
 * program's command too), the seed, the unit and the number of groups. The shard says
 * which part of the run this is; `files` where it writes; `moveTimeout`, `timeControl`
 * and `onBotError` how failing bots are handled (they may change when a run is
 * resumed); `timeMoves` whether the bots' moves are timed for the caller (a
 * measurement beside the results, never part of them). One resume policy for run and
 * tune: `differenceOf` compares an old spec with something new field by field (`Field`,
 * named by its flag), each command with its own table.
 *
 * In memory `files.dir` is the absolute directory the run was started from, and the
 * other paths are as typed, relative to it. The journal keeps `dir` relative to its own
 * directory, so a run can be resumed from anywhere and its directory moved as a whole.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { TafelError, type ErrorCode } from '../../core/errors.js';
import { seedKey, type SeedKey } from '../../core/rng.js';
import type { Game, Params, TableConfig } from '../../games/game.js';
import { findGame } from '../../games/index.js';
import { resolveParams } from '../../games/params.js';
import { boardSetFrom, type BoardSet } from '../table/boards.js';
import { threadId } from 'node:worker_threads';
import { loadBot, programSpec, type Entrant, type Lineup } from '../table/lineup.js';
import type { ProgramPlace } from '../programs/bot.js';
import type { TimeControl } from '../programs/clock.js';
import { logPath } from '../programs/logs.js';
import type { ProcessRegistry } from '../programs/registry.js';
import type { Shard } from './shard.js';
import type { Unit } from '../table/table.js';
import { VERSION } from './version.js';
import { firstProblem, runSpecSchema } from './spec-schema.js';

export interface EntrantSpec {
  /** What tables, CSVs and records show. */
  readonly label: string;
  /** The bot as written (`pimc:worlds=40`, `./my-bot.js`). */
  readonly bot: string;
  /** A built-in bot's name, or a bot module's path relative to `files.dir`. */
  readonly source: string;
  /** Every parameter in force, defaults included. */
  readonly params: Params;
  /** The bot sees hidden cards (a ceiling for measurement, flagged in every table). */
  readonly cheats: boolean;
}

/**
 * Where a run or a tuning writes: `dir`, the directory it was started from (absolute in
 * memory; relative to the journal in a journal), and one path as typed (relative to
 * `dir`) or null for each output `K`.
 */
export type Files<K extends string> = { readonly dir: string } & { readonly [k in K]: string | null };

/** A run's outputs: summary CSV, journal, deal records, per-deal CSV, database, HTML report. */
export type RunFiles = Files<'out' | 'journal' | 'records' | 'dealCsv' | 'db' | 'report'>;

export type OnBotError = 'stop' | 'skip';

/**
 * What a run and a tuning both play: the game and its table, the seed and unit of its
 * deals, the bot programs its bots may be, and where it writes (`F`, its own files).
 */
export interface PlaySpec<F extends Files<string>> {
  /** The tafel version that made the spec. */
  readonly tafel: string;
  readonly game: string;
  readonly seats: number;
  /** Every rule variant in force, defaults included. */
  readonly rules: Params;
  readonly seed: string;
  /** 'deal': groups of single deals from a fresh score; 'match': groups of whole matches. */
  readonly unit: Unit;
  /** The game's deal and match metric keys: what the journal's sums mean, column by column. */
  readonly metrics: { readonly deal: readonly string[]; readonly match: readonly string[] };
  readonly files: F;
  /** The longest a bot may take over one move, in ms, or null: moves are not timed. */
  readonly moveTimeout: number | null;
  /**
   * The bot programs among the entrants (`--program name=command`): command by name, the
   * entrant's `source` being the name. Absent from journals written before programs.
   */
  readonly programs: Readonly<Record<string, string>>;
}

export interface RunSpec extends PlaySpec<RunFiles> {
  /** The `--bots` list as written, one name per item. */
  readonly bots: readonly string[];
  /** The distinct bots, in order of first appearance in `bots`. */
  readonly entrants: readonly EntrantSpec[];
  /** seatings[r][seat]: the entrant at `seat` in seat rotation r. */
  readonly seatings: readonly (readonly number[])[];
  /** Groups in the whole run (all shards). */
  readonly groups: number;
  /**
   * The chosen deals (`--boards`), one a group: group g plays board g (its first deal,
   * with `--matches`); null when the deals come from the seed. Absent from journals
   * written before boards.
   */
  readonly boards: BoardSet | null;
  readonly shard: Shard | null;
  /** The --sprt spec in force (its canonical text), or null. */
  readonly sprt: string | null;
  /** Bot programs' clocks (`--time-control`), or null: only `moveTimeout` limits their moves. */
  readonly timeControl: TimeControl | null;
  /** A bot that throws, times out or plays an illegal move stops the run, or its group is dropped. */
  readonly onBotError: OnBotError;
  /**
   * Count and time every entrant's moves, returned with the run's result (`RunResult.moveTime`):
   * wall time, so not journaled and not in any output whose bytes must repeat.
   */
  readonly timeMoves: boolean;
}

/** A spec with its game, table, bots and seed key made live, in the thread that plays it. */
export interface LiveRun {
  readonly spec: RunSpec;
  readonly game: Game;
  readonly table: TableConfig;
  readonly lineup: Lineup;
  readonly key: SeedKey;
}

const NO_FILES: RunFiles = { dir: '.', out: null, journal: null, records: null, dealCsv: null, db: null, report: null };

export interface SpecParts {
  readonly game: Game;
  readonly table: TableConfig;
  readonly lineup: Lineup;
  /** The `--bots` list as written; by default the entrants' labels at the seats of rotation 0. */
  readonly bots?: readonly string[];
  readonly seed: string;
  readonly unit: Unit;
  readonly groups: number;
  readonly boards?: BoardSet | null;
  readonly shard?: Shard | null;
  readonly sprt?: string | null;
  /** Commands of the bot programs that the lineup may name (those it does name are kept). */
  readonly programs?: Readonly<Record<string, string>>;
  readonly files?: Partial<RunFiles>;
  readonly moveTimeout?: number | null;
  readonly timeControl?: TimeControl | null;
  readonly onBotError?: OnBotError;
  readonly timeMoves?: boolean;
}

/** The spec of a run whose bots are already resolved (the lineup). */
export function specOf(p: SpecParts): RunSpec {
  const { game, table, lineup } = p;
  // The CLI passes the directory it was started from; a run held in memory alone keeps '.'.
  const files = { ...NO_FILES, ...p.files };
  return checkSpec({
    tafel: VERSION,
    game: game.name,
    seats: table.seats,
    rules: table.rules,
    bots: p.bots ?? lineup.base.map((e) => lineup.entrants[e].label),
    entrants: lineup.entrants.map((e) => entrantSpecOf(e)),
    seatings: lineup.seatings,
    seed: p.seed,
    unit: p.unit,
    groups: p.groups,
    boards: p.boards ?? null,
    shard: p.shard ?? null,
    sprt: p.sprt ?? null,
    programs: programsOf(lineup.entrants, p.programs),
    metrics: metricsOf(game),
    files: { ...files, dir: resolve(files.dir) },
    moveTimeout: p.moveTimeout ?? null,
    timeControl: p.timeControl ?? null,
    onBotError: p.onBotError ?? 'stop',
    timeMoves: p.timeMoves ?? false,
  });
}

/** An entrant as a spec holds it, under `label` (by default its own). */
export function entrantSpecOf(e: Entrant, label = e.label): EntrantSpec {
  return { label, bot: e.bot, source: e.source, params: e.params, cheats: e.spec.cheats === true };
}

/** The commands of the bot programs among `entrants` (of those `programs` names). */
export function programsOf(
  entrants: readonly Entrant[],
  programs: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return Object.fromEntries(
    entrants.flatMap((e) => {
      const command = programs?.[e.source];
      return command === undefined ? [] : [[e.source, command] as const];
    }),
  );
}

/** The game's deal and match metric keys, as a spec holds them (`PlaySpec.metrics`). */
export function metricsOf(game: Pick<Game, 'dealMetrics' | 'matchMetrics'>): PlaySpec<RunFiles>['metrics'] {
  return { deal: game.dealMetrics.map((m) => m.key), match: game.matchMetrics.map((m) => m.key) };
}

/** A live run from parts already resolved in this thread (tests, experiments). */
export function liveRunOf(p: SpecParts): LiveRun {
  return { spec: specOf(p), game: p.game, table: p.table, lineup: p.lineup, key: seedKey(p.seed) };
}

/**
 * Make a spec live: its game, its table, and its bots loaded (by source, with the
 * parameters as they are). A bot program is started here and kept for the first deal;
 * `registry` is where its processes are announced to the main thread.
 */
export async function liveRun(spec: RunSpec, registry: ProcessRegistry | null = null): Promise<LiveRun> {
  const game = findGame(spec.game);
  if (!game) throw new TafelError('unknown-game', `unknown game '${spec.game}'`);
  const table = { seats: spec.seats, rules: resolveParams(game.variants, spec.rules, `rules of ${spec.game}`) };
  game.checkTable(table);
  const entrants: Entrant[] = [];
  for (const e of spec.entrants) {
    const command = spec.programs[e.source];
    const bot =
      command === undefined
        ? await loadBot(e.source, game, spec.files.dir)
        : programSpec(e.source, command, game, table, programPlace(spec, e.label, registry), true);
    if ((bot.cheats === true) !== e.cheats) {
      throw new TafelError(
        'bad-spec',
        `bot ${e.label} no longer resolves as it did when the run began (its module changed?)`,
      );
    }
    entrants.push({ label: e.label, bot: e.bot, source: e.source, spec: bot, params: e.params });
  }
  const lineup: Lineup = { entrants, base: spec.seatings[0], rotations: spec.seatings.length, seatings: spec.seatings };
  return { spec, game, table, lineup, key: seedKey(spec.seed) };
}

/** Where a bot program of this run starts and writes its log, in this thread. */
function programPlace(spec: RunSpec, label: string, registry: ProcessRegistry | null): ProgramPlace {
  const { files } = spec;
  return {
    dir: files.dir,
    log: logPath({ dir: files.dir, outputs: runOutputsOf(files) }, label, threadId),
    registry,
    moveTimeout: spec.moveTimeout,
    timeControl: spec.timeControl,
  };
}

/** The run's output files as typed, in the order their names give the bot logs' names. */
export function runOutputsOf(files: Omit<RunFiles, 'dir'>): (string | null)[] {
  return [files.out, files.journal, files.records, files.dealCsv, files.db, files.report];
}

/** The absolute path of one of a run's or a tuning's files, or null. */
export function pathOf<K extends string>(spec: { readonly files: Files<K> }, file: K): string | null {
  const p = spec.files[file];
  return p === null ? null : resolve(spec.files.dir, p);
}

/**
 * One thing that an old spec and something new (another spec, or the flags of a
 * resume) must agree on, named by the flag that sets it: its value in each, compared
 * as JSON, and optionally as a message shows them. `new` gives undefined when the new
 * side does not say (a flag not given): nothing to compare.
 */
export interface Field<A, B> {
  readonly flag: string | ((a: A) => string);
  readonly old: (a: A) => unknown;
  readonly new: (b: B, a: A) => unknown;
  readonly shown?: { readonly old?: (a: A) => unknown; readonly new?: (b: B) => unknown };
}

export interface Difference {
  readonly flag: string;
  /** The values as a message shows them. */
  readonly old: unknown;
  readonly new: unknown;
}

/** The first field (in the table's order) on which `a` and `b` differ; null if none. */
export function differenceOf<A, B>(a: A, b: B, fields: readonly Field<A, B>[]): Difference | null {
  for (const f of fields) {
    const y = f.new(b, a);
    if (y === undefined) continue;
    const x = f.old(a);
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    return {
      flag: typeof f.flag === 'string' ? f.flag : f.flag(a),
      old: f.shown?.old ? f.shown.old(a) : x,
      new: f.shown?.new ? f.shown.new(b) : y,
    };
  }
  return null;
}

/** A field that two specs hold alike. */
function same<S>(flag: Field<S, S>['flag'], of: (s: S) => unknown): Field<S, S> {
  return { flag, old: of, new: of };
}

/** What a run's results depend on, in the order a difference is named. */
const IDENTITY: readonly Field<RunSpec, RunSpec>[] = [
  same('--game', (s) => s.game),
  same('--players', (s) => s.seats),
  same('--rules', (s) => s.rules),
  same('--bots', (s) => ({
    bots: s.bots,
    entrants: s.entrants.map((e) => ({
      label: e.label,
      source: e.source,
      params: e.params,
      cheats: e.cheats,
      command: s.programs[e.source] ?? null,
    })),
    seatings: s.seatings,
  })),
  same('--seed', (s) => s.seed),
  same('--deals/--matches', (s) => s.unit),
  same('--boards', (s) => s.boards?.boards ?? null),
  same(
    (s) => (s.unit === 'deal' ? '--deals' : '--matches'),
    (s) => s.groups,
  ),
  same("the tafel version (the game's metrics)", (s) => s.metrics),
];

/** The first way in which two runs' results would differ, named by the flag that sets it; null if none. */
export function identityDifference(a: RunSpec, b: RunSpec): string | null {
  return differenceOf(a, b, IDENTITY)?.flag ?? null;
}

/** A rule of a valid spec beyond its shape: the field it is about, and the error a user sees. */
export interface Rule<S> {
  readonly field: keyof S & string;
  readonly code: ErrorCode;
  /** The message of the error, in the words of the flags that set the field; null when `s` keeps the rule. */
  readonly problem: (s: S) => string | null;
}

function broken<S>(rules: readonly Rule<S>[], spec: S): { rule: Rule<S>; message: string } | null {
  for (const rule of rules) {
    const message = rule.problem(spec);
    if (message !== null) return { rule, message };
  }
  return null;
}

/** Throws the error of the first rule `spec` breaks (every maker of a spec calls this); returns the spec. */
export function checkRules<S>(rules: readonly Rule<S>[], spec: S): S {
  const b = broken(rules, spec);
  if (b) throw new TafelError(b.rule.code, b.message);
  return spec;
}

/** A spec read from a journal, or the first rule it breaks after the field's name (`spec.sprt: ...`). */
export function keptRules<S>(rules: readonly Rule<S>[], spec: S): S | string {
  const b = broken(rules, spec);
  return b ? `spec.${b.rule.field}: ${b.message}` : spec;
}

/** The rules of a valid run spec beyond its shape (which `spec-schema.ts` checks). */
const RULES: readonly Rule<RunSpec>[] = [
  {
    field: 'sprt',
    code: 'bad-sprt',
    problem: (s) => {
      const n = s.entrants.length;
      return s.sprt === null || n === 2
        ? null
        : `--sprt compares two bots, but --bots names ${n === 1 ? 'one bot' : `${n} different bots`}`;
    },
  },
  {
    field: 'shard',
    code: 'bad-sprt',
    problem: (s) =>
      s.sprt !== null && s.shard !== null ? '--sprt stops a run as a whole, so it cannot be split with --shard' : null,
  },
  {
    field: 'groups',
    code: 'bad-spec',
    problem: (s) =>
      s.boards && s.groups !== s.boards.boards.length
        ? `--boards ${s.boards.file} holds ${s.boards.boards.length} boards, one a group, but the run has ${s.groups} groups`
        : null,
  },
];

/** Throws the error of the first rule `spec` breaks (specOf, pairRun and every maker of a spec call it); returns the spec. */
export function checkSpec(spec: RunSpec): RunSpec {
  return checkRules(RULES, spec);
}

/** `key=value;key=value` (every variant in force), or `-` for a game without variants. */
export function rulesText(rules: Params): string {
  const parts = Object.entries(rules).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(';') : '-';
}

/** The labels at the seats of rotation 0, `;`-separated. */
export function playersText(spec: RunSpec): string {
  return spec.seatings[0].map((e) => spec.entrants[e].label).join(';');
}

/** A bot with every parameter in force: `heuristic:aggression=1:cash=0.1`. */
export function botText(e: EntrantSpec): string {
  return [e.source, ...Object.entries(e.params).map(([k, v]) => `${k}=${String(v)}`)].join(':');
}

/** The command that plays this run (or this shard) again, from its directory. */
export function commandOf(spec: RunSpec): string {
  const words = ['tafel', 'run', '--game', spec.game, '--players', String(spec.seats)];
  const rules = Object.entries(spec.rules).map(([k, v]) => `${k}=${String(v)}`);
  if (rules.length) words.push('--rules', rules.join(','));
  for (const [name, command] of Object.entries(spec.programs)) words.push('--program', `${name}=${command}`);
  words.push('--bots', spec.bots.join(','), '--seed', spec.seed);
  if (spec.boards) {
    words.push('--boards', spec.boards.file);
    if (spec.unit === 'match') words.push('--matches', String(spec.groups));
  } else words.push(spec.unit === 'deal' ? '--deals' : '--matches', String(spec.groups));
  if (spec.shard) words.push('--shard', `${spec.shard.index}/${spec.shard.count}`);
  if (spec.sprt) words.push('--sprt', spec.sprt.replace(/\s+/g, ''));
  return words.map(shellWord).join(' ');
}

export function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The spec as a journal keeps it: `files.dir` relative to the journal's directory. */
export function specForJournal<S extends { readonly files: Files<string> }>(spec: S, journal: string): S {
  const dir = relative(dirname(resolve(journal)), spec.files.dir) || '.';
  return { ...spec, files: { ...spec.files, dir } };
}

/** A journal's `files` with `dir` made absolute again, against the journal's directory. */
export function filesFromJournal<F extends Files<string>>(files: F, journal: string): F {
  return { ...files, dir: isAbsolute(files.dir) ? files.dir : resolve(dirname(resolve(journal)), files.dir) };
}

/**
 * A spec read from a journal: checked against the schema (`spec-schema.ts`) and the
 * rules (`checkSpec`), `files.dir` made absolute again, and the fields older journals
 * lack given their defaults. A string is the first problem found, naming the field.
 */
export function specFromJournal(value: unknown, journal: string): RunSpec | string {
  const parsed = runSpecSchema.safeParse(value);
  if (!parsed.success) return firstProblem(parsed.error, 'spec');
  const v = parsed.data;
  const spec: RunSpec = {
    ...(value as RunSpec),
    files: filesFromJournal({ ...v.files, db: v.files.db ?? null, report: v.files.report ?? null }, journal),
    timeMoves: v.timeMoves === true,
    boards: boardSetFrom(v.boards),
    programs: v.programs ?? {},
    timeControl: v.timeControl ?? null,
  };
  return keptRules(RULES, spec);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
