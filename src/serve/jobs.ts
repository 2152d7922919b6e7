/**
 * `tafel serve`'s long jobs: an analysis (analysis.ts) and a deal played again from a
 * run's spec (runs.ts). Each runs in a worker thread of its own (analysis-worker.ts),
 * one at a time per server: a second request meanwhile is told to wait (503), a client
 * that goes away stops its job, and a job past its time limit is stopped and answered
 * with a 503 saying so. The page's own requests stay quick meanwhile.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { TafelError } from '../core/errors.js';
import { analyse, type AnalysisRequest } from './analysis.js';
import { regenerate, type RegenerateRequest } from './runs.js';

export type Job =
  { readonly kind: 'analyse'; readonly req: AnalysisRequest } | ({ readonly kind: 'regenerate' } & RegenerateRequest);

/** In the worker: do the job. */
export function runJob(job: Job): Promise<unknown> {
  return job.kind === 'analyse' ? analyse(job.req) : regenerate(job);
}

/** Why a job did not finish: busy, stopped or too slow (the server answers 503). */
export class JobRefused extends Error {}

const WORKER = join(import.meta.dirname, 'analysis-worker.js');

export class Jobs {
  private running: Worker | null = null;

  constructor(private readonly limitMs: number) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Run `job` in a worker; `stop` is called back with a function that ends it early (a client gone). */
  run<T>(job: Job, onStop: (stop: () => void) => void): Promise<T> {
    if (this.running)
      return Promise.reject(new JobRefused('another analysis is running: one at a time, try again when it ends'));
    const worker = new Worker(WORKER, { workerData: job });
    this.running = worker;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (f: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.running = null;
        void worker.terminate();
        f();
      };
      const timer = setTimeout(
        () => finish(() => reject(new JobRefused(`stopped after ${this.limitMs / 1000} s: ask a smaller budget`))),
        this.limitMs,
      );
      onStop(() => finish(() => reject(new JobRefused('stopped: the client went away'))));
      worker.once('message', (m: { value?: T; error?: string }) =>
        finish(() => (m.error !== undefined ? reject(new TafelError('bad-option', m.error)) : resolve(m.value as T))),
      );
      worker.once('error', (e) => finish(() => reject(e)));
      worker.once('exit', () => finish(() => reject(new Error('the analysis worker ended without an answer'))));
    });
  }

  stop(): void {
    void this.running?.terminate();
    this.running = null;
  }
}
