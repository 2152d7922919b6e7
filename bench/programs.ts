/**
 * A bot program's round trip through the referee's process layer (src/harness/
 * programs/): deals of Viersche with the program at seat 1 and random play elsewhere;
 * the median wall time of a move request and its answer, and the CPU this process
 * spends per move (the waiting thread blocks in a read; the program's own CPU is not
 * counted).
 *
 *   npm run build && node dist/bench/programs.js [--moves 2000] [COMMAND...]
 *
 * Without commands it times the Python test fixture and `tafel bot --bot random`.
 */
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSets, setSelect } from '../src/core/cardset.js';
import { Rng } from '../src/core/rng.js';
import { GAMES } from '../src/games/index.js';
import { ProgramClient } from '../src/harness/programs/client.js';
import { ProgramProcess } from '../src/harness/programs/process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const at = args.indexOf('--moves');
const wanted = at >= 0 ? Number(args.splice(at, 2)[1]) : 2000;
const commands = args.length
  ? args
  : [
      `python3 ${join(ROOT, 'test', 'fixtures', 'programs', 'misbehave.py')}`,
      `${process.execPath} ${join(ROOT, 'dist', 'src', 'cli', 'main.js')} bot --game viersche --bot random`,
    ];

const game = GAMES.find((g) => g.name === 'viersche')!;
const table = { seats: 4, rules: {} };
const log = join(mkdtempSync(join(tmpdir(), 'tafel-bench-')), 'bot.log');

for (const command of commands) {
  const proc = ProgramProcess.start({ command, cwd: ROOT, log, registry: null });
  const fd = openSync(log, 'a');
  const client = new ProgramClient(proc, game, table, fd);
  client.handshake(10_000);
  const state = game.newState(table);
  const match = game.newMatch(table, { singleDeal: true, index: 0 });
  const cards = new Rng([1, 2, 3, 4]);
  const legal = newSets(1);
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let group = 0; times.length < wanted; group++) {
    match.reset(group);
    match.startDeal(state, cards);
    client.deal({ group, rotation: 0, deal: 0 }, cards.hex(), state.observe(1));
    while (!state.isTerminal()) {
      const count = state.legal(legal, 0);
      if (state.toMove === 1) {
        state.apply(client.move(state.observe(1), legal, count, 5000));
        times.push(client.lastMs);
      } else state.apply(setSelect(legal, 0, cards.below(count)));
    }
    client.result(state.observe(1));
  }
  const used = process.cpuUsage(cpu);
  const elapsed = performance.now() - wall;
  client.quit(2000);
  closeSync(fd);
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.floor(p * (times.length - 1))].toFixed(3);
  console.log(command);
  console.log(
    `  ${times.length} moves: median ${q(0.5)} ms (p10 ${q(0.1)}, p90 ${q(0.9)}); ` +
      `this process's CPU ${((used.user + used.system) / times.length).toFixed(0)} µs a move ` +
      `over ${(elapsed / 1000).toFixed(1)} s (random play and requests included)`,
  );
}
