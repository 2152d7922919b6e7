/**
 * What a session adds up for the person: the game's metrics at their seat per deal and
 * per match, each a mean with a 95% interval (Student-t; Wilson for rates), and the
 * outcome of each match, given as the session's last lines (`result: ...`).
 */
import type { Metric } from '../games/game.js';
import { estimateText } from '../harness/stats/interval-text.js';
import { Moments, wilson } from '../harness/stats/stats.js';
import { count } from '../games/screen.js';

export class Results {
  private readonly dealStats: Moments[];
  private readonly matchStats: Moments[];
  private readonly outcomes: string[] = [];

  constructor(
    private readonly dealMetrics: readonly Metric[],
    private readonly matchMetrics: readonly Metric[],
    /** The person's seat. */
    private readonly seat: number,
  ) {
    this.dealStats = dealMetrics.map(() => new Moments());
    this.matchStats = matchMetrics.map(() => new Moments());
  }

  /** A finished deal's metrics, `values[seat * metrics + m]` (`Match.dealMetrics`); NaN: the person sat out. */
  addDeal(values: Float64Array): void {
    add(values, this.seat, this.dealStats);
  }

  /** A finished match's metrics (`Match.matchMetrics`) and how it ended, in words. */
  addMatch(values: Float64Array | null, outcome: string): void {
    if (values) add(values, this.seat, this.matchStats);
    this.outcomes.push(outcome);
  }

  /** `result: ...` lines: each outcome, then the person's means per deal and per match (when any). */
  lines(): string[] {
    const lines = this.outcomes.map((o) => `result: ${o}`);
    const perDeal = summary(this.dealMetrics, this.dealStats, 'deals');
    if (perDeal) lines.push(`result: your mean per deal over ${count(this.dealStats[0].n, 'deal')}: ${perDeal}`);
    const perMatch = summary(this.matchMetrics, this.matchStats, 'matches');
    if (perMatch) lines.push(`result: your mean per match over ${count(this.matchStats[0].n, 'match')}: ${perMatch}`);
    return lines;
  }
}

function add(values: Float64Array, seat: number, stats: readonly Moments[]): void {
  const base = seat * stats.length;
  if (Number.isNaN(values[base])) return;
  stats.forEach((m, i) => m.add(values[base + i]));
}

/** `points 61.2 [44.0, 78.4] · won 40% [12%, 77%]`, or null before any value. */
function summary(metrics: readonly Metric[], stats: readonly Moments[], unit: string): string | null {
  if (stats.length === 0 || stats[0].n === 0) return null;
  return metrics
    .map((m, i) => {
      const s = stats[i];
      if (m.binary) {
        const w = wilson(s.mean * s.n, s.n);
        return `${m.key} ${pct(w.mean)} [${pct(w.low)}, ${pct(w.high)}]`;
      }
      return `${m.key} ${estimateText(s.estimate(), num, unit)}`;
    })
    .join(' · ');
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function num(x: number): string {
  return Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2);
}
