/**
 * The plot shapes the figures share, as Observable Plot options: the forest plot
 * (estimates with their intervals, one row each), the running estimate (a line with
 * its interval band) and lines of estimates over x, one per series, each with its band.
 * Figures fill them with their own rows and words.
 */
import * as Plot from '@observablehq/plot';
import type { PlotOptions, ScaleOptions } from '@observablehq/plot';
import { noIntervalNote } from '../harness/stats/interval-text.js';
import type { Estimate } from '../harness/stats/stats.js';
import { fixed } from './format.js';

/** One row of a forest plot: an estimate and its 95% interval (NaN bounds: none). */
export interface ForestRow {
  readonly label: string;
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  /** A note for the row's tooltip; on a row without an interval, why (written beside the dot too). */
  readonly note?: string;
}

/** A forest row of an estimate (`scale` 100: shown in percent); one without an interval says why (`unit`: what n counts). */
export function estimateRow(label: string, e: Estimate, scale = 1, unit = 'groups'): ForestRow {
  const row = { label, mean: e.mean, low: e.low, high: e.high };
  const show = (x: number) => `${fixed(x * scale, 2)}${scale === 100 ? '%' : ''}`;
  return e.degenerate ? { ...row, note: noIntervalNote(e, show, unit) } : row;
}

export interface ForestOptions {
  readonly x: string;
  /** Values are shares, shown in percent. */
  readonly percent?: boolean;
  /** Reference lines: zero for differences, a ceiling... */
  readonly refs?: readonly number[];
  /** Colour each row by its label, on this domain (the run's bots), or draw them all alike. */
  readonly colors?: readonly string[];
  /** Fill a dot only when its interval excludes the first reference line (a difference "shown"). */
  readonly hollowUnsure?: boolean;
  readonly logX?: boolean;
}

const ROW = 26;
const WIDTH = 660;

/** Room on the left for the longest label. */
export function leftMargin(labels: readonly string[]): number {
  return Math.min(260, Math.max(60, 12 + 6.6 * Math.max(0, ...labels.map((l) => l.length))));
}

export function forest(rows: readonly ForestRow[], o: ForestOptions): PlotOptions {
  const labels = [...new Set(rows.map((r) => r.label))];
  const ref = o.refs?.[0] ?? 0;
  const sure = (r: ForestRow) => r.low > ref || r.high < ref;
  const color = o.colors ? { stroke: 'label', fill: 'label' } : { stroke: 'currentColor', fill: 'currentColor' };
  const fmt = (x: number) => (o.percent ? `${(100 * x).toFixed(1)}%` : String(Number(x.toPrecision(4))));
  const title = (r: ForestRow) =>
    `${r.label}: ${fmt(r.mean)}${Number.isFinite(r.low) ? ` [${fmt(r.low)}, ${fmt(r.high)}]` : ''}${r.note ? ` (${r.note})` : ''}`;
  const dotFill = o.hollowUnsure ? (r: ForestRow) => (sure(r) ? 'currentColor' : 'white') : color.fill;
  // Every value the same (a difference that is always 0): a range around it, not a point.
  const values = [...rows.flatMap((r) => [r.mean, r.low, r.high]), ...(o.refs ?? [])].filter(Number.isFinite);
  const flat = values.length > 0 && values.every((v) => v === values[0]);
  const span = o.percent ? 0.01 : 1;
  // A row without an interval says so beside its dot, so that a bare dot never reads as certainty:
  // to the right of a dot in the left half of the values, else to its left.
  const noted = rows.filter((r) => r.note && !(Number.isFinite(r.low) && Number.isFinite(r.high)));
  const middle = (Math.min(...values) + Math.max(...values)) / 2;
  const toRight = noted.filter((r) => !(r.mean > middle));
  const toLeft = noted.filter((r) => r.mean > middle);
  const words = { y: 'label', x: 'mean', text: 'note', fontSize: 10, fill: '#555' } as const;
  return {
    width: WIDTH,
    height: 44 + ROW * labels.length,
    marginLeft: leftMargin(labels),
    marginRight: 24,
    x: {
      label: o.x,
      grid: true,
      percent: o.percent,
      type: o.logX ? 'log' : 'linear',
      nice: true,
      domain: flat ? [values[0] - span, values[0] + span] : undefined,
    },
    y: { domain: labels, label: null },
    color: o.colors ? { domain: o.colors } : undefined,
    marks: [
      ...(o.refs ?? []).map((x) => Plot.ruleX([x], { stroke: '#777', strokeDasharray: '4,3' })),
      Plot.ruleY(rows, { y: 'label', x1: 'low', x2: 'high', stroke: color.stroke, strokeWidth: 2.5 }),
      Plot.dot(rows, {
        y: 'label',
        x: 'mean',
        r: 4.5,
        fill: dotFill,
        stroke: color.stroke,
        strokeWidth: 1.5,
        title,
      }),
      Plot.text(toRight, { ...words, dx: 9, textAnchor: 'start' }),
      Plot.text(toLeft, { ...words, dx: -9, textAnchor: 'end' }),
    ],
  };
}

export interface RunningOptions {
  readonly x: string;
  readonly y: string;
  readonly logX?: boolean;
  /** Horizontal reference lines (zero). */
  readonly refs?: readonly number[];
  /** The y range to show (the band of the first few points can be very wide); marks are clipped to it. */
  readonly yDomain?: readonly [number, number];
  readonly color?: string;
}

