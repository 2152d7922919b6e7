/**
 * Experiment: which configurations beat a game's champion (issue 25)? Each candidate
 * plays the champion head to head on duplicate deals, as `tafel run --bots C,champion`
 * does (C,champion,C,champion at four seats: partners in Viersche, two of each at the
 * table in the games of individuals; the rotation swaps them), and the report gives
 * per candidate:
 *
 * - the paired difference per deal on the game's headline metric, candidate minus
 *   champion, oriented so that positive is better for the candidate, with a Student-t
 *   95% interval over duplicate groups: the candidate *beats* the champion when the
 *   interval lies above 0, *loses* when below; the same for the other deal metrics;
 * - both bots' time per move in that run (wall time of their decisions on the worker
 *   threads, forced ones included; figures from one run share the machine's state).
 *
 * Every candidate meets the champion on the same cards (group g of a seed is dealt the
 * same in every run), so candidates can be compared with each other too, roughly: their
 * differences come from different games. Each bout is a run of the experiment's plan
 * (paired.ts, plan.ts): on the worker pool, resumable, in shards.
 *
 *   tafel experiment versus --game G --champion C --bots a,b,... [--deals N] [--seed S] [--tag T]
 */
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import { findGame } from '../src/games/index.js';
import type { MoveTime } from '../src/harness/run/run.js';
import type { Estimate } from '../src/harness/stats/stats.js';
import { estimateText } from '../src/harness/stats/interval-text.js';
import { writtenLine } from '../src/report/format.js';
import type { Experiment, PlannedRun } from './experiment.js';
import { planFor, plannedRun, seedOf, valuesOf, wholes } from './command.js';
import { meanOf, pairedRun, pairedValues, perMove, runName } from './paired.js';
import { gameNamed } from '../src/harness/run/parts.js';
import { databasesOfRun, playPlan, type PlanOptions } from './plan.js';

export interface Options {
  game: string;
  champion: string;
  bots: readonly string[];
  deals: number;
  seed: string;
}

export interface Bout {
  bot: string;
  /** Per deal metric, in the game's order: candidate minus champion, positive = better for the candidate. */
  deal: { metric: string; estimate: Estimate }[];
  msPerMove: number;
  moves: number;
  championMsPerMove: number;
  championMoves: number;
}

/** How the bouts are played (none of it changes the results, only the times per move). */
export type Session = Pick<PlanOptions, 'workDir' | 'workers' | 'resume' | 'force' | 'shard' | 'progress'>;

/** The runs of the bouts: each candidate against the champion on duplicate deals. */
function planOf(o: Options): PlannedRun[] {
  const game = gameNamed(o.game);
  return o.bots.map((bot) =>
    pairedRun(
      runName(bot, 'vs', o.champion),
      game.name,
      game.defaultSeats,
      `${bot},${o.champion}`,
      'deal',
      o.deals,
      o.seed,
    ),
  );
}

/**
 * Play every bout (a run each: a saved plan's `runs`, by their names; by default those
 * the options make) and compare; null for a shard (the report is made from all parts).
 */
export async function runExperiment(o: Options, s: Session, given?: readonly PlannedRun[]): Promise<Bout[] | null> {
  const game = gameNamed(o.game);
  const runs = planOf(o).map((r) => (given ? plannedRun(given, r.name) : r));
  const times = new Map<string, readonly MoveTime[] | null>();
  await playPlan(given ?? runs, { ...s, onResult: (run, r) => times.set(run.name, r.moveTime) });
  if (s.shard) return null;
  const bouts: Bout[] = [];
  for (const [i, run] of runs.entries()) {
    const played = await pairedValues(databasesOfRun(run.name, s.workDir), run, s.workers);
    const bot = perMove(times.get(run.name), 0);
    const champion = perMove(times.get(run.name), 1);
    bouts.push({
      bot: o.bots[i],
      deal: game.dealMetrics.map((m, i) => ({ metric: m.key, estimate: meanOf(played.diffs[i]) })),
      msPerMove: bot.ms,
      moves: bot.moves,
      championMsPerMove: champion.ms,
      championMoves: champion.moves,
    });
  }
  return bouts;
}

const COLUMNS = ['game', 'champion', 'bot', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

export function csvRows(o: Options, bouts: readonly Bout[]): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const rows: Record<(typeof COLUMNS)[number], string | number>[] = [];
  for (const b of bouts) {
    const row = (quantity: string, n: number, mean: number, low = NaN, high = NaN) =>
      rows.push({
        game: o.game,
        champion: o.champion,
        bot: b.bot,
        quantity,
        n,
        mean: fix(mean),
        ci95_low: fix(low),
        ci95_high: fix(high),
      });
    b.deal.forEach((d, i) =>
      row(
        i === 0 ? 'deal_vs_champion' : `deal_vs_champion:${d.metric}`,
        d.estimate.n,
        d.estimate.mean,
        d.estimate.low,
        d.estimate.high,
      ),
    );
    row('ms_per_move', b.moves, b.msPerMove);
    row('champion_ms_per_move', b.championMoves, b.championMsPerMove);
  }
  return rows;
}

