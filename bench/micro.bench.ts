/**
 * Micro-benchmarks of the hot paths (tinybench): the RNG against seedrandom's
 * generators, legal moves, the trick winner, shuffle and deal, copy/apply for search,
 * determinization, and a whole random deal through the engine alone.
 *
 *   npm run build && node dist/bench/micro.bench.js [--time ms] [--filter text]
 *   (pin it to one core: taskset -c 1 node dist/bench/micro.bench.js)
 *
 * Each task runs a batch of `ops` operations per call, so that timer overhead (tens of
 * ns) does not swamp operations of a few ns; the table shows the median over samples
 * divided by the batch. Absolute ns drift by 10-25% on these machines from minute to
 * minute, so every figure is also shown as a ratio against `Rng.next` measured in the
 * same process (and, within a group, against the group's first entry). Quote the
 * ratios. bench/README.md says what each entry measures.
 */
import { Bench } from 'tinybench';
import seedrandom from 'seedrandom';
import { LANES, newSets, setSelect } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey, shuffle } from '../src/core/rng.js';
import { STRENGTH } from '../src/games/viersche/cards.js';
import { Decision } from '../src/games/game.js';
import { viersche } from '../src/games/viersche/index.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';

// --- Options (this is a standalone program, not part of the tafel command) ---------
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const TIME_MS = Number(option('--time', '400'));
const FILTER = option('--filter', '');

/** Results flow here so that no benchmarked work is dead code. */
let sink = 0;

const KEY = seedKey('micro');
const FIRST: DealContext = { dealer: 0, targets: [100, 100], secondDeal: false };
const legalBuf = newSets();

/** Play random legal moves in `s` until `stop` says so or the deal ends; false if it ended. */
function playUntil(s: VierscheState, rng: Rng, stop: (s: VierscheState) => boolean): boolean {
  while (!s.isTerminal()) {
    if (stop(s)) return true;
    const n = s.legal(legalBuf, 0);
    s.apply(setSelect(legalBuf, 0, rng.below(n)));
  }
  return false;
}

/** `count` states, each dealt from its own seed and played at random until `stop`. */
function positions(
  count: number,
  purpose: number,
  stop: (s: VierscheState, rng: Rng) => (s: VierscheState) => boolean,
): VierscheState[] {
  const out: VierscheState[] = [];
  const rng = new Rng();
  const deck = new Uint8Array(PACK_SIZE);
  for (let i = 0; out.length < count; i++) {
    rng.reseed(KEY, i, purpose);
    const s = new VierscheState();
    s.deal({ ...FIRST, dealer: i & 3 }, rng, deck);
    if (playUntil(s, rng, stop(s, rng))) out.push(s);
  }
  return out;
}

// --- Fixtures ----------------------------------------------------------------------

/** Mid-deal positions at a random ply (a card to play, any trick, any place in it). */
const MID = positions(256, 1, (_s, rng) => {
  const ply = 1 + rng.below(34);
  return (s) => s.plies >= ply && s.decision === Decision.Card;
});
/** Positions at the start of trick 4 (index 4: four tricks played), a card to lead. */
const TRICK4 = positions(64, 2, () => (s) => s.trick === 4 && s.trickCards === 0 && s.decision === Decision.Card);

/** 1024 face-up tricks from random play: led lane and the four codes, and who won. */
const TRICKS = 1024;
const trickLed = new Int32Array(TRICKS);
const trickCards = new Int32Array(TRICKS * 4);
const trickWinner = new Int32Array(TRICKS);
{
  const rng = new Rng(KEY, 0, 3);
  const deck = new Uint8Array(PACK_SIZE);
  const s = new VierscheState();
  let n = 0;
  for (let d = 0; n < TRICKS; d++) {
    s.deal(FIRST, rng, deck);
    playUntil(s, rng, () => false);
    for (let t = s.facedown ? 1 : 0; t < s.trick && n < TRICKS; t++, n++) {
      const start = s.trickStart[t];
      trickLed[n] = s.move(start) >>> 5;
      for (let i = 0; i < 4; i++) trickCards[n * 4 + i] = s.move(start + i);
      trickWinner[n] = (s.trickWinner[t] - s.trickLeader[t] + 4) & 3; // place from the leader
    }
  }
}

