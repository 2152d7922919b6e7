/**
 * The worker thread's entry (loaded by piscina from dist/ as plain JS): play a batch.
 *
 * Results are copied back, not transferred. Transferring detaches an ArrayBuffer in
 * this thread, and V8 answers the first detach in a thread by adding a detach check
 * to every typed-array access it optimizes from then on: the engine, typed arrays
 * throughout, played 15-20% slower. A batch's results are a few MB per 100 ms of play,
 * copied in well under a millisecond.
 */
import type { BatchResult } from './batch.js';
import { playTask, type BatchTask } from './plan.js';

export default function playBatch(task: BatchTask): Promise<BatchResult> {
  return playTask(task);
}
