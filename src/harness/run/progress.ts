/**
 * The progress line, on stderr and never on stdout (which carries results). On a
 * terminal one line is redrawn in place (`\r`) at most ten times a second; into a
 * file or a pipe a plain line is written every ten seconds, so a short run writes
 * nothing and a log of a long one stays readable.
 */

export interface ProgressOptions {
  readonly write: (text: string) => void;
  readonly tty: boolean;
  /** Groups of the whole run (or shard), and groups already done before this session. */
  readonly total: number;
  readonly before: number;
  /** What `total` counts (default 'groups'). */
  readonly unit?: string;
  readonly now?: () => number;
}

export interface Progress {
  /** `done` of the total (groups, or the unit given) and the deals played this session; `detail` follows the count. */
  update(done: number, dealsDone: number, detail?: string): void;
  /** Clear the terminal line, before the results are printed. */
  end(): void;
}

export function createProgress(o: ProgressOptions): Progress {
  const now = o.now ?? (() => performance.now());
  const started = now();
  const every = o.tty ? 100 : 10_000;
  let last = started;
  let drawn = false;
  return {
    update(done, deals, detail) {
      const t = now();
      if (t - last < every) return;
      last = t;
      const seconds = (t - started) / 1000;
      const rate = done / seconds;
      const left = o.total - o.before - done;
      const eta = rate > 0 ? clock(left / rate) : '?';
      const count = `${o.before + done}/${o.total} ${o.unit ?? 'groups'}${detail ? ` (${detail})` : ''}`;
      const line = `tafel: ${count}, ${Math.round(deals / seconds)} deals/s, ETA ${eta}`;
      if (o.tty) {
        o.write(`\r${line}\x1b[K`);
        drawn = true;
      } else {
        o.write(`${line}\n`);
      }
    },
    end() {
      if (drawn) o.write('\r\x1b[K');
      drawn = false;
    },
  };
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
