/**
 * Experiment: how does the Vier-Anderle pot grow, and how far do balances spread over
 * a session? (issue 5)
 *
 * A declared set of runs (plan.ts): sessions of `hands` hands (RULES.md A-8) at tables
 * of one bot at every seat, for several numbers of players, each a harness run on the
 * worker pool into a database; the figures are queries over the `deals` table (the
 * pot after each hand, `pot_after`) and the `seats` table (each seat's balance after
 * the session's last hand, `balance_after`). Per table: the mean pot after each hand,
 * and per session the spread of the final balances (standard deviation over the seats,
 * and the range from the best to the worst seat), each with a Student-t 95% interval
 * over sessions (`cluster_mean`: sessions are independent; hands within one are not).
 * Every table uses the same master seed, so session g is dealt the same cards at every
 * table with the same number of players.
 *
 *   tafel experiment anderle-pot [--sessions N] [--hands H] [--seed S]
 */
import { stringify } from 'csv-stringify/sync';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { runQuery } from '../src/harness/db/query.js';
import type { Estimate } from '../src/harness/stats/stats.js';
import { noIntervalNote } from '../src/harness/stats/interval-text.js';
import { writtenLine } from '../src/report/format.js';
import { planFor, seedOf, wholes } from './command.js';
import type { Experiment, ExperimentFlag, Plan, PlannedRun } from './experiment.js';
import { playPlan } from './plan.js';

export const NAME = 'anderle-pot';
export const PLAYERS = [2, 3, 4, 6, 9, 13] as const;
export const BOTS = ['random', 'heuristic', 'montecarlo:worlds=8'] as const;
/** Monte Carlo is slow with many seats: its tables stop here. */
const SEARCH_MAX_PLAYERS = 6;

const QUESTION = 'How does the Vier-Anderle pot grow, and how far do balances spread over a session?';

export interface Options {
  readonly sessions: number;
  readonly hands: number;
  readonly seed: string;
  /** The table sizes and bots played: all of PLAYERS and BOTS when absent. */
  readonly players?: readonly number[];
  readonly bots?: readonly string[];
}

export interface TableResult {
  bot: string;
  players: number;
  sessions: number;
  /** pot[h]: the pot after hand h (0-based), over sessions. */
  pot: Estimate[];
  /** Standard deviation of the final balances over the seats, per session. */
  balanceSd: Estimate;
  /** Best minus worst final balance, per session. */
  balanceRange: Estimate;
  /** Sessions that ended with an empty pot. */
  emptyAtEnd: number;
}

/** The runs of the experiment: one per bot and table size, each checked before any play. */
function runsOf(o: Options): PlannedRun[] {
  const game = findGame('vier-anderle')!;
  const rules = { hands: String(o.hands) };
  const runs: PlannedRun[] = [];
  for (const bot of o.bots ?? BOTS) {
    for (const players of o.players ?? PLAYERS) {
      if (bot.startsWith('montecarlo') && players > SEARCH_MAX_PLAYERS) continue;
      game.checkTable({ seats: players, rules: resolveParams(game.variants, rules, '--hands') });
      const name = `${bot.replace(/[^A-Za-z0-9]+/g, '-')}-${players}`;
      runs.push({ name, game: game.name, players, rules, bots: bot, unit: 'match', groups: o.sessions, seed: o.seed });
    }
  }
  return runs;
}

/** The plan of these options (every table and bot unless they choose some). */
export function planOf(o: Options): Plan {
  const options = { sessions: o.sessions, hands: o.hands, seed: o.seed };
  return planFor({ experiment: NAME, question: QUESTION, options, runs: runsOf(o) }, FLAGS, options);
}

const FLAGS: readonly ExperimentFlag[] = [
  { flag: '--sessions <n>', description: 'sessions per table', default: '400', min: 1 },
  { flag: '--hands <n>', description: 'hands per session', default: '12', min: 1 },
  { flag: '--seed <s>', description: 'master seed', default: 'pot-1' },
];

type Est = { n: number; mean: number | null; low: number | null; high: number | null };
const estimate = (e: Est): Estimate => ({
  n: e.n,
  mean: e.mean ?? NaN,
  sd: NaN,
  low: e.low ?? NaN,
  high: e.high ?? NaN,
});

