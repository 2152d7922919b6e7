/**
 * The referee's process layer against misbehaving programs (fixtures/programs/
 * misbehave.py): each fault is classified with its one-line message, time forfeits
 * fire on time, waiting costs no CPU, and no program is left behind.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { newSets, setSelect } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { ProgramClient } from '../src/harness/programs/client.js';
import { BotFault, FAULT_KINDS, type FaultKind } from '../src/harness/programs/fault.js';
import { procStat, waitUntil } from '../src/harness/programs/os-process.js';
import { ProgramProcess } from '../src/harness/programs/process.js';
import { ProcessRegistry } from '../src/harness/programs/registry.js';
import { reseedBot, reseedCards } from '../src/harness/table/seeding.js';
import { ROOT, tmpDir } from './cli-helpers.js';
import { tableOf } from './contract-helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'programs', 'misbehave.py');
const VIERSCHE = GAMES.find((g) => g.name === 'viersche')!;
const HINDERSCHE = GAMES.find((g) => g.name === 'hindersche')!;
const SEAT = 1;

interface Started {
  readonly proc: ProgramProcess;
  readonly client: ProgramClient;
  readonly log: string;
  readonly tag: string;
}

const opened: number[] = [];
const started: ProgramProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) p.kill();
  for (const fd of opened.splice(0)) closeSync(fd);
});

let tags = 0;
function program(
  args: string,
  game: Game = VIERSCHE,
  registry: ProcessRegistry | null = null,
  command?: string,
): Started {
  const log = join(tmpDir(), 'bot.log');
  const tag = `t${process.pid}x${tags++}`;
  const proc = ProgramProcess.start({
    command: command ?? `python3 '${FIXTURE}' --tag ${tag} ${args}`,
    cwd: ROOT,
    log,
    registry,
  });
  started.push(proc);
  const fd = openSync(log, 'a');
  opened.push(fd);
  return { proc, client: new ProgramClient(proc, game, tableOf(game, 4, {}), fd), log, tag };
}

/** Play `deals` deals with the program at SEAT and random play elsewhere: the program's moves. */
function play(client: ProgramClient, game: Game, table: TableConfig, deals: number, ms = 2000): number {
  const key = seedKey('program-process');
  const state = game.newState(table);
  const match = game.newMatch(table, { singleDeal: true, index: 0 });
  const cards = new Rng();
  const seatRng = new Rng();
  const others = new Rng(key, 9);
  const legal = newSets(1);
  let moves = 0;
  for (let group = 0; group < deals; group++) {
    match.reset(group);
    reseedCards(cards, key, group, 0);
    reseedBot(seatRng, key, group, 0, SEAT, 0);
    match.startDeal(state, cards);
    client.deal({ group, rotation: 0, deal: 0 }, seatRng.hex(), state.observe(SEAT));
    while (!state.isTerminal()) {
      const count = state.legal(legal, 0);
      let move: number;
      if (state.toMove === SEAT) {
        move = client.move(state.observe(SEAT), legal, count, ms);
        moves++;
      } else move = setSelect(legal, 0, others.below(count));
      state.apply(move);
    }
    client.result(state.observe(SEAT));
  }
  return moves;
}

function fault(run: () => unknown): BotFault {
  try {
    run();
  } catch (e) {
    if (e instanceof BotFault) return e;
    throw e;
  }
  throw new Error('no fault');
}

/** Whether any process's command line holds `tag`. */
function running(tag: string): boolean {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .some((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'latin1').includes(tag);
      } catch {
        return false;
      }
    });
}

/** Gone: no such process, or exited (a zombie that the blocked thread has not reaped yet). */
function gone(pid: number): boolean {
  const s = procStat(pid);
  return s === null || s.state === 'Z' || s.ppid !== process.pid;
}

describe('a well-behaved program', () => {
  it.each([VIERSCHE, HINDERSCHE].map((g) => [g.name, g] as const))(
    '%s: handshake, deals at seat 1, quit; nothing left running',
    (_, game) => {
      const { proc, client, tag } = program('--chatter', game);
      const hello = client.handshake(5000);
      expect(hello).toEqual({
        name: 'misbehave',
        options: [{ key: 'spice', type: 'number', default: 0.5, min: 0, max: 1, description: 'unused' }],
      });
      client.setOptions({ spice: 0.5 });
      client.setOptions({ spice: 0.7 });
      expect(play(client, game, tableOf(game, 4, {}), 3)).toBeGreaterThan(10);
      expect(proc.alive).toBe(true);
      client.quit(2000);
      expect(proc.alive).toBe(false);
      expect(gone(proc.pid)).toBe(true);
      expect(running(tag)).toBe(false);
    },
  );

  it('its stderr and its info lines go to its log, info with where it was', () => {
    const { client, log } = program('--chatter');
    client.handshake(5000);
    play(client, VIERSCHE, tableOf(VIERSCHE, 4, {}), 1);
    client.quit(2000);
    const text = readFileSync(log, 'utf8');
    expect(text).toContain('misbehave: got tafel\n');
    expect(text).toMatch(/^group 0 rotation 0 deal 0 seat 1: \{"type": "info", "text": "\d+ legal, playing \w+"\}$/m);
  });
});

