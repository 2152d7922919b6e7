/**
 * Experiment: the strength ladder (issues 6 and 25). How strong is each bot, per game,
 * on one scale from `random` to a cheating ceiling?
 *
 * Every bot of the ladder plays the reference, `heuristic`, on duplicate deals (the same
 * cards with the seats rotated, so the paired difference cancels the luck of the deal)
 * and on whole matches. The lineup differs by kind of game:
 *
 * - with two teams (Viersche) the bot partners itself against two heuristics
 *   (`B,heuristic`: B,h,B,h and h,B,h,B);
 * - in the games of individuals the bot sits alone among heuristics (`B,heuristic,...`
 *   rotated through every seat), so that what it does is measured against one field,
 *   the heuristic's, and not against a copy of itself.
 *
 * Per bot it reports:
 *
 * - the paired difference per deal on the game's headline metric, B minus heuristic,
 *   oriented so that positive is better for B, with a Student-t 95% interval over
 *   duplicate groups (a bot "beats heuristic with 95% confidence" when the interval lies
 *   above 0); the same for the game's other deal metrics, over whole matches, and the
 *   match win rate where the game has one (pooled over seat-matches, its interval over groups);
 * - its time per move: wall time of its `act` calls over every decision it faced
 *   (forced moves included), timed on the worker threads (`RunSpec.timeMoves`);
 * - the ceiling's lead over it, and the share of the random-to-ceiling gap it closes.
 *
 * **The ceiling.** The best of the cheating bots in the ladder by deal score (a
 * documented best-of; by default the one `oracle`), which sees every hand:
 *
 * - in the games of individuals the oracle's model is the heuristic (`model=auto`), and
 *   in this lineup that is exactly who the others are: the heuristic is a deterministic
 *   function of what its seat sees, so the oracle knows every move they will make in
 *   answer to its own. Searching its own decisions to the end of the deal it plays the
 *   best response to the field on the seat's `returns()`, the score the ladder ranks by
 *   (marks or charged points relative to the others; Vier-Anderle: the money won), and
 *   no bot can expect more there. Where its node budget stops the search short of the
 *   end, it plays the heuristic beyond, so the bound is approached, not guaranteed;
 * - with teams its model is perfect play by both teams (`paranoid`), which the
 *   heuristic opponents are not: a best response to them could score more, so it is
 *   a reference rather than a bound.
 *
 * Either way the ladder checks it: the ceiling's lead over every other bot, paired on
 * the groups both played (the same cards against the same opponents), must lie above
 * 0 with 95% confidence. If it does, the gap share is reported: (d(B) - d(random)) /
 * (d(ceiling) - d(random)), d being the paired difference against heuristic, with a
 * delta-method interval from the per-group values (the three share the deals, and
 * their correlation is used). If it does not, there is no ceiling in that game and the
 * gap share is left out; the report says which.
 *
 * **The two best bots.** The two non-cheating bots with the highest deal scores are
 * compared on the groups both played: their paired difference is *separated* when its
 * interval excludes 0, *equal within the margin* when it lies inside (-margin, margin)
 * (`--margin`, in the headline metric's units; each game's default is about 5% of the
 * distance from random to the ceiling), and otherwise *undecided*, with the number of
 * groups that would decide it at the spread seen.
 *
 * **On the pool.** Each bot's deal groups and match groups are two runs of a plan
 * (plan.ts, paired.ts): played by the harness on the worker pool into a journal and a
 * database each in `--work-dir`, resumable, splittable into shards; every per-group
 * value is read back from the databases, so the CSV is the same for any `--workers`
 * (only the `ms_per_move` means vary).
 *
 *   tafel experiment ladder --game viersche [--deals N] [--matches M] [--seed S] [--bots a,b,...] [--margin X]
 *
 * A bad flag, game or bot, or an unwritable --out-dir, stops it at once with one line
 * (status 2); a bot that fails mid-run stops it with the bot, seat, seed and deal.
 */
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../src/core/errors.js';
import { GAMES, findGame } from '../src/games/index.js';
import type { Game } from '../src/games/game.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import type { MoveTime } from '../src/harness/run/run.js';
import { Moments, Z95, tQuantile, type Estimate } from '../src/harness/stats/stats.js';
import { csvBounds, estimateText } from '../src/harness/stats/interval-text.js';
import type { Unit } from '../src/harness/table/table.js';
import { writtenLine } from '../src/report/format.js';
import type { Experiment, PlannedRun } from './experiment.js';
import { meanOf, pairedRun, pairedValues, runName } from './paired.js';
import { gameNamed, playersRange } from '../src/harness/run/parts.js';
import { databasesOfRun, playPlan, type PlanOptions } from './plan.js';
import { count, planFor, plannedRun, seedOf, valuesOf, wholes } from './command.js';