/** Place (0..3 from the leader) of the card that wins trick `t`: V-1/V-2 as one table lookup per card. */
function trickWinnerOf(t: number): number {
  const base = trickLed[t] << 7;
  let best = STRENGTH[base + trickCards[t * 4]];
  let place = 0;
  for (let i = 1; i < 4; i++) {
    const s = STRENGTH[base + trickCards[t * 4 + i]];
    if (s > best) {
      best = s;
      place = i;
    }
  }
  return place;
}
for (let t = 0; t < TRICKS; t++) {
  if (trickWinnerOf(t) !== trickWinner[t])
    throw new Error(`trick winner fixture ${t}: the STRENGTH comparison disagrees with the engine`);
}

// --- The benchmarks ----------------------------------------------------------------

interface Entry {
  name: string;
  group: string;
  /** Operations per call of `fn`. */
  ops: number;
  fn: () => void;
}
const entries: Entry[] = [];
function add(group: string, name: string, ops: number, fn: () => void): void {
  if (FILTER && !`${group} ${name}`.includes(FILTER) && !name.startsWith('Rng.next')) return;
  entries.push({ group, name, ops, fn });
}

// Draws: one number per op. tafel's generator against each of seedrandom's.
const DRAWS = 4096;
{
  const rng = new Rng(KEY, 1);
  add('rng draw', 'Rng.next()', DRAWS, () => {
    let x = 0;
    for (let i = 0; i < DRAWS; i++) x ^= rng.next();
    sink ^= x;
  });
  add('rng draw', 'Rng.below(36)', DRAWS, () => {
    let x = 0;
    for (let i = 0; i < DRAWS; i++) x += rng.below(36);
    sink ^= x;
  });
  const generators: [string, seedrandom.PRNG][] = [
    ['seedrandom arc4', seedrandom('micro')],
    ['seedrandom alea', seedrandom.alea('micro')],
    ['seedrandom xor128', seedrandom.xor128('micro')],
    ['seedrandom xorwow', seedrandom.xorwow('micro')],
    ['seedrandom xorshift7', seedrandom.xorshift7('micro')],
    ['seedrandom xor4096', seedrandom.xor4096('micro')],
    ['seedrandom tychei', seedrandom.tychei('micro')],
  ];
  for (const [name, g] of generators) {
    add('rng draw', `${name} .int32()`, DRAWS, () => {
      let x = 0;
      for (let i = 0; i < DRAWS; i++) x ^= g.int32();
      sink ^= x;
    });
  }
}

// A fresh stream per deal: tafel reseeds one generator in place; with seedrandom each
// deal would create a generator (a closure and its state) from a seed string.
const STREAMS = 256;
{
  const rng = new Rng();
  let deal = 0;
  add('stream per deal', 'Rng.reseed(key, deal)', STREAMS, () => {
    for (let i = 0; i < STREAMS; i++) rng.reseed(KEY, deal++, 0, 0);
    sink ^= rng.next();
  });
  const makers: [string, (seed: string) => seedrandom.PRNG][] = [
    ['arc4', (s) => seedrandom(s)],
    ['alea', (s) => seedrandom.alea(s)],
    ['xor128', (s) => seedrandom.xor128(s)],
    ['xorwow', (s) => seedrandom.xorwow(s)],
    ['xorshift7', (s) => seedrandom.xorshift7(s)],
    ['xor4096', (s) => seedrandom.xor4096(s)],
    ['tychei', (s) => seedrandom.tychei(s)],
  ];
  for (const [name, make] of makers) {
    add('stream per deal', `seedrandom.${name}(\`seed:deal\`)`, STREAMS, () => {
      let x = 0;
      for (let i = 0; i < STREAMS; i++) x ^= make(`micro:${deal++}`).int32();
      sink ^= x;
    });
  }
}

