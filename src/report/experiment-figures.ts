/**
 * The figures of the experiments' results: the strength ladder (score against heuristic,
 * share of the random-to-oracle gap, time per move), the Hindersche march rates (by
 * table, phase and kind, with the clustered intervals the experiment calls honest), and
 * the Vier-Anderle pot (its size hand by hand, the spread of balances).
 */
import * as Plot from '@observablehq/plot';
import type { ScaleOptions } from '@observablehq/plot';
import type { LadderData, MarchesData, PotData } from './data.js';
import type { Figure } from './figure.js';
import { noIntervalNote } from '../harness/stats/interval-text.js';
import { estimateCells, fixed, whole } from './format.js';
import { estimateRow, forest, leftMargin } from './plots.js';

export function experimentFigures(part: LadderData | MarchesData | PotData): Figure[] {
  switch (part.kind) {
    case 'ladder':
      return ladderFigures(part);
    case 'marches':
      return marchesFigures(part);
    case 'pot':
      return potFigures(part);
  }
}

function ladderFigures(l: LadderData): Figure[] {
  const name = (r: { bot: string; cheats: boolean }) => (r.cheats ? `${r.bot} (cheats)` : r.bot);
  const of = (q: string) => l.rows.filter((r) => r.quantity === q);
  const rowsOf = (q: string, scale = 1) =>
    of(q).map((r) => [name(r), whole(r.estimate.n), ...estimateCells(r.estimate, scale)]);
  const forestOf = (q: string, scale = 1) => of(q).map((r) => estimateRow(name(r), r.estimate, scale));
  const figures: Figure[] = [];
  if (of('deal_vs_heuristic').length) {
    figures.push({
      kind: 'ladder-score',
      title: 'Score against heuristic per deal',
      caption:
        'Each bot’s paired difference per deal against heuristic on the game’s headline metric (bot minus heuristic, oriented so that positive is better), with its 95% interval over duplicate groups. ' +
        'Heuristic itself is 0 (dashed); a bot beats it with 95% confidence when its interval lies right of 0.',
      panels: [{ plot: forest(forestOf('deal_vs_heuristic'), { x: 'score per deal against heuristic →', refs: [0] }) }],
      table: { columns: ['bot', 'groups', 'mean', '95% low', '95% high'], rows: rowsOf('deal_vs_heuristic') },
    });
  }
  if (of('gap_share').length) {
    figures.push({
      kind: 'ladder-gap',
      title: 'Share of the random-to-oracle gap closed',
      caption:
        '(score − random’s) / (oracle’s − random’s): random is 0%, the cheating oracle 100% (dashed). The interval is a delta-method interval from the per-group values (the three estimates share their deals, and their correlation is kept). ' +
        'The experiment reports it only where the oracle is a ceiling (its lead over every bot, below, lies above 0).',
      panels: [{ plot: forest(forestOf('gap_share', 100), { x: 'share of the gap →', percent: true, refs: [0, 1] }) }],
      table: { columns: ['bot', 'groups', 'share (%)', '95% low', '95% high'], rows: rowsOf('gap_share', 100) },
    });
  }
  if (of('ceiling_lead').length) {
    figures.push({
      kind: 'ladder-ceiling',
      title: 'The ceiling’s lead over each bot',
      caption:
        'The cheating oracle’s score minus the bot’s, paired per deal on the groups both played, with its 95% interval: where every interval lies right of 0 (dashed), the oracle is a ceiling and the gap share above means what it says.',
      panels: [{ plot: forest(forestOf('ceiling_lead'), { x: 'ceiling minus bot, per deal →', refs: [0] }) }],
      table: { columns: ['bot', 'groups', 'mean', '95% low', '95% high'], rows: rowsOf('ceiling_lead') },
    });
  }
  const best = [...new Set(l.rows.map((r) => r.quantity).filter((q) => q.startsWith('lead_over:')))];
  if (best.length) {
    const rows = best.flatMap((q) =>
      of(q).map((r) => ({ ...r, label: `${name(r)} − ${q.slice('lead_over:'.length)}` })),
    );
    figures.push({
      kind: 'ladder-best',
      title: 'The two best bots, head to head',
      caption:
        'The best bot’s score minus the second’s, paired per deal on the groups both played (the same cards against the same opponents), with its 95% interval: separated when it excludes 0 (dashed).',
      panels: [
        {
          plot: forest(
            rows.map((r) => ({ label: r.label, mean: r.estimate.mean, low: r.estimate.low, high: r.estimate.high })),
            { x: 'difference per deal →', refs: [0] },
          ),
        },
      ],
      table: {
        columns: ['bots', 'groups', 'mean', '95% low', '95% high'],
        rows: rows.map((r) => [r.label, whole(r.estimate.n), ...estimateCells(r.estimate, 1)]),
      },
    });
  }
  const time = of('ms_per_move');
  if (time.length)
    figures.push({
      kind: 'ladder-time',
      title: 'Time per move',
      caption:
        'The mean wall time of a bot’s decisions (forced ones included), on one core, on a log scale. The experiment reports the mean only, with no interval: read differences of less than a factor of two with care.',
      panels: [
        {
          plot: {
            width: 660,
            height: 44 + 26 * time.length,
            marginLeft: leftMargin(time.map(name)),
            marginRight: 24,
            x: { type: 'log', label: 'milliseconds per move (log scale) →', grid: true, tickFormat: '~g' },
            y: { domain: time.map(name), label: null },
            marks: [
              Plot.dot(
                time.map((r) => ({ label: name(r), ms: r.estimate.mean })),
                { y: 'label', x: 'ms', r: 4.5, fill: 'currentColor', title: (d: { ms: number }) => `${d.ms} ms` },
              ),
            ],
          },
        },
      ],
      table: {
        columns: ['bot', 'moves', 'ms per move'],
        rows: time.map((r) => [name(r), whole(r.estimate.n), fixed(r.estimate.mean, 4)]),
      },
    });
  const others = [...new Set(l.rows.map((r) => r.quantity).filter((q) => q.startsWith('deal_vs_heuristic:')))];
  if (others.length) {
    figures.push({
      kind: 'ladder-metrics',
      title: 'The game’s other deal metrics against heuristic',
      caption:
        'Paired differences per deal against heuristic on each other deal metric of the game, oriented so that positive is better for the bot, with 95% intervals.',
      panels: others.map((q) => ({
        title: q.slice('deal_vs_heuristic:'.length),
        plot: forest(forestOf(q), { x: `${q.slice('deal_vs_heuristic:'.length)} against heuristic →`, refs: [0] }),
      })),
      table: {
        columns: ['bot', 'metric', 'groups', 'mean', '95% low', '95% high'],
        rows: others.flatMap((q) =>
          of(q).map((r) => [
            name(r),
            q.slice('deal_vs_heuristic:'.length),
            whole(r.estimate.n),
            ...estimateCells(r.estimate),
          ]),
        ),
      },
    });
  }
  const matchPanels = [
    { q: 'match_vs_heuristic', title: 'match score against heuristic', percent: false, refs: [0] },
    { q: 'match_win_rate', title: 'match win rate', percent: true, refs: [0.5] },
  ].filter((p) => of(p.q).length);
  if (matchPanels.length) {
    figures.push({
      kind: 'ladder-matches',
      title: 'Whole matches against heuristic',
      caption:
        'The paired difference per whole match against heuristic (positive is better) and the share of matches won (pooled over seat-matches, its interval over match groups), with 95% intervals; few match groups make wide intervals.',
      panels: matchPanels.map((p) => ({
        title: p.title,
        plot: forest(forestOf(p.q, p.percent ? 100 : 1), { x: `${p.title} →`, percent: p.percent, refs: p.refs }),
      })),
      table: {
        columns: ['bot', 'quantity', 'n', 'mean', '95% low', '95% high'],
        rows: matchPanels.flatMap((p) =>
          of(p.q).map((r) => [
            name(r),
            p.title + (p.percent ? ' (%)' : ''),
            whole(r.estimate.n),
            ...estimateCells(r.estimate, p.percent ? 100 : 1),
          ]),
        ),
      },
    });
  }
  return figures;
}

