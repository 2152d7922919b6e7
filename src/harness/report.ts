/**
 * What a run shows: a readable table for people and CSV rows for programs. Both are
 * pure functions of the tally, so they are identical however the run was scheduled.
 */
import type { Estimate } from './stats.js';
import type { RunTally, SectionTally } from './tally.js';

export interface RunInfo {
  game: string;
  seed: string;
  unit: 'deal' | 'match';
  labels: readonly string[];
  rotations: number;
  cheats: readonly boolean[];
}

/** Columns of the summary CSV (documented in the README). */
export const SUMMARY_COLUMNS = [
  'game',
  'seed',
  'section',
  'bot',
  'opponent',
  'metric',
  'n',
  'mean',
  'ci95_low',
  'ci95_high',
  'interval',
  'cheats',
] as const;

type Row = Record<(typeof SUMMARY_COLUMNS)[number], string | number>;

export function summaryRows(info: RunInfo, tally: RunTally): Row[] {
  const rows: Row[] = [];
  const sections: [string, SectionTally | null][] = [
    ['deal', tally.deal],
    ['match', tally.match],
  ];
  for (const [name, section] of sections) {
    if (!section) continue;
    for (const r of section.botRows()) {
      rows.push(row(info, name, info.labels[r.bot], '', r.metric, r.estimate, 't', info.cheats[r.bot]));
      if (r.rate)
        rows.push(row(info, name, info.labels[r.bot], '', `${r.metric}_rate`, r.rate, 'wilson', info.cheats[r.bot]));
    }
    for (const p of section.pairRows()) {
      const cheats = info.cheats[p.bot] || info.cheats[p.opponent];
      rows.push(row(info, name, info.labels[p.bot], info.labels[p.opponent], p.metric, p.estimate, 'paired-t', cheats));
    }
    const E = info.labels.length;
    const headline = section.metrics[0].key;
    if (E === 2 && section.groups > 0) {
      const h = section.headToHead(0, 1);
      const cheats = info.cheats[0] || info.cheats[1];
      rows.push(
        row(
          info,
          name,
          info.labels[0],
          info.labels[1],
          `${headline}_elo`,
          { n: h.n, mean: h.elo, sd: NaN, low: h.low, high: h.high },
          'logistic',
          cheats,
        ),
      );
    } else if (E > 2 && section.groups > 0) {
      const { table, prior } = section.ratings();
      table.ratings.forEach((r, e) => {
        const est = { n: r.games, mean: r.elo, sd: r.se, low: r.low, high: r.high };
        rows.push(
          row(
            info,
            name,
            info.labels[e],
            '',
            `${headline}_elo`,
            est,
            prior ? 'bradley-terry-prior' : 'bradley-terry',
            info.cheats[e],
          ),
        );
      });
    }
  }
  return rows;
}

function row(
  info: RunInfo,
  section: string,
  bot: string,
  opponent: string,
  metric: string,
  e: Estimate,
  interval: string,
  cheats: boolean,
): Row {
  return {
    game: info.game,
    seed: info.seed,
    section,
    bot,
    opponent,
    metric,
    n: e.n,
    mean: num(e.mean),
    ci95_low: num(e.low),
    ci95_high: num(e.high),
    interval,
    cheats: cheats ? 1 : 0,
  };
}

/** Fixed precision, so outputs are byte-identical across platforms and schedules. */
function num(x: number): string {
  return Number.isFinite(x) ? x.toFixed(6) : '';
}

export function renderTable(info: RunInfo, tally: RunTally): string {
  const lines: string[] = [];
  const label = (e: number) => info.labels[e] + (info.cheats[e] ? ' (cheats)' : '');
  const sections: [string, SectionTally | null][] = [
    [info.unit === 'deal' ? 'per deal' : 'per deal, over all deals of the matches', tally.deal],
    ['per match', tally.match],
  ];
  for (const [title, section] of sections) {
    if (!section) continue;
    lines.push('', `${title} (mean with 95% CI; n = ${section.groups} duplicate groups)`);
    const header = ['bot', ...section.metrics.map((m) => m.key + (m.higherIsBetter ? '' : ' (lower is better)'))];
    const body = info.labels.map((_, e) => [
      label(e),
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
        const k = `${label(p.bot)} - ${label(p.opponent)}`;
        if (!seen.has(k)) seen.set(k, [k]);
        seen.get(k)!.push(diff(p.estimate));
      }
      lines.push(...grid([ph, ...seen.values()]));
    }
    lines.push(...eloLines(info, section, label));
  }
  return lines.join('\n');
}

/** Elo of winning a duplicate group on the headline metric: head to head, or a rating table. */
function eloLines(info: RunInfo, section: SectionTally, label: (e: number) => string): string[] {
  const E = info.labels.length;
  const headline = section.metrics[0].key;
  if (section.groups === 0 || E < 2) return [];
  if (E === 2) {
    const h = section.headToHead(0, 1);
    const w = section.outcomes.wdl(0, 1);
    return [
      '',
      `Elo of ${label(0)} over ${label(1)} per duplicate group on ${headline}: ${signed(h.elo)} [${signed(h.low)}, ${signed(h.high)}], ` +
        `groups won/drawn/lost ${w.wins}/${w.draws}/${w.losses}, LOS ${(h.los * 100).toFixed(1)}%`,
    ];
  }
  const { table, prior } = section.ratings();
  const rows = table.ratings
    .map((r, e) => ({ r, e }))
    .sort((x, y) => y.r.elo - x.r.elo || x.e - y.e)
    .map(({ r, e }) => [
      label(e),
      signed(r.elo),
      `± ${Math.abs(r.high - r.elo).toFixed(1)}`,
      `${(r.score * 100).toFixed(1)}%`,
      String(r.games),
    ]);
  const note = prior ? ' (a bot won or lost every group: two virtual draws per pair keep ratings finite)' : '';
  return [
    '',
    `ratings (Bradley-Terry Elo of winning a duplicate group on ${headline}, mean 0, 95% CI)${note}`,
    ...grid([['bot', 'elo', 'ci', 'score', 'groups'], ...rows]),
  ];
}

function signed(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : x < 0 ? '-inf' : '-';
  return `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
}

function mean(e: Estimate): string {
  if (!Number.isFinite(e.mean)) return '-';
  const half = (e.high - e.low) / 2;
  return Number.isFinite(half) ? `${fmt(e.mean)} ± ${fmt(half)}` : fmt(e.mean);
}

function diff(e: Estimate): string {
  if (!Number.isFinite(e.mean)) return '-';
  const half = (e.high - e.low) / 2;
  const sign = e.mean >= 0 ? '+' : '';
  const sure = Number.isFinite(half) && (e.low > 0 || e.high < 0) ? ' *' : '';
  return Number.isFinite(half) ? `${sign}${fmt(e.mean)} ± ${fmt(half)}${sure}` : `${sign}${fmt(e.mean)}`;
}

function rate(e: Estimate): string {
  return `${(e.mean * 100).toFixed(1)}% [${(e.low * 100).toFixed(1)}, ${(e.high * 100).toFixed(1)}]`;
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
