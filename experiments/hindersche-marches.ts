/**
 * Experiment: how often are Hindersche marches made? (issue 4)
 *
 * Whole rubbers (RULES.md H-9, 4 games) are played at tables of four of the same bot
 * (random, heuristic, montecarlo) and at a mixed table (heuristic,random: a,b,a,b in
 * both seat rotations), through the harness's `Table` with a record sink. Everything
 * is counted from the deal records (RECORD.md), not from the engine's own metrics:
 *
 * - A deal *has a march* when a player kept 100 card points or more, or, in phase 2
 *   (Butzen, H-6), all 9 tricks. The phase is the record's `before.phase`. Kinds:
 *   `points` (100 or more, whatever the tricks) and `all-tricks` (all 9 tricks with
 *   fewer than 100 points: a march only by the Butzen rule); they partition `any`.
 *   For a normal deal the detection is checked against the record's events (a march
 *   always moves marks with `why` "march" or "march-opponent"; anything else is an
 *   error). A playoff march (H-8) wins the playoff but has no event of its own, so
 *   playoffs are counted apart (unit `playoff-deal`).
 * - A *game* (of a rubber) has a march when any of its deals, playoffs included, has
 *   one; phase-1 and phase-2 game rates count marches in that phase only, the phase-2
 *   rate over the games that reached phase 2. The double loss (H-5) is counted too.
 * - The mixed table also gives each bot's own rate: marches by a seat of that bot per
 *   seat-deal it played (unit `seat-deal`).
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
 *   npx tsc -p tsconfig.json
 *   taskset -c 0 node dist/experiments/hindersche-marches.js [--rubbers N] [--mc-rubbers N]
 *       [--mc-worlds W] [--seed S] [--out-dir DIR] [--force]
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import type { TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { resolveLineup } from '../src/harness/lineup.js';
import { Moments, wilson, type Estimate } from '../src/harness/stats.js';
import { GroupTally, Table } from '../src/harness/table.js';
import { liveRunOf } from '../src/harness/spec.js';
import { checkOutDir, count, parseFlags, runCommand, seed, writeWhole } from './command.js';

export const NAME = 'hindersche-marches';

/** RULES.md H-4, H-6. */
const MARCH_POINTS = 100;
const TRICKS = 9;

export interface StudyOptions {
  readonly seed: string;
  /** Rubbers at each of the tables random, heuristic and heuristic,random. */
  readonly rubbers: number;
  /** Rubbers at the montecarlo table (far slower). */
  readonly mcRubbers: number;
  /** `worlds` of the montecarlo bot. */
  readonly mcWorlds: number;
  /** Called after each table with a line for the user (stderr). */
  readonly progress?: (line: string) => void;
}

export const DEFAULTS = { seed: 'marches-1', rubbers: 4000, mcRubbers: 1200, mcWorlds: 12 } as const;

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
  ];
}

/** One rate: `hits` of `n` units, summed, and per cluster (duplicate group). */
export class Cell {
  n = 0;
  hits = 0;
  readonly clusterN: Float64Array;
  readonly clusterHits: Float64Array;

  constructor(clusters: number) {
    this.clusterN = new Float64Array(clusters);
    this.clusterHits = new Float64Array(clusters);
  }

  add(cluster: number, hit: boolean): void {
    this.n++;
    this.clusterN[cluster]++;
    if (hit) {
      this.hits++;
      this.clusterHits[cluster]++;
    }
  }
}

export type Unit = 'deal' | 'playoff-deal' | 'game' | 'seat-deal';
export type Kind = 'any' | 'points' | 'all-tricks' | 'double-loss';
export type Phase = '1' | '2' | 'all';

export interface CellKey {
  readonly phase: Phase;
  readonly unit: Unit;
  readonly kind: Kind;
  /** For unit seat-deal: the bot whose seats are counted. */
  readonly seatBot?: string;
}

const keyText = (k: CellKey) => `${k.unit}|${k.phase}|${k.kind}|${k.seatBot ?? ''}`;

