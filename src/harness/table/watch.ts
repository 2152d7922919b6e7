/**
 * The move under way, in shared memory: the thread that plays writes when each timed
 * move began and where it is (group, rotation, deal, seat); the main thread reads it
 * to stop a move that runs past the move timeout, which the playing thread cannot do
 * itself (a bot that never returns never gives it the chance).
 *
 * Times are `performance.timeOrigin + performance.now()`, comparable across threads.
 * An aligned 8-byte store is one instruction on the machines tafel runs on, so a
 * reader sees the old or the new time, never a mix.
 */
const WATCH_BYTES = 32;

export function clock(): number {
  return performance.timeOrigin + performance.now();
}

export interface MoveSite {
  readonly group: number;
  readonly rotation: number;
  readonly deal: number;
  readonly seat: number;
}

export class MoveWatch {
  private readonly since: Float64Array;
  private readonly at: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(WATCH_BYTES)) {
    this.since = new Float64Array(buffer, 0, 1);
    this.at = new Int32Array(buffer, 8, 4);
  }

  begin(group: number, rotation: number, deal: number, seat: number): void {
    this.at[0] = group;
    this.at[1] = rotation;
    this.at[2] = deal;
    this.at[3] = seat;
    this.since[0] = clock();
  }

  end(): void {
    this.since[0] = 0;
  }

  /** Milliseconds the move under way has run, or -1 when none is. */
  running(now = clock()): number {
    const t = this.since[0];
    return t > 0 ? now - t : -1;
  }

  site(): MoveSite {
    return { group: this.at[0], rotation: this.at[1], deal: this.at[2], seat: this.at[3] };
  }
}
