/**
 * What a tuning shows: the iteration CSV (one row per iteration, then the verification's
 * row) for programs, and the summary for people, ending with the tuned bot as a spec
 * that `--bots` accepts. Both are pure functions of the spec, the iterations and the
 * verification, so they are the same bytes for any number of workers.
 */
import { findGame } from '../../games/index.js';
import { commandOf, botText, rulesText } from '../run/spec.js';
import { estimateText } from '../stats/interval-text.js';
import { Moments, type Estimate } from '../stats/stats.js';
import type { Iteration, TuneResult, Verified } from './tune.js';
import { botWith, headline, pairingText, scheduleOf, tuneCommandOf, type TuneSpec } from './spec.js';

/** The columns of the iteration CSV (documented in docs/tune.md); `<key>` for each tuned parameter. */
export function tuneColumns(t: TuneSpec): string[] {
  const perParam = ['theta', 'plus', 'minus', 'c', 'r', 'flip', 'signal'];
  return [
    'game',
    'rules',
    'seed',
    'start',
    'against',
    'metric',
    'row',
    'iteration',
    'groups',
    'deals',
    'diff',
    'result',
    ...t.tune.flatMap((p) => perParam.map((c) => `${c}_${p.key}`)),
    'ci95_low',
    'ci95_high',
    'verdict',
  ];
}

/** Each parameter's signal: the running mean of result x flip per group (see docs/tune.md). */
function signals(t: TuneSpec, iterations: readonly Iteration[]): Moments[][] {
  const running = t.tune.map(() => new Moments());
  return iterations.map((it) =>
    running.map((m, i) => {
      m.add((it.result * it.step.flips[i]) / t.pairs);
      const copy = new Moments();
      copy.merge(m);
      return copy;
    }),
  );
}

/** The signal of every parameter at the end, with its 95% interval over iterations. */
function finalSignals(t: TuneSpec, iterations: readonly Iteration[]): Estimate[] {
  const all = signals(t, iterations);
  return t.tune.map((_, i) => all.at(-1)?.[i].estimate() ?? { n: 0, mean: NaN, sd: NaN, low: NaN, high: NaN });
}

export function tuneRows(
  t: TuneSpec,
  iterations: readonly Iteration[],
  verified: Verified | null,
): Record<string, string | number>[] {
  const game = findGame(t.game)!;
  const identity = {
    game: t.game,
    rules: rulesText(t.rules),
    seed: t.seed,
    start: botText(t.bot),
    against: t.against ? botText(t.against) : '',
    metric: headline(game, t.unit).key,
  };
  const running = signals(t, iterations);
  const rows: Record<string, string | number>[] = iterations.map((it, n) => {
    const row: Record<string, string | number> = {
      ...identity,
      row: 'iteration',
      iteration: it.i,
      groups: it.d.length,
      deals: it.deals,
      diff: it.d.reduce((a, b) => a + b, 0) / it.d.length,
      result: it.result,
    };
    t.tune.forEach((p, i) => {
      Object.assign(row, {
        [`theta_${p.key}`]: it.theta[i],
        [`plus_${p.key}`]: it.step.plus[i],
        [`minus_${p.key}`]: it.step.minus[i],
        [`c_${p.key}`]: it.step.c[i],
        [`r_${p.key}`]: it.step.r[i],
        [`flip_${p.key}`]: it.step.flips[i],
        [`signal_${p.key}`]: running[n][i].mean,
      });
    });
    return row;
  });
  if (verified) {
    const { run, difference } = verified;
    const row: Record<string, string | number> = {
      ...identity,
      row: 'verify',
      iteration: iterations.length,
      groups: run.tally.groups,
      deals: run.tally.deals,
      diff: difference.mean,
      ci95_low: finite(difference.low),
      ci95_high: finite(difference.high),
      verdict: verified.verdict,
    };
    const tuned = run.spec.entrants[0].params;
    for (const p of t.tune) row[`theta_${p.key}`] = tuned[p.key] as number;
    rows.push(row);
  }
  return rows;
}

function finite(x: number): number | string {
  return Number.isFinite(x) ? x : '';
}