/** The counts of one table, fed one deal record at a time, in the order played. */
export class MarchCounter {
  readonly cells = new Map<string, { key: CellKey; cell: Cell }>();
  /** Records seen, by kind. */
  normalDeals = 0;
  playoffDeals = 0;
  games = 0;
  // The game in progress (records of one rotation arrive in order, one rotation after another).
  private gameMarch = false;
  private gamePhaseMarch = [false, false];
  private gameReachedPhase2 = false;

  constructor(
    private readonly clusters: number,
    private readonly rotations: number,
    /** Distinct bots at the table: seat rows are kept when there are several. */
    private readonly bots: readonly string[],
  ) {}

  /** Marches in every deal seen, playoffs included. */
  marches(): number {
    const deals = this.cells.get(keyText({ phase: 'all', unit: 'deal', kind: 'any' }))?.cell.hits ?? 0;
    const playoffs = this.cells.get(keyText({ phase: 'all', unit: 'playoff-deal', kind: 'any' }))?.cell.hits ?? 0;
    return deals + playoffs;
  }

  cell(key: CellKey): Cell {
    const t = keyText(key);
    let c = this.cells.get(t);
    if (!c) this.cells.set(t, (c = { key, cell: new Cell(this.clusters) }));
    return c.cell;
  }

  add(rec: DealRecord): void {
    const cluster = Math.floor(rec.match / this.rotations);
    const phase = rec.before.phase;
    if (phase !== 1 && phase !== 2) throw new Error(`record ${rec.match}/${rec.deal}: before.phase ${String(phase)}`);
    const m = marchOf(rec, phase);
    const p = String(phase) as Phase;
    if (rec.kind === 'normal') {
      this.normalDeals++;
      const byEvents = rec.events.some((e) => e.type === 'mark' && (e.why === 'march' || e.why === 'march-opponent'));
      if (byEvents !== m.seat >= 0) {
        throw new Error(
          `record ${rec.match}/${rec.deal}: march by points/tricks ${m.seat >= 0} but by events ${byEvents}`,
        );
      }
      const hit = m.seat >= 0;
      this.cell({ phase: p, unit: 'deal', kind: 'any' }).add(cluster, hit);
      this.cell({ phase: 'all', unit: 'deal', kind: 'any' }).add(cluster, hit);
      if (phase === 2) {
        this.cell({ phase: p, unit: 'deal', kind: 'points' }).add(cluster, m.kind === 'points');
        this.cell({ phase: p, unit: 'deal', kind: 'all-tricks' }).add(cluster, m.kind === 'all-tricks');
      }
      if (this.bots.length > 1) {
        for (const seat of rec.players) {
          const seatBot = rec.bots[seat];
          this.cell({ phase: p, unit: 'seat-deal', kind: 'any', seatBot }).add(cluster, m.seat === seat);
          this.cell({ phase: 'all', unit: 'seat-deal', kind: 'any', seatBot }).add(cluster, m.seat === seat);
        }
      }
    } else if (rec.kind === 'playoff') {
      this.playoffDeals++;
      this.cell({ phase: 'all', unit: 'playoff-deal', kind: 'any' }).add(cluster, m.seat >= 0);
    } else {
      throw new Error(`record ${rec.match}/${rec.deal}: kind ${String(rec.kind)}`);
    }
    if (phase === 2) this.gameReachedPhase2 = true;
    if (m.seat >= 0) {
      this.gameMarch = true;
      this.gamePhaseMarch[phase - 1] = true;
    }
    for (const e of rec.events) {
      if (e.type !== 'game') continue;
      this.games++;
      this.cell({ phase: 'all', unit: 'game', kind: 'any' }).add(cluster, this.gameMarch);
      this.cell({ phase: '1', unit: 'game', kind: 'any' }).add(cluster, this.gamePhaseMarch[0]);
      if (this.gameReachedPhase2)
        this.cell({ phase: '2', unit: 'game', kind: 'any' }).add(cluster, this.gamePhaseMarch[1]);
      this.cell({ phase: '1', unit: 'game', kind: 'double-loss' }).add(cluster, e.frame === 2);
      this.gameMarch = this.gameReachedPhase2 = false;
      this.gamePhaseMarch = [false, false];
    }
  }
}