export const REFERENCE = 'heuristic';
/** The ladder, weakest first: `random` and the cheating `oracle` are its two ends. */
export const BOTS = ['random', 'montecarlo', 'pimc', 'ismcts', 'oracle'] as const;

export interface Options {
  game: string;
  seats?: number;
  deals: number;
  matches: number;
  seed: string;
  bots?: readonly string[];
  margin?: number;
}

/** A paired estimate with the per-group values it came from (NaN: the group does not count). */
interface Paired {
  estimate: Estimate;
  groups: Float64Array;
}

export interface Rung {
  bot: string;
  cheats: boolean;
  /** Paired difference per deal (bot - heuristic), positive = better for the bot. */
  deal: Paired;
  /** The same for the game's other deal metrics, in their order. */
  dealOthers: { metric: string; estimate: Estimate }[];
  /** Paired difference per match, positive = better; null without matches. */
  match: Estimate | null;
  /** The bot's own match win rate, when the game has a binary "won" match metric. */
  winRate: Estimate | null;
  /** Mean milliseconds per decision, and decisions timed. */
  msPerMove: number;
  moves: number;
  /** The ceiling's lead over this bot (ceiling - bot), paired; null for the ceiling and without one. */
  ceilingLead: Estimate | null;
  /** Share of the random-to-ceiling gap closed; null when the ceiling does not hold. */
  gap: Estimate | null;
}

export interface Ladder {
  game: string;
  seats: number;
  /** Whether the game is played by two teams (the ceiling is then a reference, not a bound). */
  teams: boolean;
  rungs: Rung[];
  /** The ceiling (the best cheating rung) and whether it lies above every other bot with 95% confidence. */
  ceiling: Rung | null;
  ceilingHolds: boolean;
  /** The two best non-cheating bots other than the reference, and their paired difference. */
  best: { first: Rung; second: Rung; difference: Estimate; verdict: Verdict; groupsNeeded: number | null } | null;
  margin: number;
}

export type Verdict = 'separated' | 'equal within the margin' | 'undecided';

/** The --bots text of the lineup: the bot partnering itself with teams, else alone among the reference. */
export function lineupText(bot: string, game: Game, seats: number): string {
  if (game.teams(seats) !== null) return `${bot},${REFERENCE}`;
  return [bot, ...Array.from({ length: seats - 1 }, () => REFERENCE)].join(',');
}

/** Per group, a minus b (NaN where either is). */
function minus(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((x, g) => x - b[g]);
}

/**
 * The share (x - r) / (c - r) of the means of per-group values, with a delta-method
 * interval from the linearized per-group residuals (the three share their groups).
 */
export function gapShare(x: Float64Array, r: Float64Array, c: Float64Array): Estimate {
  const keep = (g: number) => !Number.isNaN(x[g]) && !Number.isNaN(r[g]) && !Number.isNaN(c[g]);
  const mx = new Moments();
  const mr = new Moments();
  const mc = new Moments();
  for (let g = 0; g < x.length; g++) {
    if (!keep(g)) continue;
    mx.add(x[g]);
    mr.add(r[g]);
    mc.add(c[g]);
  }
  const span = mc.mean - mr.mean;
  const share = (mx.mean - mr.mean) / span;
  const res = new Moments();
  for (let g = 0; g < x.length; g++) if (keep(g)) res.add((x[g] - r[g] - share * (c[g] - r[g])) / span);
  const n = res.n;
  // Random's share is 0 and the ceiling's 1 by construction: no residual (to rounding), no interval.
  if (n < 2 || !(Math.sqrt(res.variance) > 1e-12))
    return { n, mean: share, sd: NaN, low: NaN, high: NaN, degenerate: n < 2 ? 'few' : 'no-spread' };
  const se = Math.sqrt(res.variance / n);
  const half = n > 1 ? tQuantile(n - 1) * se : NaN;
  return { n, mean: share, sd: se * Math.sqrt(n), low: share - half, high: share + half };
}

