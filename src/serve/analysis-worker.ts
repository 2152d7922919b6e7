/**
 * The worker thread of `tafel serve`'s long jobs (jobs.ts): one job a worker, its
 * answer posted back, then it ends. The server stops it (`terminate`) when the client
 * goes away or the job runs past its time, so no search outlives its request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runJob, type Job } from './jobs.js';

runJob(workerData as Job).then(
  (value) => parentPort!.postMessage({ value }),
  (e: unknown) => parentPort!.postMessage({ error: String((e as Error)?.message ?? e).split('\n')[0] }),
);
