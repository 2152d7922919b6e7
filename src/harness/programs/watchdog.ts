/**
 * Stops a program whose answer is late. The playing thread waits for a program by
 * blocking in a read (no event loop, no spinning), so it cannot time itself out: a
 * watchdog thread can. One small worker per playing thread, started lazily from source
 * text (so it runs from dist/ and from the tests' sources alike), unref'd, sleeping in
 * Atomics.wait until the armed deadline or a new arming. At the deadline it kills the
 * program's process group, whose end wakes the blocked read with end-of-file.
 *
 * Arming and firing race by design; one compare-and-swap on a word that holds both the
 * state and the arming's generation decides: the watchdog's (armed -> fired) or
 * disarm's (armed -> idle). A stale arming can never fire a later one.
 */
import type { Worker } from 'node:worker_threads';

const IDLE = 0;
const ARMED = 1;
const FIRED = 2;
const CLOSED = 3;

/** Control block: Int32 [0] generation * 4 + state, [1] pid, [2] path length; Float64 at byte 16 the deadline; the path's bytes from byte 32. */
const PATH_AT = 32;
const BYTES = 4096;

/** Monotonic milliseconds, the same clock in every thread of the process. */
export function nowMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const ctl = new Int32Array(workerData, 0, 3);
const deadline = new Float64Array(workerData, 16, 1);
const path = new Uint8Array(workerData, ${PATH_AT});
const now = () => { const t = process.hrtime(); return t[0] * 1e3 + t[1] / 1e6; };
for (;;) {
  const word = Atomics.load(ctl, 0);
  const state = word & 3;
  if (state === ${CLOSED}) break;
  if (state !== ${ARMED}) { Atomics.wait(ctl, 0, word); continue; }
  const left = deadline[0] - now();
  if (left > 0) { Atomics.wait(ctl, 0, word, Number.isFinite(left) ? left : undefined); continue; }
  const pid = ctl[1];
  const fifo = Buffer.from(path.subarray(0, ctl[2])).toString('utf8');
  if (Atomics.compareExchange(ctl, 0, word, word - ${ARMED} + ${FIRED}) !== word) continue;
  if (pid > 1) { try { process.kill(-pid, 'SIGKILL'); } catch {} }
  // A reader still blocked in opening the program's stdout opens once a writer comes and goes.
  if (fifo !== '') { try { fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {} }
}
`;

export class Watchdog {
  private readonly buffer = new SharedArrayBuffer(BYTES);
  private readonly ctl = new Int32Array(this.buffer, 0, 3);
  private readonly deadline = new Float64Array(this.buffer, 16, 1);
  private readonly path = new Uint8Array(this.buffer, PATH_AT);
  private worker: Worker | null = null;
  private generation = 0;
  private armedWord = 0;
  private lastPath = '';

  /**
   * Kill process group `pid` in `ms` milliseconds unless disarmed first, and then
   * release a reader blocked in opening the FIFO `fifoOut` (empty: none).
   */
  arm(pid: number, ms: number, fifoOut: string): void {
    if (this.worker === null) this.startWorker();
    if (fifoOut !== this.lastPath) {
      const bytes = Buffer.from(fifoOut, 'utf8');
      if (bytes.length > BYTES - PATH_AT) throw new Error(`watchdog: path too long: ${fifoOut}`);
      this.path.set(bytes);
      this.ctl[2] = bytes.length;
      this.lastPath = fifoOut;
    }
    this.ctl[1] = pid;
    this.deadline[0] = nowMs() + ms;
    this.generation = (this.generation + 1) & 0x1fffffff;
    this.armedWord = this.generation * 4 + ARMED;
    Atomics.store(this.ctl, 0, this.armedWord);
    Atomics.notify(this.ctl, 0);
  }

  /** Cancel the arming: false when the watchdog fired first (the program is killed). */
  disarm(): boolean {
    const word = this.armedWord;
    return Atomics.compareExchange(this.ctl, 0, word, word - ARMED + IDLE) === word;
  }

  close(): void {
    Atomics.store(this.ctl, 0, CLOSED);
    Atomics.notify(this.ctl, 0);
    void this.worker?.terminate();
    this.worker = null;
  }

  private startWorker(): void {
    // node:worker_threads only now: every command loads this module, few start a watchdog,
    // and loading it is a part of every start-up worth saving (bench/README.md, "Start-up").
    // process.getBuiltinModule, not createRequire: importing node:module would load it too.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: this.buffer });
    worker.unref();
    this.worker = worker;
  }
}

let forThread: Watchdog | null = null;

/** The watchdog of the calling thread (module state is per thread), started at its first arming. */
export function threadWatchdog(): Watchdog {
  forThread ??= new Watchdog();
  return forThread;
}
