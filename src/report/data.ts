/**
 * What a report page is drawn from: plain data, one kind per thing a page can show (a
 * run, a tuning, an experiment's results). Each kind is made by readers of the inputs
 * that hold it (a run: its journal, or its summary CSV, with its per-deal CSV; later its
 * database) and drawn by the figures of that kind, so a new kind of input is one new
 * reader and nothing else. Bots are named by their labels, which are unique in a run.
 */
import type { Estimate } from '../harness/stats/stats.js';
import type { DeclaredFigure } from './declared.js';

/** The block at the top of a part: what was run, and the command that runs it again. */
export interface Identity {
  readonly title: string;
  /** What was run, as [what, value] lines: game, seats, rules, bots, seed, size, time, version. */
  readonly facts: readonly (readonly [string, string])[];
  /** The command that reproduces the part, or null when the inputs do not hold it (a note says which does). */
  readonly command: string | null;
  /** The files it was read from, as given. */
  readonly sources: readonly string[];
}

export interface MetricInfo {
  readonly key: string;
  readonly description: string;
  readonly higherIsBetter: boolean;
  readonly binary: boolean;
}

export interface BotInfo {
  readonly label: string;
  /** Sees hidden cards: a ceiling for measurement, marked wherever the bot is named. */
  readonly cheats: boolean;
}

