/** Interchangeable cards and relative keys (src/games/interchangeable.ts). */
import { describe, expect, it } from 'vitest';
import { keepOnePerRun, relativeKey, valueKeys } from '../src/games/trick/interchangeable.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { POINTS as VIERSCHE_POINTS } from '../src/games/viersche/cards.js';
import { referenceKey } from './reference/relative-key.js';

const VALUE = new Uint8Array(128);
// Lane 0: bits 0-3 worth 0, bit 4 worth 10, bits 5-6 worth 3.
VALUE[4] = 10;
VALUE[5] = VALUE[6] = 3;

describe('keepOnePerRun', () => {
  it('keeps one card of a run of equal value with nothing live between', () => {
    const moves = new Int32Array([0b1111, 0, 0, 0]);
    const live = new Int32Array([0b1111, 0, 0, 0]);
    expect(keepOnePerRun(moves, 0, live, VALUE, null)).toBe(1);
    expect(moves[0]).toBe(0b0001);
  });

  it('splits a run at a live card of another hand or of the trick', () => {
    const moves = new Int32Array([0b1011, 0, 0, 0]);
    const live = new Int32Array([0b1111, 0, 0, 0]);
    expect(keepOnePerRun(moves, 0, live, VALUE, null)).toBe(2);
    expect(moves[0]).toBe(0b1001);
  });

  it('joins cards whose gap holds only played cards, but never cards of different value', () => {
    const moves = new Int32Array([0b1100001, 0, 0, 0]); // bits 0, 5, 6
    const live = new Int32Array([0b1100001, 0, 0, 0]);
    expect(keepOnePerRun(moves, 0, live, VALUE, null)).toBe(2); // 0 alone (value 0), 5~6 (value 3)
    expect(moves[0]).toBe(0b0100001);
  });

  it('never joins across a run break (another suit in the same lane)', () => {
    const moves = new Int32Array([0, 0x180, 0, 0]); // bits 7 and 8 of lane 1
    const live = new Int32Array([0, 0x180, 0, 0]);
    expect(keepOnePerRun(moves, 0, live, new Uint8Array(128), new Int32Array([0, 0x01010101, 0, 0]))).toBe(2);
    expect(keepOnePerRun(moves, 0, live, new Uint8Array(128), null)).toBe(1);
  });
});

describe('relativeKey', () => {
  const classes = valueKeys(VALUE);
  it('is equal for positions that differ only in played cards of the same value', () => {
    const a = new Int32Array(16);
    const b = new Int32Array(16);
    a[0] = 0b0010; // seat 0 holds bit 1
    a[4] = 0b1000; // seat 1 holds bit 3
    b[0] = 0b0001; // seat 0 holds bit 0
    b[4] = 0b0100; // seat 1 holds bit 2
    const ka = new Int32Array(4);
    const kb = new Int32Array(4);
    relativeKey(a, 4, 4, classes, ka, 0);
    relativeKey(b, 4, 4, classes, kb, 0);
    expect([...ka]).toEqual([...kb]);
  });

  it('differs when the owners or values of the cards left differ', () => {
    const a = new Int32Array(16);
    const b = new Int32Array(16);
    a[0] = 0b0001;
    a[4] = 0b0010;
    b[0] = 0b0010;
    b[4] = 0b0001;
    const ka = new Int32Array(4);
    const kb = new Int32Array(4);
    relativeKey(a, 4, 4, classes, ka, 0);
    relativeKey(b, 4, 4, classes, kb, 0);
    expect([...ka]).not.toEqual([...kb]);
    b[0] = 0b10000; // seat 0 holds the 10-point card instead
    b[4] = 0b0010;
    relativeKey(b, 4, 4, classes, kb, 0);
    expect([...ka]).not.toEqual([...kb]);
  });

  it('tells apart exactly the positions that the card-by-card key tells apart', () => {
    // Random deals of the 36 Viersche codes to 4 seats, with most cards played, in pairs
    // built to collide often: the same owners and values in order, cards shifted.
    const planes = valueKeys(VIERSCHE_POINTS);
    const codes: number[] = [];
    for (let c = 0; c < 128; c++) if ((c & 31) < 10 && c >>> 5 < 4 && !(c >>> 5 > 0 && (c & 31) > 8)) codes.push(c);
    const rng = new Rng();
    rng.reseed(seedKey('relative-key'), 0, 0, 0);
    const deal = (keep: number) => {
      const hands = new Int32Array(16);
      for (const c of codes) if (rng.below(100) < keep) hands[rng.below(4) * 4 + (c >>> 5)] |= 1 << (c & 31);
      return hands;
    };
    const key = (h: Int32Array) => {
      const out = new Int32Array(4);
      relativeKey(h, 4, 4, planes, out, 0);
      return out.join(',');
    };
    const seen = new Map<string, string>();
    let collisions = 0;
    for (let i = 0; i < 20_000; i++) {
      const h = deal(i % 2 === 0 ? 12 : 30);
      const k = key(h);
      const ref = referenceKey(h, 4, VIERSCHE_POINTS);
      const before = seen.get(k);
      if (before !== undefined) {
        expect(before, `position ${i}`).toBe(ref);
        collisions++;
      }
      seen.set(k, ref);
    }
    const byRef = new Map<string, string>();
    for (const [k, ref] of seen) {
      expect(byRef.get(ref) ?? k, `one key per reference key`).toBe(k);
      byRef.set(ref, k);
    }
    // The check means something only if equal keys do occur.
    expect(collisions).toBeGreaterThan(100);
  });
});

describe('valueKeys', () => {
  /** The numbering as written first: each set's sequence of values as text, numbered per lane as first met. */
  function textKeys(value: Uint8Array): Int32Array {
    const keys = new Int32Array(4 << 10);
    for (let lane = 0; lane < 4; lane++) {
      const numbers = new Map<string, number>();
      for (let live = 0; live < 1 << 10; live++) {
        const values: number[] = [];
        for (let bit = 0; bit < 10; bit++) if ((live >>> bit) & 1) values.push(value[(lane << 5) | bit]);
        const sequence = values.join(',');
        let n = numbers.get(sequence);
        if (n === undefined) numbers.set(sequence, (n = numbers.size));
        keys[(lane << 10) | live] = n;
      }
    }
    return keys;
  }

  it('numbers the value sequences of live sets as the text of each sequence does', () => {
    const rng = new Rng(seedKey('value-keys'));
    const random = new Uint8Array(128).map(() => rng.below(4) * 5);
    for (const value of [VALUE, VIERSCHE_POINTS, random, new Uint8Array(128)])
      expect(Array.from(valueKeys(value))).toEqual(Array.from(textKeys(value)));
  });
});
