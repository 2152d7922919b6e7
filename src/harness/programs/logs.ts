/**
 * Where a bot program's stderr and `info` lines go: one file per bot and thread, beside
 * the run's first output (`runs/x.csv` gives `runs/x.py.w2.log` for bot `py` in the thread
 * whose Node thread id is 2; `w0` is the main thread, which starts a program to read its
 * options).
 * A run without output files keeps them in a directory of its own under the system's
 * temporary directory. Never the terminal: a bot's chatter would break the table.
 */
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';

export interface LogPlace {
  /** The run's directory (absolute) and its output files as typed (relative to it), or null. */
  readonly dir: string;
  readonly outputs: readonly (string | null)[];
}

/** The log of bot `label` in thread `thread`. */
export function logPath(place: LogPlace, label: string, thread: number): string {
  const name = `${label.replace(/[^\w.-]+/g, '_')}.w${thread}.log`;
  const first = place.outputs.find((p) => p !== null);
  if (!first) return join(tmpdir(), `tafel-logs-${process.pid}`, name);
  const path = resolve(place.dir, first);
  const stem = basename(path, extname(path));
  return join(dirname(path), `${stem}.${name}`);
}
