/**
 * What a run shows: a readable table for people and CSV rows for programs, each saying
 * what was run (game, seats, rules in force, bots with every parameter). Both are pure
 * functions of the spec and the tally, so they are identical however the run was
 * scheduled.
 */
import type { FaultCounts } from './fault-counts.js';
import { csvBounds, intervalKind, noIntervalNote } from '../stats/interval-text.js';
import { FAULT_KINDS } from '../programs/fault.js';
import { headToHeadBound } from '../stats/rating.js';
import { botText, commandOf, playersText, rulesText, type RunSpec } from './spec.js';
import type { Sprt } from '../stats/sprt.js';
import type { Estimate } from '../stats/stats.js';
import type { RunTally, SectionTally } from '../stats/tally.js';

/** Columns of the summary CSV (documented in docs/run.md). */
export const SUMMARY_COLUMNS = [
  'game',
  'seats',
  'rules',
  'players',
  'seed',
  'section',
  'bot',
  'bot_spec',
  'opponent',
  'opponent_spec',
  'metric',
  'n',
  'mean',
  'ci95_low',
  'ci95_high',
  'interval',
  'verdict',
  'cheats',
] as const;

type Row = Record<(typeof SUMMARY_COLUMNS)[number], string | number>;

/** One row's own part: the identity columns are the run's. */
interface RowPart {
  section: string;
  bot: number;
  opponent: number;
  metric: string;
  estimate: Estimate;
  interval: string;
  verdict?: string;
}

export function summaryRows(
  spec: RunSpec,
  tally: RunTally,
  sprt: Sprt | null = null,
  faults: FaultCounts | null = null,
): Row[] {
  const parts: RowPart[] = [];
  const sections: [string, SectionTally | null][] = [
    ['deal', tally.deal],
    ['match', tally.match],
  ];
  for (const [section, tallied] of sections) {
    if (!tallied) continue;
    for (const r of tallied.botRows()) {
      parts.push({ section, bot: r.bot, opponent: -1, metric: r.metric, estimate: r.estimate, interval: 't' });
      if (r.rate) {
        parts.push({
          section,
          bot: r.bot,
          opponent: -1,
          metric: `${r.metric}_rate`,
          estimate: r.rate,
          interval: 'ratio-t',
        });
      }
    }
    for (const p of tallied.pairRows()) {
      parts.push({
        section,
        bot: p.bot,
        opponent: p.opponent,
        metric: p.metric,
        estimate: p.estimate,
        interval: 'paired-t',
      });
    }
    const E = spec.entrants.length;
    const metric = `${tallied.metrics[0].key}_elo`;
    if (E === 2 && tallied.groups > 0) {
      const h = headToHeadBound(tallied.outcomes.wdl(0, 1));
      const estimate = { n: h.n, mean: h.elo, sd: NaN, low: h.low, high: h.high };
      parts.push({ section, bot: 0, opponent: 1, metric, estimate, interval: h.wilson ? 'wilson-elo' : 'logistic' });
    } else if (E > 2 && tallied.groups > 0) {
      const { table, prior } = tallied.ratings();
      table.ratings.forEach((r, e) => {
        const estimate = { n: tallied.groupsPlayed(e), mean: r.elo, sd: r.se, low: r.low, high: r.high };
        const interval = prior ? 'bradley-terry-prior' : 'bradley-terry';
        parts.push({ section, bot: e, opponent: -1, metric, estimate, interval });
      });
    }
  }
  if (sprt) {
    const [lower, upper] = sprt.bounds;
    parts.push({
      section: 'sprt',
      bot: 0,
      opponent: 1,
      metric: `${spec.metrics[spec.unit][0]}${sprt.spec.kind === 'elo' ? '_elo' : ''}`,
      estimate: { n: sprt.n, mean: sprt.llr, sd: NaN, low: lower, high: upper },
      interval: `sprt:${(spec.sprt ?? '').replace(/,\s*/g, ';')}`,
      verdict: sprt.decision ?? 'none',
    });
  }
  if (faults?.any) parts.push(...faultParts(spec, faults));
  return parts.map((p) => row(spec, p));
}