/** The verdict on a paired difference against `margin`, and the groups that would decide it at its spread. */
export function verdictOf(d: Estimate, margin: number): { verdict: Verdict; groupsNeeded: number | null } {
  if (d.low > 0 || d.high < 0) return { verdict: 'separated', groupsNeeded: null };
  if (d.low > -margin && d.high < margin) return { verdict: 'equal within the margin', groupsNeeded: null };
  // Separating needs a half-width below |mean|, bounding one below margin - |mean|:
  // whichever is nearer, at the spread seen (and the normal quantile).
  const room = Math.max(Math.abs(d.mean), margin - Math.abs(d.mean));
  const needed = room > 0 && d.sd > 0 ? Math.ceil(((Z95 * d.sd) / room) ** 2) : null;
  return { verdict: 'undecided', groupsNeeded: needed };
}

/** The runs of the ladder: per bot, its lineup over deal groups and over match groups. */
export function planOf(o: Options): { bot: string; deal: PlannedRun; match: PlannedRun | null }[] {
  const game = gameNamed(o.game);
  const seats = o.seats ?? game.defaultSeats;
  return (o.bots ?? BOTS).map((bot) => {
    const bots = lineupText(bot, game, seats);
    const run = (unit: Unit, groups: number) =>
      pairedRun(runName(bot, unit), game.name, seats, bots, unit, groups, o.seed);
    return { bot, deal: run('deal', o.deals), match: o.matches > 0 ? run('match', o.matches) : null };
  });
}

/** How the ladder's runs are played (none of it changes the results, only the time per move). */
export type Session = Pick<PlanOptions, 'workDir' | 'workers' | 'resume' | 'force' | 'shard' | 'progress'>;

/**
 * Play the ladder's runs (`runs`: a saved plan's, by their names; by default those the
 * options make) and rank them; null for a shard (the ladder is made from all parts).
 */
export async function runExperiment(o: Options, s: Session, runs?: readonly PlannedRun[]): Promise<Ladder | null> {
  const game = gameNamed(o.game);
  const seats = o.seats ?? game.defaultSeats;
  const planned = planOf(o);
  const pick = (r: PlannedRun) => (runs ? plannedRun(runs, r.name) : r);
  const plan = planned.map((p) => ({ bot: p.bot, deal: pick(p.deal), match: p.match && pick(p.match) }));
  const played = runs ?? plan.flatMap((p) => (p.match ? [p.deal, p.match] : [p.deal]));
  const times = new Map<string, readonly MoveTime[] | null>();
  await playPlan(played, {
    ...s,
    onResult: (run, r) => times.set(run.name, r.moveTime),
  });
  if (s.shard) return null;
  const rungs: Rung[] = [];
  for (const { bot, deal: dealRun, match: matchRun } of plan) {
    const deal = await pairedValues(databasesOfRun(dealRun.name, s.workDir), dealRun, s.workers);
    const match = matchRun ? await pairedValues(databasesOfRun(matchRun.name, s.workDir), matchRun, s.workers) : null;
    // The bot is the lineup's first entrant; its moves over both runs.
    const clock = [dealRun, matchRun].reduce(
      (c, run) => {
        const t = run && times.get(run.name)?.[0];
        return t ? { ms: c.ms + t.ms, moves: c.moves + t.moves } : c;
      },
      { ms: 0, moves: 0 },
    );
    const lineup = await resolveLineup(bot, game, seats);
    rungs.push({
      bot,
      cheats: lineup.entrants[0].spec.cheats === true,
      deal: { estimate: meanOf(deal.diffs[0]), groups: deal.diffs[0] },
      dealOthers: game.dealMetrics.slice(1).map((m, i) => ({ metric: m.key, estimate: meanOf(deal.diffs[i + 1]) })),
      match: match ? meanOf(match.diffs[0]) : null,
      winRate: match?.winRate ?? null,
      msPerMove: clock.moves > 0 ? clock.ms / clock.moves : NaN,
      moves: clock.moves,
      ceilingLead: null,
      gap: null,
    });
  }
  return analyse(o, game, seats, rungs);
}

