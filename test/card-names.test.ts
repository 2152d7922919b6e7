/**
 * The card names of the bot-author API (src/games/card-names.ts): a code and its
 * RECORD.md name both ways, in every game, against the games' own names for their moves.
 */
import { describe, expect, it } from 'vitest';
import { LANES, setToCodes } from '../src/core/cardset.js';
import { HIDDEN, NO, YES } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { cardCode, codeName } from '../src/games/card-names.js';
import { points, tableOf } from './contract-helpers.js';

/** A table per game; Vier-Anderle with 10 players, so that the pip cards are dealt too. */
const SEATS: Readonly<Record<string, number>> = { 'vier-anderle': 10 };

describe('card names', () => {
  for (const game of GAMES) {
    it(`${game.name}: every card in hand named as the game names it, and back`, () => {
      const table = tableOf(game, SEATS[game.name] ?? game.defaultSeats, {});
      const names = new Set<string>();
      for (const s of points(game, table, 60, 7)) {
        for (let seat = 0; seat < table.seats; seat++) {
          const obs = s.observe(seat) as unknown as { trump?: number; codeName(code: number): string };
          const trump = obs.trump ?? 0;
          for (const code of setToCodes(s.hands, seat * LANES)) {
            const name = codeName(game.name, code, trump);
            expect(name).toBe(s.moveName(code));
            expect(name).toBe(obs.codeName(code));
            expect(cardCode(game.name, name, trump)).toBe(code);
            expect(cardCode(game.name, name.toLowerCase(), trump)).toBe(code);
            names.add(name);
          }
        }
      }
      expect(names.size).toBeGreaterThanOrEqual(36);
    });
  }

  it('the answers, a card not seen, and what is no card', () => {
    expect([YES, NO, HIDDEN].map((c) => codeName('viersche', c))).toEqual(['yes', 'no', '??']);
    expect(codeName('vier-anderle', 100)).toMatch(/no card/);
    expect(cardCode('viersche', 'T22')).toBe(-1);
    expect(cardCode('vier-anderle', '6H')).toBe(-1);
    // Under hearts (2) the jack of hearts is the Alt, the top trump; under clubs a plain card.
    expect(cardCode('viersche', 'JH', 2)).toBe(9);
    expect(cardCode('viersche', 'JH', 0) >>> 5).not.toBe(0);
  });

  it('an unknown game or a trump suit outside 0..3 is an error that says so', () => {
    expect(() => codeName('skat', 3)).toThrow(/unknown game 'skat'/);
    expect(() => cardCode('viersche', 'AH', 4)).toThrow(/trump suit 4/);
  });
});
