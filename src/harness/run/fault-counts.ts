/**
 * A run's faults, counted per entrant and kind over the groups dropped and the failure
 * that stopped the run, and the programs restarted after them. The counts come from the
 * groups in order (the journal's skipped lines), so a resumed or merged run counts what
 * one uninterrupted run would; restarts are counted by the playing threads and are not
 * journaled, so they cover this session only.
 */
import type { Failure } from './batch.js';
import { FAULT_KINDS, type FaultKind } from '../programs/fault.js';

const K = FAULT_KINDS.length;

export class FaultCounts {
  /** counts[e * K + k]; the row after the last entrant's holds faults of no known entrant. */
  private readonly counts: Float64Array;
  /** Per entrant: programs started again after a fault. */
  readonly restarts: Float64Array;

  constructor(
    readonly entrants: number,
    /** Groups finished, played or dropped (the `n` of the summary's fault rows). */
    readonly groups = 0,
  ) {
    this.counts = new Float64Array((entrants + 1) * K);
    this.restarts = new Float64Array(entrants);
  }

  /** Count a failure that is a bot's fault (one without a kind, a bot that could not be loaded, is not). */
  add(f: Failure): void {
    if (f.fault === null) return;
    const e = f.entrant >= 0 && f.entrant < this.entrants ? f.entrant : this.entrants;
    this.counts[e * K + FAULT_KINDS.indexOf(f.fault)]++;
  }

  addRestarts(batch: Float64Array | null): void {
    if (batch) for (let e = 0; e < this.entrants; e++) this.restarts[e] += batch[e];
  }

  /** Faults of entrant `e` (`entrants` for those of no known entrant) of `kind`, or of every kind. */
  count(e: number, kind?: FaultKind): number {
    if (kind) return this.counts[e * K + FAULT_KINDS.indexOf(kind)];
    let n = 0;
    for (let k = 0; k < K; k++) n += this.counts[e * K + k];
    return n;
  }

  /** Whether there is anything to show: a fault or a restart. */
  get any(): boolean {
    return this.counts.some((x) => x > 0) || this.restarts.some((x) => x > 0);
  }

  /**
   * The line under a run's table, or null without faults and restarts:
   * `faults: py 3 (time 2, crash 1), restarts 3; java 1 (illegal 1)`.
   */
  line(labels: readonly string[]): string | null {
    if (!this.any) return null;
    const parts: string[] = [];
    for (let e = 0; e <= this.entrants; e++) {
      const n = this.count(e);
      const restarts = e < this.entrants ? this.restarts[e] : 0;
      if (n === 0 && restarts === 0) continue;
      const kinds = FAULT_KINDS.filter((k) => this.count(e, k) > 0).map((k) => `${k} ${this.count(e, k)}`);
      const label = e < this.entrants ? labels[e] : '(bot unknown)';
      parts.push(
        `${label} ${n}${kinds.length ? ` (${kinds.join(', ')})` : ''}${restarts ? `, restarts ${restarts}` : ''}`,
      );
    }
    return `faults: ${parts.join('; ')}`;
  }
}

/** The counts of `failures` (and of `stopped`, the failure that stopped the run, if any). */
export function countFaults(
  entrants: number,
  groups: number,
  failures: readonly Failure[],
  stopped: Failure | null,
): FaultCounts {
  const counts = new FaultCounts(entrants, groups);
  for (const f of failures) counts.add(f);
  if (stopped) counts.add(stopped);
  return counts;
}
