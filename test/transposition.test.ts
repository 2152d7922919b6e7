/** The solver's transposition table (bots/solver/transposition.ts). */
import { describe, expect, it } from 'vitest';
import { Transposition } from '../bots/solver/transposition.js';

const WORDS = 9;

function keyOf(i: number): Int32Array {
  const k = new Int32Array(WORDS);
  for (let w = 0; w < WORDS; w++) k[w] = Math.imul(i + 1, 0x9e3779b1 + w) ^ w;
  return k;
}

/** Store keys 0..n-1 with bounds and moves derived from i; return which still hold, with what. */
function fill(tt: Transposition, from: number, n: number): void {
  for (let i = from; i < from + n; i++) {
    const k = keyOf(i);
    tt.store(tt.slotOf(k, 0, WORDS, 1), k, 0, WORDS, i % 157, (i % 157) + (i % 7), i % 128, 1);
  }
}

function held(tt: Transposition, n: number): Map<number, [number, number, number]> {
  const out = new Map<number, [number, number, number]>();
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    const slot = tt.slotOf(k, 0, WORDS, 1);
    if (tt.holds(slot, k, 0, WORDS)) out.set(i, [tt.lower(slot), tt.upper(slot), tt.move(slot)]);
  }
  return out;
}

describe('transposition table', () => {
  it('keeps bounds and moves exactly, and misses keys never stored', () => {
    const tt = new Transposition(16);
    fill(tt, 0, 100);
    const h = held(tt, 100);
    expect(h.size).toBeGreaterThan(95);
    for (const [i, v] of h) expect(v).toEqual([i % 157, (i % 157) + (i % 7), i % 128]);
    const other = keyOf(5000);
    expect(tt.holds(tt.slotOf(other, 0, WORDS, 1), other, 0, WORDS)).toBe(false);
  });

  it('keeps every entry when its region doubles, and forgets all on clear and reset', () => {
    const tt = new Transposition(20);
    // Grow several times, checking after each store that nothing held was lost but by a newer key's slot.
    let prev = new Map<number, [number, number, number]>();
    let grown = 0;
    for (let n = 1; n <= 40_000; n++) {
      fill(tt, n - 1, 1);
      const growth = n === 8193 || n === 24577; // stores past half of 2^14, then of 2^15 rows
      if (n % 997 !== 0 && !growth && n !== 8192 && n !== 24576) continue;
      const now = held(tt, n);
      let lost = 0;
      for (const [i, v] of prev) {
        const w = now.get(i);
        if (w === undefined) lost++;
        else expect(w).toEqual(v);
      }
      // Without growth, a direct-mapped table loses older keys to newer ones: few at these loads.
      expect(lost).toBeLessThanOrEqual(prev.size * 0.5);
      // The store that doubles the region may displace one entry (its own slot), no more.
      if (growth) expect(lost).toBeLessThanOrEqual(1);
      if (now.size > prev.size) grown++;
      prev = now;
    }
    expect(grown).toBeGreaterThan(10);
    // The region is 2^16 rows by now: most of 40,000 keys fit (a 2^14 table would hold under 16,384).
    expect(prev.size).toBeGreaterThan(25_000);
    tt.clear();
    expect(held(tt, 40_000).size).toBe(0);
    fill(tt, 0, 10);
    tt.reset();
    expect(held(tt, 10).size).toBe(0);
  });

  it('holds two keys of one bucket, and keeps the entry of more work against newer ones of less', () => {
    const tt = new Transposition(4); // 16 rows: 8 buckets of two
    const words = 5;
    const key = (i: number) => keyOf(i).subarray(0, words);
    const put = (k: Int32Array, weight: number, lower: number) =>
      tt.store(tt.slotOf(k, 0, words, weight), k, 0, words, lower, lower, 0, weight);
    const lowerOf = (k: Int32Array) => {
      const slot = tt.slotOf(k, 0, words, 0);
      return tt.holds(slot, k, 0, words) ? tt.lower(slot) : -1;
    };
    const a = key(0);
    const first = tt.slotOf(a, 0, words, 5);
    put(a, 5, 50);
    // Keys of a's bucket: in an empty table, their slot is a's.
    const empty = new Transposition(4);
    const mates: Int32Array[] = [];
    for (let i = 1; mates.length < 3; i++) if (empty.slotOf(key(i), 0, words, 3) === first) mates.push(key(i));
    const [b, c, d] = mates;
    put(b, 3, 30);
    expect([lowerOf(a), lowerOf(b)]).toEqual([50, 30]);
    put(c, 3, 31); // less work than a: replaces b
    expect([lowerOf(a), lowerOf(b), lowerOf(c)]).toEqual([50, -1, 31]);
    put(d, 5, 52); // as much work as a: replaces it
    expect([lowerOf(a), lowerOf(c), lowerOf(d)]).toEqual([-1, 31, 52]);
  });
});
