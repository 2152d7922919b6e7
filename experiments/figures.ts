/**
 * The figures each built-in experiment declares for its page (its plan's `figures`):
 * `tafel report` draws them from the experiment's CSV (src/report/declared.ts says how,
 * docs/experiments.md "Figures" field by field). They name only columns the CSV has
 * (test/report-declared.test.ts checks them against results/); a game's own metrics are
 * matched by prefix (`deal_vs_heuristic:*`), since one plan serves every game.
 */
import type { DeclaredFigure } from '../src/report/declared.js';

/** An estimate's row per bot, one quantity of a long CSV (bot, quantity, n, mean, ci95_low, ci95_high). */
const quantity = (q: string, rest: Omit<DeclaredFigure & { kind: 'estimates' }, 'kind' | 'label' | 'where'>) =>
  ({ kind: 'estimates', label: 'bot', where: { quantity: q }, ...rest }) as const;

/** Times per move: means with no interval by design, on a log scale. */
const times = (q: string | readonly string[], note: string): DeclaredFigure => ({
  kind: 'estimates',
  title: 'Time per move',
  note,
  label: 'bot',
  where: { quantity: q },
  ...(typeof q === 'string' ? {} : { facet: 'quantity' }),
  intervals: false,
  log: true,
  unit: 'moves',
  axis: 'milliseconds per move (log scale)',
});

