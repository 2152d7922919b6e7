/**
 * Aggregation of duplicate groups into per-bot estimates and paired comparisons.
 *
 * The unit of independence is the group (one deal or match with every seat
 * rotation), so each bot's value per group is its mean over the seats and rotations
 * it played, and intervals come from the spread of those group means. A comparison of
 * two bots uses the per-group difference: the luck of the cards cancels out.
 * Binary metrics (a game won) also get a rate: the pooled rate over every seat-deal
 * (or seat-match) with its interval over the groups (stats.RatioMoments), never over
 * seats, since partners and rotations of one group share their cards and often their
 * outcome.
 */
import type { Metric } from '../../games/game.js';
import { ExactMoments, RatioMoments, type Estimate } from './stats.js';
import { PairOutcomes, fitRatings, headToHeadElo, type EloEstimate, type RatingTable } from './rating.js';
import type { GroupTally } from '../table/table.js';

export interface BotRow {
  bot: number;
  metric: string;
  estimate: Estimate;
  /** For binary metrics: the pooled rate over every seat-deal, its interval over the groups. */
  rate?: Estimate;
}

export interface PairRow {
  bot: number;
  opponent: number;
  metric: string;
  /** Mean over groups of (bot's value - opponent's value). */
  estimate: Estimate;
}

export class SectionTally {
  private means: ExactMoments[];
  private pairs: ExactMoments[];
  private rates: RatioMoments[];
  private readonly groupMean: Float64Array;
  /** Win/draw/loss of every pair per group, on the headline metric: the input of Elo. */
  readonly outcomes: PairOutcomes;

  constructor(
    readonly metrics: readonly Metric[],
    private readonly entrants: number,
  ) {
    const k = metrics.length;
    this.means = Array.from({ length: entrants * k }, () => new ExactMoments());
    this.pairs = Array.from({ length: entrants * entrants * k }, () => new ExactMoments());
    this.rates = Array.from({ length: entrants * k }, () => new RatioMoments());
    this.groupMean = new Float64Array(entrants * k);
    this.outcomes = new PairOutcomes(entrants);
  }

  /** Add one group's sums (per entrant and metric) and counts (per entrant). */
  add(sums: Float64Array, counts: Float64Array): void {
    const k = this.metrics.length;
    const E = this.entrants;
    for (let e = 0; e < E; e++) {
      if (counts[e] === 0) continue;
      for (let m = 0; m < k; m++) {
        const v = sums[e * k + m] / counts[e];
        this.groupMean[e * k + m] = v;
        this.means[e * k + m].add(v);
        if (this.metrics[m].binary) this.rates[e * k + m].add(sums[e * k + m], counts[e]);
      }
    }
    for (let a = 0; a < E; a++) {
      for (let b = a + 1; b < E; b++) {
        if (counts[a] === 0 || counts[b] === 0) continue;
        for (let m = 0; m < k; m++) {
          this.pairs[(a * E + b) * k + m].add(this.groupMean[a * k + m] - this.groupMean[b * k + m]);
        }
        const headline = this.groupMean[a * k] - this.groupMean[b * k];
        this.outcomes.add(a, b, this.metrics[0].higherIsBetter ? headline : -headline);
      }
    }
    this.outcomes.endGroup();
  }

  /** The groups in which entrant `e` played (its rating's independent units). */
  groupsPlayed(e: number): number {
    return this.means[e * this.metrics.length]?.n ?? 0;
  }

  get groups(): number {
    return this.means.length ? Math.max(...this.means.map((x) => x.n)) : 0;
  }

  botRows(): BotRow[] {
    const rows: BotRow[] = [];
    const k = this.metrics.length;
    for (let e = 0; e < this.entrants; e++) {
      this.metrics.forEach((metric, m) => {
        const i = e * k + m;
        const row: BotRow = { bot: e, metric: metric.key, estimate: this.means[i].estimate() };
        if (metric.binary) {
          row.rate = this.rates[i].estimate();
          // Every or no trial a success: the mean of group means has the rate's bound too.
          const { degenerate, bound } = row.rate;
          if (degenerate === 'all' || degenerate === 'none') row.estimate = { ...row.estimate, degenerate, bound };
        }
        rows.push(row);
      });
    }
    return rows;
  }

  /** Elo of a over b from their duplicate groups won, drawn and lost on the headline metric. */
  headToHead(a: number, b: number): EloEstimate {
    return headToHeadElo(this.outcomes.wdl(a, b));
  }

  /**
   * Bradley-Terry ratings of every bot on the headline metric (for more than two bots).
   * When one bot won or lost every group the maximum-likelihood ratings are infinite;
   * then BayesElo's prior of two virtual draws per pair keeps them finite (`prior`).
   */
  ratings(): { table: RatingTable; prior: boolean } {
    // The covariance over groups: a group's pairings share its cards (rating.ts, GroupMoments).
    const groups = this.outcomes.groups;
    const table = fitRatings(this.outcomes.wins, this.outcomes.draws, { groups });
    if (table.exists) return { table, prior: false };
    return { table: fitRatings(this.outcomes.wins, this.outcomes.draws, { virtualDraws: 2, groups }), prior: true };
  }

