/**
 * What Linux says of a child process, read synchronously from /proc (the playing
 * thread has no event loop to hear of exits), and blocking sleeps that cost no CPU.
 */
import { readFileSync } from 'node:fs';

export interface ProcStat {
  /** 'R', 'S', 'Z' (exited, not yet reaped)... */
  readonly state: string;
  readonly ppid: number;
  /** The wait status once exited (field 52 of /proc/<pid>/stat): exit code << 8, or the signal. */
  readonly waitStatus: number;
}

/** /proc/<pid>/stat, or null when there is no such process. */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields follow its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], ppid: Number(fields[1]), waitStatus: Number(fields[49] ?? 0) };
}

/** Whether `pid` is a child of this process, running or exited but not reaped (so not some other process reusing the pid). */
export function ownChild(pid: number): boolean {
  return procStat(pid)?.ppid === process.pid;
}

/** Whether `pid` is a child of this process that has not exited. */
export function liveChild(pid: number): boolean {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z' && s.state !== 'X' && s.ppid === process.pid;
}

/** SIGKILL the process group led by `pid`; no error if it is gone. */
export function killGroup(pid: number): void {
  if (!(pid > 1)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Block the thread for `ms` milliseconds without spinning. */
export function sleepMs(ms: number): void {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

/** Wait up to `ms` for `done()` to hold, checking at growing steps up to 10 ms; whether it did. */
export function waitUntil(done: () => boolean, ms: number, deadline = performance.now() + ms): boolean {
  for (let step = 0.5; ; step = Math.min(step * 2, 10)) {
    if (done()) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    sleepMs(Math.min(step, left));
  }
}