// Engine.
{
  const s = new VierscheState();
  const rng = new Rng(KEY, 2);
  const deck = new Uint8Array(PACK_SIZE);
  const BATCH = 64;
  add('deal', 'shuffle 36 (Fisher-Yates)', BATCH, () => {
    for (let i = 0; i < BATCH; i++) shuffle(deck, PACK_SIZE, rng);
    sink ^= deck[0];
  });
  add('deal', 'shuffle + deal (VierscheState.deal)', BATCH, () => {
    for (let i = 0; i < BATCH; i++) s.deal(FIRST, rng, deck);
    sink ^= s.hands[0];
  });
  let d = 0;
  add('deal', 'reseed + shuffle + deal', BATCH, () => {
    for (let i = 0; i < BATCH; i++) {
      rng.reseed(KEY, d++, 0, 0);
      s.deal(FIRST, rng, deck);
    }
    sink ^= s.hands[0];
  });

  add('play', 'legal moves (mid-deal)', MID.length, () => {
    let x = 0;
    for (let i = 0; i < MID.length; i++) x += MID[i].legal(legalBuf, 0);
    sink ^= x;
  });
  add('play', 'trick winner (STRENGTH, 4 cards)', TRICKS, () => {
    let x = 0;
    for (let t = 0; t < TRICKS; t++) x += trickWinnerOf(t);
    sink ^= x;
  });

  const scratch = new VierscheState();
  add('search', 'copyFrom (trick 4)', TRICK4.length, () => {
    for (let i = 0; i < TRICK4.length; i++) scratch.copyFrom(TRICK4[i]);
    sink ^= scratch.trick;
  });
  add('search', 'copyFrom + legal + apply (trick 4)', TRICK4.length, () => {
    for (let i = 0; i < TRICK4.length; i++) {
      scratch.copyFrom(TRICK4[i]);
      scratch.legal(legalBuf, 0);
      scratch.apply(setSelect(legalBuf, 0, 0));
    }
    sink ^= scratch.plies;
  });
  add('search', 'copyFrom + random playout (trick 4)', TRICK4.length, () => {
    for (let i = 0; i < TRICK4.length; i++) {
      scratch.copyFrom(TRICK4[i]);
      while (!scratch.isTerminal()) {
        const n = scratch.legal(legalBuf, 0);
        scratch.apply(setSelect(legalBuf, 0, rng.below(n)));
      }
    }
    sink ^= scratch.teamPoints(0);
  });
  const world = new VierscheState();
  add('search', 'viersche.sample (trick 4, to move)', TRICK4.length, () => {
    for (let i = 0; i < TRICK4.length; i++) {
      const root = TRICK4[i];
      viersche.sample(root.observe(root.toMove), rng, world);
    }
    sink ^= world.hands[LANES];
  });
  const WHOLE = 16;
  add('search', 'whole random deal (deal + play, engine only)', WHOLE, () => {
    for (let i = 0; i < WHOLE; i++) {
      s.deal(FIRST, rng, deck);
      while (!s.isTerminal()) {
        const n = s.legal(legalBuf, 0);
        s.apply(setSelect(legalBuf, 0, rng.below(n)));
      }
    }
    sink ^= s.teamPoints(0);
  });
}

// The baseline again, last: a check on drift and JIT state during the run.
{
  const rng = new Rng(KEY, 9);
  add('rng draw', 'Rng.next() again, last', DRAWS, () => {
    let x = 0;
    for (let i = 0; i < DRAWS; i++) x ^= rng.next();
    sink ^= x;
  });
}

// --- Run and report ----------------------------------------------------------------

const bench = new Bench({
  time: TIME_MS,
  warmupTime: Math.min(200, TIME_MS),
  timestampProvider: 'hrtimeNow',
  subtractTimerOverhead: true,
  throws: true,
});
for (const e of entries) bench.add(e.name, e.fn);
await bench.run();

function medianNs(name: string): number {
  const r = bench.getTask(name)?.result;
  if (!r || !('latency' in r)) throw new Error(`bench ${name}: no result`);
  const e = entries.find((x) => x.name === name)!;
  return (r.latency.p50 * 1e6) / e.ops;
}
function madPct(name: string): number {
  const r = bench.getTask(name)?.result;
  return r && 'latency' in r ? (100 * r.latency.mad) / r.latency.p50 : NaN;
}
function samples(name: string): number {
  const r = bench.getTask(name)?.result;
  return r && 'latency' in r ? r.latency.samplesCount : 0;
}

const base = medianNs('Rng.next()');
const groupBase = new Map<string, number>();
const rows: string[][] = [['group', 'benchmark', 'ns/op (median)', 'mad %', 'x Rng.next', 'x group first', 'samples']];
for (const e of entries) {
  const ns = medianNs(e.name);
  if (!groupBase.has(e.group)) groupBase.set(e.group, ns);
  rows.push([
    e.group,
    e.name,
    ns < 10 ? ns.toFixed(2) : ns < 1000 ? ns.toFixed(1) : ns.toFixed(0),
    madPct(e.name).toFixed(1),
    (ns / base).toFixed(2),
    (ns / groupBase.get(e.group)!).toFixed(2),
    String(samples(e.name)),
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r: string[]) => r.map((x, c) => (c < 2 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
process.stdout.write(
  [
    `tafel micro-benchmarks: node ${process.version}, ${TIME_MS} ms per task, median over samples / ops per sample`,
    line(rows[0]),
    ...rows.slice(1).map(line),
    `(sink ${sink & 1})`,
  ].join('\n') + '\n',
);
