/**
 * The figures of a run, per section (per deal; per match with --matches): each bot's
 * means (a forest plot), the paired differences against the zero line, the Elo of
 * winning a duplicate group, the running mean of each pair's difference over the groups
 * (does it settle?), the distribution of each metric per bot; and the SPRT's walk to
 * its bounds. Every estimate is drawn with its 95% interval and tabled beside.
 */
import * as Plot from '@observablehq/plot';
import type { BotInfo, MetricInfo, RunData, SectionData, SprtData } from './data.js';
import type { Figure, Table } from './figure.js';
import { estimateCells, fixed, whole } from './format.js';
import { bandDomain, estimateRow, forest, leftMargin, running } from './plots.js';

/** How a bot is named on the page: a cheating bot says so. */
function nameOf(bots: readonly BotInfo[]): (label: string) => string {
  const cheats = new Set(bots.filter((b) => b.cheats).map((b) => b.label));
  return (label) => (cheats.has(label) ? `${label} (cheats)` : label);
}

export function runFigures(run: RunData): Figure[] {
  const figures = run.sections.flatMap((s) => sectionFigures(s, run.sections.length > 1));
  if (run.sprt) figures.push(sprtFigure(run.sprt));
  return figures;
}

function sectionFigures(s: SectionData, both: boolean): Figure[] {
  const per = s.unit === 'deal' ? (both ? 'per deal (over all deals of the matches)' : 'per deal') : 'per match';
  const figures = [meansFigure(s, per)];
  if (s.pairs.length) figures.push(pairsFigure(s, per));
  if (s.rating) figures.push(ratingFigure(s, per));
  if (s.running?.length) figures.push(runningFigure(s, per));
  for (const d of s.distributions ?? []) figures.push(distributionFigure(s, d, per));
  return figures;
}

function direction(m: MetricInfo): string {
  return m.binary ? 'a rate' : m.higherIsBetter ? 'higher is better' : 'lower is better';
}

function meansFigure(s: SectionData, per: string): Figure {
  const name = nameOf(s.bots);
  const names = s.bots.map((b) => name(b.label));
  const panels = s.metrics.map((m) => ({
    title: `${m.key} (${direction(m)}): ${m.description}`,
    plot: forest(
      s.means.filter((r) => r.metric === m.key).map((r) => estimateRow(name(r.bot), r.estimate, m.binary ? 100 : 1)),
      { x: `${m.key} ${per} →`, percent: m.binary, colors: names },
    ),
  }));
  // A rate (the pooled rate over seat-deals, its interval over groups) gets a row of its own, beside the mean of group means.
  const rows = s.means.flatMap((r) => {
    const m = s.metrics.find((x) => x.key === r.metric)!;
    const metric = r.metric + (m.binary ? ' (%)' : '');
    const scale = m.binary ? 100 : 1;
    const t = [name(r.bot), metric, 't over groups', whole(r.estimate.n), ...estimateCells(r.estimate, scale)];
    const rate = r.rate && [name(r.bot), metric, 'ratio over groups', whole(r.rate.n), ...estimateCells(r.rate, 100)];
    return rate ? [t, rate] : [t];
  });
  const table: Table = { columns: ['bot', 'metric', 'interval', 'n', 'mean', '95% low', '95% high'], rows };
  return {
    kind: 'means',
    title: `Means ${per}, each bot`,
    caption:
      `Each bot’s mean ${per} (dot) with its 95% Student-t interval over the ${whole(s.groups)} duplicate groups (line): ` +
      'the group is the unit of independence, so the interval is over group means. Rates are in percent; the table adds the pooled rate over every seat-deal with its interval over the groups (the ratio estimator; n counts groups). ' +
      'Where the groups give no interval (fewer than two, all alike, or every or no trial a success) the table says so, with the 95% Wilson bound over the groups where one exists.',
    panels,
    table,
  };
}

