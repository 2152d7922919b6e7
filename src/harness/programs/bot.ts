/**
 * A bot program (PROTOCOL.md) as a bot of the table. Its spec comes from the handshake:
 * the program's options are the bot's parameters, so `name:key=value`, `tafel bots`
 * and `tafel tune` treat it as any bot.
 *
 * In each thread an entrant keeps a pool of its program's processes: one per seat it
 * holds at once in a deal (a,b,a,b needs two), each taken at the start of a seat's deal
 * and given back at its end, so that a process plays one seat of one deal at a time, as
 * the protocol says, and is started once for the whole run. A process that faults is
 * killed (its state is unknown) and the next deal starts another: a restart. So is
 * one in the middle of a deal that another seat's bot broke off.
 *
 * Time: a move may take `--move-timeout` ms at most, and with a time control
 * (clock.ts) no more than what is left on the seat's clock; the process layer kills a
 * program that is late (its thread waits blocked, so a watchdog thread does it).
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Bot, BotContext, BotSpec, DealSite } from '../../games/bot.js';
import type { Game, Observation, TableConfig } from '../../games/game.js';
import { ProgramClient, type Handshake } from './client.js';
import { timeControlText, type TimeControl } from './clock.js';
import { BotFault } from './fault.js';
import { ProgramProcess } from './process.js';
import type { ProcessRegistry } from './registry.js';

/** How long a program may take to start and answer the handshake (not on any clock). */
const START_MS = 10_000;

/** Where to start a program only to read its handshake: no clock, no move timeout. */
export function handshakePlace(dir: string, log: string, registry: ProcessRegistry | null = null): ProgramPlace {
  return { dir, log, registry, moveTimeout: null, timeControl: null };
}

/** How long a program may take to exit after `quit` before it is killed. */
const QUIT_MS = 1000;

/** What a program needs from the run that starts it, in the thread that plays. */
export interface ProgramPlace {
  /** The directory the command runs in (the run's). */
  readonly dir: string;
  /** The file its stderr and `info` lines go to (this thread's, for this bot). */
  readonly log: string;
  /** Where its processes are registered, for the main thread to stop them at the end; null: nowhere. */
  readonly registry: ProcessRegistry | null;
  readonly moveTimeout: number | null;
  readonly timeControl: TimeControl | null;
}

/** The program's processes in this thread: those idle between deals, and what they cost. */
class ProgramPool {
  private readonly idle: ProgramClient[] = [];
  private logFd = -1;
  /** Processes killed (after a fault, or in a deal broken off) and not yet replaced. */
  private killed = 0;
  /** Processes started to replace a killed one since `takeRestarts`. */
  private restarts = 0;
  /** The options of the first handshake: every later start must declare the same. */
  private options: string | null = null;
  readonly startMs: number;

  constructor(
    readonly command: string,
    private readonly game: Game,
    private readonly table: TableConfig,
    private readonly place: ProgramPlace,
  ) {
    this.startMs = Math.max(START_MS, place.moveTimeout ?? 0);
  }

  /** Start a process and shake hands (a protocol fault if its options differ from the first one's). */
  start(): { client: ProgramClient; hello: Handshake } {
    const { place } = this;
    if (this.logFd < 0) {
      mkdirSync(dirname(place.log), { recursive: true });
      this.logFd = openSync(place.log, 'a');
    }
    const proc = ProgramProcess.start({
      command: this.command,
      cwd: place.dir,
      log: place.log,
      registry: place.registry,
    });
    const client = new ProgramClient(proc, this.game, this.table, this.logFd);
    let hello: Handshake;
    try {
      hello = client.handshake(this.startMs);
    } catch (e) {
      proc.kill();
      throw e;
    }
    const options = JSON.stringify(hello.options);
    if (this.options !== null && options !== this.options) {
      proc.kill();
      throw new BotFault('protocol', 'declared other options than when the run began (protocol violation)');
    }
    this.options = options;
    if (this.killed > 0) {
      this.killed--;
      this.restarts++;
    }
    return { client, hello };
  }

  /** An idle process, or a new one. */
  take(): ProgramClient {
    return this.idle.pop() ?? this.start().client;
  }

  give(client: ProgramClient): void {
    this.idle.push(client);
  }

  /** Kill a process that is no longer to be trusted (or was broken off mid-deal). */
  discard(client: ProgramClient): void {
    client.proc.kill();
    this.killed++;
  }