describe('faults', () => {
  const cases: [string, string, FaultKind, RegExp][] = [
    ['hangs', '--fault hang --at 2', 'time', /^did not play within 500 ms \(time forfeit\)$/],
    [
      'crashes',
      '--fault crash --at 2',
      'crash',
      /^exited with status 1 before quit \(crash; its stderr is in .*bot\.log, last: 'misbehave: crashing on purpose'\)$/,
    ],
    ['closes its stdout', '--fault close --at 2', 'crash', /^closed its stdout before quit \(crash; its stderr is in /],
    ['exits mid-deal', '--fault exit --at 2', 'crash', /^exited with status 0 before quit \(crash; its stderr is in /],
    [
      'writes garbage',
      '--fault garbage --at 2',
      'malformed',
      /^wrote a line that is not a JSON object: 'hello world, this is not a message' \(malformed\)$/,
    ],
    [
      'plays an illegal card',
      '--fault illegal --at 2',
      'illegal',
      /^played '\w+', not a legal move \(illegal move; legal: \w+( \w+)*\)$/,
    ],
    [
      'plays unasked',
      '--fault unasked --at 2',
      'protocol',
      /^sent 'play' where no move was asked \(protocol violation\)$/,
    ],
    [
      'sends an unknown type',
      '--fault unknown --at 2',
      'protocol',
      /^sent a message of unknown type 'hello' \(protocol violation\)$/,
    ],
  ];
  it("cover every kind of a program's fault (a module bot's throw is the only other)", () => {
    expect([...new Set(cases.map((c) => c[2]))].sort()).toEqual(FAULT_KINDS.filter((k) => k !== 'threw').sort());
  });

  it.each(cases)('a program that %s: %s', (_, args, kind, message) => {
    const { proc, client, tag } = program(args);
    client.handshake(5000);
    const f = fault(() => play(client, VIERSCHE, tableOf(VIERSCHE, 4, {}), 3, 500));
    expect([f.fault, f.code]).toEqual([kind, 'bot-failed']);
    expect(f.message).toMatch(message);
    expect(proc.alive).toBe(false);
    expect(running(tag)).toBe(false);
  });

  it.each([
    [
      'answers the handshake with a play',
      '--fault handshake',
      /^answered the handshake with 'play', not 'bot' \(protocol violation\)$/,
    ],
    [
      'declares a bad option',
      '--fault bad-option',
      /^handshake: option 'spice': default 2 is above its max 1 \(protocol violation\)$/,
    ],
  ])('a program that %s', (_, args, message) => {
    const { client } = program(args);
    const f = fault(() => client.handshake(5000));
    expect(f.fault).toBe('protocol');
    expect(f.message).toMatch(message);
  });

  it('a command that does not exist, or does not parse: a crash with the shell saying why', () => {
    for (const [command, said] of [
      [
        'no-such-bot-program --x',
        /exited with status 127 before quit \(crash; .*, last: 'sh: 1: exec: no-such-bot-program: not found'\)$/,
      ],
      ['python3 (', /exited with status 2 before quit \(crash; .*, last: 'sh: 1: eval: Syntax error/],
    ] as const) {
      const f = fault(() => program('', VIERSCHE, null, command).client.handshake(5000));
      expect([f.fault, f.message]).toEqual(['crash', expect.stringMatching(said)]);
    }
  });

  it('a 1-s slow start passes a 5-s handshake limit and fails a 0.3-s one as a time forfeit', () => {
    expect(program('--fault slow-start --sleep 1').client.handshake(5000).name).toBe('misbehave');
    const { proc, client } = program('--fault slow-start --sleep 1');
    const t = performance.now();
    const f = fault(() => client.handshake(300));
    expect([f.fault, f.message]).toEqual(['time', 'did not answer the handshake within 300 ms (time forfeit)']);
    // Loose bounds: the tests share a busy machine (precision is the next test's).
    expect(performance.now() - t).toBeLessThan(800);
    expect(waitUntil(() => gone(proc.pid), 1000)).toBe(true);
  });

  it('a time forfeit fires within a few ms of its deadline', () => {
    const late: number[] = [];
    for (const ms of [50, 100, 250]) {
      const { client } = program('--fault hang --at 1');
      client.handshake(5000);
      const f = fault(() => play(client, VIERSCHE, tableOf(VIERSCHE, 4, {}), 1, ms));
      expect(f.fault).toBe('time');
      late.push(client.lastMs - ms);
    }
    for (const l of late) {
      expect(l).toBeGreaterThanOrEqual(0);
      expect(l).toBeLessThan(50);
    }
  });

  it('a 2-s wait for a slow answer costs the waiting thread no CPU; a round trip costs little', () => {
    const { client } = program('--fault slow --at 1 --sleep 2');
    client.handshake(5000);
    const table = tableOf(VIERSCHE, 4, {});
    const thread = threadCpuMs();
    const cpu = process.cpuUsage();
    const t = performance.now();
    play(client, VIERSCHE, table, 1, 5000);
    expect(performance.now() - t).toBeGreaterThan(2000);
    expect(threadCpuMs() - thread).toBeLessThanOrEqual(60);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(150);
    // Many quick moves: the whole process's CPU per move, requests built and sent included.
    const again = process.cpuUsage();
    const moves = play(client, VIERSCHE, table, 60);
    const per = process.cpuUsage(again);
    expect((per.user + per.system) / moves).toBeLessThan(2000);
    client.quit(2000);
  });
});

describe('the registry', () => {
  /** Start programs from a worker thread that then blocks: their pids. */
  function fromWorker(registry: ProcessRegistry, commands: readonly string[]): { worker: Worker; pids: number[] } {
    const done = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(
      `const { workerData: w } = require('node:worker_threads');
       (async () => {
         const { ProgramProcess } = await import(w.process);
         const { ProcessRegistry } = await import(w.registry);
         const registry = new ProcessRegistry(w.buffer);
         const { ProgramClient } = await import(w.client);
         const { GAMES } = await import(w.games);
         // Each answers its handshake first: up and reading when the test stops it.
         for (const command of w.commands) {
           const proc = ProgramProcess.start({ command, cwd: w.cwd, log: w.log, registry });
           new ProgramClient(proc, GAMES[0], { seats: 4, rules: {} }, 2).handshake(20000);
         }
         const done = new Int32Array(w.done);
         Atomics.store(done, 0, 1);
         Atomics.notify(done, 0);
         Atomics.wait(done, 0, 1);
       })();`,
      {
        eval: true,
        workerData: {
          process: 'file://' + join(ROOT, 'dist', 'src', 'harness', 'programs', 'process.js'),
          registry: 'file://' + join(ROOT, 'dist', 'src', 'harness', 'programs', 'registry.js'),
          client: 'file://' + join(ROOT, 'dist', 'src', 'harness', 'programs', 'client.js'),
          games: 'file://' + join(ROOT, 'dist', 'src', 'games', 'index.js'),
          buffer: registry.buffer,
          commands,
          cwd: ROOT,
          log: join(tmpDir(), 'bots.log'),
          done: done.buffer,
        },
      },
    );
    Atomics.wait(done, 0, 0, 20_000);
    return { worker, pids: registry.pids() };
  }

  function exitStatus(pid: number): number | undefined {
    const s = procStat(pid);
    return s !== null && s.state === 'Z' ? s.waitStatus : undefined;
  }

  it('stopAll quits the programs a blocked worker started, and kills the one that will not quit', async () => {
    const registry = new ProcessRegistry();
    const polite = `python3 '${FIXTURE}' --tag polite${process.pid}`;
    const deaf = `python3 '${FIXTURE}' --fault deaf --tag deaf${process.pid}`;
    const { worker, pids } = fromWorker(registry, [polite, deaf]);
    expect(pids).toHaveLength(2);
    const t = performance.now();
    registry.stopAll(1000);
    const took = performance.now() - t;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(2500);
    expect(pids.map(gone)).toEqual([true, true]);
    // The worker is blocked, so its children are still unreaped: their ends show.
    expect(pids.map(exitStatus)).toEqual([0, 9]);
    expect(registry.pids()).toEqual([]);
    expect(existsSync(registry.dir(0))).toBe(false);
    await worker.terminate();
    expect(running(`polite${process.pid}`) || running(`deaf${process.pid}`)).toBe(false);
  });

  it('killAll kills them at once, and a program started afterwards is stopped as it starts', async () => {
    const registry = new ProcessRegistry();
    const { worker, pids } = fromWorker(registry, [`python3 '${FIXTURE}'`, `python3 '${FIXTURE}'`]);
    expect(pids).toHaveLength(2);
    const t = performance.now();
    registry.killAll();
    expect(performance.now() - t).toBeLessThan(100);
    await new Promise((r) => setTimeout(r, 50));
    expect(pids.map(exitStatus)).toEqual([9, 9]);
    expect(registry.pids()).toEqual([]);
    await worker.terminate();
    const f = fault(() => program('', VIERSCHE, registry));
    expect([f.fault, f.message]).toEqual(['crash', 'was stopped as it started: the run is stopping (crash)']);
  });

  it('a full registry says so', () => {
    const registry = new ProcessRegistry(undefined, 1);
    registry.add(process.pid);
    expect(() => registry.claim()).toThrow('more than 1 bot programs running at once');
    registry.remove(0);
    expect(registry.pids()).toEqual([]);
  });
});

/** CPU time of the calling thread in ms (clock ticks of 10 ms). */
function threadCpuMs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'latin1').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