function pairsFigure(s: SectionData, per: string): Figure {
  const name = nameOf(s.bots);
  const pair = (r: { bot: string; opponent: string }) => `${name(r.bot)} − ${name(r.opponent)}`;
  const panels = s.metrics.map((m) => ({
    title: `${m.key} (${direction(m)})`,
    plot: forest(
      s.pairs.filter((r) => r.metric === m.key).map((r) => estimateRow(pair(r), r.estimate, m.binary ? 100 : 1)),
      { x: `difference in ${m.key} ${per} →`, percent: m.binary, refs: [0], hollowUnsure: true },
    ),
  }));
  const rows = s.pairs.map((r) => {
    const m = s.metrics.find((x) => x.key === r.metric)!;
    const e = r.estimate;
    const shown = e.degenerate ? 'no interval' : e.low > 0 || e.high < 0 ? 'yes' : 'no';
    return [pair(r), r.metric + (m.binary ? ' (%)' : ''), whole(e.n), ...estimateCells(e, m.binary ? 100 : 1), shown];
  });
  return {
    kind: 'pairs',
    title: `Paired differences ${per}`,
    caption:
      'Each pair’s mean difference per duplicate group (first bot minus second, on the same cards with the seats rotated, so the luck of the deal cancels) with its 95% paired-t interval. ' +
      'A filled dot’s interval excludes 0 (the dashed line): the difference is shown at 95%. Whether positive is good depends on the metric (its title says).',
    panels,
    table: { columns: ['bots', 'metric', 'groups', 'mean', '95% low', '95% high', 'excludes 0'], rows },
  };
}

function ratingFigure(s: SectionData, per: string): Figure {
  const r = s.rating!;
  const name = nameOf(s.bots);
  const metric = `${r.metric} ${per}`;
  if (r.kind === 'head-to-head') {
    const label = `${name(r.bot)} over ${name(r.opponent)}`;
    const finite = Number.isFinite(r.elo);
    // Every group won (or lost): no estimate, only the Wilson bound; draw the bound and an arrow past it.
    const bound = r.elo > 0 ? r.low : r.high;
    const reach = bound + Math.sign(r.elo) * Math.max(100, Math.abs(bound) * 0.5);
    const plot = finite
      ? forest([{ label, mean: r.elo, low: r.low, high: r.high }], {
          x: 'Elo of winning a duplicate group →',
          refs: [0],
        })
      : {
          width: 660,
          height: 70,
          marginLeft: leftMargin([label]),
          x: {
            label: 'Elo of winning a duplicate group →',
            grid: true,
            domain: [Math.min(0, reach), Math.max(0, reach)],
          },
          y: { domain: [label], label: null },
          marks: [
            Plot.ruleX([0], { stroke: '#777', strokeDasharray: '4,3' }),
            Plot.arrow([{ label, x1: bound, x2: reach }], {
              x1: 'x1',
              x2: 'x2',
              y1: 'label',
              y2: 'label',
              strokeWidth: 2.5,
              headLength: 10,
            }),
          ],
        };
    const [elo, low, high] = finite
      ? estimateCells({ mean: r.elo, low: r.low, high: r.high })
      : ['', fixed(r.low, 1), fixed(r.high, 1)];
    const wdl = r.wdl ? `${r.wdl.wins}/${r.wdl.draws}/${r.wdl.losses}` : '';
    return {
      kind: 'rating',
      title: `Elo ${per}: ${label}`,
      caption:
        `The logistic Elo of winning a duplicate group on ${metric} (a group is won by the bot whose paired difference is positive), with its 95% interval, as fastchess reports it` +
        (r.interval === 'wilson-elo'
          ? '; its bounds here come from the Wilson interval of the group score, as the logistic one reached 0 or 1.'
          : '.') +
        (finite ? '' : ' Every group went one way, so there is no estimate, only the bound: the arrow starts at it.') +
        ' Not comparable across games or metrics.',
      panels: [{ plot }],
      table: {
        columns: ['bots', 'groups', 'won/drawn/lost', 'Elo', '95% low', '95% high', 'LOS', 'interval'],
        rows: [
          [
            label,
            whole(r.groups),
            wdl,
            elo,
            low,
            high,
            r.los === null ? '' : Number.isFinite(r.los) ? `${fixed(100 * r.los, 1)}%` : 'none (all alike)',
            r.interval,
          ],
        ],
      },
    };
  }
  const rows = [...r.rows].sort((a, b) => b.elo - a.elo);
  return {
    kind: 'rating',
    title: `Ratings ${per} (Bradley-Terry)`,
    caption:
      `Each bot’s Bradley-Terry Elo of winning a duplicate group on ${metric} (mean 0), with its 95% interval (robust covariance)` +
      (r.prior ? '; a bot won or lost every group, so two virtual draws per pair keep the ratings finite.' : '.') +
      ' Not comparable across games or metrics.',
    panels: [
      {
        plot: forest(
          rows.map((x) => ({ label: name(x.bot), mean: x.elo, low: x.low, high: x.high })),
          { x: 'Elo of winning a duplicate group →', refs: [0], colors: s.bots.map((b) => name(b.label)) },
        ),
      },
    ],
    table: {
      columns: ['bot', 'Elo', '95% low', '95% high', 'score', 'groups'],
      rows: rows.map((x) => [
        name(x.bot),
        ...estimateCells({ mean: x.elo, low: x.low, high: x.high }),
        x.score === null ? '' : `${fixed(100 * x.score, 1)}%`,
        whole(x.groups),
      ]),
    },
  };
}

