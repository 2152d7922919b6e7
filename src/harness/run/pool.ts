/**
 * Where batches run: in a pool of worker threads (the only user of piscina), or in
 * this thread, which saves starting a thread and loading every module again (the
 * bench's one worker). Both run the same `playTask`, so their results are the same.
 *
 * In the pool the main thread stays free: it takes signals while a bot computes, and
 * it enforces the move timeout. When a run times its moves, every batch announces its
 * move under way in shared memory (watch.ts); a move still running `GRACE_MS` after its
 * timeout is stopped by terminating its worker. The groups the batch had finished are
 * played again (the same results: every group depends only on the seed), the group of
 * the stopped move fails as if its bot had thrown, and with `onBotError: skip` the rest
 * of the batch goes on in a new worker. The reply is one batch result, as if the worker
 * had returned it.
 */
import { Piscina } from 'piscina';
import { RowLayout, type BatchResult, type Failure } from './batch.js';
import { skippedText } from './journal.js';
import type { RunSpec } from './spec.js';
import { failedMove } from '../table/table.js';
import { playTask, type BatchTask } from './task.js';
import { ProcessRegistry } from '../programs/registry.js';
import { MoveWatch, clock, type MoveSite } from '../table/watch.js';

/** How long past its timeout a move may run before its worker is terminated (timer and messaging slack). */
const GRACE_MS = 250;
/** How often the main thread looks at the moves under way. */
const POLL_MS = 50;

export interface Runner {
  /** Batches that can run at once. */
  readonly slots: number;
  run(task: Omit<BatchTask, 'watch' | 'programs'>): Promise<BatchResult>;
  /** Stop: batches still running are abandoned (their promises reject or never settle). */
  close(): Promise<void>;
}

/** A pool of `workers` threads; with `inline` and one worker, this thread instead. */
export function createRunner(workers: number, o: { inline?: boolean } = {}): Runner {
  return withPrograms(workers <= 1 && o.inline ? inlineRunner : poolRunner, Math.max(1, workers));
}

/** How long bot programs get to exit after `quit` at the end of a run, before they are killed. */
const QUIT_MS = 1000;

/**
 * A runner whose batches announce the bot programs they start in one registry, so that
 * closing it quits them all (killing those that do not go), and so does any exit of
 * this process, a second Ctrl-C's included: no program outlives the run.
 */
function withPrograms(make: (workers: number, programs: SharedArrayBuffer) => Runner, workers: number): Runner {
  const registry = new ProcessRegistry();
  const runner = make(workers, registry.buffer);
  const onExit = () => registry.killAll();
  process.on('exit', onExit);
  return {
    slots: runner.slots,
    run: (task) => runner.run(task),
    async close() {
      try {
        await runner.close();
      } finally {
        process.off('exit', onExit);
        registry.stopAll(QUIT_MS);
      }
    },
  };
}