/** The experiment's honest interval: over duplicate groups (rubbers), for the pooled rate. */
const CLUSTERED = 'cluster-ratio-t';

function marchesFigures(m: MarchesData): Figure[] {
  const rowsFor = (unit: string, what: string) =>
    m.rows.filter((r) => r.unit === unit && r.what === what && r.method === CLUSTERED);
  const figure = (
    kind: string,
    title: string,
    caption: string,
    groups: { title: string; rows: MarchesData['rows'] }[],
  ): Figure => ({
    kind,
    title,
    caption,
    panels: groups
      .filter((g) => g.rows.length)
      .map((g) => ({
        title: g.title,
        plot: forest(
          g.rows.map((r) => ({
            label: r.seatBot ? `${r.table}: ${r.seatBot}'s seats` : r.table,
            mean: r.estimate.mean,
            low: r.estimate.low,
            high: r.estimate.high,
            note: r.estimate.degenerate
              ? noIntervalNote(r.estimate, (x) => `${fixed(100 * x, 2)}%`)
              : `${r.marches} marches, ${r.estimate.n} groups`,
          })),
          { x: 'rate →', percent: true },
        ),
      })),
    table: {
      columns: ['table', 'phase', 'unit', 'kind', 'marches', 'n', 'rate (%)', '95% low', '95% high'],
      rows: groups.flatMap((g) =>
        g.rows.map((r) => [
          r.seatBot ? `${r.table}: ${r.seatBot}` : r.table,
          r.phase,
          r.unit,
          r.what,
          whole(r.marches),
          whole(r.estimate.n),
          ...estimateCells(r.estimate, 100),
        ]),
      ),
    },
  });
  const phase = (rows: MarchesData['rows'], p: string) => rows.filter((r) => r.phase === p);
  const deals = rowsFor('deal', 'any');
  const games = rowsFor('game', 'any');
  const clustered =
    ' Intervals are clustered over duplicate groups (rubbers), Student-t for the pooled rate; the CSV also has Wilson intervals, which treat deals as independent.';
  return [
    figure(
      'marches-deals',
      'Deals with a march, by table and phase',
      'The share of deals in which a march was made (100 card points, or in phase 2 all 9 tricks), at each table, in phase 1 (Vier-Strich), phase 2 (Butzen) and both.' +
        clustered,
      ['1', '2', 'all'].map((p) => ({ title: p === 'all' ? 'both phases' : `phase ${p}`, rows: phase(deals, p) })),
    ),
    figure(
      'marches-kinds',
      'Phase 2 marches by kind',
      'Phase 2 deals with a march by 100 points, and by all 9 tricks with fewer than 100 points (together: any).' +
        clustered,
      ['points', 'all-tricks'].map((k) => ({ title: k, rows: phase(rowsFor('deal', k), '2') })),
    ),
    figure(
      'marches-games',
      'Games with a march, and playoffs',
      'The share of games with a march in phase 1, in phase 2 (of the games that reached it) and at all; of games ended by a double loss; and of playoff deals with a march.' +
        clustered,
      [
        ...['1', '2', 'all'].map((p) => ({
          title: p === 'all' ? 'games, either phase' : `games, phase ${p}`,
          rows: phase(games, p),
        })),
        { title: 'games ended by a double loss', rows: rowsFor('game', 'double-loss') },
        { title: 'playoff deals', rows: rowsFor('playoff-deal', 'any') },
      ],
    ),
    figure(
      'marches-seats',
      'Marches by the seats of each bot at the mixed table',
      'At a table of two bots, the share of seat-deals in which a seat of that bot made a march, by phase.' + clustered,
      ['1', '2'].map((p) => ({ title: `phase ${p}`, rows: phase(rowsFor('seat-deal', 'any'), p) })),
    ),
  ].filter((f) => f.panels.length);
}

