/**
 * Experiment: how often are Hindersche marches made? (issue 4)
 *
 * Whole rubbers (RULES.md H-9, 4 games) at tables of four of the same bot (random,
 * heuristic, montecarlo) and at a mixed table (heuristic,random: a,b,a,b in both seat
 * rotations): a declared set of runs (plan.ts), each played by the harness on the
 * worker pool into a database, and counted by queries over its tables (`deals`:
 * `kind`, `phase`, `game`, `marcher`, `march`, `game_end`; `seats`: `plays`, `march`):
 *
 * - A deal *has a march* when a player marched (H-4: 100 card points or more; in phase 2,
 *   H-6, also all 9 tricks): the game's `marcher` fact, the same that moves the marks.
 *   Kinds: `points` (100 or more, whatever the tricks) and `all-tricks` (all 9 tricks
 *   with fewer than 100 points: a march only by the Butzen rule); they partition `any`.
 *   Playoff deals (H-8) are counted apart (unit `playoff-deal`).
 * - A *game* (of a rubber) has a march when any of its deals, playoffs included, has
 *   one; phase-1 and phase-2 game rates count marches in that phase only, the phase-2
 *   rate over the games that reached phase 2. The double loss (H-5) is counted too.
 * - The mixed table also gives each bot's own rate: marches by a seat of that bot per
 *   seat-deal it played (unit `seat-deal`).
 * - Checked: the marches counted equal the engine's own `marches` match metric.
 *
 * Statistics. `wilson` treats deals (or games) as independent. They are not quite:
 * within a rubber the phase, the players still in and the bots' play depend on the
 * slate. So every rate also gets an interval over *clusters*, the duplicate groups
 * (one rubber at a table of four alike; at the mixed table the two seat rotations of
 * a rubber, which share their cards): `cluster-ratio-t` is the pooled rate (the same
 * estimate as Wilson's) with a Student-t interval from the per-cluster linearized
 * residuals `(m_i - R d_i) / mean(d)` (the ratio estimator of survey sampling);
 * `cluster-mean-t` (per-deal rows only) is the mean of the per-cluster rates with a
 * Student-t interval (a slightly different estimand: every rubber weighs the same).
 * Cluster bounds are clamped to [0, 1].
 *
 * Seeding. Every table uses the same master seed, so deal k of rubber g is dealt the
 * same cards at every table (common random numbers across tables); bots draw their
 * own streams from (seed, rubber, seat, deal, rotation). The CSV is the same byte for
 * byte on every run with the same options; the report adds the run's timing.
 *
 *   tafel experiment hindersche-marches [--rubbers N] [--mc-rubbers N] [--mc-worlds W] [--seed S]
 */
import { availableParallelism } from 'node:os';
import { stringify } from 'csv-stringify/sync';
import { noIntervalNote } from '../src/harness/stats/interval-text.js';
import { runQueries } from '../src/harness/db/query.js';
import type { Degenerate } from '../src/harness/stats/stats.js';
import { writtenLine } from '../src/report/format.js';
import { SEED_RULE } from '../src/harness/run/flag-rules.js';
import { planFor, seedOf, wholes } from './command.js';
import type { Experiment, ExperimentFlag, Plan, PlannedRun } from './experiment.js';
import { playPlan } from './plan.js';

export const NAME = 'hindersche-marches';

export interface StudyOptions {
  readonly seed: string;
  /** Rubbers at each of the tables random, heuristic and heuristic,random. */
  readonly rubbers: number;
  /** Rubbers at the montecarlo table (far slower). */
  readonly mcRubbers: number;
  /** `worlds` of the montecarlo bot. */
  readonly mcWorlds: number;
}

const DEFAULTS = { seed: 'marches-1', rubbers: 4000, mcRubbers: 1200, mcWorlds: 12 } as const;

const QUESTION =
  'How often are Hindersche marches made (per deal and per game, phase 1 and phase 2), by random, heuristic and Monte Carlo players?';

export interface TableSpec {
  /** As `--bots` takes it: one name per seat, or fewer spread over the seats. */
  readonly bots: string;
  readonly rubbers: number;
}

