/**
 * Side-by-side throughput: `tafel bench` of this build and of a baseline build (another
 * checkout's `dist/`), alternately, round after round, so that both meet the same phases
 * of a shared machine; with the C yardstick and its plain-JavaScript twin
 * (../shared/bench-ref) in the same rounds. Prints, per configuration, the median and
 * the best of each side and the median of the per-round ratios (the figure to quote).
 *
 *   npm run build
 *   taskset -c 1 node dist/bench/side-by-side.js --baseline /tmp/main [--rounds 5]
 *     [--deals 300000] [--runs viersche:random,hindersche:heuristic:20000,...]
 *     [--yardstick ../shared/bench-ref]
 *
 * A run is `game:bots[:deals]` (bots as `tafel bench --bots` takes them, options and
 * all; `-` for random). With `--yardstick DIR`, every round also runs DIR/playout.c (compiled once
 * with gcc) and DIR/playout.mjs for 10 million deals, and Viersche's random runs are
 * quoted against the C figure of the same round. Pin the whole command to one core:
 * the child processes inherit the pinning. With `--cpu`, both builds' benches time play
 * by their own CPU time (cpu-clock.ts), for a machine loaded by other processes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runYardstick } from './yardstick.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    deals: { type: 'string', default: '300000' },
    runs: { type: 'string', default: 'viersche:random,hindersche:random,hindersi-jass:random,vier-anderle:random' },
    yardstick: { type: 'string' },
    cpu: { type: 'boolean', default: false },
  },
  strict: true,
});
const baseline = values.baseline;
if (!baseline || !existsSync(join(baseline, 'dist/src/cli/main.js'))) {
  console.error('side-by-side: --baseline DIR: a checkout with a built dist/ (npm run build there)');
  process.exit(2);
}
const rounds = Number(values.rounds);
const defaultDeals = Number(values.deals);
const runs = values.runs.split(',').map((text) => {
  const parts = text.split(':');
  const game = parts[0];
  const deals = parts.length > 2 && /^\d+$/.test(parts[parts.length - 1]) ? Number(parts.pop()) : defaultDeals;
  const bots = parts.slice(1).join(':') || '-';
  return { game, bots: bots === '-' ? 'random' : bots, deals };
});
const here = join(import.meta.dirname, '..', '..');

/** Node's options for every bench: this build's CPU clock with `--cpu`. */
const clock = values.cpu ? ['--import', pathToFileURL(join(import.meta.dirname, 'cpu-clock.js')).href] : [];

/** deals/s and the gc line of one `tafel bench`. */
function bench(root: string, game: string, bots: string, deals: number): { rate: number; gc: string } {
  const out = execFileSync(
    process.execPath,
    [...clock, join(root, 'dist/src/cli/main.js'), 'bench', '--game', game, '--bots', bots, '--deals', String(deals)],
    { encoding: 'utf8' },
  );
  const rate = /throughput: (\d+)/.exec(out);
  if (!rate) throw new Error(`no throughput line from ${root}: ${out}`);
  return { rate: Number(rate[1]), gc: /gc: (.*)/.exec(out)?.[1] ?? '' };
}

function playoutJs(dir: string): number {
  const out = execFileSync(process.execPath, [join(dir, 'playout.mjs'), '10000000', '12345'], { encoding: 'utf8' });
  return Number(/deals_per_s=(\d+)/.exec(out)?.[1]);
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const rows = runs.map(() => ({
  base: [] as number[],
  now: [] as number[],
  ratio: [] as number[],
  toC: [] as number[],
  gc: '',
}));
const c: number[] = [];
const js: number[] = [];
for (let r = 0; r < rounds; r++) {
  let cRound = NaN;
  if (values.yardstick) {
    cRound = runYardstick(join(values.yardstick, 'playout.c'), 10_000_000);
    c.push(cRound);
    js.push(playoutJs(values.yardstick));
  }
  runs.forEach((run, i) => {
    const a = bench(baseline, run.game, run.bots, run.deals);
    const b = bench(here, run.game, run.bots, run.deals);
    rows[i].base.push(a.rate);
    rows[i].now.push(b.rate);
    rows[i].ratio.push(b.rate / a.rate);
    rows[i].gc = b.gc;
    if (run.game === 'viersche' && run.bots === 'random') rows[i].toC.push(b.rate / cRound);
  });
  process.stderr.write(`round ${r + 1}/${rounds} done\n`);
}

console.log(
  `side by side, ${rounds} rounds${values.cpu ? ', per CPU second' : ''} (deals/s: median and best; ratio: median of the rounds' this/baseline)`,
);
console.log('| run | deals | baseline | this build | this / baseline | this / C | gc (this, last round) |');
console.log('|---|---:|---:|---:|---:|---:|---|');
runs.forEach((run, i) => {
  const row = rows[i];
  const toC = row.toC.length ? median(row.toC).toFixed(3) : '';
  console.log(
    `| ${run.game} ${run.bots} | ${run.deals} | ${median(row.base)} (${Math.max(...row.base)}) | ${median(row.now)} (${Math.max(...row.now)}) | ${median(row.ratio).toFixed(2)} [${Math.min(...row.ratio).toFixed(2)}, ${Math.max(...row.ratio).toFixed(2)}] | ${toC} | ${row.gc} |`,
  );
});
if (c.length) {
  const ratios = js.map((x, i) => x / c[i]);
  console.log(
    `\nC yardstick ${median(c)} deals/s (median; ${Math.min(...c)} to ${Math.max(...c)}); playout.mjs ${median(js)} deals/s, ${median(ratios).toFixed(3)} of C`,
  );
}