/**
 * A run with faults or restarts: per bot a `faults_<kind>` row for every kind and a
 * `restarts` row, counts in `mean` (no interval: a count, not an estimate), the groups
 * finished in `n`. A run without either has none, so its summary is as before.
 */
function faultParts(spec: RunSpec, faults: FaultCounts): RowPart[] {
  const parts: RowPart[] = [];
  const count = (mean: number) => ({ n: faults.groups, mean, sd: NaN, low: NaN, high: NaN });
  for (let e = 0; e < spec.entrants.length; e++) {
    for (const kind of FAULT_KINDS) {
      const estimate = count(faults.count(e, kind));
      parts.push({ section: 'faults', bot: e, opponent: -1, metric: `faults_${kind}`, estimate, interval: 'count' });
    }
    const estimate = count(faults.restarts[e]);
    parts.push({ section: 'faults', bot: e, opponent: -1, metric: 'restarts', estimate, interval: 'count' });
  }
  return parts;
}

function row(spec: RunSpec, p: RowPart): Row {
  const e = spec.entrants;
  const bounds = csvBounds(p.estimate);
  const opponent = p.opponent >= 0 ? e[p.opponent] : null;
  return {
    game: spec.game,
    seats: spec.seats,
    rules: rulesText(spec.rules),
    players: playersText(spec),
    seed: spec.seed,
    section: p.section,
    bot: e[p.bot].label,
    bot_spec: botText(e[p.bot]),
    opponent: opponent?.label ?? '',
    opponent_spec: opponent ? botText(opponent) : '',
    metric: p.metric,
    n: p.estimate.n,
    mean: num(p.estimate.mean),
    ci95_low: num(bounds.low),
    ci95_high: num(bounds.high),
    interval: intervalKind(p.estimate, p.interval),
    verdict: p.verdict ?? '',
    cheats: e[p.bot].cheats || opponent?.cheats === true ? 1 : 0,
  };
}

/** Fixed precision, so outputs are byte-identical across platforms and schedules. */
function num(x: number): string {
  return Number.isFinite(x) ? x.toFixed(6) : '';
}

/** The run's identity, as the lines above a table: rules in force, bots with every parameter, seats, and the command that plays it. */
export function identityLines(spec: RunSpec): string[] {
  const rules = Object.keys(spec.rules).length ? rulesText(spec.rules).replace(/;/g, ', ') : 'none (no variants)';
  const bots = spec.entrants.map((e) => `${e.label} = ${botText(e)}${e.cheats ? ' (cheats: sees every hand)' : ''}`);
  return [
    `rules: ${rules}`,
    `bots: ${bots.join('; ')}`,
    `seats in rotation 0: ${spec.seatings[0].map((e) => spec.entrants[e].label).join(', ')}`,
    `played by: ${commandOf(spec)}`,
  ];
}

export function renderTable(spec: RunSpec, tally: RunTally): string {
  const lines: string[] = [];
  const label = (e: number) => spec.entrants[e].label + (spec.entrants[e].cheats ? ' (cheats)' : '');
  const labels = spec.entrants.map((_, e) => label(e));
  const sections: [string, SectionTally | null][] = [
    [spec.unit === 'deal' ? 'per deal' : 'per deal, over all deals of the matches', tally.deal],
    ['per match', tally.match],
  ];
  for (const [title, section] of sections) {
    if (!section) continue;
    lines.push('', `${title} (mean with 95% CI; n = ${section.groups} duplicate ${groupsText(section.groups, false)})`);
    const header = ['bot', ...section.metrics.map((m) => m.key + (m.higherIsBetter ? '' : ' (lower is better)'))];
    const body = labels.map((name, e) => [
      name,
      ...section.metrics.map((m) => {
        const r = section.botRows().find((x) => x.bot === e && x.metric === m.key)!;
        return r.rate ? rate(r.rate) : mean(r.estimate);
      }),
    ]);
    lines.push(...grid([header, ...body]));
    const pairs = section.pairRows();
    if (pairs.length) {
      lines.push('', `paired differences (first bot minus second, per duplicate group)`);
      const ph = ['bots', ...section.metrics.map((m) => m.key)];
      const seen = new Map<string, string[]>();
      for (const p of pairs) {
        const k = `${labels[p.bot]} - ${labels[p.opponent]}`;
        if (!seen.has(k)) seen.set(k, [k]);
        seen.get(k)!.push(diff(p.estimate));
      }
      lines.push(...grid([ph, ...seen.values()]));
    }
    lines.push(...eloLines(labels, section));
  }
  return lines.join('\n');
}