export function tablesOf(o: StudyOptions): TableSpec[] {
  return [
    { bots: 'random', rubbers: o.rubbers },
    { bots: 'heuristic', rubbers: o.rubbers },
    { bots: `montecarlo:worlds=${o.mcWorlds}`, rubbers: o.mcRubbers },
    { bots: 'heuristic,random', rubbers: o.rubbers },
  ].filter((t) => t.rubbers > 0);
}

/** The runs: one per table, whole rubbers, `rubbers / rotations` duplicate groups. */
function runsOf(o: StudyOptions): PlannedRun[] {
  return tablesOf(o).map((t) => {
    const rotations = t.bots.includes(',') ? 2 : 1;
    return {
      name: t.bots.replace(/[^A-Za-z0-9]+/g, '-'),
      game: 'hindersche',
      players: 4,
      bots: t.bots,
      unit: 'match',
      groups: Math.ceil(t.rubbers / rotations),
      seed: o.seed,
    };
  });
}

export function planOf(o: StudyOptions): Plan {
  const options = { ...o };
  return planFor({ experiment: NAME, question: QUESTION, options, runs: runsOf(o) }, FLAGS, options);
}

const FLAGS: readonly ExperimentFlag[] = [
  {
    flag: '--rubbers <n>',
    description: 'rubbers at the random, heuristic and heuristic,random tables',
    default: String(DEFAULTS.rubbers),
    min: 1,
  },
  {
    flag: '--mc-rubbers <n>',
    description: 'rubbers at the montecarlo table (0: none)',
    default: String(DEFAULTS.mcRubbers),
    min: 0,
  },
  {
    flag: '--mc-worlds <w>',
    description: 'worlds per decision of the montecarlo bot',
    default: String(DEFAULTS.mcWorlds),
    min: 1,
  },
  { flag: '--seed <s>', description: `master seed: ${SEED_RULE}`, default: DEFAULTS.seed },
];

export type Unit = 'deal' | 'playoff-deal' | 'game' | 'seat-deal';
export type Kind = 'any' | 'points' | 'all-tricks' | 'double-loss';
export type Phase = '1' | '2' | 'all';

export interface TableResult {
  readonly bots: string;
  readonly rubbers: number;
  /** Duplicate groups (clusters): rubbers / rotations. */
  readonly groups: number;
  readonly rotations: number;
  readonly normalDeals: number;
  readonly playoffDeals: number;
  readonly games: number;
}

export interface StudyResult {
  readonly options: StudyOptions;
  readonly tables: readonly TableResult[];
  readonly rows: readonly Row[];
  /** Wall clock, the worker threads it played on, and the command that makes it again. */
  readonly seconds: number;
  readonly workers: number;
  readonly command: string;
}

/**
 * The deals read once, into one row per game (of a rubber) with the counts every cell
 * needs (normal deals are of phase 1 or 2, H-6): the queries below read this table,
 * not the deals' parts again (each pass over the parts costs as much as all the rest).
 */
const GAMES_SQL = `CREATE TEMP TABLE games AS
SELECT run, grp, match, game,
  count_if(kind = 'normal') AS normal, count_if(kind = 'normal' AND marcher IS NOT NULL) AS normal_marches,
  count_if(marcher IS NOT NULL) AS marches,
  count_if(kind = 'normal' AND phase = 1) AS n1, count_if(kind = 'normal' AND phase = 1 AND marcher IS NOT NULL) AS k1,
  count_if(kind = 'normal' AND phase = 2) AS n2, count_if(kind = 'normal' AND phase = 2 AND marcher IS NOT NULL) AS k2,
  count_if(kind = 'normal' AND phase = 2 AND march = 'points' AND marcher IS NOT NULL) AS points2,
  count_if(kind = 'normal' AND phase = 2 AND march = 'all-tricks' AND marcher IS NOT NULL) AS tricks2,
  count_if(kind = 'playoff') AS playoffs, count_if(kind = 'playoff' AND marcher IS NOT NULL) AS playoff_marches,
  bool_or(marcher IS NOT NULL) AS m, bool_or(phase = 1 AND marcher IS NOT NULL) AS m1,
  bool_or(phase = 2) AS reached2, bool_or(phase = 2 AND marcher IS NOT NULL) AS m2, max(game_end) = 2 AS double_loss
FROM deals GROUP BY ALL`;

