/**
 * Experiment: tuning the game's `heuristic` by SPSA (`tafel tune`, issue 20). Two
 * questions, per game:
 *
 * 1. Recovery. Started from deliberately bad values (the preset below), how much of the
 *    gap between that start and the defaults does a tuning win back? Measured on fresh
 *    deals (the seed `S:measure`, which neither tuning plays): the start against the
 *    default heuristic and the tuned bot against it, on the same M duplicate groups;
 *    d(X) is X's paired difference per group on the headline metric (positive: X did
 *    better), and the share recovered is 1 - mean d(tuned) / mean d(start), with a
 *    delta-method 95% interval that keeps the covariance of the two (they share every
 *    group). 100% is the defaults' strength; more is better than the defaults.
 * 2. From the defaults. Tuning the same parameters from the defaults: does it find a
 *    better heuristic? The tuning's own verification answers for play against the
 *    defaults: the tuned values against them on M fresh groups (`S:verify`), with a 95%
 *    interval. Since SPSA here tunes for self-play (theta+ against theta-), a cross-check
 *    asks whether the tuned heuristic is also better against other bots (`CROSS`): the
 *    tuned and the default heuristic each against them on the same fresh groups
 *    (`S:cross`), and the per-group difference of the two.
 *
 * Both tunings play on the worker pool (`--workers`); run it inside the heavy-run lock on
 * the shared machines:
 *
 *   tafel experiment tune --game viersche
 *
 * writes results/tune-<game>.csv (every number) and results/tune-<game>.md (the report,
 * with wall and CPU time and the machine's load, which the CSV leaves out so that a run
 * with the same options writes the same CSV).
 */