/** The ceiling, its leads and the gap shares, and the two best bots (see the module doc). */
export function analyse(o: Options, game: Game, seats: number, rungs: Rung[]): Ladder {
  const margin = o.margin ?? game.experiments.ladder.margin;
  const cheaters = rungs.filter((r) => r.cheats);
  const ceiling = cheaters.length
    ? cheaters.reduce((a, b) => (b.deal.estimate.mean > a.deal.estimate.mean ? b : a))
    : null;
  const fair = rungs.filter((r) => !r.cheats);
  let ceilingHolds = ceiling !== null && fair.length > 0;
  if (ceiling) {
    for (const r of fair) {
      r.ceilingLead = meanOf(minus(ceiling.deal.groups, r.deal.groups));
      if (!(r.ceilingLead.low > 0)) ceilingHolds = false;
    }
  }
  const low = rungs.find((r) => r.bot === 'random');
  if (ceiling && low && ceilingHolds) {
    for (const r of rungs) r.gap = gapShare(r.deal.groups, low.deal.groups, ceiling.deal.groups);
  }
  const ranked = fair.filter((r) => r.bot !== REFERENCE).sort((a, b) => b.deal.estimate.mean - a.deal.estimate.mean);
  let best: Ladder['best'] = null;
  if (ranked.length >= 2) {
    const [first, second] = ranked;
    const difference = meanOf(minus(first.deal.groups, second.deal.groups));
    best = { first, second, difference, ...verdictOf(difference, margin) };
  }
  return { game: game.name, seats, teams: game.teams(seats) !== null, rungs, ceiling, ceilingHolds, best, margin };
}

