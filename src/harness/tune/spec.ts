/**
 * The tune spec: the one description of a tuning, plain data like the run spec and,
 * like it, a `PlaySpec` (what both play: run/spec.ts). The command line builds it (or
 * reads it back from a tuning journal, whose header it is: its shape checked by
 * spec-schema.ts, its rules by `RULES`), and everything else follows from it and from
 * the games' results: each iteration's pair run (theta+ against theta-, or each against
 * a fixed bot: a RunSpec of all the tuning's groups, of which the iteration plays its
 * own), the SPSA schedule, the verification run, the outputs' identity and the command
 * that tunes again.
 *
 * Files: `out` is the iteration CSV; `journal` the tuning's journal; `verifyOut` and
 * `verifyJournal` the verification run's summary and journal (a run's own files), and
 * `verifyDb` its database (`--db`: the deals of the tuned bot against the start);
 * `report` the tuning's HTML page (`TuneFiles`, a `Files<K>`). As in the run spec,
 * `files.dir` is absolute in memory and relative to the journal in it.
 */
import { resolve } from 'node:path';
import { TafelError } from '../../core/errors.js';
import { seedKey, type SeedKey } from '../../core/rng.js';
import type { Game, ParamSpec, ParamValue, Params, TableConfig } from '../../games/game.js';
import { findGame } from '../../games/index.js';
import type { BoardSet } from '../table/boards.js';
import { seatingsOf, type Entrant } from '../table/lineup.js';
import {
  botText,
  checkRules,
  checkSpec,
  entrantSpecOf,
  metricsOf,
  programsOf,
  filesFromJournal,
  keptRules,
  shellWord,
  type EntrantSpec,
  type Files,
  type PlaySpec,
  type Rule,
  type RunFiles,
  type RunSpec,
} from '../run/spec.js';
import { firstProblem } from '../run/spec-schema.js';
import { tuneSpecSchema } from './spec-schema.js';
import type { SpsaParam, SpsaSchedule } from './spsa.js';
import type { Unit } from '../table/table.js';
import { VERSION } from '../run/version.js';

interface TunedParam extends SpsaParam {
  /** The start point's value. */
  readonly start: number;
}

/**
 * A tuning's outputs: the iteration CSV, its journal, the verification run's summary,
 * journal and database, the HTML report.
 */
export type TuneFiles = Files<'out' | 'journal' | 'verifyOut' | 'verifyJournal' | 'verifyDb' | 'report'>;

interface Verification {
  /** Duplicate groups of tuned against start (with an SPRT: the most it may play). */
  readonly groups: number;
  /** The --sprt spec in force (canonical text), or null: a fixed number of groups. */
  readonly sprt: string | null;
  /** The chosen deals it plays (`--boards`), group g board g; absent or null: deals from its seed. */
  readonly boards?: BoardSet | null;
}

export interface TuneSpec extends PlaySpec<TuneFiles> {
  /** The bot tuned, at its start point: as written, with every parameter in force. */
  readonly bot: EntrantSpec;
  readonly tune: readonly TunedParam[];
  /** The bot that theta+ and theta- each play, or null: they play each other. */
  readonly against: EntrantSpec | null;
  readonly iterations: number;
  /** Duplicate groups an iteration. */
  readonly pairs: number;
  readonly alpha: number;
  readonly gamma: number;
  /** A as a fraction of the iterations. */
  readonly aRatio: number;
  readonly verify: Verification | null;
}

/**
 * Spall's, OpenBench's and fishtest's alpha, gamma and A; c_end a twentieth of the range,
 * as Stockfish's tune.cpp writes it for fishtest. r_end: see `defaultREnd`.
 */
const DEFAULTS = { alpha: 0.602, gamma: 0.101, aRatio: 0.1, cShare: 1 / 20 } as const;

const R_BUDGET = 0.5;

/**
 * The default r_end for a tuning of G = iterations x pairs groups: 0.5 / sqrt(G), which
 * is the 0.002 of Stockfish's tune.cpp at 62,500 groups. Near the optimum a
 * step of c_end costs the bot about h c_end^2 / 2 (h the curvature), and theta's
 * distance to the optimum shrinks by a factor exp(-4 r_end G delta) over the tuning,
 * delta that cost in standard deviations of a group's difference. A c_end whose cost
 * is just measurable in the tuning's own groups (delta = 2 / sqrt(G), two standard
 * errors) then shrinks it by exp(-4), whatever the tuning's length.
 */
function defaultREnd(iterations: number, pairs: number): number {
  return Number((R_BUDGET / Math.sqrt(iterations * pairs)).toPrecision(3));
}

export function scheduleOf(t: TuneSpec): SpsaSchedule {
  return { iterations: t.iterations, alpha: t.alpha, gamma: t.gamma, A: t.aRatio * t.iterations };
}