/** The figures of every table, from the runs' databases. */
async function resultsOf(
  files: readonly string[],
  runs: readonly PlannedRun[],
  o: Options,
  threads: number,
): Promise<TableResult[]> {
  const pots = await runQuery(
    files,
    `SELECT r.bots, r.seats, d.deal, cluster_mean(d.pot_after)
     FROM deals d JOIN runs r USING (run) WHERE d.deal < ${o.hands} GROUP BY ALL ORDER BY ALL`,
    { threads },
  );
  const ends = await runQuery(
    files,
    `WITH last AS (SELECT run, grp, max(deal) AS deal FROM deals GROUP BY ALL),
     session AS (
       SELECT run, grp, stddev_pop(s.balance_after) AS sd, max(s.balance_after) - min(s.balance_after) AS spread
       FROM seats s JOIN last USING (run, grp, deal) GROUP BY ALL)
     SELECT r.bots, r.seats, cluster_mean(sd), cluster_mean(spread),
       (SELECT count(*) FROM deals d JOIN last USING (run, grp, deal) WHERE d.run = r.run AND d.pot_after = 0)
     FROM session JOIN runs r USING (run) GROUP BY r.bots, r.seats, r.run`,
    { threads },
  );
  const out: TableResult[] = [];
  for (const run of runs) {
    const key = (row: readonly unknown[]) => row[0] === run.bots && row[1] === run.players;
    const end = ends.rows.find(key)!;
    out.push({
      bot: run.bots,
      players: run.players!,
      sessions: o.sessions,
      pot: pots.rows.filter(key).map((row) => estimate(row[3] as Est)),
      balanceSd: estimate(end[2] as Est),
      balanceRange: estimate(end[3] as Est),
      emptyAtEnd: end[4] as number,
    });
  }
  return out;
}

const COLUMNS = ['bot', 'players', 'quantity', 'hand', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

function csvRows(results: readonly TableResult[]): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const row = (r: TableResult, quantity: string, hand: number | '', e: Estimate) => ({
    bot: r.bot,
    players: r.players,
    quantity,
    hand,
    n: e.n,
    mean: fix(e.mean),
    ci95_low: fix(e.low),
    ci95_high: fix(e.high),
  });
  return results.flatMap((r) => [
    ...r.pot.map((e, h) => row(r, 'pot', h + 1, e)),
    row(r, 'balance_sd', '', r.balanceSd),
    row(r, 'balance_range', '', r.balanceRange),
  ]);
}

function report(
  results: readonly TableResult[],
  o: Options,
  seconds: number,
  workers: number,
  command: string,
): string {
  const show = (e: Estimate) =>
    e.degenerate
      ? `${e.mean.toFixed(1)} (${noIntervalNote(e, (x) => x.toFixed(1), 'sessions')})`
      : `${e.mean.toFixed(1)} ± ${((e.high - e.low) / 2).toFixed(1)}`;
  const marks = [0, Math.floor(o.hands / 4), Math.floor(o.hands / 2), o.hands - 1].filter(
    (h, i, a) => a.indexOf(h) === i,
  );
  const lines = [
    '# How the Vier-Anderle pot grows, and how balances spread',
    '',
    `Sessions of ${o.hands} hands (RULES.md A-8), ${o.sessions} sessions per table, one bot at every seat, seed \`${o.seed}\`.`,
    `Produced by \`${command}\` in ${seconds.toFixed(0)} s`,
    `on ${workers} worker threads; regenerate it with that command rather than editing it. Each table is a run of the harness`,
    '(`--matches`, one session a duplicate group) whose database the figures are queried from (see experiments/README.md).',
    writtenLine(new Date()),
    'Means with Student-t 95% intervals over sessions (stakes).',
    '',
    `| bot | players | ${marks.map((h) => `pot after hand ${h + 1}`).join(' | ')} | balance sd at end | best - worst at end | pot empty at end |`,
    `|---|---|${marks.map(() => '---|').join('')}---|---|---|`,
    ...results.map(
      (r) =>
        `| ${r.bot} | ${r.players} | ${marks.map((h) => show(r.pot[h])).join(' | ')} | ${show(r.balanceSd)} | ${show(r.balanceRange)} | ${((r.emptyAtEnd / r.sessions) * 100).toFixed(1)}% |`,
    ),
    '',
    'Reading it: the first hand is always played from an empty pot (A-5), so the pot after it is 4 plus 4 for every',
    'player who took no trick; from then on the dealer adds 4 and players who declare in and take no trick pay in a',
    'quarter-pot each (A-6), while tricks pay quarters out. The spread of balances is what a session costs the unlucky',
    'or reckless: compare the bots at the same table size.',
  ];
  return lines.join('\n') + '\n';
}

export const experiment: Experiment = {
  name: NAME,
  question: QUESTION,
  flags: FLAGS,
  plan: (v) => {
    const n = wholes(FLAGS, v);
    return planOf({ sessions: n.sessions, hands: n.hands, seed: seedOf(FLAGS, v) });
  },
  async run(plan, session) {
    const o: Options = {
      sessions: Number(plan.options.sessions),
      hands: Number(plan.options.hands),
      seed: String(plan.options.seed),
    };
    const files = await playPlan(plan.runs, session);
    // A shard plays its part; the results wait for all of them.
    if (session.shard) return null;
    const results = await resultsOf(files, plan.runs, o, session.workers);
    return {
      tables: { [NAME]: stringify(csvRows(results), { header: true, columns: [...COLUMNS] }) },
      report: (seconds) => report(results, o, seconds, session.workers, plan.command),
    };
  },
};
