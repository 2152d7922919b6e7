/** core/bits.ts against the bits counted one by one: its tables are built by rows, every entry checked. */
import { describe, expect, it } from 'vitest';
import { popcount, popcount16, popcount16x4, selectBit } from '../src/core/bits.js';

/** The bits of `m`, lowest first, one by one. */
function bitsOf(m: number): number[] {
  const bits: number[] = [];
  for (let b = 0; b < 32; b++) if ((m >>> b) & 1) bits.push(b);
  return bits;
}

describe('bits', () => {
  it('popcount16 counts every 16-bit mask', () => {
    const wrong: number[] = [];
    for (let m = 0; m < 1 << 16; m++) if (popcount16(m) !== bitsOf(m).length) wrong.push(m);
    expect(wrong).toEqual([]);
  });

  it('popcount and popcount16x4 count wide masks', () => {
    for (const m of [0, 1, 0xffff, 0x10000, 0x7fffffff, -1, 0x80000000 | 0, 0x12345678, 0xdeadbeef | 0]) {
      expect(popcount(m)).toBe(bitsOf(m).length);
    }
    expect(popcount16x4(0xffff, 1, 0x8001, 0)).toBe(16 + 1 + 2);
  });

  it('selectBit gives the k-th set bit of every 10-bit mask, -1 past its bits', () => {
    const wrong: string[] = [];
    for (let m = 0; m < 1024; m++) {
      const bits = bitsOf(m);
      for (let k = 0; k < 16; k++) if (selectBit(m, k) !== (bits[k] ?? -1)) wrong.push(`${m}:${k}`);
    }
    expect(wrong).toEqual([]);
  });

  it('selectBit of wider masks', () => {
    for (const m of [0x400, 0xfff, 0x12345678, -1, 0x80000001 | 0]) {
      const bits = bitsOf(m);
      for (let k = -1; k < 34; k++) expect(selectBit(m, k)).toBe(bits[k] ?? -1);
    }
  });
});