/** The stream of the tuning's own draws (flips, rounding): apart from every deal's. */
export function spsaKey(t: TuneSpec): SeedKey {
  return seedKey(`${t.seed}/spsa`);
}

/** The seed of the verification's deals, which the tuning never plays (and `tafel run` accepts). */
export function verifySeed(t: TuneSpec): string {
  return `${t.seed}:verify`;
}

/** How a tuning's two perturbations meet each other, in words (its summary and report say it). */
export function pairingText(t: TuneSpec, game: Game): string {
  if (t.against) return `theta+ and theta- each against ${botText(t.against)}, on the same deals`;
  return game.teams(t.seats)
    ? 'theta+ against theta-, as the two sides'
    : 'theta+ against theta-, alternating around the table';
}

/** The headline metric: the first of the unit's. */
export function headline(game: Game, unit: Unit) {
  return unit === 'match' ? game.matchMetrics[0] : game.dealMetrics[0];
}

const OPTION_KEYS = ['c', 'r', 'min', 'max'] as const;

/**
 * Parse `--tune aggression,cash:c=0.05:r=0.001:min=0:max=0.9` against the bot's
 * parameters and its start values: numbers and whole numbers only, bounds (the bot's,
 * or narrower) finite and with room, the start within them, c_end positive (at least
 * 0.5 for a whole number) and r_end not negative.
 */
function parseTune(
  text: string,
  bot: { name: string; params: readonly ParamSpec[] },
  start: Params,
  rEnd: number,
): TunedParam[] {
  const tunable = bot.params.filter((p) => p.type === 'int' || p.type === 'number');
  if (tunable.length === 0)
    throw new TafelError('bad-tune', `bot ${bot.name} has no numeric parameters to tune (see tafel bots)`);
  const known = `tunable: ${tunable.map((p) => p.key).join(', ')}`;
  const out: TunedParam[] = [];
  for (const item of text.split(',')) {
    const p = tunedParam(item.trim(), text, bot, start, known, rEnd);
    if (out.some((q) => q.key === p.key)) throw new TafelError('bad-tune', `--tune ${p.key}: named twice`);
    out.push(p);
  }
  return out;
}

function tunedParam(
  item: string,
  text: string,
  bot: { name: string; params: readonly ParamSpec[] },
  start: Params,
  known: string,
  rDefault: number,
): TunedParam {
  const [key, ...options] = item.split(':');
  const bad = (why: string): never => {
    throw new TafelError('bad-tune', `--tune ${key || `'${text}'`}: ${why}`);
  };
  if (!key) return bad('empty item (expected e.g. --tune aggression,cash:c=0.05)');
  const spec = bot.params.find((p) => p.key === key) ?? bad(`${bot.name} has no such parameter (${known})`);
  if (spec.type !== 'int' && spec.type !== 'number') {
    const what = spec.type === 'boolean' ? 'true or false' : `a word (${spec.type.join('|')})`;
    return bad(`${what} cannot be tuned: SPSA tunes numbers (${known})`);
  }
  const given: Partial<Record<(typeof OPTION_KEYS)[number], number>> = {};
  for (const o of options) {
    const eq = o.indexOf('=');
    const name = o.slice(0, eq);
    const value = Number(o.slice(eq + 1));
    if (eq <= 0 || !(OPTION_KEYS as readonly string[]).includes(name)) bad(`'${o}' is not one of c=, r=, min=, max=`);
    if (o.slice(eq + 1).trim() === '' || !Number.isFinite(value)) bad(`${o}: not a number`);
    given[name as (typeof OPTION_KEYS)[number]] = value;
  }
  const integer = spec.type === 'int';
  const min = given.min ?? spec.min;
  const max = given.max ?? spec.max;
  if (min === undefined || max === undefined)
    return bad(
      `${bot.name} gives it no ${min === undefined ? 'lower' : 'upper'} bound: give one (${key}:min=..:max=..)`,
    );
  const range = `${spec.min ?? '-inf'}..${spec.max ?? 'inf'}`;
  if ((spec.min !== undefined && min < spec.min) || (spec.max !== undefined && max > spec.max))
    bad(`bounds ${min}..${max} reach outside the bot's own (${range})`);
  if (integer && !(Number.isInteger(min) && Number.isInteger(max)))
    bad(`a whole-number parameter needs whole-number bounds, not ${min}..${max}`);
  if (!(max > min)) bad(`bounds ${min}..${max} leave no room to tune`);
  const s = start[key];
  if (typeof s !== 'number') return bad('the start has no value for it');
  if (s < min || s > max) bad(`the start ${key}=${s} lies outside the bounds ${min}..${max}`);
  const share = (max - min) * DEFAULTS.cShare;
  const cEnd = given.c ?? (integer ? Math.max(0.5, Math.round(share)) : share);
  const rEnd = given.r ?? rDefault;
  if (!(cEnd > 0)) bad(`c=${cEnd}: the step must be positive`);
  if (integer && cEnd < 0.5) bad(`c=${cEnd}: a whole-number parameter needs a step of at least 0.5`);
  if (cEnd > (max - min) / 2) bad(`c=${cEnd}: a step of more than half the range ${min}..${max} leaves no room`);
  if (!(rEnd >= 0)) bad(`r=${rEnd}: the learning rate must not be negative`);
  return { key, integer, min, max, cEnd, rEnd, start: s };
}

