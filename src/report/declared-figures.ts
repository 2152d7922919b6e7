/**
 * The figures an experiment's plan declares (declared.ts), drawn from their rows with no
 * knowledge of the experiment: estimates as a forest plot, series as lines with their
 * bands over x, a table as itself. A `facet` makes one panel per value; every figure
 * has the numbers it draws in its table.
 */
import { TafelError } from '../core/errors.js';
import type { Estimate } from '../harness/stats/stats.js';
import type { DeclaredData } from './data.js';
import { estimateColumns, type DeclaredEstimates, type DeclaredFigure, type DeclaredSeries } from './declared.js';
import type { Figure } from './figure.js';
import { estimateCells } from './format.js';
import { estimateRow, forest, lines } from './plots.js';

type Row = Readonly<Record<string, string>>;

export function declaredFigures(part: DeclaredData): Figure[] {
  return part.figures.map(({ figure, rows }) => {
    switch (figure.kind) {
      case 'estimates':
        return estimates(figure, rows);
      case 'series':
        return series(figure, rows);
      case 'table':
        return {
          kind: 'table',
          title: figure.title,
          caption: figure.note ?? '',
          panels: [],
          table: { columns: [...figure.columns], rows: rows.map((r) => figure.columns.map((c) => r[c])) },
        };
    }
  });
}

function estimates(f: DeclaredEstimates, rows: readonly Row[]): Figure {
  const cols = estimateColumns(f, (c) => c in (rows[0] ?? {}));
  const scale = f.percent ? 100 : 1;
  const unit = f.unit ?? 'groups';
  const of = (r: Row) => estimateOf(f, r, cols);
  const bare = f.intervals === false;
  return {
    kind: 'estimates',
    title: f.title,
    caption: f.note ?? '',
    panels: facets(f, rows).map((p) => ({
      title: p.title,
      plot: forest(
        p.rows.map((r) => estimateRow(r[f.label], of(r), scale, unit)),
        { x: `${f.axis ?? cols.mean} →`, percent: f.percent, refs: f.refs, logX: f.log },
      ),
    })),
    table: {
      columns: [
        ...(f.facet ? [f.facet] : []),
        f.label,
        cols.n ?? 'n',
        f.percent ? `${cols.mean} (%)` : cols.mean,
        ...(bare ? [] : ['95% low', '95% high']),
      ],
      rows: rows.map((r) => [
        ...(f.facet ? [r[f.facet]] : []),
        r[f.label],
        cols.n ? r[cols.n] : '',
        ...(bare ? [r[cols.mean]] : estimateCells(of(r), scale, unit)),
      ]),
    },
  };
}

function series(f: DeclaredSeries, rows: readonly Row[]): Figure {
  const cols = estimateColumns(f, (c) => c in (rows[0] ?? {}));
  const scale = f.percent ? 100 : 1;
  const point = (r: Row) => {
    const x = Number(r[f.x]);
    if (r[f.x] === '' || !Number.isFinite(x))
      throw new TafelError(
        'bad-input',
        `report: figure '${f.title}': x column '${f.x}' holds '${r[f.x]}', not a number`,
      );
    const e = estimateOf(f, r, cols);
    return { series: f.series ? r[f.series] : '', x, y: e.mean, low: e.low, high: e.high };
  };
  return {
    kind: 'series',
    title: f.title,
    caption: f.note ?? '',
    panels: facets(f, rows).map((p) => ({
      title: p.title,
      plot: lines(p.rows.map(point), {
        x: `${f.axis?.x ?? f.x} →`,
        y: `↑ ${f.axis?.y ?? cols.mean}${f.log ? ' (symmetric log scale)' : ''}`,
        series: f.series,
        log: f.log,
        percent: f.percent,
        refs: f.refs,
      }),
    })),
    table: {
      columns: [
        ...(f.facet ? [f.facet] : []),
        ...(f.series ? [f.series] : []),
        f.x,
        ...(cols.n ? [cols.n] : []),
        f.percent ? `${cols.mean} (%)` : cols.mean,
        '95% low',
        '95% high',
      ],
      rows: rows.map((r) => [
        ...(f.facet ? [r[f.facet]] : []),
        ...(f.series ? [r[f.series]] : []),
        r[f.x],
        ...(cols.n ? [r[cols.n]] : []),
        ...estimateCells(estimateOf(f, r, cols), scale),
      ]),
    },
  };
}

/** One panel per value of the facet column, in the order of the rows; one untitled panel without one. */
function facets(f: DeclaredFigure, rows: readonly Row[]): { title?: string; rows: Row[] }[] {
  const facet = f.facet;
  if (facet === undefined) return [{ rows: [...rows] }];
  const values = [...new Set(rows.map((r) => r[facet]))];
  return values.map((v) => ({ title: v, rows: rows.filter((r) => r[facet] === v) }));
}

/**
 * A row's estimate. Both bounds empty: the sample gave no interval; a rate's one bound
 * alone is its 95% Wilson bound (src/harness/stats/interval-text.ts).
 */
function estimateOf(
  f: DeclaredFigure,
  r: Row,
  cols: { mean: string; low: string | null; high: string | null; n: string | null },
): Estimate {
  const number = (c: string | null) => (c === null || r[c] === '' ? NaN : Number(r[c]));
  const n = number(cols.n);
  const mean = number(cols.mean);
  const low = number(cols.low);
  const high = number(cols.high);
  if (Number.isNaN(mean) && r[cols.mean] !== '')
    throw new TafelError(
      'bad-input',
      `report: figure '${f.title}': column '${cols.mean}' holds '${r[cols.mean]}', not a number`,
    );
  const e = { n, mean, sd: NaN, low, high };
  // No count (a parameter's value) or no bounds by design: a value, not an estimate missing its interval.
  if (cols.low === null || !Number.isFinite(n) || (Number.isFinite(low) && Number.isFinite(high))) return e;
  if (Number.isFinite(low)) return { ...e, low: NaN, degenerate: 'all', bound: low };
  if (Number.isFinite(high)) return { ...e, high: NaN, degenerate: 'none', bound: high };
  return Number.isFinite(mean) ? { ...e, degenerate: n < 2 ? 'few' : 'no-spread' } : e;
}
