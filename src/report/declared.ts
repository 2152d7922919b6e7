/**
 * The figures an experiment declares for its page (its plan's `figures`, JSON): each is
 * drawn from the rows of one of the experiment's tables (a CSV), so the report needs no
 * knowledge of any experiment. An experiment writes its plan beside its CSV
 * (`NAME.plan.json` beside `NAME.csv`); `tafel report NAME.csv` draws what it declares.
 *
 * Column conventions: an estimate is `mean` (or `rate`) with `ci95_low`, `ci95_high` and
 * `n`; both bounds empty means no interval; a rate with one bound alone carries its 95%
 * Wilson bound (docs/statistics.md). Every column a figure names must be in its table:
 * the report refuses the page, naming the figure and the column, rather than draw less.
 * docs/experiments.md ("Figures") documents the format field by field.
 */

/** What every declared figure has. */
interface DeclaredCommon {
  readonly title: string;
  /** A sentence under the title: what the figure shows and how to read it. */
  readonly note?: string;
  /** The plan table (CSV) it is drawn from; the plan's first table when absent. */
  readonly table?: string;
  /**
   * Keep only rows whose column equals the value (or one of the values); a value ending
   * in `*` matches every value that starts with what precedes it (`deal_vs_heuristic:*`:
   * a game's own metrics, which the plan cannot list for every game).
   */
  readonly where?: Readonly<Record<string, string | readonly string[]>>;
  /** One panel per value of this column, in the order the rows give them. */
  readonly facet?: string;
}

/** Estimates with their intervals, one row per `label` value (a forest plot). */
export interface DeclaredEstimates extends DeclaredCommon {
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
  /** What `n` counts (plural), in the words of an estimate without an interval: `groups` when absent. */
  readonly unit?: string;
  /** A log value axis (times). */
  readonly log?: boolean;
  /**
   * false: the table gives the estimate alone, with no interval by design (a mean time):
   * the rows are dots, with no bounds read and no words about a missing interval.
   */
  readonly intervals?: false;
}

/** A line per `series` value over a numeric `x`, with its interval as a band. */
export interface DeclaredSeries extends DeclaredCommon {
  readonly kind: 'series';
  readonly x: string;
  /** The column of each line (a bot); one line when absent. */
  readonly series?: string;
  readonly mean?: string;
  readonly low?: string;
  readonly high?: string;
  /** The column of each point's count (the table's `n` when it has one), shown in the numbers. */
  readonly n?: string;
  readonly axis?: { readonly x?: string; readonly y?: string };
  /** A symmetric-log value axis (values that span orders of magnitude). */
  readonly log?: boolean;
  /** Values are shares of 1, shown as percentages. */
  readonly percent?: boolean;
  /** Horizontal reference lines. */
  readonly refs?: readonly number[];
}

/** The rows themselves, as a table, in the order given. */
interface DeclaredTable extends DeclaredCommon {
  readonly kind: 'table';
  readonly columns: readonly string[];
}

export type DeclaredFigure = DeclaredEstimates | DeclaredSeries | DeclaredTable;

const FIGURE_KINDS = ['estimates', 'series', 'table'] as const;

/** The columns of an estimate, with their defaults (`mean`, else `rate`, when its table has no `mean`). */
export function estimateColumns(
  f: DeclaredEstimates | DeclaredSeries,
  has: (column: string) => boolean,
): { mean: string; low: string | null; high: string | null; n: string | null } {
  const bare = f.kind === 'estimates' && f.intervals === false;
  return {
    mean: f.mean ?? (has('mean') || !has('rate') ? 'mean' : 'rate'),
    low: bare ? null : (f.low ?? 'ci95_low'),
    high: bare ? null : (f.high ?? 'ci95_high'),
    n: f.kind === 'estimates' ? (f.n ?? 'n') : (f.n ?? (has('n') ? 'n' : null)),
  };
}

