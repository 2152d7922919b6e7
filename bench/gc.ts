/**
 * Counting garbage collections during a timed run on this thread. V8 reports each
 * collection to a PerformanceObserver, but delivers the entries only when the event
 * loop is free, never in the middle of a synchronous run. So the observer records
 * throughout, and the count is read after the run has yielded once: the collections
 * whose start falls inside the run's time window.
 */
import { PerformanceObserver } from 'node:perf_hooks';

export interface GcCount {
  count: number;
  ms: number;
}

export interface GcWatch {
  /** The collections that started between `from` and `to` (performance.now() times). */
  between(from: number, to: number): Promise<GcCount>;
  stop(): void;
}

export function watchGc(): GcWatch {
  const starts: number[] = [];
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      starts.push(e.startTime);
      durations.push(e.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async between(from, to) {
      // Let V8 deliver the entries queued while the run held the thread.
      await new Promise((resolve) => setTimeout(resolve, 20));
      let count = 0;
      let ms = 0;
      starts.forEach((t, i) => {
        if (t >= from && t <= to) {
          count++;
          ms += durations[i];
        }
      });
      return { count, ms };
    },
    stop: () => observer.disconnect(),
  };
}
