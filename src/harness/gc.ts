/**
 * Counting garbage collections during a synchronous run. V8 reports each collection
 * to a PerformanceObserver; `takeRecords` collects the ones queued while the event
 * loop was busy with the run.
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export interface GcCount {
  count: number;
  ms: number;
}

export function countGc(): { stop(): GcCount } {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      seen.push(...observer.takeRecords());
      observer.disconnect();
      return { count: seen.length, ms: seen.reduce((t, e) => t + e.duration, 0) };
    },
  };
}
