/**
 * The worker thread's entry (loaded by piscina from dist/ as plain JS): play a batch.
 *
 * Its results are in SharedArrayBuffers (see BatchPlayer.play), so posting them copies
 * nothing. They are not transferred: transferring detaches an ArrayBuffer in this
 * thread, and V8 answers the first detach in a thread by adding a detach check to
 * every typed-array access it optimizes from then on; the engine, typed arrays
 * throughout, then played 15-20% slower.
 */
import type { BatchResult } from './batch.js';
import { playTask, type BatchTask } from './task.js';

export default function playBatch(task: BatchTask): Promise<BatchResult> {
  return playTask(task);
}