/** The bot as written with `values` set (replacing or adding `key=value`): a spec that `--bots` accepts. */
export function botWith(e: EntrantSpec, values: Readonly<Record<string, ParamValue>>): string {
  const given = new Map<string, string>();
  for (const a of e.bot.slice(e.source.length).split(':')) {
    const eq = a.indexOf('=');
    if (eq > 0) given.set(a.slice(0, eq), a.slice(eq + 1));
  }
  for (const [k, v] of Object.entries(values)) given.set(k, String(v));
  return [e.source, ...[...given].map(([k, v]) => `${k}=${v}`)].join(':');
}

/** An entrant of the tuned bot with `values` set. */
export function variant(t: TuneSpec, label: string, values: readonly number[]): EntrantSpec {
  const set = Object.fromEntries(t.tune.map((p, i) => [p.key, values[i]]));
  return { ...t.bot, label, bot: botWith(t.bot, set), params: { ...t.bot.params, ...set } };
}

/**
 * A two-bot run spec of the tuning's table: the two alternate around it (in a
 * partnership game the two sides), every distinct rotation played.
 */
export function pairRun(
  t: TuneSpec,
  a: EntrantSpec,
  b: EntrantSpec,
  o: {
    seed: string;
    groups: number;
    boards?: BoardSet | null;
    sprt?: string | null;
    files?: Partial<RunFiles>;
  },
): RunSpec {
  const game = findGame(t.game);
  if (!game) throw new TafelError('unknown-game', `unknown game '${t.game}'`);
  const base = Array.from({ length: t.seats }, (_, s) => s % 2);
  return checkSpec({
    tafel: t.tafel,
    game: t.game,
    seats: t.seats,
    rules: t.rules,
    bots: [a, b].map((e) => `${e.label}=${e.bot}`),
    entrants: [a, b],
    seatings: seatingsOf(base, 2, 2, game.teams(t.seats)),
    seed: o.seed,
    unit: t.unit,
    groups: o.groups,
    boards: o.boards ?? null,
    shard: null,
    sprt: o.sprt ?? null,
    metrics: t.metrics,
    files: {
      dir: t.files.dir,
      out: null,
      journal: null,
      records: null,
      dealCsv: null,
      db: null,
      report: null,
      ...o.files,
    },
    moveTimeout: t.moveTimeout,
    programs: t.programs,
    timeControl: null,
    onBotError: 'stop',
    timeMoves: false,
  });
}

/** `--tune` as the spec holds it, every option written out. */
export function tuneText(t: TuneSpec): string {
  return t.tune.map(tunedText).join(',');
}

function tunedText(p: TunedParam): string {
  return `${p.key}:c=${p.cEnd}:r=${p.rEnd}:min=${p.min}:max=${p.max}`;
}

/**
 * `--tune` as typed, its options not given filled in from the spec's parameter of the
 * same key at the same place: equal to `tuneText(t)` when the typed list says nothing
 * the spec does not (a resume's check).
 */
export function tuneTextAsTyped(t: TuneSpec, text: string): string {
  return text
    .split(',')
    .map((item, i) => {
      const [key, ...options] = item.trim().split(':');
      const p = t.tune[i];
      if (p?.key !== key) return item.trim();
      const given = new Map(options.map((o) => [o.slice(0, o.indexOf('=')), Number(o.slice(o.indexOf('=') + 1))]));
      const value = (name: string, held: number) => given.get(name) ?? held;
      return tunedText({
        ...p,
        cEnd: value('c', p.cEnd),
        rEnd: value('r', p.rEnd),
        min: value('min', p.min),
        max: value('max', p.max),
      });
    })
    .join(',');
}

/** The command that runs this tuning again, from its directory. */
export function tuneCommandOf(t: TuneSpec): string {
  const words = ['tafel', 'tune', '--game', t.game, '--players', String(t.seats)];
  const rules = Object.entries(t.rules).map(([k, v]) => `${k}=${String(v)}`);
  if (rules.length) words.push('--rules', rules.join(','));
  for (const [name, command] of Object.entries(t.programs)) words.push('--program', `${name}=${command}`);
  words.push('--bot', t.bot.bot, '--tune', tuneText(t));
  if (t.against) words.push('--against', t.against.bot);
  if (t.unit === 'match') words.push('--unit', 'match');
  words.push('--iterations', String(t.iterations), '--pairs', String(t.pairs), '--seed', t.seed);
  words.push('--alpha', String(t.alpha), '--gamma', String(t.gamma), '--a-ratio', String(t.aRatio));
  if (t.verify?.boards) words.push('--boards', t.verify.boards.file);
  if (t.verify) words.push('--verify', String(t.verify.groups));
  if (t.verify?.sprt) words.push('--sprt', t.verify.sprt.replace(/\s+/g, ''));
  return words.map(shellWord).join(' ');
}

