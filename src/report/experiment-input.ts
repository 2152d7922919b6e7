/**
 * Reading the experiments' results (results/*.csv, written by experiments/): each CSV
 * is recognised by its header, its rows become that experiment's report data. The CSVs
 * do not hold the command that made them; the Markdown report beside each (same name,
 * `.md`) does, and gives the title, so both are read when it is there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import type { Estimate } from '../harness/stats/stats.js';
import type { Identity, LadderData, MarchesData, PotData } from './data.js';
import { whole, writtenIn } from './format.js';

const HEADERS = {
  marches: 'bots,phase,unit,kind,n,marches,rate,ci95_low,ci95_high,method,seat_bot',
  pot: 'bot,players,quantity,hand,n,mean,ci95_low,ci95_high',
} as const;

/**
 * The ladder's CSV is recognised by the columns it needs, in any order and among others:
 * the ladder is still being extended (new columns, quantities or bots), and a page of
 * what it knows is better than a refusal.
 */
const LADDER_COLUMNS = ['game', 'bot', 'quantity', 'n', 'mean', 'ci95_low', 'ci95_high'];

/** The quantities of the ladder that the page draws; any other is listed in a note. */
const LADDER_QUANTITIES =
  /^(deal_vs_heuristic(:.+)?|gap_share|ceiling_lead|lead_over:.+|ms_per_move|match_vs_heuristic|match_win_rate)$/;

export type ExperimentKind = keyof typeof HEADERS | 'ladder';

/** The experiment whose CSV has this header, or null. */
export function experimentOf(columns: readonly string[]): ExperimentKind | null {
  const header = columns.join(',');
  const kind = (Object.keys(HEADERS) as (keyof typeof HEADERS)[]).find((k) => HEADERS[k] === header);
  if (kind) return kind;
  return LADDER_COLUMNS.every((c) => columns.includes(c)) && !columns.includes('players') ? 'ladder' : null;
}

/**
 * Whether a CSV that has the ladder's columns is a ladder: its bots measured against
 * the heuristic (`deal_vs_heuristic`, which gives the page its size). Other experiments'
 * CSVs share the columns (versus-*.csv measures against a champion) and would make a
 * page of size 0 with only the times.
 */
export function ladderDraws(text: string): boolean {
  const rows = parse<Record<string, string>>(text, { columns: true, skip_empty_lines: true });
  return rows.some((r) => r.quantity === 'deal_vs_heuristic');
}

export function experimentData(kind: ExperimentKind, path: string, text: string): LadderData | MarchesData | PotData {
  const rows = parse<Record<string, string>>(text, { columns: true, skip_empty_lines: true });
  if (rows.length === 0) throw new TafelError('bad-input', `${path}: no rows`);
  const bad = (line: number, why: string): never => {
    throw new TafelError('bad-input', `${path}: line ${line}: ${why}`);
  };
  // Both bounds empty: the sample gave no interval; a rate's one bound alone is its Wilson bound (interval-text.ts).
  const estimate = (r: Record<string, string>, i: number, mean = 'mean'): Estimate => {
    const n = Number(r.n);
    const x = number(r[mean]);
    if (!Number.isFinite(n) || Number.isNaN(x)) bad(i + 2, 'n and the estimate must be numbers');
    const low = number(r.ci95_low);
    const high = number(r.ci95_high);
    const e = { n, mean: x, sd: NaN, low, high };
    if (Number.isFinite(low) && Number.isFinite(high)) return e;
    const rate = mean === 'rate' || /_rate$/.test(r.quantity ?? '');
    if (rate && Number.isFinite(low)) return { ...e, low: NaN, degenerate: 'all', bound: low };
    if (rate && Number.isFinite(high)) return { ...e, high: NaN, degenerate: 'none', bound: high };
    return Number.isFinite(x) ? { ...e, degenerate: n < 2 ? 'few' : 'no-spread' } : e;
  };
  if (kind === 'ladder') {
    const game = rows[0].game;
    const data = rows.map((r, i) => ({
      bot: r.bot,
      cheats: r.cheats === '1',
      quantity: r.quantity,
      estimate: estimate(r, i),
    }));
    const bots = [...new Set(data.map((r) => r.bot))];
    const groups = data.find((r) => r.quantity === 'deal_vs_heuristic')?.estimate.n ?? 0;
    const identity = experimentIdentity(path, `Strength ladder: ${game}`, [
      ['game', rows[0].seats ? `${game} (${rows[0].seats} players)` : game],
      ['bots', `${bots.join(', ')}, each against heuristic`],
      ['size', `${whole(groups)} duplicate deal groups per bot`],
    ]);
    const other = [...new Set(data.map((r) => r.quantity).filter((q) => !LADDER_QUANTITIES.test(q)))];
    const notes = other.length ? [`Quantities in the CSV that this page does not draw: ${other.join(', ')}.`] : [];
    return { kind, identity, game, rows: data, notes };
  }
  if (kind === 'marches') {
    const data = rows.map((r, i) => ({
      table: r.bots,
      phase: r.phase,
      unit: r.unit,
      what: r.kind,
      marches: Number(r.marches),
      method: r.method,
      seatBot: r.seat_bot,
      estimate: estimate(r, i, 'rate'),
    }));
    const tables = [...new Set(data.map((r) => r.table))];
    const identity = experimentIdentity(path, 'How often are Hindersche marches made?', [
      ['game', 'hindersche (4 players), whole rubbers'],
      ['tables', tables.join('; ')],
    ]);
    return { kind, identity, rows: data };
  }
  const data = rows.map((r, i) => ({
    bot: r.bot,
    players: Number(r.players),
    quantity: r.quantity,
    hand: r.hand === '' ? null : Number(r.hand),
    estimate: estimate(r, i),
  }));
  const identity = experimentIdentity(path, 'How the Vier-Anderle pot grows, and how balances spread', [
    ['game', 'vier-anderle, sessions'],
    ['bots', [...new Set(data.map((r) => r.bot))].join(', ')],
    ['players', [...new Set(data.map((r) => r.players))].join(', ')],
  ]);
  return { kind, identity, rows: data };
}

/**
 * The identity of an experiment's results: the title, command and time they were written
 * from the Markdown beside the CSV, when there (the CSV's file time would be a checkout's).
 */
function experimentIdentity(path: string, title: string, facts: [string, string][]): Identity {
  const md = path.replace(/\.csv$/i, '.md');
  const text = md !== path && existsSync(md) ? readFileSync(md, 'utf8') : '';
  const heading = /^# (.+)$/m.exec(text)?.[1];
  const when = writtenIn(text);
  const command = /(?:taskset -c \d+ )?node dist\/experiments\/[\w-]+\.js[^`\n]*/.exec(text)?.[0].trim() ?? null;
  return {
    title: heading ?? title,
    facts: [...facts, ['time', when ? `results written ${when}` : 'not recorded with the results']],
    command,
    sources: text ? [path, md] : [path],
  };
}

function number(text: string | undefined): number {
  return text === undefined || text === '' ? NaN : Number(text);
}
