/**
 * What a report needs of a run beyond its final tally, gathered group by group in group
 * order (from the live run's `onGroup`, or from a journal's lines read back, which give
 * the same groups): the running mean of every pair's paired difference with its
 * interval, the SPRT's log-likelihood ratio after each group (recomputed with the run's
 * own test and input), and the distribution of each bot's per-group means.
 *
 * Its size does not grow with the run: running means are kept at geometrically spaced
 * group counts (every group up to 30, then every 4% more), the SPRT walk at a stride that
 * doubles whenever 1000 points are kept, and distributions as counts of distinct values.
 */
import type { Game, Metric } from '../games/game.js';
import { Sprt, groupDifference, parseSprt } from '../harness/stats/sprt.js';
import { ExactMoments } from '../harness/stats/stats.js';
import type { RunTally } from '../harness/stats/tally.js';
import type { GroupTally, Unit } from '../harness/table/table.js';
import type { RunningPoint } from './data.js';
import { ValueCounts } from './histogram.js';

/** Every group up to here is a point of a running mean... */
const EVERY_UP_TO = 30;
/** ...then the next point comes after this many times the groups so far. */
const GROWTH = 1.04;
/** The SPRT walk keeps at most twice this many points. */
const WALK_POINTS = 1000;

/** A running mean with its interval, kept at geometrically spaced counts. */
class RunningMean {
  // Exact sums, as the tally's: the last point is the paired estimate to the last digit.
  private readonly moments = new ExactMoments();
  private readonly kept: RunningPoint[] = [];
  private next = 2;

  add(x: number): void {
    const m = this.moments;
    m.add(x);
    if (m.n < this.next) return;
    this.kept.push(this.point());
    this.next = m.n < EVERY_UP_TO ? m.n + 1 : Math.ceil(m.n * GROWTH);
  }

  /** A point computed elsewhere (a journal's checkpoint), after those added so far. */
  addPoint(p: RunningPoint): void {
    this.kept.push(p);
  }

  /** The points, the last group's included. */
  points(): RunningPoint[] {
    const last = this.kept[this.kept.length - 1];
    return this.moments.n >= 2 && last?.groups !== this.moments.n ? [...this.kept, this.point()] : [...this.kept];
  }

  private point(): RunningPoint {
    const e = this.moments.estimate();
    return { groups: e.n, mean: e.mean, low: e.low, high: e.high };
  }
}

/** Points of a walk, every `stride`-th, the stride doubling (and every other point dropped) when too many are kept. */
class Walk {
  private kept: { groups: number; llr: number }[] = [];
  private stride = 1;
  private last: { groups: number; llr: number } | null = null;

  add(groups: number, llr: number): void {
    this.last = { groups, llr };
    if (groups % this.stride !== 0) return;
    this.kept.push(this.last);
    if (this.kept.length >= 2 * WALK_POINTS) {
      this.stride *= 2;
      this.kept = this.kept.filter((p) => p.groups % this.stride === 0);
    }
  }

  points(): { groups: number; llr: number }[] {
    const end = this.kept[this.kept.length - 1];
    return this.last && end !== this.last ? [...this.kept, this.last] : [...this.kept];
  }
}

/** One section (deal or match) of the digest. */
class SectionDigest {
  /** running[pair], pairs a < b in order, on the headline metric. */
  readonly running: RunningMean[] = [];
  /** values[metric][entrant]: the entrant's per-group means. */
  readonly values: ValueCounts[][];

  constructor(
    readonly metrics: readonly Metric[],
    private readonly entrants: number,
  ) {
    for (let a = 0; a < entrants; a++) for (let b = a + 1; b < entrants; b++) this.running.push(new RunningMean());
    this.values = metrics.map(() => Array.from({ length: entrants }, () => new ValueCounts()));
  }

  /** As `SectionTally.add` takes a group: a bot without seats in it is left out, and so are its pairs. */
  add(sums: Float64Array, counts: Float64Array): void {
    const k = this.metrics.length;
    const E = this.entrants;
    for (let e = 0; e < E; e++) {
      if (counts[e] === 0) continue;
      for (let m = 0; m < k; m++) this.values[m][e].add(sums[e * k + m] / counts[e]);
    }
    let pair = 0;
    for (let a = 0; a < E; a++) {
      for (let b = a + 1; b < E; b++, pair++) {
        if (counts[a] === 0 || counts[b] === 0) continue;
        this.running[pair].add(sums[a * k] / counts[a] - sums[b * k] / counts[b]);
      }
    }
  }
}

export class RunDigest {
  readonly deal: SectionDigest;
  readonly match: SectionDigest | null;
  /** The run's SPRT, fed as the run feeds it, and its walk. */
  readonly sprt: Sprt | null;
  private readonly walk = new Walk();
  private readonly difference: (g: GroupTally) => number | null;

  /** For a run of `game` with `entrants` bots; match metrics too for a `match` run; `sprt` the run's test as `--sprt` took it. */
  constructor(game: Game, entrants: number, unit: Unit, sprt: string | null) {
    this.deal = new SectionDigest(game.dealMetrics, entrants);
    this.match = unit === 'match' ? new SectionDigest(game.matchMetrics, entrants) : null;
    this.sprt = sprt ? new Sprt(parseSprt(sprt)) : null;
    this.difference = groupDifference(game, unit);
  }

  /** The next group, in group order. */
  readonly add = (g: GroupTally): void => {
    this.deal.add(g.dealSums, g.dealCounts);
    this.match?.add(g.matchSums, g.matchCounts);
    const test = this.sprt;
    if (!test || test.decision) return;
    const d = this.difference(g);
    if (d === null) return;
    test.add(d);
    this.walk.add(test.n, test.llr);
  };

  /**
   * The run's state at a journal's checkpoint (format 3), in place of its groups: a point
   * of each running mean and of the SPRT walk. Distributions get nothing from it.
   */
  addCheckpoint(tally: RunTally, sprt: unknown): void {
    for (const [digest, section] of [
      [this.deal, tally.deal],
      [this.match, tally.match],
    ] as const) {
      if (!digest || !section) continue;
      const headline = section.metrics[0]?.key;
      const rows = section.pairRows().filter((r) => r.metric === headline);
      rows.forEach((r, i) => {
        const e = r.estimate;
        if (e.n >= 2) digest.running[i].addPoint({ groups: e.n, mean: e.mean, low: e.low, high: e.high });
      });
    }
    const test = this.sprt;
    if (test && sprt !== null) {
      test.restore(sprt);
      this.walk.add(test.n, test.llr);
    }
  }

  walkPoints(): { groups: number; llr: number }[] {
    return this.walk.points();
  }
}
