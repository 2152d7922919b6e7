/**
 * Raw throughput: the same play loop and the same batches as a run (real engine, real
 * bot interface, the worker pool when there are several workers), with nothing
 * tallied or written, timed from the first batch handed out to the last one back.
 */
import { TafelError } from '../core/errors.js';
import type { Game, TableConfig } from '../games/game.js';
import { RowLayout } from './batch.js';
import { planOf } from './plan.js';
import type { Lineup } from './lineup.js';
import { createRunner } from './pool.js';
import { playInOrder } from './schedule.js';

export interface BenchResult {
  deals: number;
  seconds: number;
  dealsPerSecond: number;
  /** Garbage collections during play, summed over the workers. */
  gcCount: number;
  gcMs: number;
}

export async function benchDeals(game: Game, table: TableConfig, lineup: Lineup, seed: string, deals: number, workers = 1): Promise<BenchResult> {
  const plan = planOf(game, table, lineup, seed, 'deal', { records: false, dealRows: false, journal: false, moveTimeout: null, skipFailures: false });
  const groups = Math.ceil(deals / lineup.rotations);
  const stride = RowLayout.of(game, lineup.entrants.length).length;
  const runner = createRunner(Math.min(workers, groups));
  const r: BenchResult = { deals: 0, seconds: 0, dealsPerSecond: 0, gcCount: 0, gcMs: 0 };
  let started = 0;
  try {
    // Every thread loads its modules and builds its table before the clock starts (as
    // the main thread has, for one worker): a fixed cost that says nothing of play.
    await Promise.all(Array.from({ length: runner.slots }, () => runner.run({ plan, start: 0, count: 0 })));
    started = performance.now();
    const end = await playInOrder({
      plan,
      runner,
      from: 0,
      to: groups,
      onBatch: (b) => {
        for (let i = 0; i < b.done; i++) r.deals += b.rows[i * stride];
        r.gcCount += b.gcCount;
        r.gcMs += b.gcMs;
      },
    });
    r.seconds = (performance.now() - started) / 1000;
    if (end.end === 'failed') throw new TafelError(end.failure.code, end.failure.message);
  } finally {
    await runner.close();
  }
  r.dealsPerSecond = r.deals / r.seconds;
  return r;
}
