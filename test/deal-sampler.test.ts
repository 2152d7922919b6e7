import { describe, it, expect } from 'vitest';
import { HandSampler } from '../src/games/trick/hand-sampler.js';
import { LANES, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import type { State } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

const KEY = seedKey('test');

class CountingRng extends Rng {
  calls = 0;
  override next(): number {
    this.calls++;
    return super.next();
  }
}

function poolOf(lanes: readonly number[]): Int32Array {
  const pool = new Int32Array(LANES);
  lanes.forEach((count, l) => {
    pool[l] = count === 32 ? -1 : (1 << count) - 1;
  });
  return pool;
}

function offsets(holders: number): Int32Array {
  return Int32Array.from({ length: holders }, (_, h) => h * LANES);
}

/** Why the deal in `out` breaks the constraints, or '' when it keeps them all. */
function violation(
  pool: Int32Array,
  sizes: ArrayLike<number>,
  forbidden: ArrayLike<number>,
  out: Int32Array,
  holders: number,
): string {
  const union = new Int32Array(LANES);
  for (let h = 0; h < holders; h++) {
    const codes = setToCodes(out, h * LANES);
    if (codes.length !== sizes[h]) return `holder ${h} got ${codes.length} cards, not ${sizes[h]}`;
    for (let l = 0; l < LANES; l++) {
      const m = out[h * LANES + l];
      if (m !== 0 && (forbidden[h] >>> l) & 1) return `holder ${h} got forbidden lane ${l}`;
      if (union[l] & m) return `holder ${h} shares cards`;
      union[l] |= m;
    }
  }
  for (let l = 0; l < LANES; l++) if (union[l] !== pool[l]) return `lane ${l}: union is not the pool`;
  return '';
}

/** Every consistent deal, keyed as the holders' masks. */
function enumerate(pool: Int32Array, sizes: number[], forbidden: number[]): Set<string> {
  const cards = setToCodes(pool);
  const holders = sizes.length;
  const owner = new Array<number>(cards.length).fill(0);
  const deals = new Set<string>();
  for (;;) {
    const counts = new Array<number>(holders).fill(0);
    let ok = true;
    cards.forEach((c, i) => {
      counts[owner[i]]++;
      if ((forbidden[owner[i]] >>> (c >>> 5)) & 1) ok = false;
    });
    if (ok && counts.every((n, h) => n === sizes[h])) {
      const out = new Int32Array(holders * LANES);
      cards.forEach((c, i) => {
        out[owner[i] * LANES + (c >>> 5)] |= 1 << (c & 31);
      });
      deals.add(out.join(','));
    }
    let i = 0;
    while (i < cards.length && owner[i] === holders - 1) owner[i++] = 0;
    if (i === cards.length) return deals;
    owner[i]++;
  }
}

/**
 * A random pool and a deal of it, with voids only where the deal has none, so the
 * constraints are always satisfiable. `voidChance` 1 declares every possible void.
 */
function randomCase(rng: Rng, maxHolders: number, maxCards: number, voidChance: number) {
  const lanes = 1 + rng.below(7);
  const counts: number[] = [];
  let room = maxCards;
  for (let l = 0; l < lanes; l++) {
    const c = Math.min(room, rng.below(Math.min(32, maxCards) + 1));
    counts.push(c);
    room -= c;
  }
  const pool = poolOf(counts);
  const cards = setToCodes(pool);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  const holders = 1 + rng.below(maxHolders);
  const sizes = new Int32Array(holders);
  for (let i = 0; i < cards.length; i++) sizes[rng.below(holders)]++;
  const forbidden = new Int32Array(holders);
  let i = 0;
  for (let h = 0; h < holders; h++) {
    let held = 0;
    for (let t = 0; t < sizes[h]; t++) held |= 1 << (cards[i++] >>> 5);
    for (let l = 0; l < LANES; l++) {
      if (!((held >>> l) & 1) && rng.uniform() < voidChance) forbidden[h] |= 1 << l;
    }
  }
  return { pool, holders, sizes, forbidden };
}

interface Case {
  lanes: number[];
  sizes: number[];
  forbidden: number[];
}

/** Chi-square of each case's outcomes against uniform, drawing the cases in turn. */
function chiSquare(cases: Case[], sampler: HandSampler, draws: number, seed: number) {
  const pools = cases.map((c) => poolOf(c.lanes));
  const expected = cases.map((c, i) => enumerate(pools[i], c.sizes, c.forbidden));
  const seen = cases.map(() => new Map<string, number>());
  const out = new Int32Array(4 * LANES);
  const off = offsets(4);
  const rng = new Rng(KEY, seed);
  let bad = 0;
  for (let t = 0; t < draws; t++) {
    const i = t % cases.length;
    const { sizes, forbidden } = cases[i];
    const key = sampler.deal(pools[i], 0, sizes.length, sizes, forbidden, out, off, rng)
      ? out.subarray(0, sizes.length * LANES).join(',')
      : '';
    if (!expected[i].has(key)) bad++;
    seen[i].set(key, (seen[i].get(key) ?? 0) + 1);
  }
  expect(bad).toBe(0);
  return cases.map((_, i) => {
    const e = draws / cases.length / expected[i].size;
    let chi2 = 0;
    for (const key of expected[i]) chi2 += ((seen[i].get(key) ?? 0) - e) ** 2 / e;
    const df = expected[i].size - 1;
    return { outcomes: expected[i].size, distinct: seen[i].size, chi2, bound: df + 5 * Math.sqrt(2 * df) };
  });
}

const exact = new HandSampler(14, 64, { rejectionTries: 0 });
const mixed = new HandSampler(14);
const noTable = new HandSampler(14, 64, { maxTableEntries: 1 });

describe('HandSampler', () => {
  it('keeps sizes, voids and the pool on random cases, by every method', () => {
    const out = new Int32Array(14 * LANES);
    const off = offsets(14);
    const rng = new Rng(KEY, 1);
    const cases = new Rng(KEY, 2);
    for (let t = 0; t < 1500; t++) {
      const big = t % 2 === 0;
      const c = randomCase(cases, big ? 4 : 6, big ? 54 : 24, [0, 0.3, 1][t % 3]);
      for (const s of [mixed, exact]) {
        expect(s.deal(c.pool, 0, c.holders, c.sizes, c.forbidden, out, off, rng)).toBe(true);
        expect(violation(c.pool, c.sizes, c.forbidden, out, c.holders)).toBe('');
      }
    }
  });

  it('counts with many holders when they share few void patterns', () => {
    const out = new Int32Array(14 * LANES);
    const off = offsets(14);
    const rng = new Rng(KEY, 3);
    const cases = new Rng(KEY, 4);
    for (let t = 0; t < 100; t++) {
      const c = randomCase(cases, 14, 54, 0);
      // A true deal, then up to three void patterns among the holders it allows.
      expect(mixed.deal(c.pool, 0, c.holders, c.sizes, c.forbidden, out, off, rng)).toBe(true);
      const patterns = [0, (1 << 1) | (1 << 3), 1 << 2];
      for (let h = 0; h < c.holders; h++) {
        let held = 0;
        for (let l = 0; l < LANES; l++) if (out[h * LANES + l]) held |= 1 << l;
        const p = patterns[h % 3];
        c.forbidden[h] = (p & held) === 0 ? p : 0;
      }
      expect(exact.deal(c.pool, 0, c.holders, c.sizes, c.forbidden, out, off, rng)).toBe(true);
      expect(violation(c.pool, c.sizes, c.forbidden, out, c.holders)).toBe('');
    }
  });

  it('falls back to long rejection when the table does not fit', () => {
    const out = new Int32Array(14 * LANES);
    const off = offsets(14);
    const rng = new Rng(KEY, 5);
    const cases = new Rng(KEY, 6);
    for (let t = 0; t < 200; t++) {
      const c = randomCase(cases, 5, 30, 0.3);
      expect(noTable.deal(c.pool, 0, c.holders, c.sizes, c.forbidden, out, off, rng)).toBe(true);
      expect(violation(c.pool, c.sizes, c.forbidden, out, c.holders)).toBe('');
    }
  });

  it('returns false for impossible constraints and size mismatches', () => {
    const out = new Int32Array(4 * LANES);
    const off = offsets(4);
    const rng = new Rng(KEY, 7);
    const pool = poolOf([6, 2]);
    for (const s of [mixed, exact, noTable]) {
      // Nobody may take lane 1.
      expect(s.deal(pool, 0, 2, [4, 4], [2, 2], out, off, rng)).toBe(false);
      // Lane 0's six cards can go only to a holder of two.
      expect(s.deal(pool, 0, 3, [3, 3, 2], [1, 1, 0], out, off, rng)).toBe(false);
      // Holder 0 is void in every lane of the pool.
      expect(s.deal(pool, 0, 3, [1, 5, 2], [3, 0, 0], out, off, rng)).toBe(false);
      // Sizes that do not add up to the pool, or a negative one.
      expect(s.deal(pool, 0, 3, [3, 3, 3], [0, 0, 0], out, off, rng)).toBe(false);
      expect(s.deal(pool, 0, 3, [3, 3, 1], [0, 0, 0], out, off, rng)).toBe(false);
      expect(s.deal(pool, 0, 3, [9, -1, 0], [0, 0, 0], out, off, rng)).toBe(false);
      expect(() => new HandSampler(2).deal(pool, 0, 3, [3, 3, 2], [0, 0, 0], out, off, rng)).toThrow(RangeError);
      // Still fine afterwards, and holders with no cards may be void anywhere.
      expect(s.deal(pool, 0, 4, [3, 0, 3, 2], [2, 3, 0, 1], out, off, rng)).toBe(true);
      expect(violation(pool, [3, 0, 3, 2], [2, 3, 0, 1], out, 4)).toBe('');
    }
  });

  it('sees impossibility at once even when the table does not fit', () => {
    const rng = new CountingRng(KEY, 11);
    const out = new Int32Array(3 * LANES);
    expect(noTable.deal(poolOf([6, 2]), 0, 3, [3, 3, 2], [1, 1, 0], out, offsets(3), rng)).toBe(false);
    expect(rng.calls).toBeLessThan(1000); // the 32 first attempts, not the 100000 of the cap
  });

  it('reads the pool at an offset and writes hands at the given offsets', () => {
    const big = new Int32Array(5 * LANES);
    big.set(poolOf([5, 4]), 3 * LANES);
    const rng = new Rng(KEY, 8);
    expect(exact.deal(big, 3 * LANES, 2, [4, 5], [1, 0], big, [0, LANES], rng)).toBe(true);
    expect(setToCodes(big, 0)).toEqual([32, 33, 34, 35]);
    expect(setToCodes(big, LANES)).toEqual([0, 1, 2, 3, 4]);
  });

  const small: [string, Case][] = [
    ['3 holders, 8 cards in 3 lanes', { lanes: [3, 3, 2], sizes: [3, 3, 2], forbidden: [1 << 1, 0, 1 << 0] }],
    ['4 holders, two with equal voids', { lanes: [3, 2, 3], sizes: [2, 2, 2, 2], forbidden: [4, 4, 0, 1] }],
    ['3 holders, heavy voids', { lanes: [2, 3, 3], sizes: [3, 2, 3], forbidden: [1 << 0, (1 << 1) | (1 << 2), 0] }],
  ];
  for (const [name, c] of small) {
    for (const [method, sampler] of [
      ['rejection', mixed],
      ['counting', exact],
    ] as const) {
      it(`is uniform by ${method}: ${name}`, () => {
        const [r] = chiSquare([c], sampler, 40000, 9);
        expect(r.distinct).toBe(r.outcomes);
        expect(r.chi2).toBeLessThan(r.bound);
      });
    }
  }

  it('stays uniform when the constraints change between calls (counts are cached)', () => {
    // Same holders and voids with other lane sizes, then other voids, drawn in turn.
    const cases: Case[] = [
      { lanes: [3, 3, 2], sizes: [3, 3, 2], forbidden: [1 << 1, 0, 1 << 0] },
      { lanes: [4, 2, 2], sizes: [3, 3, 2], forbidden: [1 << 1, 0, 1 << 0] },
      { lanes: [3, 3, 2], sizes: [3, 3, 2], forbidden: [1 << 2, 1 << 0, 0] },
      { lanes: [3, 3, 2], sizes: [2, 3, 3], forbidden: [1 << 1, 0, 1 << 0] },
    ];
    for (const r of chiSquare(cases, exact, 60000, 10)) {
      expect(r.distinct).toBe(r.outcomes);
      expect(r.chi2).toBeLessThan(r.bound);
    }
  });

  it('is deterministic for a given seed', () => {
    const pool = poolOf([13, 13, 13, 13]);
    const sizes = [13, 13, 13, 13];
    const forbidden = [1 << 2, 0, (1 << 0) | (1 << 3), 1 << 1];
    for (const [a, b] of [
      [mixed, new HandSampler(4)],
      [exact, new HandSampler(4, 64, { rejectionTries: 0 })],
    ]) {
      const outA = new Int32Array(4 * LANES);
      const outB = new Int32Array(4 * LANES);
      for (let seed = 0; seed < 20; seed++) {
        expect(a.deal(pool, 0, 4, sizes, forbidden, outA, offsets(4), new Rng(KEY, seed))).toBe(true);
        expect(b.deal(pool, 0, 4, sizes, forbidden, outB, offsets(4), new Rng(KEY, seed))).toBe(true);
        expect(outB).toEqual(outA);
      }
    }
  });
});

/** Every seat's view of `world`: together, its hands and history. */
function worldText(world: State, seats: number): string {
  let text = '';
  for (let seat = 0; seat < seats; seat++) text += world.observe(seat).fingerprint();
  return text;
}

describe('Game.sample (one HandSampler serves every lane sampler)', () => {
  // A world must be a function of the observation and the stream alone: not of the
  // state it is written to, nor of what the game's sampler drew before.
  for (const game of GAMES) {
    it(`${game.name}: the same world whatever was drawn before, and inside another draw`, () => {
      const table = defaultTable(game, game.name === 'vier-anderle' ? 5 : 4);
      const seats = table.seats;
      let compared = 0;
      for (let i = 0; i < 6; i++) {
        const s = endgame('shared-sampler', game, table, i, 5, i % 3);
        const t = endgame('shared-sampler-other', game, table, i, 7, 1);
        if (s === null || t === null) continue;
        const obs = s.observe(s.toMove);
        const other = t.observe((t.toMove + 1) % seats);
        const first = game.newState(table);
        game.sample(obs, new Rng(KEY, i), first);
        const want = worldText(first, seats);
        const scratch = game.newState(table);
        for (let k = 0; k < 5; k++) game.sample(other, new Rng(KEY, 100 + k), k % 2 === 0 ? scratch : first);
        const second = game.newState(table);
        game.sample(obs, new Rng(KEY, i), second);
        expect(worldText(second, seats), `${game.name} position ${i}`).toBe(want);
        // A watcher that draws a world of its own while the outer draw replays.
        let nested = 0;
        const watcher = {
          before: () => {
            if (nested++ === 0) game.sample(other, new Rng(KEY, 7), scratch);
          },
        };
        const third = game.newState(table);
        game.sample(obs, new Rng(KEY, i), third, watcher);
        expect(nested).toBeGreaterThan(0);
        expect(worldText(third, seats), `${game.name} position ${i}, nested`).toBe(want);
        compared++;
      }
      expect(compared).toBeGreaterThan(3);
    });
  }
});