/** Every column the figure reads: each must be in its table. */
export function columnsOf(f: DeclaredFigure, has: (column: string) => boolean): string[] {
  const common = [...Object.keys(f.where ?? {}), ...(f.facet ? [f.facet] : [])];
  if (f.kind === 'table') return [...common, ...f.columns];
  const e = estimateColumns(f, has);
  const estimate = [e.mean, e.low, e.high, e.n].filter((c): c is string => c !== null);
  if (f.kind === 'estimates') return [...common, f.label, ...estimate];
  return [...common, f.x, ...(f.series ? [f.series] : []), ...estimate];
}

/** Whether a row's value passes a `where` value (`x*`: any value starting with x). */
export function matches(value: string, wanted: string | readonly string[]): boolean {
  const one = (w: string) => (w.endsWith('*') ? value.startsWith(w.slice(0, -1)) : value === w);
  return typeof wanted === 'string' ? one(wanted) : wanted.some(one);
}

/** Every field of each kind, to refuse a misspelt one (it would be silently ignored). */
const FIELDS: Readonly<Record<DeclaredFigure['kind'], readonly string[]>> = {
  estimates: ['label', 'mean', 'low', 'high', 'n', 'percent', 'refs', 'axis', 'unit', 'log', 'intervals'],
  series: ['x', 'series', 'mean', 'low', 'high', 'n', 'axis', 'log', 'percent', 'refs'],
  table: ['columns'],
};
const COMMON = ['kind', 'title', 'note', 'table', 'where', 'facet'];

/**
 * `value` as a declared figure, or a call of `bad` that names the field (`figures[2].x`):
 * the one check of the format, for a plan read by `tafel experiment` and by the report.
 */
export function checkFigure(value: unknown, at: string, bad: (field: string, why: string) => never): DeclaredFigure {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isObject(value)) return bad(at, 'an object');
  const kind = value.kind;
  if (typeof kind !== 'string' || !(FIGURE_KINDS as readonly string[]).includes(kind))
    return bad(`${at}.kind`, `one of ${FIGURE_KINDS.join(', ')}`);
  const fields = [...COMMON, ...FIELDS[kind as DeclaredFigure['kind']]];
  const stray = Object.keys(value).find((k) => !fields.includes(k));
  if (stray) bad(`${at}.${stray}`, `not a field of a figure of kind ${kind} (${fields.join(', ')})`);
  const text = (k: string, required = false) => {
    const v = value[k];
    if ((v !== undefined || required) && (typeof v !== 'string' || v === '')) bad(`${at}.${k}`, 'a non-empty string');
  };
  const flag = (k: string) => {
    if (value[k] !== undefined && typeof value[k] !== 'boolean') bad(`${at}.${k}`, 'true or false');
  };
  text('title', true);
  for (const k of ['note', 'table', 'facet', 'mean', 'low', 'high', 'n', 'unit', 'series']) text(k);
  for (const k of ['percent', 'log']) flag(k);
  if (value.intervals !== undefined && value.intervals !== false) bad(`${at}.intervals`, 'false, or absent');
  if (value.refs !== undefined && !(Array.isArray(value.refs) && value.refs.every((r) => typeof r === 'number')))
    bad(`${at}.refs`, 'a list of numbers');
  if (value.where !== undefined) {
    const where = value.where;
    if (!isObject(where)) return bad(`${at}.where`, 'an object of column: value or [values]');
    for (const [k, v] of Object.entries(where))
      if (!(typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))))
        bad(`${at}.where.${k}`, 'a string, or a non-empty list of strings');
  }
  if (kind === 'estimates') {
    text('label', true);
    text('axis');
  } else if (kind === 'series') {
    text('x', true);
    const axis = value.axis;
    if (axis !== undefined && !(isObject(axis) && Object.values(axis).every((v) => typeof v === 'string')))
      bad(`${at}.axis`, 'an object of x and y labels');
  } else if (!(
    Array.isArray(value.columns) &&
    value.columns.length > 0 &&
    value.columns.every((c) => typeof c === 'string')
  )) {
    bad(`${at}.columns`, 'a non-empty list of column names');
  }
  return value as unknown as DeclaredFigure;
}
