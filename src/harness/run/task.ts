/**
 * A batch of a run as a thread receives it: the run spec as it is, the groups, the
 * shared memory where timed moves are announced (see watch.ts), and the registry where
 * the thread announces the bot programs it starts (programs/registry.ts). Each thread makes the
 * spec live once (it has its own module registry: bots are loaded again, by source,
 * with the parameters the spec holds) and keeps the player for the next batch of the
 * same run.
 */
import { isTafelError } from '../../core/errors.js';
import { BatchPlayer, failureOf, type BatchResult } from './batch.js';
import { liveRun, type RunSpec } from './spec.js';
import { ProcessRegistry } from '../programs/registry.js';
import { MoveWatch } from '../table/watch.js';

export interface BatchTask {
  readonly spec: RunSpec;
  readonly start: number;
  readonly count: number;
  /** A `MoveWatch`'s buffer when moves are timed, else null. */
  readonly watch: SharedArrayBuffer | null;
  /** A `ProcessRegistry`'s buffer: the main thread stops every program in it when the run ends. */
  readonly programs: SharedArrayBuffer | null;
  /**
   * Rows of an earlier batch that the caller has read and no longer needs, for this
   * batch's rows (`BatchPlayer.play`), or null.
   */
  readonly rows?: Float64Array | null;
}

/** The one player of the latest run in this thread (a worker serves one run at a time; the main thread too). */
let current: { key: string; player: Promise<BatchPlayer> } | null = null;

export async function playTask(task: BatchTask): Promise<BatchResult> {
  const key = JSON.stringify(task.spec);
  if (current?.key !== key) {
    // The thread's earlier run is over: its bot programs quit.
    current?.player.then(
      (p) => p.close(),
      () => undefined,
    );
    const registry = task.programs && new ProcessRegistry(task.programs);
    current = { key, player: liveRun(task.spec, registry).then((run) => new BatchPlayer(run)) };
  }
  let player: BatchPlayer;
  try {
    player = await current.player;
  } catch (e) {
    current = null;
    if (!isTafelError(e)) throw e;
    const failure = failureOf(e, task.start);
    return {
      start: task.start,
      done: 0,
      rows: new Float64Array(0),
      skipped: [],
      records: null,
      dealRows: null,
      journal: null,
      db: null,
      failure,
      ms: 0,
      moveTime: null,
      restarts: null,
    };
  }
  return player.play(task.start, task.count, task.watch && new MoveWatch(task.watch), task.rows ?? null);
}