/** The fields of a Hindersche deal record (RECORD.md) that this study reads. */
export interface DealRecord {
  match: number;
  deal: number;
  bots: string[];
  kind: string;
  players: number[];
  tricks: { taker: number }[];
  points: (number | null)[];
  before: { phase: number; game: number };
  events: { type: string; why?: string; frame?: number }[];
}

/** The marcher of a deal and the kind of march, or seat -1. */
export function marchOf(rec: DealRecord, phase: number): { seat: number; kind: 'points' | 'all-tricks' | null } {
  for (const seat of rec.players) {
    if ((rec.points[seat] ?? 0) >= MARCH_POINTS) return { seat, kind: 'points' };
  }
  if (phase === 2) {
    for (const seat of rec.players) {
      let kept = 0;
      for (const t of rec.tricks) if (t.taker === seat) kept++;
      if (kept === TRICKS) return { seat, kind: 'all-tricks' };
    }
  }
  return { seat: -1, kind: null };
}

export interface TableResult {
  readonly bots: string;
  readonly rubbers: number;
  /** Duplicate groups (clusters): rubbers / rotations. */
  readonly groups: number;
  readonly rotations: number;
  readonly counter: MarchCounter;
  readonly seconds: number;
}

export interface StudyResult {
  readonly options: StudyOptions;
  readonly tables: readonly TableResult[];
  /** Wall clock, and CPU time of this process (less when the core is shared). */
  readonly seconds: number;
  readonly cpuSeconds: number;
}

