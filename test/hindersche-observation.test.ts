/**
 * What only Hindersche's sampler must get right (the rest of information hiding and
 * determinization is the contract suite's, contract.test.ts): with fewer than four
 * players the cards out of play (the stack, C-4, H-7) are one more holder of unseen
 * cards, the turned card among them is public and belongs to nobody.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { POINTS } from '../src/games/hindersche/cards.js';
import { hindersche } from '../src/games/hindersche/index.js';
import { HinderscheState } from '../src/games/hindersche/state.js';
import { context } from './hindersche-helpers.js';
import { chiSquare, consistentWorlds, tableOf } from './contract-helpers.js';

const KEY = seedKey('hindersche-observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();
const TABLE = tableOf(hindersche, 4, {});

/** A deal of the seats of `mask` (phase 2), played at random to trick 6 to 8, seen by a seat taking part, with 6 to 900 consistent worlds. */
function latePoint(
  mask: number,
  ok: (s: HinderscheState, seat: number) => boolean,
): [HinderscheState, number, string[]] {
  for (let i = 0; i < 3000; i++) {
    const rng = new Rng(KEY, 5000 + i);
    const seats = [0, 1, 2, 3].filter((q) => (mask >>> q) & 1);
    const s = new HinderscheState();
    s.deal(context({ dealer: seats[i % seats.length], mask, phase: 2, slate: [1, 1, 1, 1] }), rng, deck);
    const stop = 6 + rng.below(3);
    while (!s.isTerminal() && s.trick < stop) s.apply(setSelect(buf, 0, rng.below(s.legal(buf, 0))));
    if (s.isTerminal()) continue;
    const seat = seats[rng.below(seats.length)];
    if (!ok(s, seat)) continue;
    const worlds = consistentWorlds(hindersche, TABLE, s, seat, 900);
    if (worlds && worlds.length >= 6) return [s, seat, worlds];
  }
  throw new Error('no such point');
}

describe('hindersche.sample with the stack as a holder (C-4, H-7)', () => {
  it('three players, late in the deal, with a revealed void: chi-square against uniform', () => {
    const [s, seat, worlds] = latePoint(0b1011, (t, q) => [0, 1, 3].some((o) => o !== q && t.voids[o] !== 0));
    expect(s.players).toBe(3);
    const r = chiSquare(hindersche, TABLE, s, seat, worlds, 60 * worlds.length, 1);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(r.bound);
  });

  it("two players: the opponent's hand and the unknown stack cards, chi-square against uniform", () => {
    const [s, seat, worlds] = latePoint(0b0110, () => true);
    expect(s.players).toBe(2);
    const r = chiSquare(hindersche, TABLE, s, seat, worlds, 60 * worlds.length, 2);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(r.bound);
  });

  it('the turn-up out of play is never dealt to a player, and what the stack holds costs its points to nobody', () => {
    const s = new HinderscheState();
    s.deal(context({ dealer: 3, mask: 0b1011, phase: 2, slate: [1, 1, 0, 2] }), new Rng(KEY, 2), deck);
    expect(s.players).toBe(3);
    const world = new HinderscheState();
    const rng = new Rng(KEY, 9);
    for (let k = 0; k < 2000; k++) {
      hindersche.sample(s.observe(s.forehand), rng, world);
      expect(setHas(world.stack, 0, s.turnup)).toBe(true);
      let stackPoints = 0;
      for (const c of setToCodes(world.stack, 0)) stackPoints += POINTS[c];
      let handPoints = 0;
      for (let q = 0; q < 4; q++) for (const c of setToCodes(world.hands, q * LANES)) handPoints += POINTS[c];
      expect(handPoints + stackPoints).toBe(140);
    }
  });
});
