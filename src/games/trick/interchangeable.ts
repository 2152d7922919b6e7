/**
 * Interchangeable cards, for `State.searchMoves` (the equivalent-card pruning of
 * double-dummy solvers). Two legal cards of one lane are interchangeable when no card
 * between them is still in any hand or in the current trick (then each beats and
 * loses to exactly the same cards, now and later) and they are worth the same. Every
 * game's layout puts a lane's cards in order of strength, so "between" is a bit range.
 */
import { LANES } from '../../core/cardset.js';

/**
 * Reduce the move set `out[off .. off + LANES)` to one card per run of interchangeable
 * cards and return how many are left. `live` holds, per lane, every card still in a
 * hand or in the current trick; `value[code]` is each card's worth to the search
 * measure; `breaks[lane]` marks bits that start a new run whatever lies below (the
 * first bit of each suit where one lane holds several suits), or 0.
 */
export function keepOnePerRun(
  out: Int32Array,
  off: number,
  live: Int32Array,
  value: Uint8Array,
  breaks: Int32Array | null,
): number {
  let count = 0;
  for (let lane = 0; lane < LANES; lane++) {
    const moves = out[off + lane];
    if (moves === 0) continue;
    const alive = live[lane];
    const cut = breaks === null ? 0 : breaks[lane];
    const base = lane << 5;
    let kept = 0;
    let prev = -1;
    for (let m = moves; m !== 0; m &= m - 1) {
      const bit = 31 - Math.clz32(m & -m);
      // Bits strictly between prev and bit, and the bits prev+1..bit for a run break.
      const above = prev < 0 ? 0 : ((2 << prev) - 1) | 0;
      const between = ((1 << bit) - 1) & ~above;
      const same =
        prev >= 0 &&
        value[base | bit] === value[base | prev] &&
        (alive & between) === 0 &&
        (cut & (between | (1 << bit))) === 0;
      if (!same) {
        kept |= 1 << bit;
        count++;
      }
      prev = bit;
    }
    out[off + lane] = kept;
  }
  return count;
}

/**
 * `State.sureTaken` for a trump lane, whose strongest live card wins any trick it is
 * played to: the run of strongest cards of `lane` still in the hands that one party
 * holds (the side, `inSide[seat] === 1`, or the others) surely goes to that party,
 * since each card of it either wins its trick or falls to a trick that a stronger card
 * of the same run wins. Every card in a hand is played before the deal ends. Writes
 * the run's `value` to `out[0]` (the side's) or `out[1]` (the others'), 0 to the other.
 */
export function sureTopRun(
  hands: Int32Array,
  seats: number,
  lane: number,
  inSide: Uint8Array,
  value: Uint8Array,
  out: Int32Array,
): void {
  let live = 0;
  for (let s = 0; s < seats; s++) live |= hands[s * LANES + lane];
  let party = -1;
  let sum = 0;
  while (live !== 0) {
    const bit = 31 - Math.clz32(live);
    let owner = 0;
    while (((hands[owner * LANES + lane] >>> bit) & 1) === 0) owner++;
    const p = inSide[owner] === 1 ? 0 : 1;
    if (party < 0) party = p;
    else if (p !== party) break;
    sum += value[(lane << 5) | bit];
    live ^= 1 << bit;
  }
  out[0] = party === 0 ? sum : 0;
  out[1] = party === 1 ? sum : 0;
}

/** Bits a lane may use in `relativeKey`: two 5-bit chunks. */
const KEY_LANE_BITS = 10;
/** COMPRESS[m << 5 | x]: the bits of x selected by m, packed down (a 5-bit `pext`). */
const COMPRESS = new Uint8Array(1024);
const POP5 = new Uint8Array(32);
for (let m = 0; m < 32; m++) {
  for (let b = 0; b < 5; b++) POP5[m] += (m >> b) & 1;
  for (let x = 0; x < 32; x++) {
    let r = 0;
    let k = 0;
    for (let b = 0; b < 5; b++) {
      if (((m >> b) & 1) === 0) continue;
      if ((x >> b) & 1) r |= 1 << k;
      k++;
    }
    COMPRESS[(m << 5) | x] = r;
  }
}

