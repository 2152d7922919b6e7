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
  readonly now?: () => number;
}

export interface Progress {
  update(groupsDone: number, dealsDone: number): void;
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
    update(groups, deals) {
      const t = now();
      if (t - last < every) return;
      last = t;
      const seconds = (t - started) / 1000;
      const rate = groups / seconds;
      const left = o.total - o.before - groups;
      const eta = rate > 0 ? clock(left / rate) : '?';
      const line = `tafel: ${o.before + groups}/${o.total} groups, ${Math.round(deals / seconds)} deals/s, ETA ${eta}`;
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