/** A running estimate: its line, its 95% band, and its last point. */
export function running(
  points: readonly { x: number; y: number; low: number; high: number }[],
  o: RunningOptions,
): PlotOptions {
  const color = o.color ?? '#2f6db3';
  const last = points[points.length - 1];
  return {
    width: WIDTH,
    height: 230,
    marginLeft: 56,
    marginRight: 24,
    x: { label: o.x, type: o.logX ? 'log' : 'linear', grid: true },
    y: { label: o.y, grid: true, domain: o.yDomain ? [...o.yDomain] : undefined },
    marks: [
      Plot.areaY(points, { x: 'x', y1: 'low', y2: 'high', fill: color, fillOpacity: 0.18, clip: true }),
      ...(o.refs ?? []).map((y) => Plot.ruleY([y], { stroke: '#777', strokeDasharray: '4,3' })),
      Plot.line(points, { x: 'x', y: 'y', stroke: color, strokeWidth: 1.6, clip: true }),
      Plot.dot(last ? [last] : [], {
        x: 'x',
        y: 'y',
        r: 3.5,
        fill: color,
        title: (p: { x: number; y: number; low: number; high: number }) =>
          `after ${p.x}: ${p.y.toPrecision(4)} [${p.low.toPrecision(4)}, ${p.high.toPrecision(4)}]`,
      }),
    ],
  };
}

/** A y range that holds the band from `from` on (all of it when there are fewer points), and `refs`. */
export function bandDomain(
  points: readonly { x: number; low: number; high: number; y: number }[],
  from: number,
  refs: readonly number[] = [],
): [number, number] | undefined {
  const shown = points.filter((p) => p.x >= from);
  const use = shown.length >= 2 ? shown : points;
  const values = [...use.flatMap((p) => [p.low, p.high, p.y]), ...refs].filter(Number.isFinite);
  if (values.length === 0) return undefined;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.05 || 1;
  return [lo - pad, hi + pad];
}

/** A point of a line of estimates: its series, x, the estimate and its 95% interval (NaN: none). */
export interface LinePoint {
  readonly series: string;
  readonly x: number;
  readonly y: number;
  readonly low: number;
  readonly high: number;
}

export interface LinesOptions {
  readonly x: string;
  readonly y: string;
  /** The legend's title; no legend (one colour) when absent. */
  readonly series?: string;
  /** A symmetric-log y axis: values that span orders of magnitude. */
  readonly log?: boolean;
  readonly percent?: boolean;
  /** Horizontal reference lines. */
  readonly refs?: readonly number[];
}

/** Lines of estimates over x, one per series in the order given, each with its 95% band and its points. */
export function lines(points: readonly LinePoint[], o: LinesOptions): PlotOptions {
  const domain = [...new Set(points.map((p) => p.series))];
  // Few whole-number steps (hands, table sizes): a tick at each, none between.
  const steps = [...new Set(points.map((p) => p.x))];
  const by = o.series === undefined ? { fill: '#2f6db3', stroke: '#2f6db3' } : { fill: 'series', stroke: 'series' };
  const show = (x: number) => (o.percent ? `${(100 * x).toFixed(1)}%` : String(Number(x.toPrecision(4))));
  const title = (p: LinePoint) =>
    `${o.series === undefined ? '' : `${p.series}, `}${p.x}: ${show(p.y)}${Number.isFinite(p.low) ? ` [${show(p.low)}, ${show(p.high)}]` : ''}`;
  const y: ScaleOptions = o.log
    ? symlogAxis(o.y, [...points.map((p) => p.high), ...points.map((p) => p.y)])
    : { label: o.y, grid: true, percent: o.percent };
  return {
    width: WIDTH,
    height: 260,
    marginLeft: 56,
    marginRight: 24,
    x: { label: o.x, grid: true, ticks: steps.length <= 20 && steps.every(Number.isInteger) ? steps : undefined },
    y,
    color: o.series === undefined ? undefined : { domain, legend: true, label: o.series },
    marks: [
      ...(o.refs ?? []).map((r) => Plot.ruleY([r], { stroke: '#777', strokeDasharray: '4,3' })),
      Plot.areaY(points, { x: 'x', y1: 'low', y2: 'high', z: 'series', fill: by.fill, fillOpacity: 0.15 }),
      Plot.line(points, { x: 'x', y: 'y', z: 'series', stroke: by.stroke, strokeWidth: 1.5 }),
      Plot.dot(points, { x: 'x', y: 'y', fill: by.fill, r: 2.5, title }),
    ],
  };
}

/**
 * A y axis on a symmetric log scale (it takes 0, unlike a log scale) from 0 to the power of
 * ten above `values`, with a tick at each power: values that grow by orders of magnitude
 * (the pot of random players at large tables).
 */
function symlogAxis(label: string, values: readonly number[]): ScaleOptions {
  const top = Math.ceil(Math.log10(Math.max(1, ...values.filter(Number.isFinite))));
  const ticks = [0, ...Array.from({ length: top + 1 }, (_, k) => 10 ** k)];
  const short = (x: number) => (x >= 1e6 ? `${x / 1e6}M` : x >= 1e3 ? `${x / 1e3}k` : String(x));
  return { label, grid: true, type: 'symlog', domain: [0, 10 ** top], ticks, tickFormat: short };
}