function inlineRunner(_workers: number, programs: SharedArrayBuffer): Runner {
  let closed = false;
  return {
    slots: 1,
    async run(task) {
      // Let signals and I/O in between batches: the batch itself blocks this thread.
      await new Promise((resolve) => setImmediate(resolve));
      // A batch queued before an interrupt is abandoned, not played.
      if (closed) return new Promise<never>(() => {});
      return playTask({ ...task, watch: null, programs });
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}

interface Watched {
  readonly watch: MoveWatch;
  readonly abort: AbortController;
  readonly limit: number;
  /** Where the move was stopped, once it was. */
  stopped: MoveSite | null;
}

function poolRunner(workers: number, programs: SharedArrayBuffer): Runner {
  const pool = new Piscina<BatchTask, BatchResult>({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 60_000,
  });
  const inFlight = new Set<Promise<BatchResult>>();
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | null = null;
  let closing = false;
  // A worker that answers after the pool began to close makes piscina emit 'error'
  // ("Unexpected message from Worker"); by then its batch was abandoned on purpose.
  pool.on('error', (e: unknown) => {
    if (!closing) throw e;
  });

  const poll = () => {
    const now = clock();
    for (const w of watched) {
      const ms = w.watch.running(now);
      if (ms > w.limit + GRACE_MS) {
        w.stopped = w.watch.site();
        watched.delete(w);
        w.abort.abort();
      }
    }
  };

  /** A batch whose moves are watched; see the module's header for what a stopped move does. */
  const guarded = async (task: Omit<BatchTask, 'watch' | 'programs'>, limit: number): Promise<BatchResult> => {
    const w: Watched = { watch: new MoveWatch(), abort: new AbortController(), limit, stopped: null };
    watched.add(w);
    timer ??= setInterval(poll, POLL_MS);
    try {
      return await pool.run({ ...task, watch: w.watch.buffer, programs }, { signal: w.abort.signal });
    } catch (e) {
      if (!w.stopped || closing) throw e;
    } finally {
      watched.delete(w);
    }
    const at = w.stopped;
    const { spec, start, count } = task;
    // No measured time in the message: it goes into the journal, which must not depend on timing.
    const what = `did not answer within the move timeout of ${limit} ms (stopped ${GRACE_MS} ms later)`;
    const failure: Failure = {
      code: 'bot-failed',
      message: failedMove(spec, at, what),
      group: at.group,
      fault: 'time',
      entrant: spec.seatings[at.rotation][at.seat],
      at,
    };
    const before =
      at.group > start
        ? await guarded({ ...task, count: at.group - start, rows: null }, limit)
        : emptyBatch(spec, start);
    if (before.failure || before.done < at.group - start) return before;
    if (spec.onBotError !== 'skip') return { ...before, failure };
    const end = start + count;
    const after =
      at.group + 1 < end
        ? await guarded({ ...task, start: at.group + 1, count: end - at.group - 1, rows: null }, limit)
        : emptyBatch(spec, end);
    return joinBatches(spec, before, failure, after);
  };

  return {
    slots: workers,
    run(task) {
      const limit = task.spec.moveTimeout;
      const p = limit === null ? pool.run({ ...task, watch: null, programs }) : guarded(task, limit);
      inFlight.add(p);
      const forget = () => inFlight.delete(p);
      p.then(forget, forget);
      return p;
    },
    async close() {
      closing = true;
      if (timer) clearInterval(timer);
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

/** A batch of no groups at `start`, with the (empty) texts the run makes. */
function emptyBatch(spec: RunSpec, start: number): BatchResult {
  const text = (made: string | null) => (made === null ? null : new Uint8Array(0));
  const { files } = spec;
  return {
    start,
    done: 0,
    rows: new Float64Array(0),
    skipped: [],
    records: text(files.records),
    dealRows: text(files.dealCsv),
    journal: text(files.journal),
    db: files.db === null ? null : [],
    failure: null,
    ms: 0,
    moveTime: null,
    restarts: null,
  };
}

/** `a`, then the group `failed` dropped, then `b`: one batch result. */
function joinBatches(spec: RunSpec, a: BatchResult, failed: Failure, b: BatchResult): BatchResult {
  const width = new RowLayout(spec.entrants.length, spec.metrics.deal.length, spec.metrics.match.length).length;
  const rows = new Float64Array(new SharedArrayBuffer((a.done + 1 + b.done) * width * 8));
  rows.set(a.rows, 0);
  rows.set(b.rows, (a.done + 1) * width);
  const join = (x: Uint8Array | null, middle: string, y: Uint8Array | null): Uint8Array | null => {
    if (x === null || y === null) return null;
    const m = Buffer.from(middle);
    const out = new Uint8Array(new SharedArrayBuffer(x.length + m.length + y.length));
    out.set(x, 0);
    out.set(m, x.length);
    out.set(y, x.length + m.length);
    return out;
  };
  return {
    start: a.start,
    done: a.done + 1 + b.done,
    rows,
    skipped: [...a.skipped, failed, ...b.skipped],
    records: join(a.records, '', b.records),
    dealRows: join(a.dealRows, '', b.dealRows),
    journal: join(a.journal, skippedText(failed), b.journal),
    db: a.db && b.db && [...a.db, ...b.db],
    failure: b.failure,
    ms: a.ms + b.ms,
    moveTime: a.moveTime && b.moveTime && a.moveTime.map((x, i) => x + b.moveTime![i]),
    restarts: addCounts(a.restarts, b.restarts),
  };
}

function addCounts(a: Float64Array | null, b: Float64Array | null): Float64Array | null {
  return a && b ? a.map((x, i) => x + b[i]) : (a ?? b);
}
