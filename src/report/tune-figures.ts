/**
 * The figures of a tuning: each parameter's path over the iterations with the
 * perturbation it was tried at and its bounds, the result of each iteration with the
 * running mean of the results, and the check of the tuned bot against the start.
 */
import * as Plot from '@observablehq/plot';
import { Moments } from '../harness/stats.js';
import type { TuneData } from './data.js';
import type { Figure } from './figure.js';
import { estimateCells, fixed, whole } from './format.js';
import { bandDomain, forest, running } from './plots.js';
import { sprtFigure } from './run-figures.js';

export function tuneFigures(t: TuneData): Figure[] {
  const figures = [trajectoryFigure(t), resultsFigure(t)];
  if (t.verification?.kind === 'paired') {
    const v = t.verification;
    figures.push({
      kind: 'tune-verify',
      title: 'The tuned bot against the start, on fresh groups',
      caption: `The paired difference in ${v.metric} per duplicate group, tuned minus start, on groups the tuning never played, with its 95% interval: the tuning helped (at 95%) only if the interval lies right of 0.`,
      panels: [
        {
          plot: forest(
            [{ label: 'tuned − start', mean: v.estimate.mean, low: v.estimate.low, high: v.estimate.high }],
            {
              x: `${v.metric} per group →`,
              refs: [0],
              hollowUnsure: true,
            },
          ),
        },
      ],
      table: {
        columns: ['bots', 'groups', 'mean', '95% low', '95% high'],
        rows: [['tuned − start', whole(v.estimate.n), ...estimateCells(v.estimate)]],
      },
    });
  } else if (t.verification?.kind === 'sprt') {
    figures.push(sprtFigure(t.verification.sprt));
  }
  return figures;
}

function trajectoryFigure(t: TuneData): Figure {
  const panels = t.params.map((p, i) => {
    const path = t.iterations.map((it) => ({
      x: it.iteration,
      y: it.theta[i],
      low: Math.max(p.min, it.theta[i] - it.c[i]),
      high: Math.min(p.max, it.theta[i] + it.c[i]),
    }));
    const last = t.iterations[t.iterations.length - 1]?.iteration ?? 0;
    return {
      title: `${p.name}: from ${p.start} to ${p.tuned} (bounds ${p.min} to ${p.max})`,
      plot: {
        ...running(path, { x: 'iteration →', y: `↑ ${p.name}`, refs: [p.start] }),
        y: { label: `↑ ${p.name}`, grid: true, domain: [p.min, p.max] },
        marks: [
          Plot.areaY(path, { x: 'x', y1: 'low', y2: 'high', fill: '#2f6db3', fillOpacity: 0.15 }),
          Plot.ruleY([p.start], { stroke: '#777', strokeDasharray: '4,3' }),
          Plot.line(path, { x: 'x', y: 'y', stroke: '#2f6db3', strokeWidth: 1.5 }),
          Plot.dot([{ x: last, y: p.tuned }], { x: 'x', y: 'y', r: 4, fill: '#b33', title: () => `tuned: ${p.tuned}` }),
        ],
      },
    };
  });
  return {
    kind: 'tune-path',
    title: 'Each parameter over the iterations',
    caption:
      'The parameter (line) at each iteration, and the range theta ± c_k that theta+ and theta- were played at (band), within its bounds (the y axis); the dashed line is the start, the red dot the tuned value.',
    panels,
    table: {
      columns: ['iteration', ...t.params.flatMap((p) => [p.name, `c (${p.name})`])],
      rows: t.iterations.map((it) => [
        String(it.iteration),
        ...it.theta.flatMap((x, i) => [String(Number(x.toPrecision(6))), String(Number(it.c[i].toPrecision(6)))]),
      ]),
    },
  };
}

function resultsFigure(t: TuneData): Figure {
  const m = new Moments();
  const points = t.iterations.map((it) => {
    m.add(it.result);
    const e = m.estimate();
    return { x: it.iteration, y: e.mean, low: e.low, high: e.high, result: it.result };
  });
  const shown = points.filter((p) => Number.isFinite(p.low));
  const base = running(shown, {
    x: 'iteration →',
    y: `↑ ${t.resultLabel}`,
    refs: [0],
    yDomain: bandDomain(shown, 10, [0]),
  });
  return {
    kind: 'tune-results',
    title: 'Results of theta+ against theta-',
    caption:
      `Each iteration’s result (grey dot: ${t.resultLabel}) and their running mean with its 95% interval (line and band). ` +
      'Early on theta+ and theta- lie far apart, so results are large; as the steps shrink and theta settles they tend to 0.',
    panels: [
      {
        plot: {
          ...base,
          marks: [
            Plot.dot(points, { x: 'x', y: 'result', r: 1.5, fill: '#999', fillOpacity: 0.6, clip: true }),
            ...(base.marks ?? []),
          ],
        },
      },
    ],
    table: {
      columns: ['iteration', 'result', 'running mean', '95% low', '95% high'],
      rows: points.map((p) => [
        String(p.x),
        fixed(p.result, 4),
        ...estimateCells({ mean: p.y, low: p.low, high: p.high }),
      ]),
    },
  };
}