/**
 * Per table, cell and duplicate group: the units counted (n) and the marches among them
 * (k). A cell is a unit, a phase, a kind and (seat-deals) a bot; a group has a row of a
 * cell when it has units of it (a normal deal of phase 2, a playoff deal...).
 */
const UNITS_SQL = `
WITH pg AS (
  SELECT run, grp, sum(normal) AS normal, sum(normal_marches) AS normal_marches, sum(n1) AS n1, sum(k1) AS k1,
    sum(n2) AS n2, sum(k2) AS k2, sum(points2) AS points2, sum(tricks2) AS tricks2, sum(playoffs) AS playoffs,
    sum(playoff_marches) AS playoff_marches, count(*) AS games, count_if(m) AS gm, count_if(m1) AS gm1,
    count_if(reached2) AS g2, count_if(m2) AS gm2, count_if(double_loss) AS double_losses
  FROM games GROUP BY run, grp),
mixed AS (SELECT run FROM bots GROUP BY run HAVING count(*) > 1),
-- Seat-deals of the mixed tables per group, phase and bot.
sd AS (
  SELECT s.run, s.grp, d.phase, s.bot::VARCHAR AS seat_bot, count(*) AS n, count_if(s.march = 1) AS k
  FROM seats s JOIN deals d USING (run, grp, rotation, deal)
  WHERE d.kind = 'normal' AND s.plays AND s.run IN (SELECT run FROM mixed) AND d.run IN (SELECT run FROM mixed)
  GROUP BY ALL),
per AS (
  SELECT run, grp, 'deal' AS unit, '1' AS phase, 'any' AS kind, '' AS seat_bot, n1 AS n, k1 AS k FROM pg WHERE n1 > 0
  UNION ALL SELECT run, grp, 'deal', '2', 'any', '', n2, k2 FROM pg WHERE n2 > 0
  UNION ALL SELECT run, grp, 'deal', 'all', 'any', '', normal, normal_marches FROM pg WHERE normal > 0
  UNION ALL SELECT run, grp, 'deal', '2', 'points', '', n2, points2 FROM pg WHERE n2 > 0
  UNION ALL SELECT run, grp, 'deal', '2', 'all-tricks', '', n2, tricks2 FROM pg WHERE n2 > 0
  UNION ALL SELECT run, grp, 'playoff-deal', 'all', 'any', '', playoffs, playoff_marches FROM pg WHERE playoffs > 0
  UNION ALL SELECT run, grp, 'game', 'all', 'any', '', games, gm FROM pg
  UNION ALL SELECT run, grp, 'game', '1', 'any', '', games, gm1 FROM pg
  UNION ALL SELECT run, grp, 'game', '2', 'any', '', g2, gm2 FROM pg WHERE g2 > 0
  UNION ALL SELECT run, grp, 'game', '1', 'double-loss', '', games, double_losses FROM pg
  UNION ALL SELECT run, grp, 'seat-deal', phase::VARCHAR, 'any', seat_bot, n, k FROM sd
  UNION ALL SELECT run, grp, 'seat-deal', 'all', 'any', seat_bot, sum(n), sum(k) FROM sd GROUP BY run, grp, seat_bot),
cells AS (SELECT DISTINCT run, unit, phase, kind, seat_bot FROM per),
-- Every cluster counts in the ratio estimator, one without units of the cell as n = k = 0.
allgroups AS (
  SELECT c.*, r.grp, coalesce(p.n, 0) AS n, coalesce(p.k, 0) AS k
  FROM cells c JOIN (SELECT run, range AS grp FROM runs, range(groups)) r USING (run)
  LEFT JOIN per p USING (run, unit, phase, kind, seat_bot, grp))
SELECT r.bots AS tbl, a.unit, a.phase, a.kind, a.seat_bot, sum(a.n)::INTEGER, sum(a.k)::INTEGER, wilson(sum(a.k), sum(a.n)),
  cluster_rate(a.k, a.n), cluster_mean(CASE WHEN a.n > 0 THEN a.k / a.n END)
FROM allgroups a JOIN runs r USING (run) GROUP BY ALL`;

