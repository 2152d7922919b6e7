/**
 * Perft: the number of move sequences (declarations and cards) by depth, engine
 * against the naive reference (src/games/vier-anderle/reference.ts), on random deals for
 * several player counts, type-1 and type-2 hands. At the full depth every finished hand's
 * money is also checked against the reference.
 */
import { describe, expect, it } from 'vitest';
import { LANES, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { codeName } from '../src/games/vier-anderle/cards.js';
import { AnderleState } from '../src/games/vier-anderle/state.js';
import { naiveMoney, naivePerft } from '../src/games/vier-anderle/reference.js';

function enginePerft(root: AnderleState, depth: number): number[] {
  const counts = new Array<number>(depth + 1).fill(0);
  const stack = Array.from({ length: depth + 1 }, () => new AnderleState(root.seats, root.pips));
  const buf = new Int32Array(LANES * (depth + 1));
  stack[0].copyFrom(root);
  const walk = (d: number): void => {
    const s = stack[d];
    counts[d]++;
    if (s.isTerminal()) {
      const ins: number[] = [];
      for (let i = 1; i <= s.seats; i++)
        if (s.declared[(s.dealer + i) % s.seats] === 1) ins.push((s.dealer + i) % s.seats);
      const want = naiveMoney(s.seats, s.dealer, s.potBefore, ins, Array.from(s.seatTricks.subarray(0, s.seats)));
      expect(Array.from(s.delta.subarray(0, s.seats))).toEqual(want);
      return;
    }
    if (d === depth) return;
    s.legal(buf, d * LANES);
    for (const m of setToCodes(buf, d * LANES)) {
      stack[d + 1].copyFrom(s);
      stack[d + 1].apply(m);
      walk(d + 1);
    }
  };
  walk(0);
  return counts;
}

function dealt(seats: number, potBefore: number, seed: string): AnderleState {
  const s = new AnderleState(seats, seats > 9);
  s.deal({ dealer: seats - 1, potBefore }, new Rng(seedKey(seed)), new Uint8Array(64));
  return s;
}

function names(s: AnderleState): string[][] {
  return Array.from({ length: s.seats }, (_, seat) => setToCodes(s.dealt, seat * LANES).map(codeName));
}

const CASES: [seats: number, potBefore: number, depth: number, deals: number][] = [
  [2, 0, 8, 20],
  [3, 0, 12, 10],
  [4, 0, 16, 4],
  [2, 8, 10, 20],
  [3, 4, 15, 6],
  [4, 12, 11, 3],
  [4, 8, 20, 1],
  [5, 0, 20, 1],
  [6, 0, 10, 3],
  [6, 20, 10, 3],
  [9, 0, 12, 2],
  [10, 0, 12, 2],
  [13, 0, 15, 2],
  [13, 4, 15, 1],
];

describe('perft against the naive reference (A-3, A-5..A-7)', () => {
  for (const [seats, pot, depth, deals] of CASES) {
    it(`A-3 A-6 A-7: ${seats} players, pot ${pot}, depth ${depth}, ${deals} deals`, () => {
      for (let k = 0; k < deals; k++) {
        const s = dealt(seats, pot, `perft-${seats}-${pot}-${k}`);
        const want = naivePerft({ seats, dealer: s.dealer, potBefore: pot, hands: names(s) }, depth);
        expect(enginePerft(s, depth)).toEqual(want);
      }
    });
  }
  it('a fixed table: 3 players, a known deal', () => {
    const s = dealt(3, 0, 'fixed');
    const counts = enginePerft(s, 12);
    expect(counts[0]).toBe(1);
    expect(counts).toEqual(naivePerft({ seats: 3, dealer: 2, potBefore: 0, hands: names(s) }, 12));
  });
});
