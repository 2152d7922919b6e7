/**
 * Interchangeable cards, for `State.searchMoves` (the equivalent-card pruning of
 * double-dummy solvers). Two legal cards of one lane are interchangeable when no card
 * between them is still in any hand or in the current trick (then each beats and
 * loses to exactly the same cards, now and later) and they are worth the same. Every
 * game's layout puts a lane's cards in order of strength, so "between" is a bit range.
 */
import { LANES } from '../core/cardset.js';

/**
 * Reduce the move set `out[off .. off + LANES)` to one card per run of interchangeable
 * cards and return how many are left. `live` holds, per lane, every card still in a
 * hand or in the current trick; `value[code]` is each card's worth to the search
 * measure; `breaks[lane]` marks bits that start a new run whatever lies below (the
 * first bit of each suit where one lane holds several suits), or 0.
 */
export function keepOnePerRun(out: Int32Array, off: number, live: Int32Array, value: Uint8Array, breaks: Int32Array | null): number {
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
 * Write into `live` every card still in one of the four hands `hands` (LANES masks per
 * seat) or among `moves[from .. to)` (the current trick): what `keepOnePerRun` needs.
 */
export function liveCards(live: Int32Array, hands: Int32Array, moves: Int32Array, from: number, to: number): void {
  for (let l = 0; l < LANES; l++) live[l] = hands[l] | hands[LANES + l] | hands[2 * LANES + l] | hands[3 * LANES + l];
  for (let ply = from; ply < to; ply++) {
    const c = moves[ply];
    live[c >>> 5] |= 1 << (c & 31);
  }
}

/**
 * A search key that is the same for positions that differ only in cards already
 * played: per lane, the cards still in a hand in order of strength, each written as
 * who holds it and its value class (6 bits: a presence bit, 2 bits of seat, 3 of
 * class), five cards to a word. Positions with equal keys play out alike: legality and
 * trick winners depend only on the relative order of the cards left, and the measure
 * only on their values (the partition-search idea of bridge solvers, in its simplest
 * form). Writes `2 * lanes` words for lanes of up to 10 cards (`lanes` of 4 seats).
 */
export function relativeKey(hands: Int32Array, seats: number, lanes: number, valueClass: Uint8Array, out: Int32Array, off: number): number {
  let w = off;
  for (let lane = 0; lane < lanes; lane++) {
    let live = 0;
    for (let s = 0; s < seats; s++) live |= hands[s * LANES + lane];
    let word = 0;
    let shift = 0;
    let words = 0;
    for (let m = live; m !== 0; m &= m - 1) {
      const low = m & -m;
      let owner = 0;
      while ((hands[owner * LANES + lane] & low) === 0) owner++;
      word |= (32 | (owner << 3) | valueClass[(lane << 5) | (31 - Math.clz32(low))]) << shift;
      shift += 6;
      if (shift === 30) {
        out[w++] = word;
        words++;
        word = 0;
        shift = 0;
      }
    }
    while (words < 2) {
      out[w++] = word;
      words++;
      word = 0;
    }
  }
  return w - off;
}

/** Value classes for `relativeKey`: equal class, equal value. */
export function valueClasses(value: Uint8Array): Uint8Array {
  const distinct = [...new Set(value)].sort((a, b) => a - b);
  if (distinct.length > 8) throw new Error('relativeKey: more than 8 card values');
  return value.map((v) => distinct.indexOf(v));
}