/** The engine's own count (its `marches` match metric, playoffs included) against the deals', per run. */
const CHECK_SQL = `SELECT r.bots, (SELECT sum(marches) FROM matches m WHERE m.run = r.run)::INTEGER,
  (SELECT sum(marches) FROM games g WHERE g.run = r.run)::INTEGER FROM runs r`;

/** Per run: its groups and rotations, normal and playoff deals, games. */
const COUNTS_SQL = `SELECT r.bots, r.groups, r.rotations, sum(g.normal)::INTEGER, sum(g.playoffs)::INTEGER,
  count(DISTINCT (g.match, g.game))::INTEGER
FROM games g JOIN runs r USING (run) GROUP BY ALL`;

type Interval = {
  n: number;
  rate?: number;
  mean?: number | null;
  low: number | null;
  high: number | null;
  bound?: number | null;
  note?: Degenerate | null;
} | null;

/** A cluster macro's answer as a row's rate and bounds: where it gives no interval, its Wilson bound on its side (interval-text.ts). */
function clusterColumns(
  x: NonNullable<Interval>,
  rate: number,
): Pick<Row, 'rate' | 'ci95_low' | 'ci95_high' | 'note' | 'bound'> {
  const num = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);
  const note = x.note ?? undefined;
  const bound = num(x.bound);
  return {
    rate,
    ci95_low: note === 'all' ? bound : num(x.low),
    ci95_high: note === 'none' ? bound : num(x.high),
    ...(note ? { note, bound } : {}),
  };
}

/** The study's tables and rows from its runs' databases. */
async function countStudy(
  o: StudyOptions,
  files: readonly string[],
  threads: number,
): Promise<Omit<StudyResult, 'seconds' | 'workers' | 'command'>> {
  // One session for the queries: each opens the databases again otherwise.
  const [, check, counts, cells] = await runQueries(files, [GAMES_SQL, CHECK_SQL, COUNTS_SQL, UNITS_SQL].join(';\n'), {
    threads,
  });
  for (const [bots, engine, counted] of check.rows as [string, number, number][]) {
    if (engine !== counted)
      throw new Error(`${bots}: ${counted} marches in the deals but ${engine} by the engine's metric`);
  }
  const tables = tablesOf(o).map((t): TableResult => {
    const row = counts.rows.find((x) => x[0] === t.bots)!;
    const [groups, rotations, normalDeals, playoffDeals, games] = row.slice(1) as number[];
    return { bots: t.bots, rubbers: groups * rotations, groups, rotations, normalDeals, playoffDeals, games };
  });
  const rows: Row[] = [];
  const num = (x: number | null | undefined) => (x === null || x === undefined ? NaN : x);
  for (const [tbl, unit, phase, kind, seatBot, n, k, w, r, m] of cells.rows) {
    const base = {
      bots: tbl as string,
      phase: phase as Phase,
      unit: unit as Unit,
      kind: kind as Kind,
      marches: k as number,
      seat_bot: seatBot as string,
    };
    const wilson = w as Interval;
    rows.push({
      ...base,
      n: n as number,
      rate: num(wilson?.rate),
      ci95_low: num(wilson?.low),
      ci95_high: num(wilson?.high),
      method: 'wilson',
    });
    const ratio = r as NonNullable<Interval>;
    rows.push({ ...base, n: ratio.n, ...clusterColumns(ratio, num(ratio.rate)), method: 'cluster-ratio-t' });
    if (unit === 'deal') {
      const mean = m as NonNullable<Interval>;
      // The mean of per-cluster rates: with no marches (or all) its clusters are alike, so no interval either.
      const clamp = (x: number) => Math.min(1, Math.max(0, x));
      const c = clusterColumns(mean, num(mean.mean));
      rows.push({
        ...base,
        n: mean.n,
        ...c,
        ci95_low: clamp(c.ci95_low),
        ci95_high: clamp(c.ci95_high),
        method: 'cluster-mean-t',
      });
    }
  }
  return { options: o, tables, rows: sortRows(rows, tables) };
}