const ladder: readonly DeclaredFigure[] = [
  quantity('deal_vs_heuristic', {
    title: 'Score against heuristic per deal',
    note:
      'Each bot’s paired difference per deal against heuristic on the game’s headline metric (bot minus heuristic, oriented so that positive is better), with its 95% interval over duplicate groups. ' +
      'Heuristic itself is 0 (dashed); a bot beats it with 95% confidence when its interval lies right of 0.',
    refs: [0],
    axis: 'score per deal against heuristic',
  }),
  quantity('gap_share', {
    title: 'Share of the random-to-oracle gap closed',
    note:
      '(score − random’s) / (oracle’s − random’s): random is 0%, the cheating oracle 100% (dashed). The interval is a delta-method interval from the per-group values (the three estimates share their deals, and their correlation is kept). ' +
      'The experiment reports it only where the oracle is a ceiling (its lead over every bot, below, lies above 0).',
    percent: true,
    refs: [0, 1],
    axis: 'share of the gap',
  }),
  quantity('ceiling_lead', {
    title: 'The ceiling’s lead over each bot',
    note: 'The cheating oracle’s score minus the bot’s, paired per deal on the groups both played, with its 95% interval: where every interval lies right of 0 (dashed), the oracle is a ceiling and the gap share above means what it says.',
    refs: [0],
    axis: 'ceiling minus bot, per deal',
  }),
  {
    ...quantity('lead_over:*', {
      title: 'The two best bots, head to head',
      note: 'The best bot’s score minus the second’s (the panel names the second), paired per deal on the groups both played (the same cards against the same opponents), with its 95% interval: separated when it excludes 0 (dashed).',
      refs: [0],
      axis: 'difference per deal',
    }),
    facet: 'quantity',
  },
  times(
    'ms_per_move',
    'The mean wall time of a bot’s decisions (forced ones included), on one core, on a log scale. The experiment reports the mean only, with no interval: read differences of less than a factor of two with care.',
  ),
  {
    ...quantity('deal_vs_heuristic:*', {
      title: 'The game’s other deal metrics against heuristic',
      note: 'Paired differences per deal against heuristic on each other deal metric of the game (one panel each), oriented so that positive is better for the bot, with 95% intervals.',
      refs: [0],
      axis: 'difference per deal against heuristic',
    }),
    facet: 'quantity',
  },
  quantity('match_vs_heuristic', {
    title: 'Whole matches against heuristic',
    note: 'The paired difference per whole match against heuristic (positive is better), with its 95% interval over match groups; few match groups make wide intervals.',
    refs: [0],
    axis: 'match score against heuristic',
  }),
  quantity('match_win_rate', {
    title: 'Matches won',
    note: 'The share of matches won, pooled over seat-matches, its 95% interval over match groups (0.5 dashed: even); the games whose matches have no winner have no rows.',
    percent: true,
    refs: [0.5],
    axis: 'match win rate',
  }),
  {
    kind: 'table',
    title: 'Every estimate',
    note: 'The CSV as written: `cheats` 1 marks a bot that sees hidden cards (a ceiling for measurement, not a player).',
    columns: ['bot', 'cheats', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'],
  },
];

const versus: readonly DeclaredFigure[] = [
  quantity('deal_vs_champion', {
    title: 'Score against the champion per deal',
    note: 'Each bot’s paired difference per deal against the champion on the game’s headline metric (bot minus champion, oriented so that positive is better), with its 95% interval over duplicate groups: the bot beats the champion with 95% confidence when its interval lies right of 0 (dashed).',
    refs: [0],
    axis: 'score per deal against the champion',
  }),
  {
    ...quantity('deal_vs_champion:*', {
      title: 'The game’s other deal metrics against the champion',
      note: 'Paired differences per deal on each other deal metric of the game (one panel each), oriented as the score, with 95% intervals.',
      refs: [0],
      axis: 'difference per deal against the champion',
    }),
    facet: 'quantity',
  },
  times(
    ['ms_per_move', 'champion_ms_per_move'],
    'The mean wall time of each bot’s decisions and of its champion’s in the same run (forced ones included), on a log scale; means only, with no interval.',
  ),
  {
    kind: 'table',
    title: 'Every estimate',
    columns: ['champion', 'bot', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'],
  },
];

/** The honest interval of the marches: over duplicate groups (rubbers), for the pooled rate. */
const CLUSTERED = 'cluster-ratio-t';
const CLUSTERED_NOTE =
  ' The intervals are over rubbers (cluster-ratio-t): the deals of a rubber are not independent, and the per-deal Wilson interval, also in the CSV, is too narrow.';
const marches = (title: string, note: string, where: Record<string, string | string[]>, label = 'bots') =>
  ({
    kind: 'estimates',
    title,
    note: note + CLUSTERED_NOTE,
    label,
    mean: 'rate',
    where: { method: CLUSTERED, ...where },
    facet: 'phase',
    percent: true,
    axis: 'share with a march',
  }) as const;

const hinderscheMarches: readonly DeclaredFigure[] = [
  marches('Deals with a march, by phase', 'The share of deals in which a march was made, by table.', {
    unit: 'deal',
    kind: 'any',
  }),
  marches('Phase 2 marches by 100 points', 'Phase 2 deals with a march by 100 points.', {
    unit: 'deal',
    kind: 'points',
    phase: '2',
  }),
  marches('Phase 2 marches by all 9 tricks', 'Phase 2 deals with a march by all 9 tricks with fewer than 100 points.', {
    unit: 'deal',
    kind: 'all-tricks',
    phase: '2',
  }),
  marches(
    'Games with a march',
    'The share of games with a march in phase 1, in phase 2 (of the games that reached it) and at all.',
    { unit: 'game', kind: 'any' },
  ),
  marches('Games ended by a double loss', 'The share of games ended by a double loss.', {
    unit: 'game',
    kind: 'double-loss',
  }),
  marches('Playoff deals with a march', 'The share of playoff deals with a march.', { unit: 'playoff-deal' }),
  marches(
    'Marches by the seats of each bot at the mixed table',
    'At a table of two bots, the share of seat-deals in which a seat of that bot made a march, by phase.',
    { unit: 'seat-deal' },
    'seat_bot',
  ),
  {
    kind: 'table',
    title: 'Every rate, with both intervals',
    columns: ['bots', 'phase', 'unit', 'kind', 'seat_bot', 'n', 'marches', 'rate', 'ci95_low', 'ci95_high', 'method'],
  },
];

const anderlePot: readonly DeclaredFigure[] = [
  {
    kind: 'series',
    title: 'The pot after each hand',
    note: 'The mean pot (stakes) after each hand of a session, by number of players (colour), with its 95% Student-t interval over sessions (band); one panel per bot. The y axis is a symmetric log scale: at large tables the pot of random players grows by orders of magnitude.',
    where: { quantity: 'pot' },
    facet: 'bot',
    x: 'hand',
    series: 'players',
    log: true,
    axis: { x: 'hand', y: 'pot (stakes)' },
  },
  {
    kind: 'series',
    title: 'How far balances spread by the end of a session',
    note: 'The standard deviation of the players’ balances at the end of a session (balance_sd), and the best minus the worst balance (balance_range), by number of players and bot, with 95% intervals over sessions.',
    where: { quantity: ['balance_sd', 'balance_range'] },
    facet: 'quantity',
    x: 'players',
    series: 'bot',
    log: true,
    axis: { x: 'players', y: 'stakes' },
  },
];

/** One property by the decision's place in the deal, one panel per game. */
const byGame = (property: string, at: string, title: string, what: string): DeclaredFigure => ({
  kind: 'estimates',
  title,
  note: `${what}, one panel per game, with 95% intervals over deals.`,
  label: 'at',
  where: { property, at },
  facet: 'game',
  unit: 'deals',
  axis: property,
});

const pimcProperties: readonly DeclaredFigure[] = [
  {
    kind: 'estimates',
    title: 'PIMC’s game-tree properties, by game',
    note: 'Leaf correlation (lc; lc_exact: equal values), bias (b), disambiguation (df) and information sets per 100 worlds at the next decision (sets_per_world), over every decision of the deals, with 95% intervals over deals (Long, Sturtevant, Buro and Furtak 2010).',
    label: 'game',
    where: { at: 'all' },
    facet: 'property',
    unit: 'deals',
  },
  byGame('lc', 'tricks_left=*', 'Leaf correlation by tricks left', 'lc at decisions with 1 to 4 tricks left'),
  byGame('bias', 'tricks_left=*', 'Bias by tricks left', 'b at decisions with 1 to 4 tricks left'),
  byGame(
    'df',
    'trick=*',
    'Disambiguation by trick',
    'The share of an observer’s worlds that a card played in each trick rules out (df)',
  ),
  byGame(
    'sets_per_world',
    'trick=*',
    'Information sets per 100 worlds by trick',
    'The information sets per 100 worlds at the seat’s next decision, by trick (each of EPIMC’s choices there rests on 100 / this many worlds)',
  ),
  { kind: 'table', title: 'Every estimate', columns: ['game', 'property', 'at', 'n', 'mean', 'ci95_low', 'ci95_high'] },
];

const tune: readonly DeclaredFigure[] = [
  {
    kind: 'estimates',
    title: 'Recovery from a bad start: each bot against the default heuristic',
    note: 'The start and the tuned bot against the default heuristic, and the tuning’s own verification (tuned against start), on fresh groups: paired differences per duplicate group on the headline metric, with 95% intervals.',
    label: 'quantity',
    where: { part: 'recovery', quantity: ['start_vs_default', 'tuned_vs_default', 'verify_tuned_vs_start'] },
    refs: [0],
    axis: 'paired difference per group',
  },
  {
    kind: 'estimates',
    title: 'Share of the start-to-default gap recovered',
    note: '(tuned − start) / (default − start), delta method with the covariance of the two kept: 100% (dashed) is the default’s strength.',
    label: 'quantity',
    where: { part: 'recovery', quantity: 'gap_recovered' },
    percent: true,
    refs: [0, 1],
    axis: 'share of the gap',
  },
  {
    kind: 'series',
    title: 'The parameters along the tuning',
    note: 'Each tuned parameter’s value (theta) at the iterations the experiment recorded, one panel per parameter, a line per part (from the bad start, from the defaults).',
    where: { quantity: 'theta' },
    facet: 'parameter',
    x: 'iteration',
    series: 'part',
    axis: { x: 'iteration', y: 'value' },
  },
  {
    kind: 'estimates',
    title: 'Tuning from the defaults',
    note: 'The bot tuned from the defaults against the defaults, and each against fixed opponents, with the gain over them: paired differences per duplicate group, with 95% intervals.',
    label: 'quantity',
    where: { part: 'defaults', quantity: ['verify_tuned_vs_default', 'tuned_vs_*', 'default_vs_*', 'gain_vs_*'] },
    refs: [0],
    axis: 'paired difference per group',
  },
  {
    kind: 'table',
    title: 'The tuned values',
    where: { quantity: 'tuned' },
    columns: ['part', 'parameter', 'mean'],
  },
];

export const FIGURES: Readonly<Record<string, readonly DeclaredFigure[]>> = {
  ladder,
  versus,
  'hindersche-marches': hinderscheMarches,
  'anderle-pot': anderlePot,
  'pimc-properties': pimcProperties,
  tune,
};
