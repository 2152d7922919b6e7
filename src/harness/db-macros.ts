/**
 * SQL macros for honest intervals, the harness's own statistics in DuckDB: every
 * database a run writes has them, and `tafel query` defines them in its session.
 *
 *   wilson(k, n)         the Wilson 95% interval of k successes in n trials (stats.wilson):
 *                        {n, rate, low, high}
 *   cluster_mean(x)      aggregate: the mean of x with a Student-t 95% interval over its
 *                        rows (stats.Moments.estimate): {n, mean, low, high}. Given one
 *                        value per duplicate group (a bot's mean in the group, or the
 *                        paired difference of two bots), it is the harness's
 *                        cluster-robust estimate (tally.ts): groups are the independent units.
 *   cluster_rate(k, n)   aggregate: the pooled rate sum(k) / sum(n) of per-group counts
 *                        (k events in n trials in each group), with a Student-t 95%
 *                        interval over the groups from the ratio estimator's linearized
 *                        residuals (k_i - r n_i) / mean(n), clamped to [0, 1]; no interval
 *                        when every trial or none succeeded: {n (groups), rate, low, high}
 *   t95(df)              the two-sided 95% Student-t quantile (stats.tQuantile)
 *
 * A question over groups is then one query with a subquery per group, e.g.
 *
 *   SELECT bot, cluster_mean(v) FROM (SELECT bot, run, grp, avg(points) AS v FROM seats GROUP BY ALL) GROUP BY bot
 */
import { normalQuantile, tTerms } from './stats.js';

/** `CREATE [TEMP] MACRO` statements of the macros (TEMP: for this session only). */
export function macroSql(temp: boolean): string[] {
  const create = temp ? 'CREATE OR REPLACE TEMP MACRO' : 'CREATE OR REPLACE MACRO';
  const t = tTerms(0.95);
  const z = normalQuantile(0.975);
  const p = '(k::DOUBLE / n)';
  const z2n = `(${z * z} / n)`;
  const centre = `((${p} + ${z2n} / 2) / (1 + ${z2n}))`;
  const half = `(${z} * sqrt(${p} * (1 - ${p}) / n + ${z2n} / (4 * n)) / (1 + ${z2n}))`;
  const mean = 'avg(x::DOUBLE)';
  const meanHalf = 't95(count(x) - 1) * stddev_samp(x::DOUBLE) / sqrt(count(x))';
  const r = '(sum(k)::DOUBLE / sum(n))';
  const residualSd = `sqrt(greatest(0, var_samp(k::DOUBLE) + ${r} * ${r} * var_samp(n::DOUBLE) - 2 * ${r} * covar_samp(k::DOUBLE, n::DOUBLE))) / avg(n::DOUBLE)`;
  const rateHalf = `CASE WHEN sum(k) > 0 AND sum(k) < sum(n) THEN t95(count(*) - 1) * ${residualSd} / sqrt(count(*)) END`;
  return [
    `${create} t95(df) AS CASE WHEN df = 1 THEN ${t.df1} WHEN df = 2 THEN ${t.df2} WHEN df > 2 THEN ` +
      `${t.z} + ${t.g[0]} / df + ${t.g[1]} / df ^ 2 + ${t.g[2]} / df ^ 3 + ${t.g[3]} / df ^ 4 END`,
    `${create} wilson(k, n) AS CASE WHEN n > 0 THEN {'n': n, 'rate': ${p}, ` +
      `'low': greatest(0, ${centre} - ${half}), 'high': least(1, ${centre} + ${half})} END`,
    `${create} cluster_mean(x) AS {'n': count(x), 'mean': ${mean}, 'low': ${mean} - ${meanHalf}, 'high': ${mean} + ${meanHalf}}`,
    `${create} cluster_rate(k, n) AS {'n': count(*), 'rate': ${r}, ` +
      `'low': greatest(0, ${r} - ${rateHalf}), 'high': least(1, ${r} + ${rateHalf})}`,
  ];
}
