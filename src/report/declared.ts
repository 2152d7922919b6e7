/**
 * The figures an experiment declares for its page (its plan's `figures`, JSON): each is
 * drawn from the rows of one of the experiment's tables (a CSV), so the report needs no
 * knowledge of any experiment. An experiment writes its plan beside its CSV
 * (`NAME.plan.json` beside `NAME.csv`); `tafel report NAME.csv` draws what it declares.
 *
 * Column conventions: an estimate is `mean` (or `rate`) with `ci95_low`, `ci95_high` and
 * `n`; both bounds empty means no interval; a rate with one bound alone carries its 95%
 * Wilson bound (docs/statistics.md).
 */

/** What every declared figure has. */
interface DeclaredCommon {
  readonly title: string;
  /** A sentence under the title: what the figure shows and how to read it. */
  readonly note?: string;
  /** The plan table (CSV) it is drawn from; the plan's first table when absent. */
  readonly table?: string;
  /** Keep only rows whose column equals the value (or one of the values). */
  readonly where?: Readonly<Record<string, string | readonly string[]>>;
  /** One panel per value of this column, in the order the rows give them. */
  readonly facet?: string;
}

/** Estimates with their intervals, one row per `label` value (a forest plot). */
interface DeclaredEstimates extends DeclaredCommon {
  readonly kind: 'estimates';
  /** The column that names each row (a bot, a table). */
  readonly label: string;
  /** Columns of the estimate: defaults mean, ci95_low, ci95_high, n. */
  readonly mean?: string;
  readonly low?: string;
  readonly high?: string;
  readonly n?: string;
  /** Values are shares of 1, shown as percentages. */
  readonly percent?: boolean;
  /** Reference lines on the value axis (0 for a difference, 0.5 for an even rate). */
  readonly refs?: readonly number[];
  /** The value axis's label. */
  readonly axis?: string;
}

/** A line per `series` value over a numeric `x`, with its interval as a band. */
interface DeclaredSeries extends DeclaredCommon {
  readonly kind: 'series';
  readonly x: string;
  /** The column of each line (a bot); one line when absent. */
  readonly series?: string;
  readonly mean?: string;
  readonly low?: string;
  readonly high?: string;
  readonly axis?: { readonly x?: string; readonly y?: string };
  /** A symmetric-log value axis (values that span orders of magnitude). */
  readonly log?: boolean;
}

/** The rows themselves, as a table, in the order given. */
interface DeclaredTable extends DeclaredCommon {
  readonly kind: 'table';
  readonly columns: readonly string[];
}

export type DeclaredFigure = DeclaredEstimates | DeclaredSeries | DeclaredTable;
