/**
 * Handing out batches of groups and taking their results back in group order.
 *
 * Batch sizes adapt: the first batches are a couple of groups (nothing is known yet
 * about the bots' speed), later ones are sized to take about `TARGET_MS`, which keeps
 * messaging negligible and still lets an interrupt or a failure stop a run quickly;
 * near the end they shrink so that the workers finish together. Results arrive in any
 * order and wait in a reorder buffer until every group before them is in, so that
 * `onBatch` sees the groups in order whatever the number of workers. Which results
 * are delivered therefore never depends on timing: only the batch boundaries do.
 *
 * The rows of a delivered batch are handed to a later batch to write into (`spare`):
 * `onBatch` reads them before it returns and keeps nothing, and new memory for each
 * batch would cost page faults (see `BatchPlayer.play`).
 *
 * A failure at group f (a bot failed and failures are not skipped) ends the run with
 * exactly the groups before f delivered: batches after f are dropped, batches before
 * it are waited for (one of them may fail earlier, and then that failure wins).
 *
 * A withdrawal (`cut`) ends the run after a chosen group, in group order too: when that
 * group lies inside a batch, the batch is not delivered but played again up to that
 * group (the same results: every group depends only on the seed), so what is delivered
 * never depends on batch boundaries, that is on timing or workers.
 */
import type { BatchResult, Failure } from './batch.js';
import type { RunSpec } from './spec.js';
import type { Runner } from './pool.js';

const TARGET_MS = 100;
const MAX_GROUPS = 1 << 16;
const FIRST_GROUPS = 2;

export interface Schedule {
  readonly spec: RunSpec;
  readonly runner: Runner;
  /** The groups to play: [from, to). */
  readonly from: number;
  readonly to: number;
  /**
   * Called with each batch, in group order, for the `done` groups it finished.
   * Returning 'stop' ends the run there (an SPRT that decided): batches still in
   * flight are dropped, so what was delivered does not depend on timing.
   */
  readonly onBatch: (result: BatchResult) => void | 'stop';
  /**
   * Looks at each batch before it is delivered (nothing delivered yet of it) and returns
   * the group after which the run ends (a bot withdrawn), or null to go on. The run then
   * delivers exactly the groups up to it and ends 'withdrawn'.
   */
  readonly cut?: (result: BatchResult) => number | null;
  /** The most groups a batch may hold (1 for an SPRT, which decides after each group). */
  readonly maxBatch?: number;
  /**
   * Groups a batch, fixed instead of adapted to the bots' speed: a tuning's iteration
   * is a few groups split evenly over the workers, one message each.
   */
  readonly batch?: number;
  readonly signal?: AbortSignal;
}

export type ScheduleEnd =
  | { end: 'done' }
  | { end: 'failed'; failure: Failure }
  | { end: 'aborted' }
  | { end: 'stopped' }
  | { end: 'withdrawn' };

export function playInOrder(s: Schedule): Promise<ScheduleEnd> {
  const { runner, spec } = s;
  return new Promise<ScheduleEnd>((resolve, reject) => {
    let next = s.from;
    let delivered = s.from;
    // Lowered to the group of the first failure seen: nothing at or after it is played or delivered.
    let limit = s.to;
    let failure: Failure | null = null;
    /** Set once a `cut` chose the last group: the run ends 'withdrawn' when it is delivered. */
    let withdrawn = false;
    let running = 0;
    let msPerGroup = NaN;
    let settled = false;
    const waiting = new Map<number, BatchResult>();
    /** Rows already delivered, free for the next batches. */
    const spare: Float64Array[] = [];

    const finish = (end: ScheduleEnd) => {
      if (settled) return;
      settled = true;
      s.signal?.removeEventListener('abort', onAbort);
      resolve(end);
    };
    const onAbort = () => finish({ end: 'aborted' });
    if (s.signal?.aborted) return onAbort();
    s.signal?.addEventListener('abort', onAbort);

    const size = (): number => Math.min(s.maxBatch ?? MAX_GROUPS, s.batch ?? sizeByTime(), limit - next);
    const sizeByTime = (): number => {
      const left = limit - next;
      if (!(msPerGroup > 0)) return Math.min(FIRST_GROUPS, left);
      const wanted = Math.min(MAX_GROUPS, Math.max(1, Math.round(TARGET_MS / msPerGroup)));
      return Math.min(wanted, Math.max(1, Math.ceil(left / (2 * runner.slots))));
    };

    const dispatch = () => {
      // Two batches per slot keep every worker busy while the main thread catches up;
      // the cap on waiting results bounds memory when one batch is much slower.
      while (!settled && next < limit && running < 2 * runner.slots && waiting.size < 4 * runner.slots) {
        const count = size();
        const task = { spec, start: next, count, rows: spare.pop() ?? null };
        next += count;
        running++;
        runner.run(task).then(arrived, (e: unknown) => {
          if (!settled) {
            settled = true;
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      }
      if (!settled && running === 0 && delivered >= limit)
        finish(failure ? { end: 'failed', failure } : withdrawn ? { end: 'withdrawn' } : { end: 'done' });
    };

    const arrived = (r: BatchResult) => {
      if (settled) return;
      running--;
      if (r.done > 0 && r.ms > 0) {
        const m = r.ms / r.done;
        msPerGroup = Number.isNaN(msPerGroup) ? m : (msPerGroup + m) / 2;
      }
      if (r.failure && r.failure.group < limit) {
        limit = r.failure.group;
        failure = r.failure;
      }
      if (r.start < limit) waiting.set(r.start, r);
      for (let w = waiting.get(delivered); w; w = waiting.get(delivered)) {
        waiting.delete(delivered);
        const last = w.done > 0 && s.cut ? s.cut(w) : null;
        if (last !== null && last < w.start + w.done - 1) {
          // Play the batch again up to its last group (batches after it are dropped as they arrive).
          withdrawn = true;
          limit = last + 1;
          next = w.start;
          failure = null;
          waiting.clear();
          break;
        }
        if (last !== null) {
          withdrawn = true;
          limit = last + 1;
        }
        if (w.done > 0 && s.onBatch(w) === 'stop') return finish({ end: 'stopped' });
        if (w.rows.buffer instanceof SharedArrayBuffer && w.rows.buffer.byteLength > 0)
          spare.push(new Float64Array(w.rows.buffer));
        delivered = w.start + w.done;
        if (w.failure) break;
      }
      if (failure && delivered >= limit) return finish({ end: 'failed', failure });
      if (withdrawn && delivered >= limit) return finish({ end: 'withdrawn' });
      dispatch();
    };

    dispatch();
  });
}
