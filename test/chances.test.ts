/** The heuristics' table of draw chances (src/games/trick/chances.ts): the products it tables, number for number. */
import { describe, expect, it } from 'vitest';
import { drawProduct, drawTable, drawn, inDrawTable, type DrawFactor } from '../src/games/trick/chances.js';

const FACTORS: Readonly<Record<string, DrawFactor>> = {
  // As Viersche's and Hindersche's heuristics: past u cards, 0/0 (NaN) ends the product.
  none: (u, h, i) => Math.max(0, u - h - i) / (u - i),
  // As Hindersi-Jass's: no card left to draw, chance 0.
  guarded: (u, h, i) => (u - i > 0 ? Math.max(0, u - h - i) / (u - i) : 0),
  // Above 1 and negative factors: every rounding of a long product.
  odd: (u, h, i) => (u + 1) / (h + 3) - i / 7,
};

describe('drawTable', () => {
  for (const [name, factor] of Object.entries(FACTORS))
    it(`holds drawProduct of every (u, h, k) in range, bit for bit (${name})`, () => {
      const table = drawTable(factor);
      const differ: number[][] = [];
      for (let u = 0; u < 40; u++)
        for (let h = 0; h < 40; h++)
          for (let k = 0; k < 16; k++)
            if (!inDrawTable(u, h, k) || !Object.is(drawn(table, u, h, k), drawProduct(factor, u, h, k)))
              differ.push([u, h, k]);
      expect(differ.slice(0, 5)).toEqual([]);
      expect(inDrawTable(40, 0, 0) || inDrawTable(0, 0, 16)).toBe(false);
    });

  it('computes a row when first read, at whatever k, and no other', () => {
    const calls: number[][] = [];
    const table = drawTable((u, h, i) => (calls.push([u, h, i]), FACTORS.none(u, h, i)));
    expect(Object.is(drawn(table, 30, 5, 15), drawProduct(FACTORS.none, 30, 5, 15))).toBe(true);
    expect(calls).toEqual(Array.from({ length: 15 }, (_, i) => [30, 5, i]));
    for (let k = 0; k < 16; k++)
      expect(Object.is(drawn(table, 30, 5, k), drawProduct(FACTORS.none, 30, 5, k))).toBe(true);
    expect(calls.length).toBe(15);
  });
});
