/**
 * Bit helpers on 32-bit integer masks. Every card set in tafel is one or more of
 * these masks, so these few functions are the hottest code in the project: keep
 * them branch-light, allocation-free and small enough for V8 to inline.
 */

/** Number of set bits: two lookups in a table of the 16-bit halves (card masks mostly fit the first 1024 entries). */
export function popcount(m: number): number {
  return POP16[m & 0xffff] + POP16[m >>> 16];
}

/** Index of the lowest set bit; -1 for an empty mask. */
export function lowestBit(m: number): number {
  return 31 - Math.clz32(m & -m);
}

/** Index of the highest set bit; -1 for an empty mask. */
export function highestBit(m: number): number {
  return 31 - Math.clz32(m);
}

/** Index of the k-th set bit (k from 0, counting from the lowest); -1 if there are fewer. */
export function selectBit(m: number, k: number): number {
  // Masks of ten bits (every lane of the French packs) by one lookup, small enough to inline.
  return ((m >>> 10) | (k >>> 4)) === 0 ? SELECT10[(m << 4) | k] : selectWide(m, k);
}

/**
 * `selectBit` for wider masks (Cego lanes of 22 and 32 bits, the answers' lane): the
 * half, then the byte, that holds the k-th bit chosen by masks rather than by branches
 * (which bit that is is random in play, so branches would be mispredicted), then the
 * bit by lookup.
 */
function selectWide(m: number, k: number): number {
  const pop = POP16;
  const low = pop[m & 0xffff];
  // -1 when the k-th bit lies above the low half: skip it.
  const high = (low + ~k) >> 31;
  k -= low & high;
  m >>= 16 & high;
  let base = 16 & high;
  const byte0 = pop[m & 0xff];
  const up = (byte0 + ~k) >> 31;
  k -= byte0 & up;
  m >>= 8 & up;
  base += 8 & up;
  const byte = m & 0xff;
  // Unsigned: a negative k (none asked for) fails too.
  return k >>> 0 < pop[byte] ? base + SELECT10[(byte << 4) | k] : -1;
}

/** Bits strictly above `bit`. */
export function bitsAbove(bit: number): number {
  return bit >= 31 ? 0 : -2 << bit;
}

// Tables in ArrayBuffers of their own (off V8's heap), built once at load: every
// command that plays loads them, so they are built by rows (a few thousand steps in
// the interpreter, not 75,000).
/** POP16[m]: the set bits of a 16-bit mask (`popcount`'s table, for loops that look it up inline). */
export const POP16 = (() => {
  // ROWS[c << 8 | b]: the set bits of byte b, plus c; a 16-bit mask's row is its high byte's count.
  const rows = new Uint8Array(9 << 8);
  for (let b = 1; b < 256; b++) rows[b] = (b & 1) + rows[b >> 1];
  for (let c = 1; c < 9; c++) for (let b = 0; b < 256; b++) rows[(c << 8) | b] = rows[b] + c;
  const t = new Uint8Array(new ArrayBuffer(1 << 16));
  for (let hi = 0; hi < 256; hi++) t.set(rows.subarray(rows[hi] << 8, (rows[hi] + 1) << 8), hi << 8);
  return t;
})();

/** SELECT10[m << 4 | k]: the k-th set bit of a mask below 1024, -1 if it has fewer. */
const SELECT10 = (() => {
  const t = new Int8Array(new ArrayBuffer(1024 * 16)).fill(-1);
  // A mask's bits are those of the mask without its top bit, then the top bit.
  for (let m = 1; m < 1024; m++) {
    const top = 31 - Math.clz32(m);
    const rest = m ^ (1 << top);
    t.copyWithin(m << 4, rest << 4, (rest << 4) + 16);
    t[(m << 4) | POP16[rest]] = top;
  }
  return t;
})();
