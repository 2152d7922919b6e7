/**
 * Calibration: the yardstick's algorithm (random Viersche playouts) as one
 * single-purpose JavaScript loop, with no engine, no bot interface and no bookkeeping.
 * It tells what JavaScript itself reaches on this machine, so that `tafel bench` can
 * be read as (engine overhead) x (JavaScript vs C):
 *
 *   node dist/bench/minimal-playout.js [deals] [--yardstick ../shared/bench-ref/playout.c]
 *
 * It shares tafel's RNG and card tables (so it shuffles and deals exactly as the
 * engine does) but keeps per-lane card counts and a select table instead of popcounts.
 */
import { Rng, seedKey, shuffle } from '../src/core/rng.js';
import { POINTS, STRENGTH, toCode } from '../src/games/viersche/cards.js';
import { runYardstick } from '../src/harness/yardstick.js';

/** SELECT[mask << 4 | k]: the k-th set bit of a mask below 1024. */
const SELECT = new Int8Array(1024 * 16).fill(-1);
const POP = new Uint8Array(1024);
for (let m = 1; m < 1024; m++) {
  POP[m] = (m & 1) + POP[m >> 1];
  for (let b = 0, k = 0; b < 10; b++) if ((m >> b) & 1) SELECT[(m << 4) | k++] = b;
}

const key = seedKey('minimal');
const rng = new Rng();
const deck = new Uint8Array(36);
const hands = new Int32Array(16);
const counts = new Int8Array(16);
const points = new Int32Array(2);

function play(deals: number): number {
  let team0 = 0;
  for (let d = 0; d < deals; d++) {
    rng.reseed(key, d);
    for (let i = 0; i < 36; i++) deck[i] = i;
    shuffle(deck, 36, rng);
    const trump = (deck[35] / 9) | 0;
    const dealer = d & 3;
    for (let i = 0; i < 16; i++) hands[i] = 0;
    for (let i = 0; i < 36; i++) {
      const code = toCode(trump, deck[i]);
      hands[((dealer + 1 + i) & 3) * 4 + (code >>> 5)] |= 1 << (code & 31);
    }
    for (let i = 0; i < 16; i++) counts[i] = POP[hands[i]];
    let leader = (dealer + 1) & 3;
    points[0] = points[1] = 0;
    for (let t = 0; t < 9; t++) {
      let led = 0;
      let best = -1;
      let winner = leader;
      let trickPoints = 0;
      for (let j = 0; j < 4; j++) {
        const p = (leader + j) & 3;
        const o = p * 4;
        const n0 = counts[o];
        let n1 = counts[o + 1];
        let n2 = counts[o + 2];
        let n3 = counts[o + 3];
        if (j === 0) {
          if (t === 0 && n0 !== 0) n1 = n2 = n3 = 0;
        } else if (counts[o + led] !== 0) {
          if (led !== 1) n1 = 0;
          if (led !== 2) n2 = 0;
          if (led !== 3) n3 = 0;
        }
        let k = rng.below(n0 + n1 + n2 + n3);
        let lane = 0;
        if (k >= n0) {
          k -= n0;
          lane = 1;
          if (k >= n1) {
            k -= n1;
            lane = 2;
            if (k >= n2) {
              k -= n2;
              lane = 3;
            }
          }
        }
        const mask = hands[o + lane];
        const card = (lane << 5) | SELECT[(mask << 4) | k];
        hands[o + lane] = mask & ~(1 << (card & 31));
        counts[o + lane]--;
        if (j === 0) {
          led = t === 0 && lane !== 0 ? 0 : lane;
          best = t === 0 && lane !== 0 ? -1 : STRENGTH[led * 128 + card];
        } else {
          const s = STRENGTH[led * 128 + card];
          if (s > best) {
            best = s;
            winner = p;
          }
        }
        trickPoints += POINTS[card];
      }
      points[winner & 1] += trickPoints;
      leader = winner;
    }
    team0 += points[0];
  }
  return team0;
}

const args = process.argv.slice(2);
const deals = Number(args.find((a) => /^\d+$/.test(a)) ?? 5_000_000);
const yardstick = args.includes('--yardstick') ? args[args.indexOf('--yardstick') + 1] : null;
play(200_000); // warm-up: let the JIT settle before timing
const c0 = yardstick ? runYardstick(yardstick, 10_000_000) : 0;
const started = performance.now();
const team0 = play(deals);
const seconds = (performance.now() - started) / 1000;
const c1 = yardstick ? runYardstick(yardstick, 10_000_000) : 0;
console.log(
  `minimal JS playout: ${deals} deals, ${seconds.toFixed(2)} s, team 0 mean ${(team0 / deals).toFixed(3)} points`,
);
if (yardstick)
  console.log(
    `yardstick: C ${c0} and ${c1} deals/s (before, after); minimal/C = ${(deals / seconds / ((c0 + c1) / 2)).toFixed(3)}`,
  );
console.log(`throughput: ${Math.round(deals / seconds)} deals/s`);
