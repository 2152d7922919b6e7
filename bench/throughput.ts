/**
 * Raw throughput: the same play loop and the same batches as a run (real engine, real
 * bot interface, the worker pool when there are several workers), with nothing
 * tallied or written, timed from the first batch handed out to the last one back.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TafelError } from '../src/core/errors.js';
import { RowLayout } from '../src/harness/run/batch.js';
import { createRunner } from '../src/harness/run/pool.js';
import { playInOrder } from '../src/harness/run/schedule.js';
import { watchGc, type GcCount } from './gc.js';
import type { RunSpec } from '../src/harness/run/spec.js';

/** Groups each thread plays before the clock starts. */
const WARM_UP = 2000;

export interface BenchResult {
  deals: number;
  seconds: number;
  dealsPerSecond: number;
  /** Garbage collections during play on this thread; null with worker threads (not counted). */
  gc: GcCount | null;
}

/** Play the spec's groups (random deals by default: see the CLI), nothing written. */
export async function benchDeals(spec: RunSpec, workers = 1): Promise<BenchResult> {
  const groups = spec.groups;
  const stride = new RowLayout(spec.entrants.length, spec.metrics.deal.length, spec.metrics.match.length).length;
  const runner = createRunner(Math.min(workers, groups), { inline: true });
  const r: BenchResult = { deals: 0, seconds: 0, dealsPerSecond: 0, gc: null };
  const gc = runner.slots === 1 ? watchGc() : null;
  try {
    // Every thread loads its modules and builds its table before the clock starts (as
    // the main thread has, for one worker): a fixed cost that says nothing of play.
    await Promise.all(Array.from({ length: runner.slots }, () => runner.run({ spec, start: 0, count: 0 })));
    // A short untimed warm-up: the JIT settles.
    await Promise.all(
      Array.from({ length: runner.slots }, () => runner.run({ spec, start: 0, count: Math.min(WARM_UP, groups) })),
    );
    if (gc) collectStartUpGarbage();
    const started = performance.now();
    const end = await playInOrder({
      spec,
      runner,
      from: 0,
      to: groups,
      onBatch: (b) => {
        for (let i = 0; i < b.done; i++) r.deals += b.rows[i * stride];
      },
    });
    const ended = performance.now();
    r.seconds = (ended - started) / 1000;
    if (gc) r.gc = await gc.between(started, ended);
    if (end.end === 'failed') throw new TafelError(end.failure.code, end.failure.message);
  } finally {
    gc?.stop();
    await runner.close();
  }
  r.dealsPerSecond = r.deals / r.seconds;
  return r;
}

/**
 * One full collection before the clock: start-up garbage (modules, tables, the
 * compiler's), and an incremental marking that loading began, would otherwise be
 * finished inside the timed run and counted as play's. `gc` is exposed for this (V8's
 * flag set at run time reaches contexts made after it), in a context of its own.
 */
function collectStartUpGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
