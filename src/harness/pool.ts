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
    close() {
      closed = true;
      return Promise.resolve();
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
  const inFlight = new Set<Promise<BatchResult>>();
  let closing = false;
  // A worker that answers after the pool began to close makes piscina emit 'error'
  // ("Unexpected message from Worker"); by then its batch was abandoned on purpose.
  pool.on('error', (e: unknown) => {
    if (!closing) throw e;
  });
  return {
    slots: workers,
    run(task) {
      const p = pool.run(task);
      inFlight.add(p);
      const forget = () => inFlight.delete(p);
      p.then(forget, forget);
      return p;
    },
    async close() {
      closing = true;
      // Batches take ~100 ms: let them finish rather than kill threads mid-message,
      // but do not wait on a bot that never returns.
      const settled = Promise.allSettled([...inFlight]);
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
      await pool.destroy();
    },
  };
}

/** How long closing waits for the batches in flight before it terminates the workers. */
const CLOSE_WAIT_MS = 2000;