/** The y range from this many groups on: the first few groups' intervals are very wide. */
const SETTLED = 30;

function runningFigure(s: SectionData, per: string): Figure {
  const name = nameOf(s.bots);
  const series = s.running!;
  const metric = series[0].metric;
  const panels = series.map((r) => {
    const points = r.points.map((p) => ({ x: p.groups, y: p.mean, low: p.low, high: p.high }));
    return {
      title: `${name(r.bot)} − ${name(r.opponent)}`,
      plot: running(points, {
        x: 'duplicate groups (log scale) →',
        y: `↑ ${metric}`,
        logX: true,
        refs: [0],
        yDomain: bandDomain(points, SETTLED, [0]),
      }),
    };
  });
  const rows = series.flatMap((r) =>
    r.points.map((p) => [`${name(r.bot)} − ${name(r.opponent)}`, whole(p.groups), ...estimateCells(p)]),
  );
  return {
    kind: 'running',
    title: `Running mean of the paired difference in ${metric} ${per}`,
    caption:
      `The mean paired difference in ${metric} after each number of groups (line, groups on a log scale) with its 95% interval (band), ending at the run’s estimate (dot): a run has played enough when the line has settled and the band is as narrow as the question needs. ` +
      `The y axis shows the band from ${SETTLED} groups on. Points are kept at every group up to 30, then every 4% more groups.`,
    panels,
    table: { columns: ['bots', 'groups', 'mean', '95% low', '95% high'], rows },
  };
}