/** Play every table of the study (synchronously, in this thread: one core). */
export async function runStudy(o: StudyOptions, tables: readonly TableSpec[] = tablesOf(o)): Promise<StudyResult> {
  const game = findGame('hindersche');
  if (!game) throw new Error('hindersche is not registered in src/games/index.ts');
  const table: TableConfig = { seats: 4, rules: resolveParams(game.variants, {}, 'hindersche rules') };
  game.checkTable(table);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const out: TableResult[] = [];
  for (const spec of tables) {
    const t0 = performance.now();
    const lineup = await resolveLineup(spec.bots, game, table.seats);
    const groups = Math.ceil(spec.rubbers / lineup.rotations);
    const labels = lineup.entrants.map((e) => e.label);
    const counter = new MarchCounter(groups, lineup.rotations, labels);
    const run = liveRunOf({ game, table, lineup, seed: o.seed, unit: 'match', groups });
    const t = new Table(run, (rec) => counter.add(rec as unknown as DealRecord));
    const mm = game.matchMetrics.length;
    const marchMetric = game.matchMetrics.findIndex((m) => m.key === 'marches');
    const tally = new GroupTally(lineup.entrants.length, game.dealMetrics.length, mm);
    // The engine's own count (its `marches` match metric, playoffs included), to check ours.
    let engineMarches = 0;
    for (let g = 0; g < groups; g++) {
      tally.clear();
      t.playGroup(g, tally);
      for (let e = 0; e < lineup.entrants.length; e++) engineMarches += tally.matchSums[e * mm + marchMetric];
    }
    const seconds = (performance.now() - t0) / 1000;
    const rubbers = groups * lineup.rotations;
    if (counter.games !== rubbers * Number(table.rules.games)) {
      throw new Error(`${spec.bots}: ${counter.games} games in ${rubbers} rubbers`);
    }
    const counted = counter.marches();
    if (marchMetric >= 0 && counted !== engineMarches) {
      throw new Error(`${spec.bots}: ${counted} marches in the records but ${engineMarches} by the engine's metric`);
    }
    out.push({ bots: spec.bots, rubbers, groups, rotations: lineup.rotations, counter, seconds });
    o.progress?.(
      `${spec.bots}: ${rubbers} rubbers, ${counter.normalDeals} deals + ${counter.playoffDeals} playoffs in ${seconds.toFixed(1)} s`,
    );
  }
  const used = process.cpuUsage(cpu);
  return {
    options: o,
    tables: out,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

// --- Statistics ---------------------------------------------------------------------

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Pooled rate sum(m)/sum(d) with a t interval over clusters (ratio estimator,
 * linearized): every cluster counts, one without units adds a zero residual.
 */
export function clusterRatio(c: Cell): Estimate {
  const k = c.clusterN.length;
  if (c.n === 0 || k === 0) return { n: k, mean: NaN, sd: NaN, low: NaN, high: NaN };
  // No hits (or all hits): every residual is 0 and the interval would collapse to a
  // point; there is no clustered interval then (Wilson's still holds).
  if (c.hits === 0 || c.hits === c.n) return { n: k, mean: c.hits / c.n, sd: NaN, low: NaN, high: NaN };
  const r = c.hits / c.n;
  const dbar = c.n / k;
  const mom = new Moments();
  for (let i = 0; i < k; i++) mom.add((c.clusterHits[i] - r * c.clusterN[i]) / dbar);
  const e = mom.estimate();
  const half = (e.high - e.low) / 2;
  return { n: k, mean: r, sd: e.sd, low: clamp01(r - half), high: clamp01(r + half) };
}

/** Mean of the per-cluster rates (clusters with units only) with a t interval. */
export function clusterMean(c: Cell): Estimate {
  const mom = new Moments();
  for (let i = 0; i < c.clusterN.length; i++) if (c.clusterN[i] > 0) mom.add(c.clusterHits[i] / c.clusterN[i]);
  const e = mom.estimate();
  // As in clusterRatio: no hits (or all) leave no spread, hence no interval.
  if (c.hits === 0 || c.hits === c.n) return { ...e, low: NaN, high: NaN };
  return { ...e, low: clamp01(e.low), high: clamp01(e.high) };
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
}

/** The order rows are written in: units, then phases, then kinds. */
const UNIT_ORDER: Unit[] = ['deal', 'playoff-deal', 'game', 'seat-deal'];
const PHASE_ORDER: Phase[] = ['1', '2', 'all'];
const KIND_ORDER: Kind[] = ['any', 'points', 'all-tricks', 'double-loss'];

function sortedCells(c: MarchCounter): { key: CellKey; cell: Cell }[] {
  const rank = (k: CellKey) =>
    [
      UNIT_ORDER.indexOf(k.unit),
      k.seatBot ?? '',
      k.kind === 'double-loss' ? 1 : 0,
      PHASE_ORDER.indexOf(k.phase),
      KIND_ORDER.indexOf(k.kind),
    ] as const;
  return [...c.cells.values()].sort((a, b) => {
    const x = rank(a.key);
    const y = rank(b.key);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}

export function rowsOf(study: StudyResult): Row[] {
  const rows: Row[] = [];
  for (const t of study.tables) {
    for (const { key, cell } of sortedCells(t.counter)) {
      const base = {
        bots: t.bots,
        phase: key.phase,
        unit: key.unit,
        kind: key.kind,
        marches: cell.hits,
        seat_bot: key.seatBot ?? '',
      };
      const w = wilson(cell.hits, cell.n);
      // Clamped only against rounding: with no hits `wilson` gives a low bound of -7e-18.
      rows.push({
        ...base,
        n: cell.n,
        rate: w.mean,
        ci95_low: clamp01(w.low),
        ci95_high: clamp01(w.high),
        method: 'wilson',
      });
      const r = clusterRatio(cell);
      rows.push({ ...base, n: r.n, rate: r.mean, ci95_low: r.low, ci95_high: r.high, method: 'cluster-ratio-t' });
      if (key.unit === 'deal') {
        const m = clusterMean(cell);
        rows.push({ ...base, n: m.n, rate: m.mean, ci95_low: m.low, ci95_high: m.high, method: 'cluster-mean-t' });
      }
    }
  }
  return rows;
}

const round = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(6)) : '');

export function csvText(rows: readonly Row[]): string {
  return stringify(
    rows.map((r) => ({ ...r, rate: round(r.rate), ci95_low: round(r.ci95_low), ci95_high: round(r.ci95_high) })),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}

export function commandOf(o: StudyOptions): string {
  return `taskset -c 0 node dist/experiments/${NAME}.js --rubbers ${o.rubbers} --mc-rubbers ${o.mcRubbers} --mc-worlds ${o.mcWorlds} --seed ${o.seed}`;
}

/** Below this many events a t interval over clusters is not to be trusted (the md marks it). */
const FEW = 10;

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)}%` : 'n/a');
const ci = (lo: number, hi: number) =>
  Number.isFinite(lo) ? `[${(100 * lo).toFixed(2)}, ${(100 * hi).toFixed(2)}]` : 'n/a';

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
  const o = study.options;
  const L: string[] = [];
  L.push('# How often are Hindersche marches made?');
  L.push('');
  L.push('Generated by `experiments/hindersche-marches.ts`; do not edit by hand, re-run instead.');
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
  L.push('npx tsc -p tsconfig.json');
  L.push(commandOf(o));
  L.push('```');
  L.push('');
  const cores = availableParallelism();
  L.push(
    `Runtime: ${study.seconds.toFixed(0)} s wall clock (${study.cpuSeconds.toFixed(0)} s of CPU) on ` +
      `${cores === 1 ? 'one core' : `${cores} cores`}, Node ${process.versions.node}; by table: ` +
      study.tables.map((t) => `${t.bots} ${t.seconds.toFixed(0)} s`).join(', ') +
      '. ' +
      'Play is single-threaded; on a shared core the wall clock exceeds the CPU time.',
  );
  L.push('');
  L.push('| table | rubbers | deals | playoff deals | games |');
  L.push('|---|---:|---:|---:|---:|');
  for (const t of study.tables) {
    const c = t.counter;
    L.push(`| ${t.bots} | ${t.rubbers} | ${c.normalDeals} | ${c.playoffDeals} | ${c.games} |`);
  }
  L.push('');
  L.push('**Statistics.** `n` is the number of deals, seat-deals or games; "Wilson 95%" treats them as');
  L.push('independent, which they are not quite (within a rubber the phase, the players still in and');
  L.push('the bots\' play depend on the slate). "Clustered 95%" is the honest one: a Student-t interval');
  L.push('over duplicate groups (a rubber; at the mixed table the pair of seat-rotated rubbers), for the');
  L.push('same pooled rate (ratio estimator). The CSV also has `cluster-mean-t`, the mean of the');
  L.push('per-rubber rates with its t interval, for the per-deal rows. † marks a clustered interval');
  L.push(`from fewer than ${FEW} events: a t interval on so few is too narrow, read Wilson's there; with no`);
  L.push('event at all there is no clustered interval (n/a).');
  L.push('');
  for (const t of study.tables) {
    L.push(`### ${t.bots}`);
    L.push('');
    L.push('| what | n | marches | rate | Wilson 95% | clustered 95% |');
    L.push('|---|---:|---:|---:|---|---|');
    for (const { key } of sortedCells(t.counter)) {
      const w = find(rows, t.bots, key.unit, key.phase, key.kind, 'wilson', key.seatBot ?? '')!;
      const r = find(rows, t.bots, key.unit, key.phase, key.kind, 'cluster-ratio-t', key.seatBot ?? '')!;
      const what = WHAT[`${key.unit}|${key.phase}|${key.kind}`] ?? `${key.unit} ${key.phase} ${key.kind}`;
      const who = key.seatBot ? `${key.seatBot}: ` : '';
      const few = w.marches < FEW && Number.isFinite(r.ci95_low) ? ' †' : '';
      L.push(
        `| ${who}${what} | ${w.n} | ${w.marches} | ${pct(w.rate)} | ${ci(w.ci95_low, w.ci95_high)} | ${ci(r.ci95_low, r.ci95_high)}${few} |`,
      );
    }
    L.push('');
  }
  L.push('## Reading');
  L.push('');
  for (const s of interpretation(study, rows)) L.push(`- ${s}`);
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
    const labels = mixed.counter.cells.size
      ? [...new Set([...mixed.counter.cells.values()].map((c) => c.key.seatBot).filter((x): x is string => !!x))]
      : [];
    const parts = labels.map((b) => {
      const r = find(rows, mixed.bots, 'seat-deal', 'all', 'any', 'cluster-ratio-t', b);
      return r ? `a ${b} seat marches in ${pct(r.rate)} of the deals it plays ${ci(r.ci95_low, r.ci95_high)}` : '';
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
        `In phase 1 a ${b} seat marches in ${pct(here.rate)} ${ci(here.ci95_low, here.ci95_high)} of deals at the mixed table, ` +
          `against ${pct(there.rate / 4)} ${ci(there.ci95_low / 4, there.ci95_high / 4)} at a table of four ${b} players (deal rate / 4).`,
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
    if (!r) continue;
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

/** Write `text` to `path` atomically (a reader never sees half a file). */
export function writeResults(study: StudyResult, dir: string): { csv: string; md: string } {
  const rows = rowsOf(study);
  const csv = writeWhole(dir, `${NAME}.csv`, csvText(rows));
  const md = writeWhole(dir, `${NAME}.md`, reportText(study, rows));
  return { csv, md };
}

// --- Command ------------------------------------------------------------------------

const USAGE = `usage: node dist/experiments/${NAME}.js [--rubbers N] [--mc-rubbers N] [--mc-worlds W] [--seed S] [--out-dir DIR] [--force]
  --rubbers N     rubbers at the random, heuristic and heuristic,random tables (default ${DEFAULTS.rubbers})
  --mc-rubbers N  rubbers at the montecarlo table (default ${DEFAULTS.mcRubbers})
  --mc-worlds W   worlds per decision of the montecarlo bot (default ${DEFAULTS.mcWorlds})
  --seed S        master seed: 1-64 letters, digits or _ . : - (default ${DEFAULTS.seed})
  --out-dir DIR   where ${NAME}.csv and ${NAME}.md go (default results)`;

export function parseOptions(argv: string[]): (StudyOptions & { outDir: string; force: boolean }) | 'help' {
  const values = parseFlags(argv, {
    rubbers: { type: 'string' },
    'mc-rubbers': { type: 'string' },
    'mc-worlds': { type: 'string' },
    seed: { type: 'string' },
    'out-dir': { type: 'string' },
  });
  if (values.help) return 'help';
  return {
    seed: seed(values.seed, DEFAULTS.seed),
    rubbers: count(values.rubbers, DEFAULTS.rubbers, '--rubbers', 1),
    mcRubbers: count(values['mc-rubbers'], DEFAULTS.mcRubbers, '--mc-rubbers', 0),
    mcWorlds: count(values['mc-worlds'], DEFAULTS.mcWorlds, '--mc-worlds', 1),
    outDir: String(values['out-dir'] ?? 'results'),
    force: values.force === true,
  };
}

async function main(argv: string[]): Promise<void> {
  const o = parseOptions(argv);
  if (o === 'help') {
    console.log(USAGE);
    return;
  }
  checkOutDir(o.outDir, [`${NAME}.csv`, `${NAME}.md`], o.force);
  const opts = { ...o, progress: (line: string) => console.error(line) };
  const tables = tablesOf(opts).filter((t) => t.rubbers > 0);
  const study = await runStudy(opts, tables);
  const { csv, md } = writeResults(study, o.outDir);
  const rows = rowsOf(study);
  for (const t of study.tables) {
    const p1 = find(rows, t.bots, 'deal', '1', 'any', 'cluster-ratio-t');
    const p2 = find(rows, t.bots, 'deal', '2', 'any', 'cluster-ratio-t');
    const g = find(rows, t.bots, 'game', 'all', 'any', 'cluster-ratio-t');
    console.log(
      `${t.bots.padEnd(22)} phase-1 deals ${pct(p1?.rate ?? NaN)} ${ci(p1?.ci95_low ?? NaN, p1?.ci95_high ?? NaN)}` +
        `  phase-2 deals ${pct(p2?.rate ?? NaN)} ${ci(p2?.ci95_low ?? NaN, p2?.ci95_high ?? NaN)}  games ${pct(g?.rate ?? NaN)} ${ci(g?.ci95_low ?? NaN, g?.ci95_high ?? NaN)}`,
    );
  }
  console.log(`wrote ${csv} and ${md} (${study.seconds.toFixed(1)} s, ${study.cpuSeconds.toFixed(1)} s CPU)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runCommand(NAME, USAGE, main);
