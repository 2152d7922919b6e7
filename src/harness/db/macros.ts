/**
 * SQL macros for honest intervals, the harness's own statistics in DuckDB: every
 * database a run writes has them, and `tafel query` defines them in its session.
 *
 *   wilson(k, n)         the Wilson 95% interval of k successes in n independent trials
 *                        (stats.wilson): {n, rate, low, high}; NULL k or n counts as 0.
 *   cluster_mean(x)      aggregate: the mean of x with a Student-t 95% interval over its
 *                        non-NULL rows (stats.Moments.estimate): {n, mean, low, high, note}.
 *                        Given one value per duplicate group (a bot's mean in the group, or
 *                        the paired difference of two bots), it is the harness's
 *                        cluster-robust estimate (tally.ts): groups are the independent units.
 *   cluster_rate(k, n)   aggregate: the pooled rate sum(k) / sum(n) of per-group counts
 *                        (k events in n trials in each group, NULL counted as 0: DuckDB's
 *                        count_if gives NULL when every comparison is NULL), with a
 *                        Student-t 95% interval over the groups from the ratio estimator's
 *                        linearized residuals (k_i - r n_i) / mean(n), clamped to [0, 1]
 *                        (stats.RatioMoments): {n (groups), rate, low, high, bound, note}
 *   t95(df)              the two-sided 95% Student-t quantile (stats.tQuantile)
 *
 * Where the sample gives no interval, low and high are NULL and `note` says why, as
 * stats.ts's `Estimate.degenerate`: 'few' (fewer than 2 groups or rows), 'no-spread'
 * (every group alike), and for cluster_rate 'all' or 'none' (every or no trial a
 * success), where `bound` is the 95% Wilson bound over the groups that had a trial (a
 * lower bound with 'all', an upper with 'none'; n then counts those groups). `note` and
 * `bound` are NULL otherwise.
 *
 * A question over groups is then one query with a subquery per group, e.g.
 *
 *   SELECT bot, cluster_mean(v) FROM (SELECT bot, run, grp, avg(points) AS v FROM seats GROUP BY ALL) GROUP BY bot
 */
import { normalQuantile, tTerms } from '../stats/stats.js';

/** `CREATE [TEMP] MACRO` statements of the macros (TEMP: for this session only). */
export function macroSql(temp: boolean): string[] {
  const create = temp ? 'CREATE OR REPLACE TEMP MACRO' : 'CREATE OR REPLACE MACRO';
  const t = tTerms(0.95);
  const z = normalQuantile(0.975);
  // wilson: NULL counts as 0.
  const wk = 'coalesce(k, 0)';
  const wn = 'coalesce(n, 0)';
  const p = `(${wk}::DOUBLE / ${wn})`;
  const z2n = `(${z * z} / ${wn})`;
  const centre = `((${p} + ${z2n} / 2) / (1 + ${z2n}))`;
  const half = `(${z} * sqrt(${p} * (1 - ${p}) / ${wn} + ${z2n} / (4 * ${wn})) / (1 + ${z2n}))`;
  // cluster_mean: over the non-NULL rows, all of it (count, avg, stddev, min, max skip NULL alike).
  const mean = 'avg(x::DOUBLE)';
  const meanNote = `CASE WHEN count(x) < 2 THEN 'few' WHEN min(x) = max(x) THEN 'no-spread' END`;
  const meanHalf = 't95(count(x) - 1) * stddev_samp(x::DOUBLE) / sqrt(count(x))';
  // cluster_rate: every row is a group, NULL counts as 0 in every aggregate.
  const k = 'coalesce(k, 0)::DOUBLE';
  const n = 'coalesce(n, 0)::DOUBLE';
  const r = `(CASE WHEN sum(${n}) > 0 THEN sum(${k}) / sum(${n}) END)`;
  const groupRate = (f: string) => `${f}(${k} / ${n}) FILTER (WHERE ${n} > 0)`;
  const rateNote =
    `CASE WHEN NOT sum(${n}) > 0 THEN 'few' WHEN sum(${k}) = sum(${n}) THEN 'all' WHEN sum(${k}) = 0 THEN 'none' ` +
    `WHEN count(*) < 2 THEN 'few' WHEN ${groupRate('min')} = ${groupRate('max')} THEN 'no-spread' END`;
  const residualSd = `sqrt(greatest(0, var_samp(${k}) + ${r} * ${r} * var_samp(${n}) - 2 * ${r} * covar_samp(${k}, ${n}))) / avg(${n})`;
  const rateHalf = `t95(count(*) - 1) * ${residualSd} / sqrt(count(*))`;
  // With every or no trial a success, the groups with a trial are the evidence: n counts them, the bound is over them.
  const tried = `count(*) FILTER (WHERE ${n} > 0)`;
  const bound = `CASE (${rateNote}) WHEN 'all' THEN wilson(${tried}, ${tried}).low WHEN 'none' THEN wilson(0, ${tried}).high END`;
  const rateN = `CASE WHEN (${rateNote}) IN ('all', 'none') THEN ${tried} ELSE count(*) END`;
  return [
    `${create} t95(df) AS CASE WHEN df = 1 THEN ${t.df1} WHEN df = 2 THEN ${t.df2} WHEN df > 2 THEN ` +
      `${t.z} + ${t.g[0]} / df + ${t.g[1]} / df ^ 2 + ${t.g[2]} / df ^ 3 + ${t.g[3]} / df ^ 4 END`,
    `${create} wilson(k, n) AS CASE WHEN ${wn} > 0 THEN {'n': ${wn}, 'rate': ${p}, ` +
      `'low': greatest(0, ${centre} - ${half}), 'high': least(1, ${centre} + ${half})} END`,
    `${create} cluster_mean(x) AS {'n': count(x), 'mean': ${mean}, ` +
      `'low': CASE WHEN (${meanNote}) IS NULL THEN ${mean} - ${meanHalf} END, ` +
      `'high': CASE WHEN (${meanNote}) IS NULL THEN ${mean} + ${meanHalf} END, 'note': ${meanNote}}`,
    `${create} cluster_rate(k, n) AS {'n': ${rateN}, 'rate': ${r}, ` +
      `'low': CASE WHEN (${rateNote}) IS NULL THEN greatest(0, ${r} - ${rateHalf}) END, ` +
      `'high': CASE WHEN (${rateNote}) IS NULL THEN least(1, ${r} + ${rateHalf}) END, ` +
      `'bound': ${bound}, 'note': ${rateNote}}`,
  ];
}
