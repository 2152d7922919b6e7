/**
 * Card sets as lanes of 32-bit masks.
 *
 * A pack is laid out in LANES = 4 lanes of 32 bits; a card is the code
 * `lane << 5 | bit`. Games choose the lanes so that the questions of trick play are
 * single mask operations: a French game puts each (effective) suit in a lane, with
 * the bit order equal to the order of strength, so "holding the suit led" is one
 * test and "the highest card of a suit" is one `highestBit`. The 54-card Cego pack
 * fits in two lanes (22 tarocks; four suits of 8), so no game pays for a wider set.
 * Four lanes, not more, because every scan over a set is a loop over its lanes and
 * the play loop runs such scans tens of millions of times a second.
 *
 * A set lives in a caller-owned Int32Array at an offset (hands of all seats share one
 * array), which keeps every operation allocation-free. The answers to yes/no
 * decisions (claims, declarations) are the two highest codes, which no pack uses, so a
 * legal-move set is always a card set.
 */
import { POP16, popcount, selectBit, lowestBit } from './bits.js';

export const LANES = 4;
const LANE_BITS = 5;
/** Codes 0..127: lane << 5 | bit. */
export const CODE_LIMIT = LANES << LANE_BITS;

export function codeOf(lane: number, bit: number): number {
  return (lane << LANE_BITS) | bit;
}

/** A fresh, empty set (or `count` consecutive sets). Allocates: call outside hot loops. */
export function newSets(count = 1): Int32Array {
  return new Int32Array(LANES * count);
}

export function setHas(s: Int32Array, off: number, code: number): boolean {
  return ((s[off + (code >>> 5)] >>> (code & 31)) & 1) !== 0;
}

export function setSize(s: Int32Array, off: number): number {
  return popcount(s[off]) + popcount(s[off + 1]) + popcount(s[off + 2]) + popcount(s[off + 3]);
}

/**
 * The k-th code of the set in increasing code order (k from 0); -1 if k >= size. The
 * random bot's whole move, so it is branch-light: which lane holds the k-th code is
 * data, found by comparing k with the running counts as masks, not by branches that
 * the processor would mispredict.
 */
export function setSelect(s: Int32Array, off: number, k: number): number {
  // The counts by lookups written out, not by calls to `popcount`: a play loop inlines
  // this (and the following rule beside it) only while their bytecode fits V8's budget.
  // (`& low`, not `& 0xffff`: a literal that wide takes 10 bytes of bytecode at each use.)
  const pop = POP16;
  const low = 0xffff;
  const m0 = s[off];
  const m1 = s[off + 1];
  const m2 = s[off + 2];
  const c0 = pop[m0 & low] + pop[m0 >>> 16];
  const c1 = c0 + pop[m1 & low] + pop[m1 >>> 16];
  const c2 = c1 + pop[m2 & low] + pop[m2 >>> 16];
  // gN is 1 when k lies beyond the first N + 1 lanes (c + ~k is c - 1 - k in fewer bytecodes).
  const g0 = (c0 + ~k) >>> 31;
  const g1 = (c1 + ~k) >>> 31;
  const g2 = (c2 + ~k) >>> 31;
  const lane = g0 + g1 + g2;
  const before = c0 * g0 + (c1 - c0) * g1 + (c2 - c1) * g2;
  // -1 from selectBit (k beyond the set) stays -1 whatever the lane: -1 | x is -1.
  return (lane << 5) | selectBit(s[off + lane], k - before);
}

/** The lowest code of the set; -1 if empty. */
export function setFirst(s: Int32Array, off: number): number {
  for (let l = 0; l < LANES; l++) {
    const m = s[off + l];
    if (m !== 0) return (l << 5) | lowestBit(m);
  }
  return -1;
}

/** Write the codes of a set in increasing order to `out[at ..]`; returns how many. Allocation-free. */
export function setCodesInto(s: Int32Array, off: number, out: Int32Array, at = 0): number {
  let n = 0;
  for (let l = 0; l < LANES; l++) {
    for (let m = s[off + l]; m !== 0; m &= m - 1) out[at + n++] = (l << 5) | lowestBit(m);
  }
  return n;
}

/** Codes of a set in increasing order, as a new array (for tests, records and UIs). */
export function setToCodes(s: Int32Array, off = 0): number[] {
  const out: number[] = [];
  for (let l = 0; l < LANES; l++) {
    for (let m = s[off + l]; m !== 0; m &= m - 1) out.push((l << 5) | lowestBit(m));
  }
  return out;
}
