/**
 * Micro-benchmarks of the exact solver (bots/solver, tinybench): `reset` + `value` on
 * fixed seeded positions, the seat to move as the root, one thread.
 *
 *   npm run build && node dist/bench/solve.bench.js [--time ms] [--iterations n] [--filter text]
 *   (pin it to one core: taskset -c 1 node dist/bench/solve.bench.js)
 *
 * The positions are those of `tafel bench --solve --seed solve-bench` (deal i of the
 * seed, played at random for some tricks; bench/solve-bench.ts), so a figure here
 * can be checked position by position with `tafel bench --solve --verbose`. Each task
 * solves a fixed batch of positions per call; the table gives the median call divided
 * by the batch (`ms/op`, `ops/s`: solves per second), the nodes per solve and nodes per
 * second (the node count of a batch is fixed: it is counted once before timing, and
 * checked after), and ns per node as a ratio to `Rng.next()` measured in the same
 * process (first and again last), the figure to quote on these drifting machines.
 * bench/README.md ("Solver") says what each entry measures.
 */
import { Bench } from 'tinybench';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { SolvePositions } from './solve-bench.js';
import { Solver } from '../bots/solver/solver.js';

// --- Options (this is a standalone program, not part of the tafel command) ---------
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const TIME_MS = Number(option('--time', '1000'));
/** Minimum samples per task (tinybench's default, 64, would take minutes on the deep entries). */
const ITERATIONS = Number(option('--iterations', '5'));
const FILTER = option('--filter', '');

const SEED = 'solve-bench';
/** Results flow here so that no benchmarked work is dead code. */
let sink = 0;

function tableOf(game: Game): TableConfig {
  const rules: Record<string, string | number | boolean> = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { seats: game.defaultSeats, rules };
}

interface Entry {
  name: string;
  /** Solves per call. */
  ops: number;
  /** Nodes per call (fixed). */
  nodes: number;
  /** Sum of the solved values per call (fixed). */
  values: number;
  fn: () => void;
}
const entries: Entry[] = [];

/**
 * A task that solves positions 0..count-1 of `game` after `fromTrick` tricks of random
 * play (`tafel bench --solve --game G --from-trick K --seed solve-bench --deals count`).
 */
function addSolve(gameName: string, fromTrick: number, count: number): void {
  const game = GAMES.find((g) => g.name === gameName)!;
  const table = tableOf(game);
  const positions = new SolvePositions(game, table, seedKey(SEED));
  const roots: State[] = [];
  for (let i = 0; i < count; i++) {
    const s = game.newState(table);
    s.copyFrom(positions.at(i, fromTrick));
    roots.push(s);
  }
  const left = positions.tricks - fromTrick;
  const name = `${game.name}, ${left} tricks left${fromTrick === 0 ? ' (whole deal)' : ''} (x${count})`;
  if (FILTER && !name.includes(FILTER)) return;
  const solver = new Solver(game, table);
  let nodes = 0;
  let values = 0;
  const solveAll = () => {
    nodes = 0;
    values = 0;
    for (const s of roots) {
      solver.reset();
      values += solver.value(s, s.toMove);
      nodes += solver.nodes;
    }
    sink ^= values;
  };
  solveAll();
  const first = { nodes, values };
  entries.push({
    name,
    ops: count,
    nodes: first.nodes,
    values: first.values,
    fn: () => {
      solveAll();
      // Nodes per second divides by this count: it must not change between calls.
      if (nodes !== first.nodes || values !== first.values)
        throw new Error(`${name}: nodes or values changed between calls`);
    },
  });
}

// The baseline: one 32-bit draw of tafel's RNG (as in micro.bench.ts).
const DRAWS = 4096;
function addBaseline(name: string, stream: number): void {
  const rng = new Rng(seedKey('micro'), stream);
  entries.push({
    name,
    ops: DRAWS,
    nodes: 0,
    values: 0,
    fn: () => {
      let x = 0;
      for (let i = 0; i < DRAWS; i++) x ^= rng.next();
      sink ^= x;
    },
  });
}

addBaseline('Rng.next()', 1);
addSolve('viersche', 6, 32); // 3 tricks left
addSolve('viersche', 3, 4); // 6 tricks left
addSolve('hindersche', 5, 8); // 4 tricks left
addSolve('hindersi-jass', 5, 8); // 4 tricks left (4 seats, 9 tricks)
addSolve('vier-anderle', 0, 32); // whole deals (4 seats, 4 tricks)
addBaseline('Rng.next() again, last', 9);

// --- Run and report ----------------------------------------------------------------

const bench = new Bench({
  time: TIME_MS,
  iterations: ITERATIONS,
  warmupTime: Math.min(200, TIME_MS),
  warmupIterations: 1,
  timestampProvider: 'hrtimeNow',
  subtractTimerOverhead: true,
  throws: true,
});
for (const e of entries) bench.add(e.name, e.fn);
await bench.run();

function latency(name: string) {
  const r = bench.getTask(name)?.result;
  if (!r || !('latency' in r)) throw new Error(`bench ${name}: no result`);
  return r.latency;
}

const baseNs = (latency('Rng.next()').p50 * 1e6) / DRAWS;
const lastNs = (latency('Rng.next() again, last').p50 * 1e6) / DRAWS;
const rows: string[][] = [
  ['benchmark', 'ms/op (median)', 'mad %', 'ops/s', 'nodes/op', 'nodes/s', 'ns/node', 'x Rng.next', 'samples'],
];
for (const e of entries) {
  if (e.nodes === 0) continue;
  const l = latency(e.name);
  const msOp = l.p50 / e.ops;
  const nsNode = (l.p50 * 1e6) / e.nodes;
  rows.push([
    e.name,
    msOp < 1 ? msOp.toFixed(3) : msOp.toFixed(1),
    ((100 * l.mad) / l.p50).toFixed(1),
    (1000 / msOp).toFixed(msOp < 1 ? 0 : 2),
    String(Math.round(e.nodes / e.ops)),
    String(Math.round(e.nodes / (l.p50 / 1000))),
    nsNode.toFixed(0),
    (nsNode / baseNs).toFixed(0),
    String(l.samplesCount),
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r: string[]) => r.map((x, c) => (c < 1 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
process.stdout.write(
  [
    `tafel solver micro-benchmarks: node ${process.version}, seed ${SEED}, ${TIME_MS} ms and at least ${ITERATIONS} samples per task, median over samples / solves per sample`,
    line(rows[0]),
    ...rows.slice(1).map(line),
    `Rng.next(): ${baseNs.toFixed(2)} ns first, ${lastNs.toFixed(2)} ns last (if they differ by more than a few percent, something else was running)`,
    `(sink ${sink & 1})`,
  ].join('\n') + '\n',
);