function potFigures(p: PotData): Figure[] {
  const bots = [...new Set(p.rows.map((r) => r.bot))];
  // The bots' estimates at one table size side by side rather than on top of each other.
  const dodged = (rows: PotData['rows']) =>
    rows.map((r) => ({ ...r, ...r.estimate, at: r.players + 0.18 * (bots.indexOf(r.bot) - (bots.length - 1) / 2) }));
  const pot = p.rows
    .filter((r) => r.quantity === 'pot' && r.hand !== null)
    .map((r) => ({ ...r, players: String(r.players), hand: r.hand!, ...r.estimate }));
  const playerCounts = [...new Set(pot.map((r) => r.players))];
  const figures: Figure[] = [
    {
      kind: 'pot-hands',
      title: 'The pot after each hand',
      caption:
        'The mean pot (stakes) after each hand of a session, by number of players (colour), with its 95% Student-t interval over sessions (band); one panel per bot. The y axis is a symmetric log scale: at large tables the pot of random players grows by orders of magnitude.',
      panels: bots.map((bot) => ({
        title: bot,
        plot: {
          width: 660,
          height: 260,
          marginLeft: 50,
          x: { label: 'hand →', grid: true },
          y: symlogAxis(
            '↑ pot (stakes, symmetric log scale)',
            pot.filter((r) => r.bot === bot).map((r) => r.high),
          ),
          color: { domain: playerCounts, scheme: 'viridis', legend: true, label: 'players' },
          marks: [
            Plot.areaY(
              pot.filter((r) => r.bot === bot),
              { x: 'hand', y1: 'low', y2: 'high', fill: 'players', fillOpacity: 0.15 },
            ),
            Plot.line(
              pot.filter((r) => r.bot === bot),
              { x: 'hand', y: 'mean', stroke: 'players', strokeWidth: 1.5 },
            ),
            Plot.dot(
              pot.filter((r) => r.bot === bot),
              { x: 'hand', y: 'mean', fill: 'players', r: 2.5 },
            ),
          ],
        },
      })),
      table: {
        columns: ['bot', 'players', 'hand', 'sessions', 'mean pot', '95% low', '95% high'],
        rows: pot.map((r) => [r.bot, r.players, String(r.hand), whole(r.n), ...estimateCells(r)]),
      },
    },
  ];
  const spread = ['balance_sd', 'balance_range']
    .map((q) => ({ q, rows: p.rows.filter((r) => r.quantity === q) }))
    .filter((s) => s.rows.length);
  if (spread.length) {
    figures.push({
      kind: 'pot-spread',
      title: 'How far balances spread by the end of a session',
      caption:
        'The standard deviation of the players’ balances at the end of a session, and the best minus the worst balance, by number of players and bot, with 95% intervals over sessions.',
      panels: spread.map(({ q, rows }) => ({
        title: q === 'balance_sd' ? 'sd of balances (stakes)' : 'best − worst balance (stakes)',
        plot: {
          width: 660,
          height: 280,
          marginLeft: 50,
          x: { label: 'players →', grid: true, ticks: [...new Set(rows.map((r) => r.players))] },
          y: symlogAxis(
            `↑ ${q === 'balance_sd' ? 'sd' : 'range'} (stakes, symmetric log scale)`,
            rows.map((r) => r.estimate.high),
          ),
          color: { domain: bots, legend: true },
          marks: [
            Plot.ruleX(dodged(rows), { x: 'at', y1: 'low', y2: 'high', stroke: 'bot', strokeWidth: 2 }),
            Plot.dot(dodged(rows), { x: 'at', y: 'mean', fill: 'bot', r: 3.5 }),
          ],
        },
      })),
      table: {
        columns: ['bot', 'players', 'quantity', 'sessions', 'mean', '95% low', '95% high'],
        rows: spread.flatMap(({ q, rows }) =>
          rows.map((r) => [r.bot, String(r.players), q, whole(r.estimate.n), ...estimateCells(r.estimate)]),
        ),
      },
    });
  }
  return figures;
}

/**
 * A y axis on a symmetric log scale (it takes 0, unlike a log scale) from 0 to the power of
 * ten above `values`, with a tick at each power: at large tables the random players' pot
 * and balances grow by orders of magnitude.
 */
function symlogAxis(label: string, values: readonly number[]): ScaleOptions {
  const top = Math.ceil(Math.log10(Math.max(1, ...values.filter(Number.isFinite))));
  const ticks = [0, ...Array.from({ length: top + 1 }, (_, k) => 10 ** k)];
  const short = (x: number) => (x >= 1e6 ? `${x / 1e6}M` : x >= 1e3 ? `${x / 1e3}k` : String(x));
  return { label, grid: true, type: 'symlog', domain: [0, 10 ** top], ticks, tickFormat: short };
}