  /** The whole state, exact: what a journal's checkpoint holds (journal.ts). */
  toJSON(): unknown {
    const o = this.outcomes;
    const g = o.groups;
    return {
      means: this.means,
      pairs: this.pairs,
      rates: this.rates,
      wins: o.wins,
      draws: o.draws,
      gn: Array.from(g.n),
      gp: Array.from(g.sumP),
      gq: Array.from(g.sumQ),
      gpq: Array.from(g.sumPQ),
    };
  }

  /** The state `toJSON` wrote, in place of this one's; a RangeError when it does not fit. */
  restore(v: unknown): void {
    const k = this.metrics.length;
    const E = this.entrants;
    if (typeof v !== 'object' || v === null) throw new RangeError('not a tally section');
    const s = v as Record<string, unknown>;
    const list = <T>(x: unknown, n: number, f: (y: unknown) => T): T[] => {
      if (!Array.isArray(x) || x.length !== n) throw new RangeError('a tally section of another size');
      return x.map(f);
    };
    this.means = list(s.means, E * k, (x) => ExactMoments.fromJSON(x));
    this.pairs = list(s.pairs, E * E * k, (x) => ExactMoments.fromJSON(x));
    this.rates = list(s.rates, E * k, (x) => RatioMoments.fromJSON(x));
    const o = this.outcomes;
    const counts = (x: unknown, into: number[][]) =>
      list(x, E, (row) => list(row, E, (c) => c)).forEach((row, i) =>
        row.forEach((c, j) => {
          if (typeof c !== 'number' || !(c >= 0)) throw new RangeError('not a count');
          into[i][j] = c;
        }),
      );
    counts(s.wins, o.wins);
    counts(s.draws, o.draws);
    const g = o.groups;
    for (const [key, into] of [
      ['gn', g.n],
      ['gp', g.sumP],
      ['gq', g.sumQ],
      ['gpq', g.sumPQ],
    ] as const) {
      into.set(
        list(s[key], into.length, (c) => {
          if (typeof c !== 'number' || !Number.isFinite(c)) throw new RangeError('not a sum');
          return c;
        }),
      );
    }
  }

  /** Add the groups of `o` (another part of the same run): order does not matter, the sums are exact. */
  merge(o: SectionTally): void {
    this.means.forEach((m, i) => m.merge(o.means[i]));
    this.pairs.forEach((m, i) => m.merge(o.pairs[i]));
    this.rates.forEach((m, i) => m.merge(o.rates[i]));
    const a = this.outcomes;
    const b = o.outcomes;
    for (let i = 0; i < this.entrants; i++)
      for (let j = 0; j < this.entrants; j++) {
        a.wins[i][j] += b.wins[i][j];
        a.draws[i][j] += b.draws[i][j];
      }
    // Sums of scores 0, 1/2 and 1 and their products: exact in doubles.
    for (const key of ['n', 'sumP', 'sumQ', 'sumPQ'] as const) {
      const x = a.groups[key];
      const y = b.groups[key];
      for (let i = 0; i < x.length; i++) x[i] += y[i];
    }
  }

  /** Every ordered pair a < b (the reverse is the negation). */
  pairRows(): PairRow[] {
    const rows: PairRow[] = [];
    const k = this.metrics.length;
    const E = this.entrants;
    for (let a = 0; a < E; a++) {
      for (let b = a + 1; b < E; b++) {
        this.metrics.forEach((metric, m) => {
          rows.push({ bot: a, opponent: b, metric: metric.key, estimate: this.pairs[(a * E + b) * k + m].estimate() });
        });
      }
    }
    return rows;
  }
}

/** The whole run: a deal section always, a match section when whole matches are played. */
export class RunTally {
  readonly deal: SectionTally;
  readonly match: SectionTally | null;
  deals = 0;
  groups = 0;

  constructor(dealMetrics: readonly Metric[], matchMetrics: readonly Metric[] | null, entrants: number) {
    this.deal = new SectionTally(dealMetrics, entrants);
    this.match = matchMetrics ? new SectionTally(matchMetrics, entrants) : null;
  }

  add(g: GroupTally): void {
    this.deal.add(g.dealSums, g.dealCounts);
    this.match?.add(g.matchSums, g.matchCounts);
    this.deals += g.deals;
    this.groups++;
  }

  /** The whole state, exact (integers and exact sums): a journal checkpoint's tally. */
  toJSON(): unknown {
    return { groups: this.groups, deals: this.deals, deal: this.deal, match: this.match };
  }

  /** The state `toJSON` wrote, in place of this one's; a RangeError when it is not one of this run's. */
  restore(v: unknown): void {
    if (typeof v !== 'object' || v === null) throw new RangeError('not a tally');
    const s = v as Record<string, unknown>;
    if (!isCount(s.groups) || !isCount(s.deals) || (s.match === null) !== (this.match === null))
      throw new RangeError('not a tally of this run');
    this.deal.restore(s.deal);
    this.match?.restore(s.match);
    this.groups = s.groups;
    this.deals = s.deals;
  }

  /** Add another part of the same run (a shard): the result does not depend on the order of the parts. */
  merge(o: RunTally): void {
    this.deal.merge(o.deal);
    if (this.match && o.match) this.match.merge(o.match);
    this.groups += o.groups;
    this.deals += o.deals;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
