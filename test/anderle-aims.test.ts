/** Vier-Anderle's outlook for search bots (src/games/vier-anderle/aims.ts): the hand's money, A-5 and A-6. */
import { describe, expect, it } from 'vitest';
import { GAMES } from '../src/games/index.js';
import type { Game } from '../src/games/game.js';
import type { AnderleState } from '../src/games/vier-anderle/state.js';
import { Rng, seedKey } from '../src/core/rng.js';

const game = GAMES.find((g) => g.name === 'vier-anderle') as unknown as Game<AnderleState>;
const rules: Record<string, string | number | boolean> = {};
for (const v of game.variants) rules[v.key] = v.default;
const table = { seats: 4, rules: { ...rules, hands: 200 } };

function stateWith(type: number, pot: number, dealer: number, declared: number[]): AnderleState {
  const s = game.newState(table);
  s.begin({ dealer, potBefore: pot - 4 }, new Int32Array(4 * 4));
  expect(s.type).toBe(type);
  declared.forEach((d, seat) => (s.declared[seat] = d));
  return s;
}

describe('vier-anderle outlook (A-5, A-6)', () => {
  it('has no march aims', () => {
    const out = { target: new Float64Array(4) };
    game.dealAims!(stateWith(1, 4, 0, [1, 1, 1, 1]), out);
    expect([...out.target]).toEqual([Infinity, Infinity, Infinity, Infinity]);
  });

  it('A-6 worked example: pot 20, a trick earns 5 (one quarter), no trick pays 20 (four quarters)', () => {
    const s = stateWith(2, 20, 0, [0, 1, 1, 1]);
    expect(game.outlook!(s, 1, 1, -1)).toBe(1);
    expect(game.outlook!(s, 2, 3, -1)).toBe(3);
    expect(game.outlook!(s, 3, 0, -1)).toBe(-4);
    // The dealer is out: he has paid his ante of 4, a fifth of four quarters of 20.
    expect(game.outlook!(s, 0, 0, -1)).toBeCloseTo(-4 / 5);
  });

  it('A-5: in an empty-pot hand only taking no trick costs (the pot of 4), and the dealer antes 4', () => {
    const s = stateWith(1, 4, 2, [1, 1, 1, 1]);
    expect(game.outlook!(s, 0, 2, -1)).toBe(0);
    expect(game.outlook!(s, 1, 0, -1)).toBe(-4);
    expect(game.outlook!(s, 2, 1, -1)).toBe(-4);
    expect(game.outlook!(s, 2, 0, -1)).toBe(-8);
  });

  it('agrees with returns() at the end of played hands', () => {
    // Play whole hands at random and compare the outlook of the final tricks with returns().
    const s = game.newState(table);
    const match = game.newMatch(table, { singleDeal: false, index: 3 });
    const ret = new Float64Array(4);
    const legal = new Int32Array(4);
    let compared = 0;
    const cards = new Rng();
    const play = new Rng();
    const key = seedKey('anderle-aims');
    for (let hand = 0; hand < 150 && !match.over; hand++) {
      cards.reseed(key, hand, 0, 0);
      play.reseed(key, hand, 1, 0);
      match.startDeal(s, cards);
      while (!s.isTerminal()) {
        s.legal(legal, 0);
        const codes: number[] = [];
        for (let l = 0; l < 4; l++) for (let b = 0; b < 32; b++) if ((legal[l] >>> b) & 1) codes.push((l << 5) | b);
        s.apply(codes[play.below(codes.length)]);
      }
      s.returns(ret);
      if (s.outcome === 1) {
        for (let seat = 0; seat < 4; seat++)
          expect(game.outlook!(s, seat, s.taken(seat), -1), `hand ${hand}, seat ${seat}`).toBeCloseTo(ret[seat]);
        compared++;
      }
      match.finishDeal(s);
    }
    expect(compared).toBeGreaterThan(20);
  });
});