/**
 * A search key that is the same for positions that differ only in cards already
 * played: per lane, the cards still in a hand in order of strength, each with who
 * holds it and its value. Positions with equal keys play out alike: legality and
 * trick winners depend only on the relative order of the cards left, and the measure
 * only on their values (the partition-search idea of bridge solvers, in its simplest
 * form). One word a lane, written without a loop over cards: with `live` the lane's
 * cards still held, the owner of each live card in order as two bit planes (bit 0 and
 * bit 1 of the seat; each seat's holding compressed to the live cards, the last seat
 * holding the rest) in bits 0-9 and 10-19, and in bits 20-29 the number of the
 * sequence of values of the live cards, which depends on `live` alone and so comes
 * from a table (`valueKeys`) and also tells how many there are. Writes `lanes` words;
 * `seats` at most 4, lanes of at most 10 bits. One word a lane keeps a table's rows
 * small: Viersche's boundary key is five words, a row eight (two to a cache line).
 */
export function relativeKey(
  hands: Int32Array,
  seats: number,
  lanes: number,
  values: Int32Array,
  out: Int32Array,
  off: number,
): number {
  const last = seats - 1;
  for (let lane = 0; lane < lanes; lane++) {
    let live = 0;
    for (let s = 0; s < seats; s++) live |= hands[s * LANES + lane];
    if (live >>> KEY_LANE_BITS !== 0) tooWide(lane);
    // compress(x, live), inlined: the low five bits of live select from x's, the high five likewise.
    const lo = (live & 31) << 5;
    const hi = live & 0x3e0;
    const k = POP5[live & 31];
    let held = 0;
    let plane0 = 0;
    let plane1 = 0;
    for (let s = 0; s < last; s++) {
      const h = hands[s * LANES + lane];
      const c = COMPRESS[lo | (h & 31)] | (COMPRESS[hi | ((h >>> 5) & 31)] << k);
      held |= c;
      plane0 |= c & -(s & 1);
      plane1 |= c & -((s >>> 1) & 1);
    }
    const rest = ((1 << (k + POP5[live >>> 5])) - 1) ^ held;
    plane0 |= rest & -(last & 1);
    plane1 |= rest & -((last >>> 1) & 1);
    out[off + lane] =
      plane0 | (plane1 << KEY_LANE_BITS) | (values[(lane << KEY_LANE_BITS) | live] << (2 * KEY_LANE_BITS));
  }
  return lanes;
}

/** Out of line, so that the check costs `relativeKey` nothing. */
function tooWide(lane: number): never {
  throw new Error(`relativeKey: lane ${lane} uses bits above ${KEY_LANE_BITS - 1}`);
}

/**
 * For `relativeKey`: by lane and set of live cards (`lane << 10 | live`), the number
 * of the sequence of `value`s of the live cards in order of strength, counted from 0
 * per lane in order of first appearance (equal sequences, equal numbers; below 1024).
 *
 * A set's sequence is the sequence of the set without its highest card, then that
 * card's value: each sequence is a node of a tree, found from the smaller set's (met
 * earlier, as sets go up) and one value, and numbered as it is first met.
 */
export function valueKeys(value: Uint8Array): Int32Array {
  const limit = 1 << KEY_LANE_BITS;
  const keys = new Int32Array(LANES * limit);
  let span = 1;
  for (let i = 0; i < value.length; i++) span = Math.max(span, value[i] + 1);
  // child[node * span + value]: the number of node's sequence followed by value, 0 until it is met
  // (a table, not a Map: the keys are built as a game's engine loads, which `tafel play` waits for).
  const child = new Uint16Array(limit * span);
  for (let lane = 0; lane < LANES; lane++) {
    const base = lane << KEY_LANE_BITS;
    child.fill(0);
    let nodes = 0;
    for (let live = 1; live < limit; live++) {
      const top = 31 - Math.clz32(live);
      const edge = keys[base | (live ^ (1 << top))] * span + value[(lane << 5) | top];
      let n = child[edge];
      if (n === 0) child[edge] = n = ++nodes;
      keys[base | live] = n;
    }
  }
  return keys;
}