function signed(x: number, digits: number): string {
  return Number.isFinite(x) ? (x >= 0 ? '+' : '') + x.toFixed(digits) : '-';
}

/** The tuned bot, as `--bots` takes it. */
export function tunedBot(r: TuneResult): string {
  return botWith(r.spec.bot, Object.fromEntries(r.spec.tune.map((p, i) => [p.key, r.values[i]])));
}

/**
 * The summary on stdout; its last line is `tuned: SPEC` for a finished tuning, and
 * `partial: SPEC (...)` for one that a signal or a failing bot stopped, so that a
 * script taking the last line never takes a partial result for a tuned one.
 */
export function tuneSummary(r: TuneResult): string {
  const t = r.spec;
  const game = findGame(t.game)!;
  const metric = headline(game, t.unit);
  const per = t.unit === 'match' ? 'match' : 'deal';
  const deals = r.iterations.reduce((a, it) => a + it.deals, 0);
  const resumed = r.resumed ? `, resumed after ${r.resumed} iterations` : '';
  const rules = Object.keys(t.rules).length ? rulesText(t.rules).replace(/;/g, ', ') : 'none (no variants)';
  const s = scheduleOf(t);
  const how = pairingText(t, game);
  const lines = [
    `tune: ${t.game}, ${r.iterations.length} of ${t.iterations} iterations x ${t.pairs} groups (${deals} ${t.unit === 'match' ? 'matches' : 'deals'} played), seed ${t.seed}${resumed}, ${r.seconds.toFixed(1)} s`,
    `rules: ${rules}`,
    `start: ${botText(t.bot)}${t.bot.cheats ? ' (cheats: sees every hand)' : ''}`,
    `method: SPSA, ${how}; result: the groups' paired differences in ${metric.key} per ${per} over their root mean square; alpha ${t.alpha}, gamma ${t.gamma}, A ${s.A} (${t.aRatio} of the iterations)`,
    `tuned by: ${tuneCommandOf(t)}`,
    '',
  ];
  const signal = finalSignals(t, r.iterations);
  const table = [
    ['parameter', 'start', 'theta', 'tuned', 'min', 'max', 'c_end', 'r_end', 'signal (95% interval)'],
    ...t.tune.map((p, i) => [
      p.key,
      String(p.start),
      r.theta[i].toPrecision(6),
      String(r.values[i]),
      String(p.min),
      String(p.max),
      String(p.cEnd),
      String(p.rEnd),
      estimateText(signal[i], (x) => signed(x, 3), 'iterations'),
    ]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  for (const row of table)
    lines.push(row.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  '));
  const v = r.verified;
  if (v) {
    const d = v.difference;
    const better = metric.higherIsBetter ? '' : ` (${metric.key}: lower is better, shown so that + is better)`;
    const verdict =
      v.verdict === 'better'
        ? 'the tuned bot is better'
        : v.verdict === 'worse'
          ? 'the tuned bot is worse'
          : v.verdict === 'none'
            ? v.run.sprt
              ? 'no decision'
              : 'no difference shown (the interval holds 0)'
            : v.verdict;
    lines.push(
      '',
      `verify: tuned - start, ${metric.key} per ${per}${better}, on ${v.run.tally.groups} ${v.run.spec.boards ? `boards of ${v.run.spec.boards.file}` : 'fresh groups'} (seed ${v.run.spec.seed}): ${estimateText(d, (x) => signed(x, 3))}: ${verdict}`,
    );
    if (v.run.sprt) lines.push(v.run.sprt.describe());
    lines.push(`verified by: ${commandOf(v.run.spec)}`);
  }
  if (r.interrupted || r.failure) {
    const done = r.iterations.length;
    const where =
      done === t.iterations
        ? `all ${done} iterations, the verification unfinished`
        : `${done} of ${t.iterations} iterations`;
    lines.push('', `partial: ${tunedBot(r)} (stopped after ${where}: not a finished tuning)`);
  } else {
    lines.push('', `tuned: ${tunedBot(r)}`);
  }
  return lines.join('\n');
}