/** A point of a running estimate: the mean after `groups` groups, with its 95% interval. */
export interface RunningPoint {
  readonly groups: number;
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/** Counts of the values of one metric, per bot, binned: `[x0, x1)`. */
export interface Distribution {
  readonly metric: string;
  /** Each bin holds one value, its middle (few distinct values); else bins of a round width. */
  readonly discrete: boolean;
  /** What one count is: a seat in a deal (from the per-deal CSV), or a bot's mean in a duplicate group (the journal). */
  readonly per: 'seat-deal' | 'group';
  readonly bins: readonly { readonly bot: string; readonly x0: number; readonly x1: number; readonly count: number }[];
  /** Counts per bot, in the section's bot order. */
  readonly totals: readonly { readonly bot: string; readonly count: number }[];
}

export type RatingData =
  | {
      readonly kind: 'head-to-head';
      readonly metric: string;
      readonly bot: string;
      readonly opponent: string;
      readonly groups: number;
      /** Infinite when every group went one way; then only one bound is finite. */
      readonly elo: number;
      readonly low: number;
      readonly high: number;
      /** 'logistic' (fastchess's interval) or 'wilson-elo' (the Wilson interval of the group score). */
      readonly interval: string;
      /** Groups won, drawn and lost, and the likelihood of superiority, when the input holds them. */
      readonly wdl: { readonly wins: number; readonly draws: number; readonly losses: number } | null;
      readonly los: number | null;
    }
  | {
      readonly kind: 'bradley-terry';
      readonly metric: string;
      /** Two virtual draws per pair were needed to keep the ratings finite. */
      readonly prior: boolean;
      readonly rows: readonly {
        readonly bot: string;
        readonly elo: number;
        readonly low: number;
        readonly high: number;
        readonly groups: number;
        /** The share of its groups won (draws half), when the input holds it. */
        readonly score: number | null;
      }[];
    };

/** One section of a run: per deal, or per whole match. */
export interface SectionData {
  readonly unit: 'deal' | 'match';
  readonly groups: number;
  readonly metrics: readonly MetricInfo[];
  readonly bots: readonly BotInfo[];
  /** Each bot's mean per metric with its Student-t interval over groups; binary metrics also the pooled rate with its interval over groups. */
  readonly means: readonly {
    readonly bot: string;
    readonly metric: string;
    readonly estimate: Estimate;
    readonly rate: Estimate | null;
  }[];
  /** Paired differences per group, bot minus opponent, for every pair in bot order. */
  readonly pairs: readonly {
    readonly bot: string;
    readonly opponent: string;
    readonly metric: string;
    readonly estimate: Estimate;
  }[];
  readonly rating: RatingData | null;
  /** The running mean of each pair's paired difference on the headline metric; null when the input has no groups. */
  readonly running:
    | readonly {
        readonly bot: string;
        readonly opponent: string;
        readonly metric: string;
        readonly points: readonly RunningPoint[];
      }[]
    | null;
  /** Distributions of the metrics that are not rates; null when the input holds no values. */
  readonly distributions: readonly Distribution[] | null;
}

/** The SPRT of a two-bot run: where its log-likelihood ratio went, group by group. */
export interface SprtData {
  /** The test as `--sprt` takes it: `elo0=0, elo1=5, alpha=0.05, beta=0.05`. */
  readonly test: string;
  /** The headline metric it tests (its Elo for an elo test). */
  readonly metric: string;
  readonly bot: string;
  readonly opponent: string;
  /** [lower, upper]: LLR <= lower accepts H0, LLR >= upper accepts H1. */
  readonly bounds: readonly [number, number];
  readonly groups: number;
  readonly llr: number;
  readonly decision: 'H0' | 'H1' | null;
  /** The LLR after each group (thinned for long walks), or null when the input holds only the end. */
  readonly walk: readonly { readonly groups: number; readonly llr: number }[] | null;
}

export interface RunData {
  readonly kind: 'run';
  readonly identity: Identity;
  readonly sections: readonly SectionData[];
  readonly sprt: SprtData | null;
  /** What the inputs did not hold, and which input would give it. */
  readonly notes: readonly string[];
}

/**
 * An experiment's results drawn from its plan (declared.ts): the figures it declares,
 * each with the rows of its table (CSV cells as written, by column) that it draws.
 */
export interface DeclaredData {
  readonly kind: 'declared';
  readonly identity: Identity;
  readonly figures: readonly {
    readonly figure: DeclaredFigure;
    readonly rows: readonly Readonly<Record<string, string>>[];
  }[];
  /** The declared figures that have no rows in these results. */
  readonly notes: readonly string[];
}

/** A tuning (`tafel tune`): each parameter's path, each iteration's result, and the check of the tuned bot. */
export interface TuneData {
  readonly kind: 'tune';
  readonly identity: Identity;
  /** The tuned parameters, in the order of `theta` and `c` below; bounds null when the inputs do not hold them. */
  readonly params: readonly {
    readonly name: string;
    readonly min: number | null;
    readonly max: number | null;
    readonly start: number;
    /** The value the tuned bot plays (theta rounded), or null before the first iteration. */
    readonly tuned: number | null;
  }[];
  /**
   * Per iteration: theta before the step, the perturbation c_k and flip (±1) of each
   * parameter, the duplicate groups played, and the result of theta+ against theta-.
   */
  readonly iterations: readonly {
    readonly iteration: number;
    readonly theta: readonly number[];
    readonly c: readonly number[];
    readonly flips: readonly number[];
    readonly groups: number;
    readonly result: number;
  }[];
  /** What `result` is: e.g. `θ+ minus θ− in points per deal, over the groups’ root mean square`. */
  readonly resultLabel: string;
  /** The tuned bot as `--bots` takes it. */
  readonly tuned: string;
  /** The tuned bot against the start on fresh groups: the paired difference, and the SPRT's walk when there was one. */
  readonly verification: {
    /** The headline metric and its unit: `points per deal`. */
    readonly metric: string;
    /** Tuned minus start per group, positive when the tuned bot did better. */
    readonly estimate: Estimate;
    /** better, worse, none (the interval holds 0), the SPRT's H1, H0 or none, or unfinished. */
    readonly verdict: string;
    readonly sprt: SprtData | null;
  } | null;
  /** What the inputs did not hold, and which input would give it. */
  readonly notes: readonly string[];
}

export type ReportPart = RunData | DeclaredData | TuneData;
