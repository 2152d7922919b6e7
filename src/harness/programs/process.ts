/**
 * A bot program as a child process spoken to in lines, synchronously, from the playing
 * thread. Its stdin and stdout are two FIFOs: spawning does not wait for them, and
 * the thread then writes a line and blocks in a read for the answer (no event loop,
 * no spinning; a round trip costs some microseconds). The watchdog (watchdog.ts) ends
 * a wait that is too long by killing the program, which the read sees as end-of-file.
 *
 * The program runs as `sh -c` in its own process group (the terminal's Ctrl-C does not
 * reach it; a kill of the group takes whatever it started), its stderr appended to its
 * log. Its shell opens the FIFOs before it runs the command, so that a command that
 * cannot run ends in end-of-file too, with the shell's complaint in the log.
 */
import type { ChildProcess } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  rmdirSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TafelError } from '../../core/errors.js';
import { BotFault, quote } from './fault.js';
import { killGroup, liveChild, procStat, sleepMs, waitUntil } from './os-process.js';
import type { ProcessRegistry } from './registry.js';
import { nowMs, threadWatchdog } from './watchdog.js';

/**
 * node:child_process, loaded when the first program starts: every command loads this
 * module, few start a program, and loading it is a part of every start-up worth saving
 * (bench/README.md, "Start-up").
 */
let childProcessModule: typeof import('node:child_process') | null = null;
function childProcess(): typeof import('node:child_process') {
  // process.getBuiltinModule, not an import of node:module, which would load it (and its source maps) for every command.
  childProcessModule ??= process.getBuiltinModule('node:child_process');
  return childProcessModule;
}

/**
 * The shell script: `$1` and `$2` the FIFOs, `$3` the command. A simple command
 * replaces the shell (`exec`): a shell left waiting would hold the FIFOs, and a
 * program that closes its stdout would not be seen to. Anything else (`;`, `&&`,
 * pipes, `VAR=x cmd`, keywords and builtins) runs under the shell.
 */