export function report(o: Options, bouts: readonly Bout[], seconds: number, command: string, workers: number): string {
  const game = findGame(o.game)!;
  const headline = game.dealMetrics[0];
  const digits = bouts.some((b) => Math.abs(b.deal[0].estimate.mean) < 0.1) ? 3 : 2;
  const show = (e: Estimate, d = digits) => (Number.isFinite(e.mean) ? estimateText(e, (x) => x.toFixed(d)) : '-');
  const verdict = (e: Estimate) =>
    e.degenerate ? 'no interval' : e.low > 0 ? '**beats**' : e.high < 0 ? 'loses' : 'not shown';
  const others = game.dealMetrics.slice(1);
  return (
    [
      `# Against the champion: ${o.game}`,
      '',
      `Each bot against \`${o.champion}\` head to head on ${o.deals} duplicate deal groups (\`tafel run --bots <bot>,${o.champion}\`), seed \`${o.seed}\`.`,
      `Produced by \`${command}\` in ${seconds.toFixed(0)} s on ${workers} worker thread${workers === 1 ? '' : 's'}; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      `Score: paired difference per deal in \`${headline.key}\` (${headline.description}), bot minus champion,`,
      `${headline.higherIsBetter ? '' : 'sign flipped so that '}positive is better for the bot. 95% intervals in brackets.`,
      '',
      `| bot | score vs ${o.champion} | 95% verdict | ms per move | champion's ms per move | ${others.map((m) => m.key).join(' | ')} |`,
      `|---|---|---|---|---|${others.map(() => '---|').join('')}`,
      ...bouts.map(
        (b) =>
          `| ${b.bot} | ${show(b.deal[0].estimate)} | ${verdict(b.deal[0].estimate)} | ${b.msPerMove.toFixed(2)} | ${b.championMsPerMove.toFixed(2)} | ${b.deal
            .slice(1)
            .map((d) => show(d.estimate, 3))
            .join(' | ')} |`,
      ),
      '',
      `Other metrics (oriented as the score): ${others.map((m) => `\`${m.key}\` (${m.description})`).join('; ')}.`,
      "Times per move are the bots' own decisions in this run, forced ones included, on this machine's worker threads (the moves played in this session).",
    ].join('\n') + '\n'
  );
}

/** The bouts' options from the flags' values, checked (a bad one names its flag), and the tag. */
function optionsOf(v: Readonly<Record<string, string | boolean | undefined>>): Options & { tag?: string } {
  if (v.tag !== undefined && !/^[A-Za-z0-9_.-]{1,32}$/.test(String(v.tag)))
    throw new TafelError('bad-option', `--tag '${String(v.tag)}': 1-32 letters, digits or _ . -`);
  if (v.game === undefined || v.champion === undefined || v.bots === undefined)
    throw new TafelError('bad-option', '--game, --champion and --bots are required');
  return {
    game: gameNamed(String(v.game)).name,
    champion: String(v.champion),
    bots: String(v.bots).split(','),
    deals: wholes(FLAGS, v).deals,
    seed: seedOf(FLAGS, v),
    ...(v.tag === undefined ? {} : { tag: String(v.tag) }),
  };
}

const FLAGS = [
  { flag: '--game <name>', description: 'the game (required)' },
  { flag: '--champion <bot>', description: 'the bot to beat, with parameters as in tafel run (required)' },
  { flag: '--bots <list>', description: 'the candidates, each played against the champion (required)' },
  { flag: '--deals <n>', description: 'duplicate deal groups per candidate', default: '300', min: 1 },
  { flag: '--seed <seed>', description: 'master seed', default: 'versus-1' },
  { flag: '--tag <tag>', description: 'name the results versus-<game>-<tag> (to keep runs of one game apart)' },
];

export const versus: Experiment = {
  name: 'versus',
  question: "Which configurations beat a game's champion head to head?",
  flags: FLAGS,
  plan(values) {
    const o = optionsOf(values);
    const name = `versus-${o.game}${o.tag === undefined ? '' : `-${o.tag}`}`;
    const question = `Which of ${o.bots.join(', ')} beat ${o.champion} head to head in ${o.game}?`;
    return planFor({ experiment: 'versus', name, question, options: { ...o }, runs: planOf(o) }, FLAGS, values);
  },
  async run(plan, session) {
    const o = optionsOf(valuesOf(plan.options));
    const bouts = await runExperiment(o, session, plan.runs);
    if (!bouts) return null;
    return {
      tables: { versus: stringify(csvRows(o, bouts), { header: true, columns: [...COLUMNS] }) },
      report: (seconds) => report(o, bouts, seconds, plan.command, session.workers),
    };
  },
};
