/**
 * Where batches run: in a pool of worker threads (the only user of piscina), or in
 * this thread for a single worker, which saves starting a thread and loading every
 * module again. Both run the same `playTask`, so their results are the same.
 */
import { Piscina } from 'piscina';
import type { BatchResult } from './batch.js';
import { playTask, type BatchTask } from './plan.js';

export interface Runner {
  /** Batches that can run at once. */
  readonly slots: number;
  run(task: BatchTask): Promise<BatchResult>;
  /** Stop: batches still running are abandoned (their promises reject or never settle). */
  close(): Promise<void>;
}

export function createRunner(workers: number): Runner {
  return workers <= 1 ? inlineRunner() : poolRunner(workers);
}

function inlineRunner(): Runner {
  let closed = false;
  return {
    slots: 1,
    async run(task) {
      // Let signals and I/O in between batches: the batch itself blocks this thread.
      await new Promise((resolve) => setImmediate(resolve));
      // A batch queued before an interrupt is abandoned, not played.
      if (closed) return new Promise<never>(() => {});
      return playTask(task);
    },
    async close() {
      closed = true;
    },
  };
}

function poolRunner(workers: number): Runner {
  const pool = new Piscina<BatchTask, BatchResult>({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 60_000,
  });
  return {
    slots: workers,
    run: (task) => pool.run(task),
    close: () => pool.destroy(),
  };
}
