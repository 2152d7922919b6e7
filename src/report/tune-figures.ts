/**
 * The figures of a tuning: each parameter's path over the iterations with the
 * perturbation it was tried at and its bounds, the result of each iteration with the
 * running mean of the results, and the check of the tuned bot against the start.
 */
import * as Plot from '@observablehq/plot';
import { Moments } from '../harness/stats/stats.js';
import type { TuneData } from './data.js';
import type { Figure } from './figure.js';
import { estimateCells, fixed, whole } from './format.js';
import { bandDomain, forest, running } from './plots.js';
import { sprtFigure } from './run-figures.js';

/** At most about this many iterations are drawn and tabled, so that a page does not grow with the tuning. */
const SHOWN = 300;

/** Every iteration up to SHOWN, else every k-th (the signal still averages all of them), and always the last. */
function kept(t: TuneData, k: number): boolean {
  const stride = Math.ceil(t.iterations.length / SHOWN);
  return k % stride === stride - 1 || k === t.iterations.length - 1;
}

function shownIterations(t: TuneData): TuneData['iterations'] {
  return t.iterations.filter((_, k) => kept(t, k));
}

function thinned(t: TuneData): string {
  const stride = Math.ceil(t.iterations.length / SHOWN);
  return stride > 1 ? `One iteration in ${stride} is shown, of ${t.iterations.length}. ` : '';
}

export function tuneFigures(t: TuneData): Figure[] {
  if (t.iterations.length === 0) return [];
  const figures = [trajectoryFigure(t), resultsFigure(t)];
  const v = t.verification;
  if (v && Number.isFinite(v.estimate.low)) {
    const row = { label: 'tuned − start', mean: v.estimate.mean, low: v.estimate.low, high: v.estimate.high };
    figures.push({
      kind: 'tune-verify',
      title: `The tuned bot against the start, on fresh groups: ${VERDICTS[v.verdict] ?? v.verdict}`,
      caption: `The paired difference in ${v.metric} per duplicate group, tuned minus start (positive: the tuned bot did better), on groups the tuning never played, with its 95% interval: the tuning helped (at 95%) only if the interval lies right of 0.`,
      panels: [{ plot: forest([row], { x: `tuned − start, ${v.metric} →`, refs: [0], hollowUnsure: true }) }],
      table: {
        columns: ['bots', 'groups', 'mean', '95% low', '95% high', 'verdict'],
        rows: [['tuned − start', whole(v.estimate.n), ...estimateCells(v.estimate), v.verdict]],
      },
    });
  }
  if (v?.sprt) figures.push(sprtFigure(v.sprt));
  return figures;
}

const VERDICTS: Record<string, string> = {
  better: 'better',
  worse: 'worse',
  none: 'no difference shown',
  H1: 'the SPRT accepted H1 (better)',
  H0: 'the SPRT accepted H0',
  unfinished: 'unfinished',
};

function trajectoryFigure(t: TuneData): Figure {
  const panels = t.params.map((p, i) => {
    const within = (x: number) => Math.min(p.max ?? Infinity, Math.max(p.min ?? -Infinity, x));
    const path = shownIterations(t).map((it) => ({
      x: it.iteration,
      y: it.theta[i],
      low: within(it.theta[i] - it.c[i]),
      high: within(it.theta[i] + it.c[i]),
    }));
    const last = t.iterations[t.iterations.length - 1].iteration;
    const domain = pathDomain(path, p);
    const bounds = p.min !== null && p.max !== null ? ` (bounds ${p.min} to ${p.max})` : '';
    return {
      title: `${p.name}: from ${p.start} to ${p.tuned ?? '?'}${bounds}`,
      plot: {
        ...running(path, { x: 'iteration →', y: `↑ ${p.name}`, refs: [p.start] }),
        y: { label: `↑ ${p.name}`, grid: true, domain },
        marks: [
          Plot.ruleY(
            [p.min, p.max].filter((b): b is number => b !== null && b >= domain[0] && b <= domain[1]),
            { stroke: '#b33', strokeOpacity: 0.5 },
          ),
          Plot.areaY(path, { x: 'x', y1: 'low', y2: 'high', fill: '#2f6db3', fillOpacity: 0.15 }),
          Plot.ruleY([p.start], { stroke: '#777', strokeDasharray: '4,3' }),
          Plot.line(path, { x: 'x', y: 'y', stroke: '#2f6db3', strokeWidth: 1.5 }),
          ...(p.tuned === null
            ? []
            : [
                Plot.dot([{ x: last, y: p.tuned }], {
                  x: 'x',
                  y: 'y',
                  r: 4,
                  fill: '#b33',
                  title: () => `tuned: ${p.tuned}`,
                }),
              ]),
        ],
      },
    };
  });
  return {
    kind: 'tune-path',
    title: 'Each parameter over the iterations',
    caption:
      thinned(t) +
      'The parameter θ before each iteration (line), and the range θ ± c_k that θ+ and θ− were played at (band), ' +
      `within its bounds (red lines, where the view reaches them${t.params.some((p) => p.min === null) ? '; not in these inputs' : ''}); ` +
      'the dashed line is the start, the red dot the tuned value (θ at the end, rounded as the tuned bot plays it).',
    panels,
    table: {
      columns: ['iteration', ...t.params.flatMap((p) => [p.name, `c (${p.name})`]), 'result'],
      rows: shownIterations(t).map((it) => [
        String(it.iteration),
        ...it.theta.flatMap((x, i) => [String(Number(x.toPrecision(6))), String(Number(it.c[i].toPrecision(6)))]),
        fixed(it.result, 4),
      ]),
    },
  };
}