// --- Output -------------------------------------------------------------------------

export const CSV_COLUMNS = [
  'bots',
  'phase',
  'unit',
  'kind',
  'n',
  'marches',
  'rate',
  'ci95_low',
  'ci95_high',
  'method',
  'seat_bot',
] as const;

export interface Row {
  bots: string;
  phase: Phase;
  unit: Unit;
  kind: Kind;
  /** Units for `wilson`, clusters for the cluster methods. */
  n: number;
  /** The count of the kind (for `double-loss`: double losses). */
  marches: number;
  rate: number;
  ci95_low: number;
  ci95_high: number;
  method: 'wilson' | 'cluster-ratio-t' | 'cluster-mean-t';
  seat_bot: string;
  /** Not in the CSV: why a cluster row has no interval, and its Wilson bound over clusters (the CSV has it on its side). */
  note?: Degenerate;
  bound?: number;
}

/** The order rows are written in: units, then phases, then kinds. */
const UNIT_ORDER: Unit[] = ['deal', 'playoff-deal', 'game', 'seat-deal'];
const PHASE_ORDER: Phase[] = ['1', '2', 'all'];
const KIND_ORDER: Kind[] = ['any', 'points', 'all-tricks', 'double-loss'];

/** Rows in the order written: units, then seat bots, then phases and kinds; methods as made. */
function sortRows(rows: readonly Row[], tables: readonly TableResult[]): Row[] {
  const method = ['wilson', 'cluster-ratio-t', 'cluster-mean-t'];
  const rank = (r: Row) =>
    [
      tables.findIndex((t) => t.bots === r.bots),
      UNIT_ORDER.indexOf(r.unit),
      r.seat_bot,
      r.kind === 'double-loss' ? 1 : 0,
      PHASE_ORDER.indexOf(r.phase),
      KIND_ORDER.indexOf(r.kind),
      method.indexOf(r.method),
    ] as const;
  return [...rows].sort((a, b) => {
    const x = rank(a);
    const y = rank(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}

const round = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(6)) : '');

export function csvText(rows: readonly Row[]): string {
  return stringify(
    rows.map((r) => ({ ...r, rate: round(r.rate), ci95_low: round(r.ci95_low), ci95_high: round(r.ci95_high) })),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}

/** Below this many events a t interval over clusters is not to be trusted (the md marks it). */
const FEW = 10;

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)}%` : 'n/a');
/** A cluster row's interval (its rate and bounds times `scale`), or the words where its clusters give none. */
function ci(r: Row | undefined, scale = 1): string {
  if (!r) return 'n/a';
  const show = (x: number) => pct(x * scale);
  if (r.note) {
    const e = { n: r.n, mean: r.rate, sd: NaN, low: NaN, high: NaN, degenerate: r.note, bound: r.bound };
    return `(${noIntervalNote(e, show)})`;
  }
  return `[${(100 * scale * r.ci95_low).toFixed(2)}, ${(100 * scale * r.ci95_high).toFixed(2)}]`;
}

function find(
  rows: readonly Row[],
  bots: string,
  unit: Unit,
  phase: Phase,
  kind: Kind,
  method: Row['method'],
  seatBot = '',
): Row | undefined {
  return rows.find(
    (r) =>
      r.bots === bots &&
      r.unit === unit &&
      r.phase === phase &&
      r.kind === kind &&
      r.method === method &&
      r.seat_bot === seatBot,
  );
}

const WHAT: Record<string, string> = {
  'deal|1|any': 'deals of phase 1 with a march',
  'deal|2|any': 'deals of phase 2 with a march',
  'deal|2|points': '... by 100 points',
  'deal|2|all-tricks': '... by all 9 tricks (< 100 points)',
  'deal|all|any': 'deals (both phases) with a march',
  'playoff-deal|all|any': 'playoff deals with a march',
  'game|all|any': 'games with a march',
  'game|1|any': 'games with a march in phase 1',
  'game|2|any': 'games reaching phase 2 with a march in it',
  'game|1|double-loss': 'games ended by a double loss',
  'seat-deal|1|any': 'seat-deals of phase 1 with a march by that seat',
  'seat-deal|2|any': 'seat-deals of phase 2 with a march by that seat',
  'seat-deal|all|any': 'seat-deals with a march by that seat',
};

/** The readable report (Markdown). Its sentences are written from the numbers. */
export function reportText(study: StudyResult, rows: readonly Row[]): string {
  const L: string[] = [];
  L.push('# How often are Hindersche marches made?');
  L.push('');
  L.push(`Generated by \`tafel experiment ${NAME}\`; do not edit by hand, re-run instead.`);
  L.push(writtenLine(new Date()));
  L.push('');
  L.push('**Question** (issue 4). How often is a march made (RULES.md H-4: 100 card points; in phase 2, H-6,');
  L.push('also all 9 tricks), per deal and per game, in phase 1 (Vier-Strich) and phase 2 (Butzen), by');
  L.push('random, heuristic and Monte Carlo players?');
  L.push('');
  L.push('**Method.** Whole rubbers (4 games, default rules: no schleipfen) at a table of four of the');
  L.push('same bot, and at a mixed table `heuristic,random` (seats a,b,a,b, both seat rotations played');
  L.push('with the same cards). Counted from the deal records: a deal has a march when a player kept');
  L.push('100 points or more, or in phase 2 all 9 tricks (`all-tricks` counts those with fewer than');
  L.push("100 points, so `points` + `all-tricks` = `any`); every normal deal's detection agrees with its");
  L.push("`march`/`march-opponent` mark events (checked). Phase = the record's `before.phase`. Playoff");
  L.push('deals (H-8) are counted apart. A game has a march when any of its deals (playoffs included)');
  L.push('has one. All tables use the same seed, so rubber g, deal k gets the same cards at every table.');
  L.push('');
  L.push('```sh');
  L.push(study.command);
  L.push('```');
  L.push('');
  const cores = availableParallelism();
  L.push(
    `Runtime: ${study.seconds.toFixed(0)} s wall clock on ${study.workers} worker threads ` +
      `(${cores === 1 ? 'one core' : `${cores} cores`}, Node ${process.versions.node}). Each table is a run of the ` +
      'harness (`--matches`, a rubber and its seat rotations a duplicate group) whose database the figures are ' +
      'queried from (see experiments/README.md).',
  );
  L.push('');
  L.push('| table | rubbers | deals | playoff deals | games |');
  L.push('|---|---:|---:|---:|---:|');
  for (const t of study.tables) {
    L.push(`| ${t.bots} | ${t.rubbers} | ${t.normalDeals} | ${t.playoffDeals} | ${t.games} |`);
  }
  L.push('');
  L.push('**Statistics.** `n` is the number of deals, seat-deals or games, `groups` the duplicate groups');
  L.push('(a rubber; at the mixed table the pair of seat-rotated rubbers), the independent units: deals');
  L.push("within a rubber are not independent (the phase, the players still in and the bots' play depend");
  L.push('on the slate). The interval is a Student-t interval over the groups for the pooled rate (ratio');
  L.push('estimator). The CSV also has `cluster-mean-t`, the mean of the per-rubber rates with its t');
  L.push('interval, for the per-deal rows, and for comparison `wilson`, which treats deals as independent.');
  L.push(`† marks an interval from fewer than ${FEW} events: a t interval on so few is rough. With no event`);
  L.push('(or every unit an event) there is no interval, only the 95% Wilson bound over the groups.');
  L.push('');
  for (const t of study.tables) {
    L.push(`### ${t.bots}`);
    L.push('');
    L.push('| what | n | groups | marches | rate | 95% over groups |');
    L.push('|---|---:|---:|---:|---:|---|');
    for (const w of rows.filter((x) => x.bots === t.bots && x.method === 'wilson')) {
      const r = find(rows, t.bots, w.unit, w.phase, w.kind, 'cluster-ratio-t', w.seat_bot)!;
      const what = WHAT[`${w.unit}|${w.phase}|${w.kind}`] ?? `${w.unit} ${w.phase} ${w.kind}`;
      const who = w.seat_bot ? `${w.seat_bot}: ` : '';
      const few = w.marches < FEW && !r.note ? ' †' : '';
      L.push(`| ${who}${what} | ${w.n} | ${r.n} | ${w.marches} | ${pct(w.rate)} | ${ci(r)}${few} |`);
    }
    L.push('');
  }
  L.push('## Reading');
  L.push('');
  for (const s of interpretation(study, rows)) L.push(`- ${s}`);
  L.push('');
  L.push('Played through the harness (issue 21), with the default options this study gives the very CSV that the');
  L.push('earlier single-threaded counter over deal records gave: every figure agrees with the committed ones.');
  L.push('');
  L.push('Files: `results/hindersche-marches.csv` (every rate with Wilson, cluster-ratio-t and, per');
  L.push('deal, cluster-mean-t intervals; `n` counts units for Wilson and clusters for the others;');
  L.push('for the `double-loss` rows the `marches` column counts double losses).');
  L.push('');
  return L.join('\n');
}

