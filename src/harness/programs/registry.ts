/**
 * The programs a run started, in shared memory, so that the main thread can stop them
 * all at the end of a run or on Ctrl-C whichever thread started them. A slot holds a
 * pid (0: free; RESERVED while its program starts) and names the directory of the
 * program's FIFOs, so that the main thread can also ask it to quit.
 */
import { openSync, closeSync, writeSync, rmSync, rmdirSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TafelError } from '../../core/errors.js';
import { killGroup, liveChild, ownChild, waitUntil } from './os-process.js';

/** Header words: [0] the registry's id (names its FIFO directories), [1] 1 once closed. */
const HEADER = 2;
const ID = 0;
const CLOSED = 1;
const RESERVED = -1;
const QUIT = Buffer.from('{"type":"quit"}\n');

export class ProcessRegistry {
  readonly buffer: SharedArrayBuffer;
  private readonly words: Int32Array;

  /** A new registry of `slots` programs, or, given the buffer of one, the same registry (in another thread). */
  constructor(buffer?: SharedArrayBuffer, slots = 256) {
    this.buffer = buffer ?? new SharedArrayBuffer((HEADER + slots) * 4);
    this.words = new Int32Array(this.buffer);
    if (buffer === undefined) this.words[ID] = 1 + Math.floor(Math.random() * 0x7ffffffe);
  }

  /** The number of slots. */
  get size(): number {
    return this.words.length - HEADER;
  }

  /** The directory of the FIFOs of the program in `slot`. */
  dir(slot: number): string {
    return join(baseDir(), `${this.words[ID].toString(36)}-${slot}`);
  }

  /** Claim a free slot for a program about to start (its pid comes with `assign`). */
  claim(): number {
    const n = this.size;
    for (let slot = 0; slot < n; slot++) {
      if (Atomics.compareExchange(this.words, HEADER + slot, 0, RESERVED) === 0) return slot;
    }
    throw new TafelError('too-many-programs', `more than ${n} bot programs running at once`);
  }

  /**
   * Record the pid of the program in a claimed slot. False when the registry is closed
   * (Ctrl-C): the caller must kill the program, as `killAll` could not.
   */
  assign(slot: number, pid: number): boolean {
    Atomics.store(this.words, HEADER + slot, pid);
    return Atomics.load(this.words, CLOSED) === 0;
  }

  /** Claim a slot for a running program: its index. */
  add(pid: number): number {
    const slot = this.claim();
    this.assign(slot, pid);
    return slot;
  }

  /** Free `slot`; given `pid`, only if it still holds that pid (stopAll may have freed it, and another program claimed it). */
  remove(slot: number, pid?: number): void {
    if (pid === undefined) Atomics.store(this.words, HEADER + slot, 0);
    else Atomics.compareExchange(this.words, HEADER + slot, pid, 0);
  }

  /** The pids of the programs running now. */
  pids(): number[] {
    return this.live().map(([, pid]) => pid);
  }

  /**
   * Ask every program to quit, give them `graceMs` to exit, SIGKILL the process groups
   * of the rest and remove their FIFOs. Blocks the calling thread (for the end of a run).
   */
  stopAll(graceMs: number): void {
    const live = this.live();
    for (const [slot] of live) askToQuit(join(this.dir(slot), 'in'));
    waitUntil(() => live.every(([, pid]) => !liveChild(pid)), graceMs);
    for (const [slot, pid] of live) this.drop(slot, pid);
    // A SIGKILL takes effect soon, not at once: return when they are gone.
    waitUntil(() => live.every(([, pid]) => !liveChild(pid)), 1000);
    tidyBase();
  }

  /** SIGKILL every program now (Ctrl-C), and refuse any that starts from now on. */
  killAll(): void {
    Atomics.store(this.words, CLOSED, 1);
    for (const [slot, pid] of this.live()) this.drop(slot, pid);
    tidyBase();
  }

  private live(): [slot: number, pid: number][] {
    const out: [number, number][] = [];
    for (let slot = 0; slot < this.size; slot++) {
      const pid = Atomics.load(this.words, HEADER + slot);
      if (pid > 0) out.push([slot, pid]);
    }
    return out;
  }

  private drop(slot: number, pid: number): void {
    // Only our own child (an exited one too: stragglers of its group go with it); a
    // pid reaped and reused by another process is left alone.
    if (ownChild(pid)) killGroup(pid);
    rmSync(this.dir(slot), { recursive: true, force: true });
    this.remove(slot, pid);
  }
}

/** The directory that holds this process's program FIFOs. */
function baseDir(): string {
  return join(tmpdir(), `tafel-${process.pid}`);
}

function askToQuit(fifoIn: string): void {
  try {
    const fd = openSync(fifoIn, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fd, QUIT);
    } finally {
      closeSync(fd);
    }
  } catch {
    // ENXIO (no reader: it is exiting), ENOENT, EAGAIN (its input is full): the kill follows.
  }
}

function tidyBase(): void {
  try {
    rmdirSync(baseDir());
  } catch {
    // Not empty (another registry's programs), or already gone.
  }
}
