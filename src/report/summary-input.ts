/**
 * Reading a run from its summary CSV alone (`--out`): the estimates it holds (means,
 * rates, paired differences, Elo, the SPRT's verdict) and the identity its columns
 * carry. It holds no groups, so no running means, walk or distributions, and not the
 * command: a note says that the journal has them.
 */
import { statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import { findGame } from '../games/index.js';
import type { Metric } from '../games/game.js';
import { degenerateOf } from '../harness/stats/interval-text.js';
import { SUMMARY_COLUMNS } from '../harness/run/report.js';
import type { Estimate } from '../harness/stats/stats.js';
import type { BotInfo, RatingData, RunData, SectionData, SprtData } from './data.js';
import { stamp, whole } from './format.js';

type Row = Record<(typeof SUMMARY_COLUMNS)[number], string>;

/** A row of the deal or match section (not the SPRT's or the fault counts'). */
function isEstimate(r: Row): boolean {
  return r.section === 'deal' || r.section === 'match';
}

/** A bot's own mean (rates and Elo are named by their metric; the interval kind may say there is none). */
function isMean(r: Row): boolean {
  return r.opponent === '' && isEstimate(r) && !/_(rate|elo)$/.test(r.metric);
}

/** A paired difference. */
function isPair(r: Row): boolean {
  return r.opponent !== '' && isEstimate(r) && !r.metric.endsWith('_elo');
}

export function isSummaryHeader(columns: readonly string[]): boolean {
  return columns.join(',') === SUMMARY_COLUMNS.join(',');
}

export function summaryRunData(path: string, text: string): RunData {
  const bad = (why: string): never => {
    throw new TafelError('bad-input', `summary CSV ${path}: ${why}`);
  };
  const rows = parse<Row>(text, { columns: true, skip_empty_lines: true });
  if (rows.length === 0) bad('no rows');
  const first = rows[0];
  const game = findGame(first.game) ?? bad(`unknown game '${first.game}'`);
  if (rows.some((r) => r.game !== first.game || r.seed !== first.seed || r.players !== first.players))
    bad('rows of more than one run');
  const own = rows.filter(isMean);
  const bots: BotInfo[] = [];
  const specs = new Map<string, string>();
  for (const r of own) {
    if (specs.has(r.bot)) continue;
    specs.set(r.bot, r.bot_spec);
    bots.push({ label: r.bot, cheats: r.cheats === '1' });
  }
  if (bots.length === 0) bad('no per-bot rows');
  const sections: SectionData[] = [];
  for (const [unit, metrics] of [
    ['deal', game.dealMetrics],
    ['match', game.matchMetrics],
  ] as const) {
    const mine = rows.filter((r) => r.section === unit);
    if (mine.length) sections.push(section(unit, metrics, bots, mine, bad));
  }
  const unit = sections.some((s) => s.unit === 'match') ? 'matches' : 'deals';
  const groups = sections[0]?.groups ?? 0;
  const sprtRow = rows.find((r) => r.section === 'sprt');
  const sprt = sprtRow ? sprtData(sprtRow) : null;
  const rules = first.rules === '-' ? 'none (no variants)' : first.rules.replace(/;/g, ', ');
  const facts: [string, string][] = [
    ['game', `${game.name}: ${game.title}`],
    ['players', first.seats],
    ['rules', rules],
    [
      'bots',
      bots.map((b) => `${b.label} = ${specs.get(b.label)}${b.cheats ? ' (cheats: sees every hand)' : ''}`).join('; '),
    ],
    ['seats', `${first.players.replace(/;/g, ', ')} (rotation 0)`],
    ['seed', first.seed],
    ['size', `${whole(groups)} duplicate ${unit} (groups)`],
  ];
  if (sprt) facts.push(['SPRT', sprt.test]);
  facts.push(['time', `summary last written ${stamp(statSync(path).mtime)}`]);
  return {
    kind: 'run',
    identity: {
      title: `${game.name}: ${bots.map((b) => b.label).join(', ')}, ${whole(groups)} ${unit}, seed ${first.seed}`,
      facts,
      command: null,
      sources: [path],
    },
    sections,
    sprt,
    notes: [
      'A summary CSV holds the estimates only: the command that plays the run again, the running means, the SPRT’s walk and the distributions come from the run’s journal (X.journal.jsonl beside --out X.csv).',
    ],
  };
}

function section(
  unit: 'deal' | 'match',
  metrics: readonly Metric[],
  bots: readonly BotInfo[],
  rows: readonly Row[],
  bad: (why: string) => never,
): SectionData {
  const known = new Set(metrics.map((m) => m.key));
  const means = rows.filter(isMean).map((r) => {
    if (!known.has(r.metric)) bad(`metric ${r.metric} is not one of ${[...known].join(', ')}`);
    const rate = rows.find((x) => x.bot === r.bot && x.opponent === '' && x.metric === `${r.metric}_rate`);
    return { bot: r.bot, metric: r.metric, estimate: estimate(r), rate: rate ? estimate(rate) : null };
  });
  const pairs = rows
    .filter(isPair)
    .map((r) => ({ bot: r.bot, opponent: r.opponent, metric: r.metric, estimate: estimate(r) }));
  return {
    unit,
    groups: Math.max(0, ...means.map((m) => m.estimate.n)),
    metrics: metrics.map((m) => ({
      key: m.key,
      description: m.description,
      higherIsBetter: m.higherIsBetter,
      binary: m.binary === true,
    })),
    bots,
    means,
    pairs,
    rating: rating(rows, `${metrics[0].key}_elo`),
    running: null,
    distributions: null,
  };
}

function rating(rows: readonly Row[], metric: string): RatingData | null {
  const elo = rows.filter((r) => r.metric === metric);
  if (elo.length === 0) return null;
  const headline = metric.replace(/_elo$/, '');
  if (elo[0].interval === 'logistic' || elo[0].interval === 'wilson-elo') {
    const r = elo[0];
    const low = number(r.ci95_low);
    const high = number(r.ci95_high);
    // No estimate when every group went one way: the summary leaves the mean empty.
    const value = r.mean === '' ? (Number.isFinite(low) ? Infinity : -Infinity) : number(r.mean);
    return {
      kind: 'head-to-head',
      metric: headline,
      bot: r.bot,
      opponent: r.opponent,
      groups: number(r.n),
      elo: value,
      low: Number.isFinite(low) ? low : -Infinity,
      high: Number.isFinite(high) ? high : Infinity,
      interval: r.interval,
      wdl: null,
      los: null,
    };
  }
  return {
    kind: 'bradley-terry',
    metric: headline,
    prior: elo[0].interval === 'bradley-terry-prior',
    rows: elo.map((r) => ({
      bot: r.bot,
      elo: number(r.mean),
      low: number(r.ci95_low),
      high: number(r.ci95_high),
      groups: number(r.n),
      score: null,
    })),
  };
}

function sprtData(r: Row): SprtData {
  const decision = r.verdict === 'H0' || r.verdict === 'H1' ? r.verdict : null;
  return {
    test: r.interval.replace(/^sprt:/, '').replace(/;/g, ', '),
    metric: r.metric.endsWith('_elo') ? `${r.metric.replace(/_elo$/, '')} (Elo of winning a group)` : r.metric,
    bot: r.bot,
    opponent: r.opponent,
    bounds: [number(r.ci95_low), number(r.ci95_high)],
    groups: number(r.n),
    llr: number(r.mean),
    decision,
    walk: null,
  };
}

function estimate(r: Row): Estimate {
  const n = number(r.n);
  const low = number(r.ci95_low);
  const high = number(r.ci95_high);
  return { n, mean: number(r.mean), sd: NaN, low, high, ...degenerateOf(r.interval, n, low, high) };
}

function number(text: string): number {
  return text === '' ? NaN : Number(text);
}