/**
 * A spec read from a journal: checked against the schema (`spec-schema.ts`) and the
 * rules (`RULES`), `files.dir` made absolute again, and the fields older
 * journals lack given their defaults. A string is the first problem found, naming the field.
 */
export function tuneSpecFromJournal(value: unknown, journal: string): TuneSpec | string {
  const parsed = tuneSpecSchema.safeParse(value);
  if (!parsed.success) return firstProblem(parsed.error, 'spec');
  const v = parsed.data;
  const files = { ...v.files, verifyDb: v.files.verifyDb ?? null, report: v.files.report ?? null };
  const spec: TuneSpec = {
    ...(value as TuneSpec),
    files: filesFromJournal(files, journal),
    programs: v.programs ?? {},
  };
  return keptRules(RULES, spec);
}

/** The rules of a valid tune spec beyond its shape (which `spec-schema.ts` checks). */
const RULES: readonly Rule<TuneSpec>[] = [
  { field: 'alpha', code: 'bad-tune', problem: (t) => (t.alpha > 0 ? null : `--alpha ${t.alpha}: must be positive`) },
  {
    field: 'gamma',
    code: 'bad-tune',
    problem: (t) => (t.gamma >= 0 ? null : `--gamma ${t.gamma}: must not be negative`),
  },
  {
    field: 'aRatio',
    code: 'bad-tune',
    problem: (t) => (t.aRatio >= 0 ? null : `--a-ratio ${t.aRatio}: must not be negative`),
  },
  {
    field: 'seed',
    code: 'bad-seed',
    problem: (t) =>
      t.seed.length <= SEED_CHARS
        ? null
        : `--seed '${t.seed}': at most ${SEED_CHARS} characters for a tuning (its verification plays the seed '${t.seed}:verify')`,
  },
  {
    field: 'files',
    code: 'missing-option',
    problem: (t) =>
      t.files.verifyDb !== null && !t.verify
        ? `--db ${t.files.verifyDb}: the database holds the verification run; give --verify or --sprt`
        : null,
  },
];

/** Room for the verification's seed, `S:verify`, within the 64 characters of a seed. */
const SEED_CHARS = 64 - ':verify'.length;

/** What a tuning is made of, resolved (the bots loaded, the table checked). */
export interface TuneParts {
  readonly game: Game;
  readonly table: TableConfig;
  readonly unit: Unit;
  readonly bot: Entrant;
  /** The `--tune` list as typed. */
  readonly tune: string;
  readonly against: Entrant | null;
  readonly iterations: number;
  readonly pairs: number;
  readonly alpha?: number;
  readonly gamma?: number;
  readonly aRatio?: number;
  readonly seed: string;
  readonly verify: Verification | null;
  readonly files?: Partial<TuneFiles>;
  readonly moveTimeout?: number | null;
  /** Commands of bot programs that `bot` or `against` may be (those they are are kept). */
  readonly programs?: Readonly<Record<string, string>>;
}

export function tuneSpecOf(p: TuneParts): TuneSpec {
  const { game, table } = p;
  const alpha = p.alpha ?? DEFAULTS.alpha;
  const gamma = p.gamma ?? DEFAULTS.gamma;
  const aRatio = p.aRatio ?? DEFAULTS.aRatio;
  const files: TuneFiles = {
    dir: '.',
    out: null,
    journal: null,
    verifyOut: null,
    verifyJournal: null,
    verifyDb: null,
    report: null,
    ...p.files,
  };
  return checkRules(RULES, {
    tafel: VERSION,
    game: game.name,
    seats: table.seats,
    rules: table.rules,
    unit: p.unit,
    bot: entrantSpecOf(p.bot, 'start'),
    tune: parseTune(p.tune, p.bot.spec, p.bot.params, defaultREnd(p.iterations, p.pairs)),
    against: p.against && entrantSpecOf(p.against, 'against'),
    iterations: p.iterations,
    pairs: p.pairs,
    alpha,
    gamma,
    aRatio,
    seed: p.seed,
    verify: p.verify,
    metrics: metricsOf(game),
    files: { ...files, dir: resolve(files.dir) },
    moveTimeout: p.moveTimeout ?? null,
    programs: programsOf(p.against ? [p.bot, p.against] : [p.bot], p.programs),
  });
}
