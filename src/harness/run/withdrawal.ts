/**
 * Withdrawing a bot that fails too often (`--max-fault-share` with `--on-bot-error skip`):
 * in group order, once a bot has at least `MIN_FAULTS` dropped groups and more than the
 * share of the groups so far, the run ends after that group. Decided at the groups a bot
 * failed in only, from the run's first group (a resumed part too), so a resumed run
 * withdraws again only if the bot fails again, and the decision never depends on
 * batches or workers.
 */
import type { Failure } from './batch.js';
import type { GroupLine } from './journal.js';

/** Fewer dropped groups never withdraw a bot: a bad start of a long run is not a verdict. */
const MIN_FAULTS = 3;

export interface Withdrawn {
  readonly entrant: number;
  /** Groups the bot failed in, of `groups` so far (the last of them its group). */
  readonly failed: number;
  readonly groups: number;
  /** The bot's first fault in the run. */
  readonly first: Failure;
}

interface Counts {
  groups: number;
  failed: number[];
  first: (Failure | null)[];
}

export class Withdrawal {
  private counts: Counts;
  /** The withdrawal decided, once it is delivered. */
  withdrawn: Withdrawn | null = null;

  constructor(
    entrants: number,
    readonly share: number,
  ) {
    this.counts = {
      groups: 0,
      failed: new Array<number>(entrants).fill(0),
      first: new Array<Failure | null>(entrants).fill(null),
    };
  }

  /** Groups already done (a resumed run's prefix): counted, never checked. */
  addLines(lines: readonly GroupLine[]): void {
    for (const line of lines) this.step(this.counts, 'skipped' in line ? line.failure : null);
  }

  /** The first `groups` groups done (a resumed run's checkpoint), `skipped` the dropped ones: counted, never checked. */
  restore(groups: number, skipped: readonly Failure[]): void {
    for (const f of skipped) this.step(this.counts, f);
    this.counts.groups = groups;
  }

  /**
   * The group after which the run ends, if it is among the `done` groups from `start`
   * (`skipped` the dropped ones, in order), else null; nothing is counted.
   */
  check(start: number, done: number, skipped: readonly Failure[]): number | null {
    return (
      this.scan(
        { ...this.counts, failed: [...this.counts.failed], first: [...this.counts.first] },
        start,
        done,
        skipped,
      )?.group ?? null
    );
  }

  /** Count the delivered groups, deciding the withdrawal if one is among them. */
  add(start: number, done: number, skipped: readonly Failure[]): void {
    this.withdrawn ??= this.scan(this.counts, start, done, skipped);
  }

  private scan(
    c: Counts,
    start: number,
    done: number,
    skipped: readonly Failure[],
  ): (Withdrawn & { group: number }) | null {
    let s = 0;
    for (let g = start; g < start + done; g++) {
      const f = s < skipped.length && skipped[s].group === g ? skipped[s++] : null;
      const w = this.step(c, f);
      if (w) return { ...w, group: g };
    }
    return null;
  }

  private step(c: Counts, f: Failure | null): Withdrawn | null {
    c.groups++;
    if (!f || f.entrant < 0 || f.entrant >= c.failed.length) return null;
    const e = f.entrant;
    c.failed[e]++;
    c.first[e] ??= f;
    if (this.share >= 1 || c.failed[e] < MIN_FAULTS || !(c.failed[e] > this.share * c.groups)) return null;
    return { entrant: e, failed: c.failed[e], groups: c.groups, first: c.first[e] };
  }
}

/** The line that says why: `bot py withdrawn: it failed in 4 of 21 groups (more than 10%, --max-fault-share 0.1); first fault: ...`. */
export function withdrawnText(w: Withdrawn, label: string, share: number): string {
  return `bot ${label} withdrawn: it failed in ${w.failed} of ${w.groups} groups (more than ${+(share * 100).toFixed(4)}%, --max-fault-share ${share}); first fault: ${w.first.message}`;
}
