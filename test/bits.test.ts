/**
 * The bit helpers and set selection against plain loops: the random bot's move is
 * `setSelect`, so any slip in their short cuts (lookups, masks instead of branches)
 * would change every random deal.
 */
import { describe, expect, it } from 'vitest';
import { POP16, popcount, selectBit } from '../src/core/bits.js';
import { LANES, newSets, setSelect, setSize } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';

function plainPopcount(m: number): number {
  let n = 0;
  for (let b = 0; b < 32; b++) n += (m >>> b) & 1;
  return n;
}

function plainSelectBit(m: number, k: number): number {
  for (let b = 0, seen = 0; b < 32; b++) {
    if (((m >>> b) & 1) === 0) continue;
    if (seen++ === k) return b;
  }
  return -1;
}

/** Masks of every width the packs use (10, 16, 22 and 32 bits), sparse and dense, with the top bits. */
function masks(count: number): number[] {
  const rng = new Rng(seedKey('bits'));
  const out = [0, 1, -1, 0x3ff, 0x3fffff, 1 << 31, (1 << 30) | (1 << 31), 0xffff0000 | 0];
  for (let i = 0; i < count; i++) {
    const width = [10, 16, 22, 32][i & 3];
    let m = rng.next() & (width === 32 ? -1 : (1 << width) - 1);
    if (i % 5 === 0) m &= rng.next(); // sparser
    out.push(m);
  }
  return out;
}

describe('bits', () => {
  it('popcount and selectBit agree with plain loops, k from -1 to beyond the count', () => {
    for (const m of masks(4000)) {
      expect(popcount(m)).toBe(plainPopcount(m));
      for (let k = -1; k <= 33; k++) expect(selectBit(m, k)).toBe(plainSelectBit(m, k));
    }
  });

  it('setSelect gives the k-th code of a set in code order, and -1 beyond it', () => {
    const all = masks(2000);
    const s = newSets();
    for (let i = 0; i + LANES <= all.length; i += 3) {
      for (let l = 0; l < LANES; l++) s[l] = all[i + l];
      const codes: number[] = [];
      for (let l = 0; l < LANES; l++) for (let b = 0; b < 32; b++) if ((s[l] >>> b) & 1) codes.push((l << 5) | b);
      expect(setSize(s, 0)).toBe(codes.length);
      for (let k = 0; k <= codes.length; k++) expect(setSelect(s, 0, k)).toBe(k < codes.length ? codes[k] : -1);
    }
  });

  // The tables are built by rows at load (start-up): every entry checked.
  it('POP16 counts every 16-bit mask, and selectBit every 10-bit mask', () => {
    const wrong: string[] = [];
    for (let m = 0; m < 1 << 16; m++) if (POP16[m] !== plainPopcount(m)) wrong.push(`pop ${m}`);
    for (let m = 0; m < 1024; m++)
      for (let k = 0; k < 16; k++) if (selectBit(m, k) !== plainSelectBit(m, k)) wrong.push(`select ${m}:${k}`);
    expect(wrong).toEqual([]);
  });
});
