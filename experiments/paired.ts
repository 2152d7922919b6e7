/**
 * Duplicate comparisons of two bots, for the experiments that make them (ladder,
 * versus): each comparison is a run of the experiment's plan (plan.ts: the worker pool,
 * journal, `--resume`, shards, a database per run), and each group's values are read
 * back from the run's database, so that comparisons can be paired across runs on the
 * same cards (every run of one seed deals group g the same cards), which the harness's
 * summary does not allow.
 *
 * The first two entrants of the lineup are compared: per group, the first's mean over
 * its seats minus the second's, per metric, oriented so that positive is better for the
 * first. The runs time their bots' moves (`timeMoves`): wall time, forced moves
 * included, summed over the workers outside the results, which stay the same for any
 * number of workers.
 */
import type { Metric } from '../src/games/game.js';
import { sqlName, sqlString } from '../src/harness/db/db.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { runQuery } from '../src/harness/db/query.js';
import type { MoveTime } from '../src/harness/run/run.js';
import { Moments, RatioMoments, type Estimate } from '../src/harness/stats/stats.js';
import type { Unit } from '../src/harness/table/table.js';
import type { PlannedRun } from './experiment.js';
import { tableOf } from './plan.js';

export interface Played {
  /** Per metric (the unit's, in order), per group: first minus second, oriented; NaN where a group does not count. */
  diffs: Float64Array[];
  /** The first entrant's rate of seat-deals (or seat-matches) won, for a binary `won` metric: pooled, its interval over groups. */
  winRate: Estimate | null;
}

/** The run of a comparison: the lineup `bots` (a `--bots` text whose first two entrants are compared), timed. */
export function pairedRun(
  name: string,
  game: string,
  players: number,
  bots: string,
  unit: Unit,
  groups: number,
  seed: string,
): PlannedRun {
  return { name, game, players, bots, unit, groups, seed, timeMoves: true };
}

/** A run's name in the work directory from a bot's text: `pimc:worlds=40` -> `pimc-worlds-40`. */
export function runName(...parts: string[]): string {
  return parts.map((p) => p.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')).join('-');
}

/** The per-group differences of a comparison's run, from its databases (`files`). */
export async function pairedValues(files: readonly string[], run: PlannedRun, threads: number): Promise<Played> {
  const { unit, groups } = run;
  const { game, table: seating } = tableOf(run);
  const lineup = await resolveLineup(run.bots, game, seating.seats);
  const [a, b] = lineup.entrants.map((e) => sqlString(e.label));
  const metrics: readonly Metric[] = unit === 'match' ? game.matchMetrics : game.dealMetrics;
  const table = unit === 'match' ? 'matches' : 'seats';
  const columns = metrics.map(
    (m) => `avg(${sqlName(m.key)}) FILTER (WHERE bot = ${a}) - avg(${sqlName(m.key)}) FILTER (WHERE bot = ${b})`,
  );
  const r = await runQuery(files, `SELECT grp, ${columns.join(', ')} FROM ${table} GROUP BY grp ORDER BY grp`, {
    threads,
  });
  const diffs = metrics.map(() => new Float64Array(groups).fill(NaN));
  for (const row of r.rows) {
    const g = row[0] as number;
    metrics.forEach((m, i) => {
      const d = row[i + 1] as number | null;
      if (d !== null) diffs[i][g] = m.higherIsBetter ? d : -d;
    });
  }
  const won = metrics.find((m) => m.key === 'won' && m.binary);
  let winRate: Estimate | null = null;
  if (won) {
    // Per group: partners share a result, so the group, not the seat, is the unit.
    const w = await runQuery(
      files,
      `SELECT coalesce(sum(won), 0)::DOUBLE, count(won)::DOUBLE FROM ${table} WHERE bot = ${a} GROUP BY grp ORDER BY grp`,
      { threads },
    );
    const rate = new RatioMoments();
    for (const [k, n] of w.rows as [number, number][]) rate.add(k, n);
    winRate = rate.estimate();
  }
  return { diffs, winRate };
}

/** Mean milliseconds per move of entrant `e` in a run's timed result, and the moves timed. */
export function perMove(times: readonly MoveTime[] | null | undefined, e: number): { ms: number; moves: number } {
  const t = times?.[e];
  return t && t.moves > 0 ? { ms: t.ms / t.moves, moves: t.moves } : { ms: NaN, moves: 0 };
}

/** The mean of the values that are not NaN, with its Student-t 95% interval. */
export function meanOf(values: Float64Array): Estimate {
  const m = new Moments();
  for (const v of values) if (!Number.isNaN(v)) m.add(v);
  return m.estimate();
}