/**
 * The signal of each parameter: the running mean of result × flip / groups, how far
 * theta+ beat theta- per group (in standard deviations) along the parameter's flips.
 * Its sign is the way the parameter wants to go; it fades to 0 as theta nears the
 * optimum, or stays there when the steps were too small to measure.
 */
function resultsFigure(t: TuneData): Figure {
  const series = t.params.map((_, i) => {
    const m = new Moments();
    const all = t.iterations.map((it) => {
      const step = (it.result * it.flips[i]) / it.groups;
      m.add(step);
      const e = m.estimate();
      return { x: it.iteration, y: e.mean, low: e.low, high: e.high, step };
    });
    return all.filter((_, k) => kept(t, k));
  });
  const panels = t.params.map((p, i) => {
    const points = series[i];
    const shown = points.filter((q) => Number.isFinite(q.low));
    const base = running(shown, {
      x: 'iteration →',
      y: `↑ signal of ${p.name}`,
      refs: [0],
      yDomain: bandDomain(shown, 10, [0]),
    });
    const end = points[points.length - 1];
    const way =
      end.low > 0 ? 'wants to go up' : end.high < 0 ? 'wants to go down' : 'no direction shown (the interval holds 0)';
    return {
      title: `${p.name}: ${fixed(end.y, 3)} at the end, ${way}`,
      plot: {
        ...base,
        marks: [
          Plot.dot(points, { x: 'x', y: 'step', r: 1.5, fill: '#999', fillOpacity: 0.6, clip: true }),
          ...(base.marks ?? []),
        ],
      },
    };
  });
  return {
    kind: 'tune-results',
    title: 'Which way each parameter wants to go: its signal',
    caption:
      thinned(t) +
      `Each iteration’s result (${t.resultLabel}) times the parameter’s flip, per group (grey dots: how far θ+ beat θ− along that parameter, in standard deviations), ` +
      'and their running mean with its 95% interval (line and band). Above 0 the parameter wants to go up, below 0 down; ' +
      'it fades to 0 as θ nears the optimum, or stays at 0 when the steps c_k make no measurable difference.',
    panels,
    table: {
      columns: ['iteration', ...t.params.flatMap((p) => [`signal (${p.name})`, '95% interval'])],
      rows: shownIterations(t).map((it, n) => [
        String(it.iteration),
        ...series.flatMap((points) => {
          const [mean, low, high] = estimateCells({ mean: points[n].y, low: points[n].low, high: points[n].high });
          return [mean, low === '' ? '' : `[${low}, ${high}]`];
        }),
      ]),
    },
  };
}

/** The range the path, its band and the start span, with a margin, within the bounds. */
function pathDomain(
  path: readonly { y: number; low: number; high: number }[],
  p: TuneData['params'][number],
): [number, number] {
  const values = [...path.flatMap((q) => [q.low, q.high]), p.start, ...(p.tuned === null ? [] : [p.tuned])];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.08 || 1;
  return [Math.max(p.min ?? -Infinity, lo - pad), Math.min(p.max ?? Infinity, hi + pad)];
}