const SCRIPT = 'exec <"$1" >"$2" || exit 126; eval "$3"';
const SHELL_SYNTAX = /[;&|()<>`\n{}!]|^\s*[A-Za-z_][A-Za-z0-9_]*=/;
const SHELL_WORDS = new Set([
  'exec',
  'eval',
  'cd',
  '.',
  'source',
  'set',
  'export',
  'if',
  'for',
  'while',
  'until',
  'case',
  'time',
  'builtin',
  'command',
]);

/** `command` as the script's `$3`: prefixed with `exec` when it is one simple command. */
function shellCommand(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? '';
  return SHELL_SYNTAX.test(command) || SHELL_WORDS.has(first) || first === '' ? command : `exec ${command}`;
}
/** A line longer than this is not a message. */
const MAX_LINE = 1 << 20;
/** The longest wait for the shell to open the FIFOs (only a shell that cannot start takes long). */
const START_MS = 10_000;
/** The longest wait for a program to take a line that does not fit its input pipe. */
const SEND_MS = 10_000;
/** The longest wait for a killed program to be gone. */
const KILL_MS = 1000;
/** How long a program that closed its stdout has to exit before we stop waiting for its status. */
const EXIT_MS = 200;

export interface StartOptions {
  /** A shell command line. */
  readonly command: string;
  /** Its working directory. */
  readonly cwd: string;
  /** The file its stderr is appended to (named in crash messages as given). */
  readonly log: string;
  /** Where the run keeps its programs' pids; null: nowhere. */
  readonly registry: ProcessRegistry | null;
}

export class ProgramProcess {
  private inFd = -1;
  private outFd = -1;
  /** The same FIFO as `outFd`, opened non-blocking: for lines already written. */
  private peekFd = -1;
  private buf = Buffer.allocUnsafe(64 * 1024);
  /** Unread bytes are buf[head, tail); no newline in buf[head, scan). */
  private head = 0;
  private tail = 0;
  private scan = 0;
  private dead = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    private readonly dir: string,
    private readonly slot: number,
    private readonly registry: ProcessRegistry | null,
    readonly log: string,
    /** The log's size when the program started: what it wrote since is its own. */
    private readonly logStart: number,
  ) {}

  /**
   * Start `command`. Throws a crash BotFault when it cannot be started (its shell
   * reports why in the log), a TafelError when the log cannot be opened.
   */
  static start(o: StartOptions): ProgramProcess {
    let logFd: number;
    try {
      logFd = openSync(o.log, 'a');
    } catch (e) {
      throw new TafelError('unwritable', `cannot open the log ${o.log}: ${(e as Error).message}`);
    }
    const slot = o.registry ? o.registry.claim() : -1;
    const dir = o.registry ? o.registry.dir(slot) : mkdtempSync(join(tmpdir(), 'tafel-program-'));
    let child: ChildProcess;
    let logStart: number;
    try {
      mkdirSync(dir, { recursive: true });
      const { execFileSync, spawn } = childProcess();
      execFileSync('mkfifo', ['-m', '600', join(dir, 'in'), join(dir, 'out')]);
      logStart = fstatSync(logFd).size;
      child = spawn('sh', ['-c', SCRIPT, 'sh', join(dir, 'in'), join(dir, 'out'), shellCommand(o.command)], {
        cwd: o.cwd,
        detached: true,
        stdio: ['ignore', 'ignore', logFd],
      });
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      if (o.registry) o.registry.remove(slot);
      throw e;
    } finally {
      closeSync(logFd);
    }
    // Its 'error' (a bad cwd) is reported below, not as an uncaught event.
    child.on('error', () => {});
    child.unref();
    const pid = child.pid;
    if (pid === undefined) {
      rmSync(dir, { recursive: true, force: true });
      if (o.registry) o.registry.remove(slot);
      throw new BotFault('crash', `could not be started in ${o.cwd} (crash)`);
    }
    const p = new ProgramProcess(child, pid, dir, slot, o.registry, o.log, logStart);
    if (o.registry && !o.registry.assign(slot, pid)) {
      p.kill();
      throw new BotFault('crash', 'was stopped as it started: the run is stopping (crash)');
    }
    p.open();
    return p;
  }

  /** Open our ends of the FIFOs; the child's shell opens its ends in the same order. */
  private open(): void {
    const fifoIn = join(this.dir, 'in');
    const fifoOut = join(this.dir, 'out');
    // Read-write does not wait for a reader; it lets the shell's `<in` open.
    const inRw = openSync(fifoIn, constants.O_RDWR);
    try {
      // The open waits for the shell's `>out`: a shell that dies first is the watchdog's.
      const dog = threadWatchdog();
      dog.arm(this.pid, START_MS, fifoOut);
      let fd = -1;
      try {
        fd = openSync(fifoOut, constants.O_RDONLY);
      } finally {
        if (!dog.disarm()) {
          if (fd >= 0) closeSync(fd);
          fd = -1;
        }
      }
      if (fd < 0) {
        this.kill();
        throw new BotFault('crash', `did not start within ${START_MS} ms (crash; its stderr is in ${this.log})`);
      }
      this.outFd = fd;
      this.peekFd = openSync(fifoOut, constants.O_RDONLY | constants.O_NONBLOCK);
      // The shell has opened `in` (before `out`): a write-only end now opens at once, and
      // reports the program's end as EPIPE (a read-write end would not).
      try {
        this.inFd = openSync(fifoIn, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (e) {
        if (errno(e) !== 'ENXIO') throw e;
        throw this.crashed();
      }
    } finally {
      closeSync(inRw);
    }
  }

  /** Whether the program runs (not exited, not killed). */
  get alive(): boolean {
    return !this.dead && liveChild(this.pid);
  }

  /**
   * Write `line` and a newline. A program that has exited is a crash; one that leaves
   * a full input pipe unread for `ms` a time forfeit (`doing`: what it did not do).
   */
  send(line: string, ms = SEND_MS, doing = 'read its input'): void {
    this.mustRun();
    const data = Buffer.from(line + '\n', 'utf8');
    let deadline = 0;
    for (let off = 0; off < data.length;) {
      try {
        off += writeSync(this.inFd, data, off, data.length - off);
      } catch (e) {
        const code = errno(e);
        if (code === 'EPIPE') throw this.crashed();
        if (code !== 'EAGAIN') throw e;
        if (deadline === 0) deadline = nowMs() + ms;
        if (nowMs() >= deadline) {
          this.kill();
          throw new BotFault('time', `did not ${doing} within ${Math.round(ms)} ms (time forfeit)`);
        }
        sleepMs(1);
      }
    }
  }

  /**
   * The next line the program writes (without its line end; empty lines skipped),
   * waiting at most `ms` milliseconds (Infinity: no limit). On time the program is
   * killed: a time forfeit, `did not DOING within ALLOWED ms`. Its end is a crash.
   */
  receive(ms: number, doing = 'answer', allowedMs = ms): string {
    const ready = this.takeLine();
    if (ready !== null) return ready;
    this.mustRun();
    const timed = Number.isFinite(ms);
    const dog = threadWatchdog();
    if (timed) dog.arm(this.pid, Math.max(0, ms), '');
    const late = (): BotFault | null => {
      if (!timed || dog.disarm()) return null;
      this.kill();
      return new BotFault('time', `did not ${doing} within ${Math.round(allowedMs)} ms (time forfeit)`);
    };
    let line: string | null = null;
    let ended = false;
    try {
      while (line === null && !ended) {
        ended = !this.fill(this.outFd);
        if (!ended) line = this.takeLine();
      }
    } catch (e) {
      throw late() ?? e;
    }
    const fault = late();
    if (fault) throw fault;
    if (ended) throw this.crashed();
    return line!;
  }

  /** A line the program has already written, or null: never waits. */
  poll(): string | null {
    const ready = this.takeLine();
    if (ready !== null || this.dead) return ready;
    try {
      // End-of-file is left for `receive` to find.
      while (this.fill(this.peekFd)) {
        const line = this.takeLine();
        if (line !== null) return line;
      }
    } catch (e) {
      if (errno(e) !== 'EAGAIN') throw e;
    }
    return null;
  }

  /** Kill the program and its process group now, and free what it held. Idempotent. */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    killGroup(this.pid);
    // A SIGKILL takes effect soon, not at once: return when it has (whoever asks next sees it gone).
    waitUntil(() => !liveChild(this.pid), KILL_MS);
    for (const fd of [this.inFd, this.outFd, this.peekFd]) if (fd >= 0) closeSync(fd);
    this.inFd = this.outFd = this.peekFd = -1;
    rmSync(this.dir, { recursive: true, force: true });
    if (this.registry) {
      this.registry.remove(this.slot, this.pid);
      // The run's FIFO directory goes with its last program (other programs keep it).
      try {
        rmdirSync(dirname(this.dir));
      } catch {
        // ENOTEMPTY
      }
    }
  }

  /** Send `quit`, give the program `graceMs` to exit, then kill what is left. */
  quit(graceMs: number): void {
    if (this.dead) return;
    try {
      this.send('{"type":"quit"}', graceMs);
    } catch (e) {
      if (!(e instanceof BotFault)) throw e;
    }
    waitUntil(() => !liveChild(this.pid), graceMs);
    this.kill();
  }

  private mustRun(): void {
    if (this.dead) throw new BotFault('crash', 'is not running (crash)');
  }

  /** Read what is there (blocking on `fd` if it blocks) into the buffer: false at end-of-file. */
  private fill(fd: number): boolean {
    if (this.head === this.tail) this.head = this.tail = this.scan = 0;
    else if (this.tail === this.buf.length) {
      if (this.head > 0) {
        this.buf.copy(this.buf, 0, this.head, this.tail);
        this.tail -= this.head;
        this.scan -= this.head;
        this.head = 0;
      } else {
        const bigger = Buffer.allocUnsafe(this.buf.length * 2);
        this.buf.copy(bigger, 0, 0, this.tail);
        this.buf = bigger;
      }
    }
    const n = readSync(fd, this.buf, this.tail, this.buf.length - this.tail, null);
    this.tail += n;
    return n > 0;
  }

  /** The next complete non-empty line in the buffer, or null. */
  private takeLine(): string | null {
    for (;;) {
      const nl = this.buf.subarray(0, this.tail).indexOf(10, this.scan);
      if (nl < 0) {
        this.scan = this.tail;
        if (this.tail - this.head > MAX_LINE) {
          this.kill();
          throw new BotFault('malformed', `wrote a line longer than ${MAX_LINE >> 20} MB (malformed)`);
        }
        return null;
      }
      const start = this.head;
      const end = nl > start && this.buf[nl - 1] === 13 ? nl - 1 : nl;
      this.head = this.scan = nl + 1;
      if (end > start) return this.buf.toString('utf8', start, end);
    }
  }

  /** The crash fault of a program that ended (or closed its stdout): how, and where its stderr is. Kills it. */
  private crashed(): BotFault {
    const how = this.exitText();
    this.kill();
    const last = lastLine(this.log, this.logStart);
    const said = last === null ? '' : `, last: ${quote(last, 60)}`;
    return new BotFault('crash', `${how} before quit (crash; its stderr is in ${this.log}${said})`);
  }

  private exitText(): string {
    waitUntil(() => !liveChild(this.pid), EXIT_MS);
    const stat = procStat(this.pid);
    let code: number | null = null;
    let signal: string | number | null = null;
    if (stat !== null && stat.ppid === process.pid && stat.state === 'Z') {
      const status = stat.waitStatus;
      if ((status & 0x7f) === 0) code = status >> 8;
      else signal = status & 0x7f;
    } else if (stat === null || stat.ppid !== process.pid) {
      // Reaped already (the thread's event loop ran): Node kept the status.
      code = this.child.exitCode;
      signal = this.child.signalCode;
    }
    if (code !== null) return `exited with status ${code}`;
    if (signal !== null) return `was killed by signal ${signal}`;
    return 'closed its stdout';
  }
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** The last non-empty line written to `path` after byte `from` (at most its last 4 KB), or null. */
function lastLine(path: string, from: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(from, size - 4096);
    if (size <= start) return null;
    const bytes = Buffer.alloc(size - start);
    readSync(fd, bytes, 0, bytes.length, start);
    const lines = bytes
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return lines.length ? lines[lines.length - 1] : null;
  } finally {
    closeSync(fd);
  }
}
