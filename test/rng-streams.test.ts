/**
 * The play loop's short cuts to the random streams and the deal: each gives exactly
 * what the plain way gives (records stay byte-identical, RECORD.md).
 */
import { describe, expect, it } from 'vitest';
import { LANES } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey, streamPrefix } from '../src/core/rng.js';
import { reseedBot, reseedCards, reseedDeal } from '../src/harness/table/seeding.js';
import { dealFour } from '../src/games/trick/french.js';
import { PACK } from '../src/games/hindersche/cards.js';

const key = seedKey('streams');

/** The generator's next four draws: equal draws mean an equal state. */
function draws(rng: Rng): number[] {
  return [rng.next(), rng.next(), rng.next(), rng.next()];
}

describe('Rng.shuffle', () => {
  it('is Fisher-Yates from the top with below(i + 1), to the same entries and generator state', () => {
    for (const n of [1, 2, 9, 36, 54, 255, 256, 257, 300]) {
      for (let x = 0; x < 100; x++) {
        const a = new Rng(key, x, n);
        const b = new Rng(key, x, n);
        const fast = Uint16Array.from({ length: n }, (_, i) => i);
        const plain = fast.slice();
        const bytes = Uint8Array.from(fast, (v) => v & 255);
        a.shuffle(bytes, n);
        for (let i = n - 1; i > 0; i--) {
          const j = b.below(i + 1);
          const t = plain[i];
          plain[i] = plain[j];
          plain[j] = t;
        }
        expect(Array.from(bytes)).toEqual(Array.from(plain, (v) => v & 255));
        expect(draws(a)).toEqual(draws(b));
      }
    }
  });
});

describe('Rng.shuffleFirst', () => {
  it('leaves the first `keep` entries and the generator as shuffle does', () => {
    for (const n of [2, 16, 38, 54, 300]) {
      for (const keep of [0, 1, 8, 16, n - 1, n]) {
        if (keep > n) continue;
        for (let x = 0; x < 200; x++) {
          const a = new Rng(key, x, n, keep);
          const b = new Rng(key, x, n, keep);
          const full = Uint8Array.from({ length: n }, (_, i) => 3 * i + 1);
          const part = full.slice();
          a.shuffle(full, n);
          b.shuffleFirst(part, n, keep);
          expect(Array.from(part.subarray(0, keep))).toEqual(Array.from(full.subarray(0, keep)));
          expect(draws(b)).toEqual(draws(a));
        }
      }
    }
  });
});

describe('Rng.reseedAt', () => {
  it('is reseed with the stream prefix computed apart, beyond 2^32 too', () => {
    for (const x of [0, 1, 7, 123456, 2 ** 31 + 5, 2 ** 32 + 3, 2 ** 40 + 11]) {
      for (const [y, z] of [
        [0, 0],
        [3, 5 << 8],
        [1, (9 << 8) | 2],
      ]) {
        const a = new Rng();
        const b = new Rng();
        a.reseed(key, x, y, z);
        b.reseedAt(key, streamPrefix(x), y, z);
        expect(draws(b)).toEqual(draws(a));
      }
    }
  });

  it('reseedDeal gives the cards and every seat the streams reseedCards and reseedBot give', () => {
    for (const [g, k, r] of [
      [0, 0, 0],
      [17, 3, 2],
      [2 ** 33 + 1, 1, 3],
    ]) {
      const cards = new Rng();
      const bots = [new Rng(), new Rng(), new Rng(), new Rng()];
      reseedDeal(cards, bots, key, g, k, r);
      const plain = new Rng();
      reseedCards(plain, key, g, k);
      expect(draws(cards)).toEqual(draws(plain));
      for (let seat = 0; seat < bots.length; seat++) {
        reseedBot(plain, key, g, k, seat, r);
        expect(draws(bots[seat])).toEqual(draws(plain));
      }
    }
  });
});

describe('dealFour', () => {
  it('deals card i to seat (first + i) mod 4 as its code under trump', () => {
    const rng = new Rng(key, 99);
    for (let round = 0; round < 200; round++) {
      const deck = Uint8Array.from({ length: PACK_SIZE }, (_, i) => i);
      rng.shuffle(deck, PACK_SIZE);
      const trump = round & 3;
      const first = (round >> 2) & 3;
      const hands = new Int32Array(4 * LANES).fill(-1);
      dealFour(deck, PACK.effective, trump * PACK_SIZE, first, hands);
      const expected = new Int32Array(4 * LANES);
      for (let i = 0; i < PACK_SIZE; i++) {
        const code = PACK.effective[trump * PACK_SIZE + deck[i]];
        expected[((first + i) & 3) * LANES + (code >>> 5)] |= 1 << (code & 31);
      }
      expect(Array.from(hands)).toEqual(Array.from(expected));
    }
  });
});