  takeRestarts(): number {
    const n = this.restarts;
    this.restarts = 0;
    return n;
  }

  /** Quit every idle process (the end of the thread's run). */
  close(): void {
    for (const client of this.idle.splice(0)) client.quit(QUIT_MS);
    if (this.logFd >= 0) closeSync(this.logFd);
    this.logFd = -1;
  }
}

/** One seat of one entrant: takes a process for each deal it plays and keeps the seat's clock. */
class ProgramBot implements Bot {
  private client: ProgramClient | null = null;
  /** Milliseconds left on the seat's clock (Infinity without a time control). */
  private clock = Infinity;

  constructor(
    private readonly pool: ProgramPool,
    private readonly ctx: BotContext,
    private readonly place: ProgramPlace,
  ) {}

  startDeal(obs: Observation, at: DealSite): void {
    const client = this.pool.take();
    this.client = client;
    try {
      client.setOptions(this.ctx.params);
      const tc = this.place.timeControl;
      if (tc && (tc.per === 'deal' || at.deal === 0)) this.clock = tc.baseMs;
      client.deal(at, this.ctx.rng.hex(), obs);
    } catch (e) {
      this.drop();
      throw this.withLog(e);
    }
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    const client = this.client;
    if (client === null) throw new BotFault('protocol', 'was asked to move outside a deal (a referee error)');
    const tc = this.place.timeControl;
    const limit = Math.min(this.place.moveTimeout ?? Infinity, this.clock);
    let move: number;
    try {
      move = client.move(obs, legal, count, limit);
    } catch (e) {
      this.drop();
      throw this.withLog(e);
    }
    if (tc) {
      this.clock -= client.lastMs;
      if (this.clock < 0) {
        this.drop();
        throw this.withLog(
          new BotFault('time', `ran out of time on its clock (${timeControlText(tc)}) (time forfeit)`),
        );
      }
      this.clock += tc.incMs;
    }
    return move;
  }

  finishDeal(obs: Observation): void {
    const client = this.client;
    if (client === null) return;
    try {
      client.result(obs);
    } catch (e) {
      this.drop();
      throw this.withLog(e);
    }
    this.client = null;
    this.pool.give(client);
  }

  abandonDeal(): void {
    this.drop();
  }

  /** A program's fault names its log (where its stderr and `info` lines are), unless it does already. */
  private withLog(e: unknown): unknown {
    if (!(e instanceof BotFault) || e.message.includes(' is in ')) return e;
    return new BotFault(e.fault, `${e.message}; its log is in ${relative(this.place.dir, this.place.log)}`);
  }

  /** The process is mid-deal or failed: it cannot go back to the pool. */
  private drop(): void {
    if (this.client === null) return;
    this.pool.discard(this.client);
    this.client = null;
  }
}

/**
 * The spec of program `name` (`--program name=command`) for `game` at `table`: started
 * and asked its name and options now. With `keep`, the process stays in the pool for
 * the first deal (a thread about to play); else it quits at once (the command line
 * checking the bot and its parameters).
 */
export function programBot(
  name: string,
  command: string,
  game: Game,
  table: TableConfig,
  place: ProgramPlace,
  keep: boolean,
): ProgramSpec {
  const pool = new ProgramPool(command, game, table, place);
  const { client, hello } = pool.start();
  if (keep) pool.give(client);
  else client.quit(QUIT_MS);
  return {
    name,
    description: `bot program '${hello.name}': ${command}`,
    params: hello.options,
    program: { command, pool },
    create: (ctx) => new ProgramBot(pool, ctx, place),
  };
}

/** A bot spec that is a program: what the harness needs to count its restarts and stop it. */
export interface ProgramSpec extends BotSpec {
  readonly program: { readonly command: string; readonly pool: ProgramPool };
}

function isProgramSpec(spec: BotSpec): spec is ProgramSpec {
  return (spec as Partial<ProgramSpec>).program !== undefined;
}

/** The program's processes started again after a fault in this thread since the last call. */
export function takeRestarts(spec: BotSpec): number {
  return isProgramSpec(spec) ? spec.program.pool.takeRestarts() : 0;
}

/** Quit the program's idle processes in this thread (those mid-deal were killed already). */
export function closeProgram(spec: BotSpec): void {
  if (isProgramSpec(spec)) spec.program.pool.close();
}