/** Elo of winning a duplicate group on the headline metric: head to head, or a rating table. */
function eloLines(labels: readonly string[], section: SectionTally): string[] {
  const E = labels.length;
  const headline = section.metrics[0].key;
  if (section.groups === 0 || E < 2) return [];
  if (E === 2) {
    const w = section.outcomes.wdl(0, 1);
    const h = headToHeadBound(w);
    const value = Number.isFinite(h.elo)
      ? `${signed(h.elo)} [${signed(h.low)}, ${signed(h.high)}]${h.wilson ? ' (Wilson interval)' : ''}`
      : h.elo > 0
        ? `>= ${signed(h.low)} (${h.n} of ${groupsText(h.n)} won; 95% Wilson bound)`
        : `<= ${signed(h.high)} (${h.n} of ${groupsText(h.n)} lost; 95% Wilson bound)`;
    return [
      '',
      `Elo of ${labels[0]} over ${labels[1]} per duplicate group on ${headline}: ${value}, ` +
        `groups won/drawn/lost ${w.wins}/${w.draws}/${w.losses}, ${losText(h.los)}`,
    ];
  }
  const { table, prior } = section.ratings();
  const rows = table.ratings
    .map((r, e) => ({ r, e }))
    .sort((x, y) => y.r.elo - x.r.elo || x.e - y.e)
    .map(({ r, e }) => [
      labels[e],
      signed(r.elo),
      `± ${Math.abs(r.high - r.elo).toFixed(1)}`,
      `${(r.score * 100).toFixed(1)}%`,
      String(section.groupsPlayed(e)),
    ]);
  const note = prior ? ' (a bot won or lost every group: two virtual draws per pair keep ratings finite)' : '';
  return [
    '',
    `ratings (Bradley-Terry Elo of winning a duplicate group on ${headline}, mean 0, 95% CI over groups)${note}`,
    ...grid([['bot', 'elo', 'ci', 'score', 'groups'], ...rows]),
  ];
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
}

function mean(e: Estimate): string {
  if (!Number.isFinite(e.mean)) return '-';
  if (e.degenerate) return `${fmt(e.mean)} (${noIntervalNote(e, fmt)})`;
  return `${fmt(e.mean)} ± ${fmt((e.high - e.low) / 2)}`;
}

function diff(e: Estimate): string {
  if (!Number.isFinite(e.mean)) return '-';
  const value = `${e.mean >= 0 ? '+' : ''}${fmt(e.mean)}`;
  if (e.degenerate) return `${value} (${noIntervalNote(e, fmt)})`;
  const sure = e.low > 0 || e.high < 0 ? ' *' : '';
  return `${value} ± ${fmt((e.high - e.low) / 2)}${sure}`;
}

function rate(e: Estimate): string {
  if (!Number.isFinite(e.mean)) return '-';
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  if (e.degenerate) return `${pct(e.mean)} (${noIntervalNote(e, pct)})`;
  return `${pct(e.mean)} [${(e.low * 100).toFixed(1)}, ${(e.high * 100).toFixed(1)}]`;
}

function fmt(x: number): string {
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toFixed(3);
}

function grid(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('   ')
      .trimEnd(),
  );
}

/** The likelihood of superiority, or why there is none (every group went alike). */
function losText(los: number): string {
  return Number.isFinite(los) ? `LOS ${(los * 100).toFixed(1)}%` : 'LOS none (every group alike)';
}

/** `n groups`, or `1 group` (without the number: `groups`/`group`). */
function groupsText(n: number, count = true): string {
  const word = n === 1 ? 'group' : 'groups';
  return count ? `${n} ${word}` : word;
}
