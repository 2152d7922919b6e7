/**
 * Several runs on one pool at once, each in a lane of its own: the batches of an earlier
 * lane go to the workers before any of a later lane, so the runs are played one after
 * another, but the next run's batches fill the workers that the one before leaves idle
 * (its first batches, while it starts; its last, while they finish). An experiment's runs
 * then leave no worker waiting between them: no pool drained and filled again, no ramp-up
 * and tail per run, and a run's database is made and closed while others play.
 *
 * What a run delivers never depends on which batches were in flight with it (schedule.ts),
 * so a run played in a lane gives exactly what it gives alone.
 */
import type { BatchResult } from './batch.js';
import type { Runner } from './pool.js';

type Task = Parameters<Runner['run']>[0];

interface Queued {
  readonly task: Task;
  resolve(r: BatchResult): void;
  reject(e: unknown): void;
}

export class Lanes {
  private readonly queues: Queued[][] = [];
  private readonly closed: boolean[] = [];
  private inFlight = 0;
  /** Batches handed to the pool at once: two a worker, as one run keeps (schedule.ts). */
  private readonly depth: number;

  constructor(private readonly runner: Runner) {
    this.depth = 2 * runner.slots;
  }

  /**
   * Lane `i` as a runner for one run (lower lanes first). Closing it drops its batches
   * not yet handed to the pool (an ended run's: their promises never settle); the pool
   * itself is closed by its owner.
   */
  lane(i: number): Runner {
    while (this.queues.length <= i) {
      this.queues.push([]);
      this.closed.push(false);
    }
    return {
      slots: this.runner.slots,
      run: (task) =>
        new Promise<BatchResult>((resolve, reject) => {
          if (this.closed[i]) return;
          this.queues[i].push({ task, resolve, reject });
          this.pump();
        }),
      close: () => {
        this.closed[i] = true;
        this.queues[i].length = 0;
        return Promise.resolve();
      },
    };
  }

  private pump(): void {
    while (this.inFlight < this.depth) {
      const queue = this.queues.find((q) => q.length > 0);
      if (!queue) return;
      const q = queue.shift()!;
      this.inFlight++;
      // The next batch is chosen once the run that got this one has asked for its next:
      // else a later lane would take the place of the run before it.
      const next = () => {
        this.inFlight--;
        setImmediate(() => this.pump());
      };
      this.runner.run(q.task).then(
        (r) => {
          next();
          q.resolve(r);
        },
        (e: unknown) => {
          next();
          q.reject(e);
        },
      );
    }
  }
}
