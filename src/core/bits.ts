/**
 * Bit helpers on 32-bit integer masks. Every card set in tafel is one or more of
 * these masks, so these few functions are the hottest code in the project: keep
 * them branch-light, allocation-free and small enough for V8 to inline.
 */

/** Number of set bits (SWAR popcount). */
export function popcount(m: number): number {
  m = m - ((m >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
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
  // Skip whole bytes by their popcount, then walk the last byte.
  let base = 0;
  for (;;) {
    if (m === 0) return -1;
    const c = BYTE_POPCOUNT[m & 0xff];
    if (k < c) break;
    k -= c;
    m >>>= 8;
    base += 8;
  }
  m &= 0xff;
  while (k-- > 0) m &= m - 1;
  return base + 31 - Math.clz32(m & -m);
}

/** Bits strictly above `bit`. */
export function bitsAbove(bit: number): number {
  return bit >= 31 ? 0 : -2 << bit;
}

const BYTE_POPCOUNT = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();