import { loadavg } from 'node:os';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import { GAMES, findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import type { Game, TunePreset } from '../src/games/game.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { createRunner } from '../src/harness/run/pool.js';
import { createProgress } from '../src/harness/run/progress.js';
import type { EntrantSpec } from '../src/harness/run/spec.js';
import { Moments, Z95, type Estimate } from '../src/harness/stats/stats.js';
import { estimateText } from '../src/harness/stats/interval-text.js';
import { headlineMeans, playTuning, type TuneResult } from '../src/harness/tune/tune.js';
import { tuneCommandOf, tuneSpecOf, pairRun, variant, headline, type TuneSpec } from '../src/harness/tune/spec.js';
import { tunedBot } from '../src/harness/tune/report.js';
import { writtenLine } from '../src/report/format.js';
import { gameNamed } from '../src/harness/run/parts.js';
import { planFor, seedOf, wholes } from './command.js';
import type { Experiment, ExperimentFlag, Plan } from './experiment.js';

const NAME = 'tune';
const QUESTION =
  'How much of a bad start does tuning the heuristic by SPSA win back, and does tuning from the defaults find a better heuristic?';

/** Each game's tuning preset (`Game.experiments.tune`), for the games that declare one. */
export const PRESETS: Readonly<Record<string, TunePreset>> = Object.fromEntries(
  GAMES.flatMap((g) => (g.experiments.tune ? [[g.name, g.experiments.tune]] : [])),
);

export interface Options {
  readonly game: string;
  readonly iterations: number;
  readonly pairs: number;
  /** Groups of each measurement and verification. */
  readonly measure: number;
  /** Groups of each cross-check of the tuning from the defaults against other bots (0: none). */
  readonly cross: number;
  readonly seed: string;
}

interface Timed {
  readonly tuning: TuneResult;
  readonly wall: number;
  readonly cpu: number;
}

export interface Outcome {
  readonly recovery: Timed & {
    /** Start minus defaults, tuned minus defaults, per group; the share of the gap recovered. */
    readonly start: Estimate;
    readonly tuned: Estimate;
    readonly share: Estimate;
    readonly measureWall: number;
  };
  readonly defaults: Timed & {
    /** Against each cross-check bot: the tuned and the default heuristic's paired difference, and tuned minus default. */
    readonly cross: { opponent: string; tuned: Estimate; defaults: Estimate; gain: Estimate }[];
  };
}

/** The bots to check a tuning from the defaults against: the weakest, and one of about the heuristic's strength. */
export const CROSS = ['random', 'montecarlo'] as const;

/** The game of `--game`, which must have a tuning preset. */
function presetGame(name: string): Game {
  const game = gameNamed(name, '--game');
  if (!PRESETS[name])
    throw new TafelError('unknown-game', `no preset for ${name} (presets: ${Object.keys(PRESETS).join(', ')})`);
  return game;
}

async function specFor(o: Options, bot: string): Promise<TuneSpec> {
  const game = presetGame(o.game);
  const table = { seats: game.defaultSeats, rules: resolveParams(game.variants, {}, 'experiment') };
  const lineup = await resolveLineup(bot, game, table.seats);
  const against = PRESETS[o.game].against;
  return tuneSpecOf({
    game,
    table,
    unit: 'deal',
    bot: lineup.entrants[0],
    tune: PRESETS[o.game].tune,
    against: against === undefined ? null : (await resolveLineup(against, game, table.seats)).entrants[0],
    iterations: o.iterations,
    pairs: o.pairs,
    seed: o.seed,
    verify: { groups: o.measure, sprt: null },
  });
}

async function timedTuning(t: TuneSpec, workers: number, what: string): Promise<Timed> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const tuning = await playTuning(t, {
    workers,
    progress: ({ total, before }) =>
      createProgress({
        write: (s) => process.stderr.write(s),
        tty: false,
        total,
        before,
        unit: `iterations (${what})`,
      }),
  });
  if (tuning.failure) throw tuning.failure;
  const used = process.cpuUsage(cpu);
  return { tuning, wall: (performance.now() - wall) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** Mean of x, and of 1 - mean(y) / mean(x) with its delta-method interval (x and y paired). */
function recoveryShare(x: readonly number[], y: readonly number[]): Estimate {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let vx = 0;
  let vy = 0;
  let cxy = 0;
  for (let i = 0; i < n; i++) {
    vx += (x[i] - mx) ** 2;
    vy += (y[i] - my) ** 2;
    cxy += (x[i] - mx) * (y[i] - my);
  }
  [vx, vy, cxy] = [vx, vy, cxy].map((v) => v / (n - 1));
  const r = my / mx;
  const sd = Math.sqrt(Math.max(0, (vy - 2 * r * cxy + r * r * vx) / (mx * mx) / n));
  return { n, mean: 1 - r, sd, low: 1 - r - Z95 * sd, high: 1 - r + Z95 * sd };
}

function estimate(values: readonly number[]): Estimate {
  const m = new Moments();
  for (const v of values) m.add(v);
  return m.estimate();
}

/**
 * Each of `bots` against `opponent` on the same groups of `seed`: per bot, each group's
 * paired difference on the headline metric (positive: the bot did better).
 */
async function againstOne(
  t: TuneSpec,
  bots: readonly EntrantSpec[],
  opponent: EntrantSpec,
  o: { seed: string; groups: number; workers: number },
): Promise<number[][]> {
  const runner = createRunner(o.workers);
  let played;
  try {
    const run = { seed: o.seed, groups: o.groups };
    played = await headlineMeans(
      bots.map((b) => pairRun(t, b, opponent, run)),
      runner,
      { from: 0, count: o.groups },
    );
  } finally {
    await runner.close();
  }
  if (played.end !== 'done') throw new TafelError('bot-failed', `a measurement did not finish (${played.end})`);
  const sign = headline(findGame(t.game)!, t.unit).higherIsBetter ? 1 : -1;
  return played.means.map((m) => Array.from({ length: o.groups }, (_, g) => sign * (m[2 * g] - m[2 * g + 1])));
}

async function runExperiment(o: Options, workers: number): Promise<Outcome> {
  const game = presetGame(o.game);
  const preset = PRESETS[o.game];
  const recoverySpec = await specFor(o, `heuristic:${preset.bad}`);
  const defaultsSpec = await specFor(o, 'heuristic');
  const defaults: EntrantSpec = { ...defaultsSpec.bot, label: 'default' };
  const recovery = await timedTuning(recoverySpec, workers, 'recovery');

  // The start and the tuned bot, each against the defaults, on the same fresh groups.
  const started = performance.now();
  const [start, tuned] = await againstOne(
    recoverySpec,
    [recoverySpec.bot, variant(recoverySpec, 'tuned', recovery.tuning.values)],
    defaults,
    { seed: `${o.seed}:measure`, groups: o.measure, workers },
  );
  const measureWall = (performance.now() - started) / 1000;

  const fromDefaults = await timedTuning(defaultsSpec, workers, 'from the defaults');
  const cross = [];
  for (const name of o.cross > 0 ? CROSS : []) {
    const opponent: EntrantSpec = { ...(await entrantOf(game, name)), label: name };
    const tunedBot = variant(defaultsSpec, 'tuned', fromDefaults.tuning.values);
    const [t, d] = await againstOne(defaultsSpec, [tunedBot, defaults], opponent, {
      seed: `${o.seed}:cross`,
      groups: o.cross,
      workers,
    });
    cross.push({
      opponent: name,
      tuned: estimate(t),
      defaults: estimate(d),
      gain: estimate(t.map((x, g) => x - d[g])),
    });
  }
  return {
    recovery: {
      ...recovery,
      start: estimate(start),
      tuned: estimate(tuned),
      share: recoveryShare(start, tuned),
      measureWall,
    },
    defaults: { ...fromDefaults, cross },
  };
}

async function entrantOf(game: Game, bot: string): Promise<EntrantSpec> {
  const e = (await resolveLineup(bot, game, game.defaultSeats)).entrants[0];
  return { label: e.label, bot: e.bot, source: e.source, params: e.params, cheats: e.spec.cheats === true };
}

const COLUMNS = ['game', 'part', 'quantity', 'parameter', 'iteration', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;
type Row = Record<(typeof COLUMNS)[number], string | number>;

/** The iterations at which the trajectory is shown: 0, a tenth, a quarter, a half and the end. */
function checkpoints(iterations: number): number[] {
  return [...new Set([0, 0.1, 0.25, 0.5, 1].map((f) => Math.round(f * iterations)))];
}

function thetaAt(r: TuneResult, k: number, i: number): number {
  return k === 0 ? r.spec.tune[i].start : r.iterations[k - 1].theta[i];
}

function csvRows(o: Options, out: Outcome): Row[] {
  const fix = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(6)) : '');
  const rows: Row[] = [];
  const add = (
    part: string,
    quantity: string,
    e: Partial<Estimate> & { mean: number },
    parameter = '',
    iteration: number | string = '',
  ) =>
    rows.push({
      game: o.game,
      part,
      quantity,
      parameter,
      iteration,
      n: e.n ?? '',
      mean: fix(e.mean),
      ci95_low: e.low === undefined ? '' : fix(e.low),
      ci95_high: e.high === undefined ? '' : fix(e.high),
    });
  const r = out.recovery;
  add('recovery', 'start_vs_default', r.start);
  add('recovery', 'tuned_vs_default', r.tuned);
  add('recovery', 'gap_recovered', r.share);
  for (const [part, t] of [
    ['recovery', r.tuning],
    ['defaults', out.defaults.tuning],
  ] as const) {
    const v = t.verified!;
    add(part, part === 'recovery' ? 'verify_tuned_vs_start' : 'verify_tuned_vs_default', v.difference);
    t.spec.tune.forEach((p, i) => {
      for (const k of checkpoints(t.iterations.length)) add(part, 'theta', { mean: thetaAt(t, k, i) }, p.key, k);
      add(part, 'tuned', { mean: t.values[i] }, p.key, t.iterations.length);
    });
  }
  for (const c of out.defaults.cross) {
    add('defaults', `tuned_vs_${c.opponent}`, c.tuned);
    add('defaults', `default_vs_${c.opponent}`, c.defaults);
    add('defaults', `gain_vs_${c.opponent}`, c.gain);
  }
  return rows;
}

/** An estimate with its interval, to two decimals, or three below 1 (Hindersche's marks a deal are tenths). */
function show(e: Estimate): string {
  const digits = Math.abs(e.high - e.low) < 0.1 && Math.abs(e.mean) < 1 ? 3 : 2;
  return estimateText(e, (x) => (x >= 0 ? '+' : '') + x.toFixed(digits));
}

function pct(e: Estimate): string {
  return estimateText(e, (x) => `${(x * 100).toFixed(0)}%`);
}

function report(o: Options, out: Outcome, command: string, load: readonly number[], workers: number): string {
  const game = findGame(o.game)!;
  const metric = headline(game, 'deal');
  const preset = PRESETS[o.game];
  const units = `${metric.key} per deal${metric.higherIsBetter ? '' : ' (lower is better: signs turned so that + is better)'}`;
  const r = out.recovery;
  const d = out.defaults;
  const groups = o.iterations * o.pairs;
  const trajectory = (t: TuneResult) => {
    const ks = checkpoints(t.iterations.length);
    return [
      `| parameter | ${ks.map((k) => `iteration ${k}`).join(' | ')} | tuned |`,
      `|---|${ks.map(() => '---|').join('')}---|`,
      ...t.spec.tune.map(
        (p, i) =>
          `| ${p.key} | ${ks.map((k) => Number(thetaAt(t, k, i).toPrecision(4))).join(' | ')} | ${t.values[i]} |`,
      ),
    ];
  };
  const time = (x: Timed) =>
    `${x.wall.toFixed(0)} s wall, ${x.cpu.toFixed(0)} s CPU (${workers} worker${workers === 1 ? '' : 's'})`;
  return (
    [
      `# Tuning the heuristic by SPSA: ${o.game}`,
      '',
      `Produced by \`${command}\`; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      `Each tuning: ${o.iterations} iterations of ${o.pairs} duplicate groups (${groups} groups), seed \`${o.seed}\`, the parameters`,
      `\`${preset.tune}\` (c_end as given there, else a twentieth of the range; r_end = 0.5 / sqrt(groups), the defaults of \`tafel tune\`),`,
      preset.against
        ? `theta+ and theta- each against \`${preset.against}\` on the same deals (\`--against ${preset.against}\`).`
        : 'theta+ against theta-.',
      `Every difference is the paired difference per duplicate group in ${units}, with its 95% interval.`,
      `Load average (1, 5, 15 min) when it began: ${load.map((x) => x.toFixed(2)).join(', ')}.`,
      '',
      '## 1. Recovery from a bad start',
      '',
      `Start: \`heuristic:${preset.bad}\`: ${preset.why}.`,
      `Tuned in ${time(r)}: \`${tunedBot(r.tuning)}\`.`,
      '',
      ...trajectory(r.tuning),
      '',
      `Measured on ${o.measure} fresh groups (seed \`${o.seed}:measure\`, ${r.measureWall.toFixed(0)} s), each bot against the default heuristic:`,
      '',
      '| bot | against the defaults |',
      '|---|---|',
      `| start | ${show(r.start)} |`,
      `| tuned | ${show(r.tuned)} |`,
      '',
      `**Share of the start-to-default gap recovered: ${pct(r.share)}** (delta method, the covariance of the two kept).`,
      `The tuning's own verification, tuned against start on ${o.measure} groups of \`${o.seed}:verify\`: ${show(r.tuning.verified!.difference)}.`,
      '',
      '## 2. Tuning from the defaults',
      '',
      `Tuned in ${time(d)}: \`${tunedBot(d.tuning)}\`.`,
      '',
      ...trajectory(d.tuning),
      '',
      `Verified, tuned against the defaults on ${o.measure} fresh groups (seed \`${o.seed}:verify\`): **${show(d.tuning.verified!.difference)}** (${verdictText(d.tuning)}).`,
      '',
      ...crossTable(o, d.cross),
      `Tuned by: \`${tuneCommandOf(d.tuning.spec)}\`.`,
    ].join('\n') + '\n'
  );
}

/** The tuning from the defaults against other bots: a tuning for self-play need not be better against them. */
function crossTable(o: Options, cross: Outcome['defaults']['cross']): string[] {
  if (cross.length === 0) return [];
  return [
    `Against other bots, on ${o.cross} fresh groups each (seed \`${o.seed}:cross\`; the same deals for both heuristics, so their gap is paired):`,
    '',
    '| opponent | tuned against it | default against it | tuned minus default |',
    '|---|---|---|---|',
    ...cross.map((c) => `| ${c.opponent} | ${show(c.tuned)} | ${show(c.defaults)} | ${show(c.gain)} |`),
    '',
  ];
}

function verdictText(t: TuneResult): string {
  const v = t.verified!.verdict;
  return v === 'better'
    ? 'better than the defaults'
    : v === 'worse'
      ? 'worse than the defaults'
      : 'no difference shown';
}

/** The options of these flag values, checked. */
function optionsOf(v: Readonly<Record<string, string | boolean | undefined>>): Options {
  const n = wholes(FLAGS, v);
  const o: Options = {
    game: String(v.game ?? 'viersche'),
    iterations: n.iterations,
    pairs: n.pairs,
    measure: n.measure,
    cross: n.cross,
    seed: seedOf(FLAGS, v),
  };
  presetGame(o.game);
  return o;
}

/** The plan: no runs (a tuning is not a run); `run` plays the tunings and measurements through the tuner. */
export function planOf(o: Options): Plan {
  const options = { ...o };
  return planFor({ experiment: NAME, name: `${NAME}-${o.game}`, question: QUESTION, options }, FLAGS, options);
}

const FLAGS: readonly ExperimentFlag[] = [
  { flag: '--game <g>', description: 'the game whose heuristic is tuned (one with a preset)', default: 'viersche' },
  { flag: '--iterations <n>', description: 'SPSA iterations of each tuning', default: '4000', min: 1 },
  { flag: '--pairs <p>', description: 'duplicate groups an iteration', default: '64', min: 1 },
  {
    flag: '--measure <m>',
    description: 'duplicate groups of each measurement and verification',
    default: '20000',
    min: 2,
  },
  {
    flag: '--cross <n>',
    description: `duplicate groups of the tuning from the defaults against ${CROSS.join(' and ')} (0: none)`,
    default: '4000',
    min: 0,
  },
  { flag: '--seed <s>', description: 'master seed', default: 'tune-1' },
];

export const experiment: Experiment = {
  name: NAME,
  question: QUESTION,
  flags: FLAGS,
  plan: (v) => planOf(optionsOf(v)),
  async run(plan, session) {
    // No runs, so a shard has nothing to play: the results are made without --shard.
    if (session.shard) return null;
    const x = plan.options;
    const o: Options = {
      game: String(x.game),
      iterations: Number(x.iterations),
      pairs: Number(x.pairs),
      measure: Number(x.measure),
      cross: Number(x.cross),
      seed: String(x.seed),
    };
    const load = loadavg();
    const out = await runExperiment(o, session.workers);
    return {
      tables: { [NAME]: stringify(csvRows(o, out), { header: true, columns: [...COLUMNS] }) },
      report: () => report(o, out, plan.command, load, session.workers),
    };
  },
};
