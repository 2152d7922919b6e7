/**
 * A batch of a run as a thread receives it: the run spec as it is, the groups, the
 * shared memory where timed moves are announced (see watch.ts), and the registry where
 * the thread announces the bot programs it starts (programs/registry.ts). Each thread makes the
 * spec live once (it has its own module registry: bots are loaded again, by source,
 * with the parameters the spec holds) and keeps the player for the next batches of the
 * same run: those of the last few runs it served, since runs played one after another
 * on one pool (lanes.ts) hand a thread batches of two or three runs at their seams.
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

/** Players kept in this thread. */
const KEPT = 3;
/** The players of the latest runs in this thread, the most recently used last. */
const players = new Map<string, Promise<BatchPlayer>>();

/** The player of the run `task` belongs to: kept, or made (the least recently used one let go). */
function playerFor(task: BatchTask, key: string): Promise<BatchPlayer> {
  let player = players.get(key);
  if (player) players.delete(key);
  else {
    const registry = task.programs && new ProcessRegistry(task.programs);
    player = liveRun(task.spec, registry).then((run) => new BatchPlayer(run));
  }
  players.set(key, player);
  if (players.size > KEPT) {
    const [oldest, p] = players.entries().next().value!;
    players.delete(oldest);
    // That run is over in this thread: its bot programs quit.
    p.then(
      (x) => x.close(),
      () => undefined,
    );
  }
  return player;
}

export async function playTask(task: BatchTask): Promise<BatchResult> {
  const key = JSON.stringify(task.spec);
  let player: BatchPlayer;
  try {
    player = await playerFor(task, key);
  } catch (e) {
    players.delete(key);
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
