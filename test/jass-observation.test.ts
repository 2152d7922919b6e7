/**
 * What only Hindersi-Jass's sampler must get right (the rest of information hiding and
 * determinization is the contract suite's, contract.test.ts): what J-4 play reveals.
 * A non-trump on a trump lead shows no trump but possibly the lone Puur, which the
 * sampler resolves by drawing the Puur's holder among the cases; an undertrump on a
 * plain lead shows a void in the suit led. "Consistent" is checked from its
 * definition, by brute force (contract-helpers.ts): a world is consistent when
 * replaying the public history from its starting hands is legal at every card.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { PUUR, TRUMP_LANE } from '../src/games/hindersi-jass/cards.js';
import { hindersiJass } from '../src/games/hindersi-jass/index.js';
import { JassState } from '../src/games/hindersi-jass/state.js';
import { chiSquare, consistentWorlds, tableOf } from './contract-helpers.js';

const KEY = seedKey('jass-observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();

/** A random deal at `seats` seats, in a random Partie, played `plies` random cards. */
function randomPoint(seats: number, i: number, plies: number): JassState {
  const rng = new Rng(KEY, seats, i);
  const s = new JassState(seats);
  const totals = [0, 0, 0, 0].map(() => rng.below(120));
  s.deal({ dealer: i % seats, partieDeal: i % seats, partieDeals: seats, totals }, rng, deck);
  while (!s.isTerminal() && s.plies < plies) s.apply(setSelect(buf, 0, rng.below(s.legal(buf, 0))));
  return s;
}

const seatsOf = (s: JassState) => Array.from({ length: s.seats }, (_, q) => q);

describe('J-4: what play reveals, and the sampler', () => {
  it('a seat that did not follow a trump lead while the Puur is unseen may hold it alone: chi-square against uniform', () => {
    // The Puur is unseen by the observer and in some consistent worlds the flagged seat holds it, in others not.
    const table = tableOf(hindersiJass, 4, {});
    for (let i = 8000; i < 11000; i++) {
      const s = randomPoint(4, i, 24);
      const seat = (s.toMove + 1 + (i % 3)) % 4;
      const flagged = seatsOf(s).filter((o) => o !== seat && (s.voids[o] & 1) !== 0 && s.handSize(o) > 0);
      if (!flagged.length || setHas(s.hands, seat * LANES, PUUR)) continue;
      const worlds = consistentWorlds(hindersiJass, table, s, seat, 1500);
      if (!worlds || worlds.length < 10) continue;
      const others = seatsOf(s).filter((x) => x !== seat);
      const withPuur = (key: string, o: number) => key.split('|')[others.indexOf(o)].split(',').includes(String(PUUR));
      if (!flagged.some((o) => worlds.some((k) => withPuur(k, o)) && worlds.some((k) => !withPuur(k, o)))) continue;
      const r = chiSquare(hindersiJass, table, s, seat, worlds, 20000, 2);
      expect(r.strays).toBe(0);
      expect(r.chi2).toBeLessThan(r.bound);
      return;
    }
    throw new Error('no such position');
  });

  it('an undertrump on a plain lead shows a void in the suit led (no consistent world gives that suit back)', () => {
    const table = tableOf(hindersiJass, 4, {});
    let found = 0;
    for (let i = 0; i < 3000 && found < 5; i++) {
      const s = randomPoint(4, 20000 + i, 27);
      // The undertrumps in the history: (seat, suit led) of a trump below one already in a plain-led trick.
      const under: [number, number][] = [];
      for (let t = 0; t < s.trick; t++) {
        const start = s.trickStart[t];
        const led = s.move(start) >>> 5;
        if (led === TRUMP_LANE) continue;
        let top = -1;
        for (let j = 1; j < 4; j++) {
          const m = s.move(start + j);
          if (m >>> 5 !== TRUMP_LANE) continue;
          if ((m & 31) < top) under.push([s.moveSeat(start + j), led]);
          top = Math.max(top, m & 31);
        }
      }
      const seat = s.toMove;
      const target = under.find(
        ([q, led]) =>
          q !== seat &&
          s.handSize(q) > 0 &&
          seatsOf(s).some((o) => o !== q && o !== seat && s.hands[o * LANES + led] !== 0),
      );
      if (!target) continue;
      const worlds = consistentWorlds(hindersiJass, table, s, seat, 20000);
      if (!worlds) continue;
      found++;
      const [q, led] = target;
      const others = seatsOf(s).filter((x) => x !== seat);
      for (const key of worlds) {
        const cards = key.split('|')[others.indexOf(q)].split(',').filter(Boolean).map(Number);
        expect(cards.some((c) => c >>> 5 === led)).toBe(false);
      }
    }
    expect(found).toBe(5);
  });
});