function distributionFigure(s: SectionData, d: NonNullable<SectionData['distributions']>[number], per: string): Figure {
  const name = nameOf(s.bots);
  const names = s.bots.map((b) => name(b.label));
  const total = new Map(d.totals.map((t) => [t.bot, t.count]));
  const bins = d.bins.map((b) => ({ ...b, who: name(b.bot), share: b.count / total.get(b.bot)! }));
  const means = s.means
    .filter((r) => r.metric === d.metric)
    .map((r) => ({ who: name(r.bot), mean: r.estimate.mean, low: r.estimate.low, high: r.estimate.high }));
  const what = d.per === 'seat-deal' ? 'seat-deals' : 'duplicate groups';
  const edges = [...new Set(d.bins.map((b) => `${b.x0}|${b.x1}`))]
    .map((k) => k.split('|').map(Number))
    .sort((a, b) => a[0] - b[0]);
  const edge = (x: number) => String(Number(x.toPrecision(10)));
  const rows = edges.map(([x0, x1]) => [
    ...(d.discrete ? [edge((x0 + x1) / 2)] : [edge(x0), edge(x1)]),
    ...s.bots.flatMap((b) => {
      const bin = d.bins.find((x) => x.bot === b.label && x.x0 === x0);
      const n = total.get(b.label) ?? 0;
      return [whole(bin?.count ?? 0), n ? fixed((100 * (bin?.count ?? 0)) / n, 2) : ''];
    }),
  ]);
  return {
    kind: 'distribution',
    title: `Distribution of ${d.metric} ${d.per === 'seat-deal' ? 'per seat and deal' : 'per duplicate group'}, each bot`,
    caption:
      (d.per === 'seat-deal'
        ? `Each bot’s values of ${d.metric} over its seats in every deal, from the per-deal CSV, as a share of its seat-deals`
        : `Each bot’s mean ${d.metric} in each duplicate group (over its seats and rotations), as a share of the groups`) +
      `${d.discrete ? '; one bar per value' : '; bins [from, to)'}. The black line is the bot’s mean ${per}, the grey band its 95% interval over groups.`,
    panels: [
      {
        plot: {
          width: 660,
          height: 40 + 84 * names.length,
          marginLeft: 56,
          marginRight: Math.min(200, leftMargin(names)),
          x: { label: `${d.metric} →` },
          y: { label: `↑ share of ${what} (%)`, percent: true, grid: true },
          fy: { domain: names, label: null },
          color: { domain: names },
          marks: [
            Plot.rect(means, { x1: 'low', x2: 'high', fy: 'who', fill: '#000', fillOpacity: 0.12 }),
            Plot.rectY(bins, { x1: 'x0', x2: 'x1', y: 'share', fy: 'who', fill: 'who', inset: 0.5 }),
            Plot.ruleX(means, { x: 'mean', fy: 'who', stroke: '#000', strokeWidth: 1.5 }),
            Plot.ruleY([0]),
          ],
        },
      },
    ],
    table: {
      columns: [
        ...(d.discrete ? ['value'] : ['from', 'to']),
        ...s.bots.flatMap((b) => [`${name(b.label)} n`, `${name(b.label)} %`]),
      ],
      rows,
    },
  };
}

export function sprtFigure(t: SprtData): Figure {
  const [lower, upper] = t.bounds;
  const walk = t.walk ? [{ groups: 0, llr: 0 }, ...t.walk] : [];
  const end = { groups: t.groups, llr: t.llr };
  const verdict =
    t.decision === 'H1'
      ? `H1 accepted: ${t.bot} is better (LLR ${fixed(t.llr, 2)} ≥ ${fixed(upper, 2)})`
      : t.decision === 'H0'
        ? `H0 accepted (LLR ${fixed(t.llr, 2)} ≤ ${fixed(lower, 2)})`
        : `no decision yet (LLR ${fixed(t.llr, 2)})`;
  const labels = [
    { groups: 0, llr: upper, text: `H1 accepted at ${fixed(upper, 2)}` },
    { groups: 0, llr: lower, text: `H0 accepted at ${fixed(lower, 2)}` },
  ];
  return {
    kind: 'sprt',
    title: `SPRT: ${verdict} after ${whole(t.groups)} groups`,
    caption:
      `The log-likelihood ratio of the sequential test [${t.test}] on ${t.metric}, ${t.bot} against ${t.opponent}, after each duplicate group, ` +
      'against Wald’s bounds (dashed): the run stops at the first crossing.' +
      (t.walk ? '' : ' Only its end is in these inputs; the run’s journal gives the walk.'),
    panels: [
      {
        plot: {
          width: 660,
          height: 260,
          marginLeft: 56,
          marginRight: 24,
          x: { label: 'duplicate groups →', grid: true },
          y: { label: '↑ log-likelihood ratio', grid: true },
          marks: [
            Plot.ruleY([lower, upper], { stroke: '#b33', strokeDasharray: '5,3' }),
            Plot.ruleY([0], { stroke: '#777' }),
            Plot.text(labels, { x: 'groups', y: 'llr', text: 'text', textAnchor: 'start', dy: -7, fill: '#b33' }),
            Plot.line(walk, { x: 'groups', y: 'llr', stroke: '#2f6db3', strokeWidth: 1.5 }),
            Plot.dot([end], { x: 'groups', y: 'llr', r: 4, fill: '#2f6db3', title: () => verdict }),
          ],
        },
      },
    ],
    table: {
      columns: ['groups', 'LLR'],
      rows: (t.walk ? walk : [end]).map((p) => [whole(p.groups), fixed(p.llr, 4)]),
    },
  };
}
