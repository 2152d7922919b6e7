/**
 * A tuning's report data from its spec, its iterations (each with the step it played
 * and its result) and its verification: the same whether the tuning was just played
 * (`tafel tune --report`) or is read back from its journal (`tafel report`), since both
 * hold the same iterations (a journal's are replayed on paper, exactly as a resume does).
 */
import { findGame } from '../games/index.js';
import { botText, rulesText } from '../harness/run/spec.js';
import { finalValue } from '../harness/tune/spsa.js';
import type { Estimate } from '../harness/stats/stats.js';
import type { Iteration } from '../harness/tune/tune.js';
import {
  botWith,
  headline,
  pairingText,
  scheduleOf,
  tuneCommandOf,
  verifySeed,
  type TuneSpec,
} from '../harness/tune/spec.js';
import type { SprtData, TuneData } from './data.js';
import { whole } from './format.js';

/** The check of the tuned bot, as a tuning or its verification journal tells it. */
export interface TuneVerification {
  /** Tuned minus start per group on the headline metric, positive when the tuned bot did better. */
  readonly estimate: Estimate;
  readonly verdict: string;
  readonly sprt: SprtData | null;
}

/** better / worse / none, or the SPRT's decision; unfinished when it stopped short. */
export function verdictOf(e: Estimate, sprt: { decision: string | null } | null, finished: boolean): string {
  if (!finished) return 'unfinished';
  if (sprt) return sprt.decision ?? 'none';
  return e.low > 0 ? 'better' : e.high < 0 ? 'worse' : 'none';
}

export function tuneData(
  t: TuneSpec,
  iterations: readonly Iteration[],
  verification: TuneVerification | null,
  o: { readonly when: string; readonly sources: readonly string[]; readonly notes: readonly string[] },
): TuneData {
  const game = findGame(t.game)!;
  const metric = headline(game, t.unit);
  const per = t.unit === 'match' ? 'match' : 'deal';
  const start = t.tune.map((p) => p.start);
  const theta = iterations.at(-1)?.theta ?? start;
  const values = t.tune.map((p, i) => finalValue(p, theta[i]));
  const tuned = botWith(t.bot, Object.fromEntries(t.tune.map((p, i) => [p.key, values[i]])));
  const deals = iterations.reduce((a, it) => a + it.deals, 0);
  const how = pairingText(t, game);
  const size = `${whole(iterations.length)} of ${whole(t.iterations)} iterations × ${t.pairs} duplicate groups, ${whole(deals)} ${t.unit === 'match' ? 'matches' : 'deals'} played`;
  const check = t.verify
    ? `${t.verify.sprt ? `SPRT ${t.verify.sprt}, at most ` : ''}${whole(t.verify.groups)} duplicate groups of tuned against start, seed ${verifySeed(t)}`
    : 'none';
  const v = verification;
  const checked = v
    ? `; ${signed(v.estimate.mean)} [${signed(v.estimate.low)}, ${signed(v.estimate.high)}] ${metric.key} per ${per} on ${whole(v.estimate.n)} groups: ${v.verdict}`
    : '';
  const facts: [string, string][] = [
    ['game', `${t.game}: ${game.title}`],
    ['players', String(t.seats)],
    ['rules', Object.keys(t.rules).length ? rulesText(t.rules).replace(/;/g, ', ') : 'none (no variants)'],
    ['start', `${botText(t.bot)}${t.bot.cheats ? ' (cheats: sees every hand)' : ''}`],
    [
      'tuned parameters',
      t.tune
        .map((p) => `${p.key} from ${p.start} within ${p.min} to ${p.max}, c_end ${p.cEnd}, r_end ${p.rEnd}`)
        .join('; '),
    ],
    ['method', `SPSA, ${how}`],
    [
      'result',
      `the groups' paired differences in ${metric.key} per ${per} over their root mean square, Σd / √(mean d²)`,
    ],
    ['schedule', `alpha ${t.alpha}, gamma ${t.gamma}, A ${scheduleOf(t).A} (${t.aRatio} of the iterations)`],
    ['seed', t.seed],
    ['size', size],
    ['verification', check + checked],
    [
      'tuned',
      !iterations.length
        ? 'not yet (no iteration finished)'
        : iterations.length < t.iterations
          ? `partial: ${tuned} (after ${iterations.length} of ${t.iterations} iterations: not a finished tuning)`
          : tuned,
    ],
    ['time', o.when],
    ['tafel', t.tafel],
  ];
  return {
    kind: 'tune',
    identity: {
      title: `Tuning ${t.bot.bot} in ${t.game}: ${t.tune.map((p) => p.key).join(', ')}, seed ${t.seed}`,
      facts,
      command: tuneCommandOf(t),
      sources: o.sources,
    },
    params: t.tune.map((p, i) => ({
      name: p.key,
      min: p.min,
      max: p.max,
      start: p.start,
      tuned: iterations.length ? values[i] : null,
    })),
    iterations: iterations.map((it, n) => ({
      iteration: it.i,
      theta: n === 0 ? start : iterations[n - 1].theta,
      c: it.step.c,
      flips: it.step.flips,
      groups: it.d.length,
      result: it.result,
    })),
    resultLabel: `θ+ minus θ− in ${metric.key} per ${per}, over the groups’ root mean square`,
    tuned,
    verification: v && { metric: `${metric.key} per ${per}`, ...v },
    notes: o.notes,
  };
}

function signed(x: number): string {
  return Number.isFinite(x) ? (x >= 0 ? '+' : '') + Number(x.toPrecision(3)) : '-';
}