const COLUMNS = ['game', 'seats', 'bot', 'cheats', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;

export function csvRows(l: Ladder): Record<(typeof COLUMNS)[number], string | number>[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const rows: Record<(typeof COLUMNS)[number], string | number>[] = [];
  const add = (r: Rung, quantity: string, e: Estimate | null) => {
    if (e)
      rows.push({
        game: l.game,
        seats: l.seats,
        bot: r.bot,
        cheats: r.cheats ? 1 : 0,
        quantity,
        n: e.n,
        mean: fix(e.mean),
        // A rate without interval keeps its Wilson bound on its side, as the summary CSV does.
        ci95_low: fix(csvBounds(e).low),
        ci95_high: fix(csvBounds(e).high),
      });
  };
  for (const r of l.rungs) {
    add(r, 'deal_vs_heuristic', r.deal.estimate);
    for (const o of r.dealOthers) add(r, `deal_vs_heuristic:${o.metric}`, o.estimate);
    add(r, 'match_vs_heuristic', r.match);
    add(r, 'match_win_rate', r.winRate);
    add(r, 'ceiling_lead', r.ceilingLead);
    add(r, 'gap_share', r.gap);
    if (l.best?.first === r) add(r, `lead_over:${l.best.second.bot}`, l.best.difference);
    add(r, 'ms_per_move', { n: r.moves, mean: r.msPerMove, sd: NaN, low: NaN, high: NaN });
  }
  return rows;
}

export function report(o: Options, l: Ladder, seconds: number, command: string, workers: number): string {
  const game = findGame(l.game)!;
  const show = (e: Estimate | null, digits = 2) =>
    e === null || !Number.isFinite(e.mean) ? '-' : estimateText(e, (x) => x.toFixed(digits));
  const pct = (e: Estimate | null) =>
    e === null || !Number.isFinite(e.mean) ? '-' : estimateText(e, (x) => `${(x * 100).toFixed(0)}%`);
  const verdict = (e: Estimate) =>
    e.degenerate ? 'no interval' : e.low > 0 ? 'yes' : e.high < 0 ? 'no, worse' : 'not shown';
  const headline = game.dealMetrics[0];
  const matchHeadline = game.matchMetrics[0];
  const digits = Math.abs(l.margin) < 0.1 ? 3 : 2;
  const name = (r: Rung) => `${r.bot}${r.cheats ? ' (cheats)' : ''}`;
  const lineup = l.teams
    ? `each bot partners itself against two \`${REFERENCE}\` players (seat rotations swap the teams)`
    : `each bot sits alone among ${l.seats - 1} \`${REFERENCE}\` players, rotated through every seat`;
  return (
    [
      `# Strength ladder: ${l.game} (${l.seats} players)`,
      '',
      `Each bot against \`${REFERENCE}\` on ${o.deals} duplicate deal groups and ${o.matches} duplicate match group${o.matches === 1 ? '' : 's'}, seed \`${o.seed}\`: ${lineup}.`,
      `Produced by \`${command}\` in ${seconds.toFixed(0)} s on ${workers} worker thread${workers === 1 ? '' : 's'}; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      `Deal score: paired difference per deal in \`${headline.key}\` (${headline.description}), bot minus heuristic,`,
      `${headline.higherIsBetter ? '' : 'sign flipped so that '}positive is better; match score: the same for \`${matchHeadline.key}\`. 95% intervals in brackets.`,
      '',
      '| bot | deal score vs heuristic | beats heuristic (95%) | match score vs heuristic | match win rate | ms per move | ceiling lead | share of the random-ceiling gap |',
      '|---|---|---|---|---|---|---|---|',
      ...l.rungs.map(
        (r) =>
          `| ${name(r)} | ${show(r.deal.estimate, digits)} | ${verdict(r.deal.estimate)} | ${show(r.match)} | ${pct(r.winRate)} | ${r.msPerMove.toFixed(2)} | ${show(r.ceilingLead, digits)} | ${pct(r.gap)} |`,
      ),
      '',
      ...ceilingText(l, name, show, digits),
      '',
      ...bestText(l, show, digits),
      '',
      ...otherTable(game, l.rungs, show),
      "`heuristic` itself scores 0 by definition. Time per move is the wall time of the bot's decisions, forced ones included, on this machine's worker threads (the moves played in this session).",
      'The ceiling lead is the ceiling minus the bot, and the two best bots are compared, on the groups both played (the same cards against the same opponents).',
    ].join('\n') + '\n'
  );
}

function ceilingText(
  l: Ladder,
  name: (r: Rung) => string,
  show: (e: Estimate | null, digits?: number) => string,
  digits: number,
): string[] {
  if (!l.ceiling) return ['**Ceiling:** none in this ladder (no cheating bot), so no gap share.'];
  const c = name(l.ceiling);
  const kind = l.teams
    ? `${c} plays perfectly for both teams with every hand known: a reference, not a bound (the heuristic opponents are not perfect players, and a best response to them could score more)`
    : `${c} sees every hand and searches its own decisions against the heuristic players around it, whose every move it knows (they are deterministic functions of what they see): the best response to this field wherever its search reaches the end of the deal, a bound on what any bot can expect of the seat's return`;
  const weakest = l.rungs
    .filter((r) => r.ceilingLead)
    .reduce<Rung | null>((a, b) => (a === null || b.ceilingLead!.mean < a.ceilingLead!.mean ? b : a), null);
  const holds = l.ceilingHolds
    ? `It lies above every other bot with 95% confidence (its smallest lead, over ${weakest ? name(weakest) : '-'}: ${show(weakest?.ceilingLead ?? null, digits)}), so the gap share is reported.`
    : `It does **not** lie above every other bot with 95% confidence${weakest ? ` (its lead over ${name(weakest)}: ${show(weakest.ceilingLead, digits)})` : ''}: there is no ceiling in this game, and the gap share is left out.`;
  return [`**Ceiling:** ${kind}. ${holds}`];
}

function bestText(l: Ladder, show: (e: Estimate | null, digits?: number) => string, digits: number): string[] {
  if (!l.best) return ['**The two best bots:** fewer than two bots besides the reference and the ceiling.'];
  const { first, second, difference, verdict, groupsNeeded } = l.best;
  const tail =
    verdict === 'undecided'
      ? `: neither separated nor within the margin; about ${groupsNeeded ?? '?'} groups would decide it at this spread`
      : '';
  return [
    `**The two best bots:** ${first.bot} minus ${second.bot}, paired per deal: ${show(difference, digits)} over ${difference.n} groups, **${verdict}**${tail} (margin ${l.margin} ${findGame(l.game)!.dealMetrics[0].key} a deal).`,
  ];
}

/** The other deal metrics' paired differences, one column each (none: no lines). */
function otherTable(
  game: Game,
  rungs: readonly Rung[],
  show: (e: Estimate | null, digits?: number) => string,
): string[] {
  const keys = rungs[0]?.dealOthers.map((o) => o.metric) ?? [];
  if (keys.length === 0) return [];
  const desc = (k: string) => game.dealMetrics.find((m) => m.key === k)!;
  return [
    'Other deal metrics, paired difference per deal against heuristic, oriented so that positive is better for the bot:',
    keys.map((k) => `\`${k}\` (${desc(k).description})`).join('; ') + '.',
    '',
    `| bot | ${keys.join(' | ')} |`,
    `|---|${keys.map(() => '---|').join('')}`,
    ...rungs.map(
      (r) => `| ${r.bot}${r.cheats ? ' (cheats)' : ''} | ${r.dealOthers.map((o) => show(o.estimate, 3)).join(' | ')} |`,
    ),
    '',
  ];
}

/** A margin: a number above 0. */
function marginOf(text: string | boolean | undefined): number | undefined {
  if (text === undefined) return undefined;
  const x = Number(text);
  if (typeof text !== 'string' || !(x > 0) || !Number.isFinite(x))
    throw new TafelError('bad-option', `--margin '${String(text)}': a number above 0`);
  return x;
}

/** The ladder's options from its flags' values, checked (a bad one names its flag). */
function optionsOf(v: Readonly<Record<string, string | boolean | undefined>>): Options {
  const game = gameNamed(String(v.game ?? 'viersche'));
  const seats = v.players === undefined ? game.defaultSeats : count(v.players, 0, '--players', 1);
  if (seats < game.minSeats || seats > game.maxSeats)
    throw new TafelError('bad-table', `--players ${seats}: ${game.name} is played by ${playersRange(game)} players`);
  const n = wholes(FLAGS, v);
  return {
    game: game.name,
    seats,
    deals: n.deals,
    matches: n.matches,
    seed: seedOf(FLAGS, v),
    bots: v.bots === undefined ? [...BOTS] : String(v.bots).split(','),
    margin: marginOf(v.margin),
  };
}

const FLAGS = [
  { flag: '--game <name>', description: GAMES.map((g) => g.name).join(', '), default: 'viersche' },
  { flag: '--players <n>', description: "seats at the table (default: the game's)" },
  { flag: '--deals <n>', description: 'duplicate deal groups per bot', default: '200', min: 1 },
  {
    flag: '--matches <n>',
    description: 'duplicate match groups per bot (0 leaves matches out)',
    default: '10',
    min: 0,
  },
  { flag: '--seed <seed>', description: 'master seed', default: 'ladder-1' },
  {
    flag: '--bots <list>',
    description: 'the bots to rank against heuristic, with parameters as in tafel run',
    default: BOTS.join(','),
  },
  {
    flag: '--margin <x>',
    description: `the two best bots are "equal" when their difference lies within +-x (headline deal metric; default per game: ${GAMES.map((g) => `${g.name} ${g.experiments.ladder.margin}`).join(', ')})`,
  },
];

export const ladder: Experiment = {
  name: 'ladder',
  question:
    'How strong is each bot against heuristic, on a scale from random to a cheating ceiling, and are the two best told apart?',
  flags: FLAGS,
  plan(values) {
    const o = optionsOf(values);
    const options = {
      game: o.game,
      players: o.seats!,
      deals: o.deals,
      matches: o.matches,
      seed: o.seed,
      bots: o.bots!,
      ...(o.margin === undefined ? {} : { margin: o.margin }),
    };
    const runs = planOf(o).flatMap((p) => (p.match ? [p.deal, p.match] : [p.deal]));
    const question = `How strong is each bot against heuristic in ${o.game}, and are the two best told apart?`;
    return planFor({ experiment: 'ladder', name: `ladder-${o.game}`, question, options, runs }, FLAGS, values);
  },
  async run(plan, session) {
    const o = optionsOf(valuesOf(plan.options));
    const l = await runExperiment(o, session, plan.runs);
    if (!l) return null;
    return {
      tables: { ladder: stringify(csvRows(l), { header: true, columns: [...COLUMNS] }) },
      report: (seconds) => report(o, l, seconds, plan.command, session.workers),
    };
  },
};