/** Sentences from the numbers: rates, ratios, and which intervals overlap. */
function interpretation(study: StudyResult, rows: readonly Row[]): string[] {
  const out: string[] = [];
  const same = study.tables.filter((t) => t.rotations === 1);
  for (const t of same) {
    const p1 = find(rows, t.bots, 'deal', '1', 'any', 'cluster-ratio-t');
    const p2 = find(rows, t.bots, 'deal', '2', 'any', 'cluster-ratio-t');
    const at = find(rows, t.bots, 'deal', '2', 'all-tricks', 'cluster-ratio-t');
    const g = find(rows, t.bots, 'game', 'all', 'any', 'cluster-ratio-t');
    if (!p1 || !p2 || !g || !at) continue;
    const share =
      p2.marches > 0
        ? ` (${((100 * at.marches) / p2.marches).toFixed(0)}% of them by all 9 tricks under 100 points)`
        : '';
    out.push(
      `Four ${t.bots} players march in ${pct(p1.rate)} of phase-1 deals and ${pct(p2.rate)} of phase-2 deals${share}; ` +
        `${pct(g.rate)} of their games see at least one march.`,
    );
  }
  const byName = (prefix: string) => same.find((t) => t.bots.startsWith(prefix));
  const rnd = byName('random');
  for (const other of [byName('heuristic'), byName('montecarlo')]) {
    if (!rnd || !other) continue;
    for (const phase of ['1', '2'] as const) {
      const a = find(rows, other.bots, 'deal', phase, 'any', 'cluster-ratio-t');
      const b = find(rows, rnd.bots, 'deal', phase, 'any', 'cluster-ratio-t');
      if (!a || !b || !(b.rate > 0)) continue;
      const apart = a.ci95_low > b.ci95_high || b.ci95_low > a.ci95_high;
      out.push(
        `In phase ${phase}, ${other.bots} tables march ${(a.rate / b.rate).toFixed(2)} times as often as random tables ` +
          (apart
            ? '(the clustered intervals do not overlap).'
            : '(the clustered intervals overlap: not clearly different at this size).'),
      );
    }
  }
  const mixed = study.tables.find((t) => t.rotations > 1);
  if (mixed) {
    const labels = [...new Set(rows.filter((r) => r.bots === mixed.bots && r.seat_bot).map((r) => r.seat_bot))];
    const parts = labels.map((b) => {
      const r = find(rows, mixed.bots, 'seat-deal', 'all', 'any', 'cluster-ratio-t', b);
      return r ? `a ${b} seat marches in ${pct(r.rate)} of the deals it plays ${ci(r)}` : '';
    });
    if (parts.length) out.push(`At the mixed table ${mixed.bots}, ${parts.join(', ')}.`);
    // In phase 1 all four play and at most one marches, so a seat's rate at a table of
    // four alike is the deal rate / 4: compare it with the same bot's seats here.
    const moved = new Map<string, number>();
    for (const b of labels) {
      const here = find(rows, mixed.bots, 'seat-deal', '1', 'any', 'cluster-ratio-t', b);
      const home = same.find((t) => t.bots === b);
      const there = home && find(rows, home.bots, 'deal', '1', 'any', 'cluster-ratio-t');
      if (!here || !there) continue;
      const apart = here.ci95_low > there.ci95_high / 4 || there.ci95_low / 4 > here.ci95_high;
      if (apart) moved.set(b, Math.sign(here.rate - there.rate / 4));
      out.push(
        `In phase 1 a ${b} seat marches in ${pct(here.rate)} ${ci(here)} of deals at the mixed table, ` +
          `against ${pct(there.rate / 4)} ${ci(there, 1 / 4)} at a table of four ${b} players (deal rate / 4).`,
      );
    }
    if (moved.get('random') === 1 && moved.get('heuristic') === -1) {
      out.push(
        'So a march depends on the opponents as much as on the marcher: random seats march more often, and ' +
          'heuristic seats less often, when their opponents include heuristic players. This is consistent with marches ' +
          "being largely *given* by players who avoid points and smear them onto whoever takes tricks (the heuristic's " +
          "play), rather than made by deliberate march play; the heuristic table's high rate is a property of the table, not " +
          'of one player.',
      );
    }
  }
  // Does clustering matter? Compare interval widths of the per-deal rows.
  let ratioSum = 0;
  let ratioN = 0;
  let widest = 0;
  for (const w of rows) {
    if (w.method !== 'wilson' || w.unit !== 'deal' || !(w.marches > 0)) continue;
    const r = find(rows, w.bots, w.unit, w.phase, w.kind, 'cluster-ratio-t', w.seat_bot);
    if (!r || r.note) continue;
    const k = (r.ci95_high - r.ci95_low) / (w.ci95_high - w.ci95_low);
    ratioSum += k;
    ratioN++;
    widest = Math.max(widest, k);
  }
  if (ratioN) {
    const mean = ratioSum / ratioN;
    out.push(
      `Over the per-deal rows the clustered interval is on average ${mean.toFixed(2)} times as wide as Wilson's ` +
        `(at most ${widest.toFixed(2)}): ` +
        (mean < 1.1
          ? 'the dependence of deals within a rubber hardly matters here, but the clustered intervals are the ones to quote.'
          : 'deals within a rubber are dependent enough to matter; quote the clustered intervals.'),
    );
  }
  const mc = byName('montecarlo');
  if (mc) {
    out.push(
      `The Monte Carlo table uses \`worlds=${study.options.mcWorlds}\` (the bot's default is 24) and random playouts, ` +
        `so it stands for a weak search player` +
        (mc.rubbers < study.options.rubbers
          ? `; its sample is smaller (${mc.rubbers} rubbers), so its intervals are wider.`
          : '.'),
    );
  }
  return out;
}

export const experiment: Experiment = {
  name: NAME,
  question: QUESTION,
  flags: FLAGS,
  plan: (v) => {
    const seed = seedOf(FLAGS, v);
    const n = wholes(FLAGS, v);
    return planOf({ seed, rubbers: n.rubbers, mcRubbers: n.mcRubbers, mcWorlds: n.mcWorlds });
  },
  async run(plan, session) {
    const o: StudyOptions = {
      seed: String(plan.options.seed),
      rubbers: Number(plan.options.rubbers),
      mcRubbers: Number(plan.options.mcRubbers),
      mcWorlds: Number(plan.options.mcWorlds),
    };
    const files = await playPlan(plan.runs, session);
    // A shard plays its part; the results wait for all of them.
    if (session.shard) return null;
    const counted = await countStudy(o, files, session.workers);
    return {
      tables: { [NAME]: csvText(counted.rows) },
      report: (seconds) =>
        reportText({ ...counted, seconds, workers: session.workers, command: plan.command }, counted.rows),
    };
  },
};
