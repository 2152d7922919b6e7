/**
 * The Hindersi-Jass pack in trick play (J-1, J-2): the French layout of
 * ../trick/french.ts with the trumps ranked 6 7 8 10 Q K A Nell(9) Puur(J), no second
 * jack promoted (every lane is exactly one physical suit), and the points of J-2 (152
 * in the cards, 157 with the last trick's 5).
 */
import { codeOf } from '../../core/cardset.js';
import { FrenchLayout, TRUMP_LANE } from '../trick/french.js';

export { TRUMP_LANE };
export const CARD_LANES = 4;
/** Trump-lane bit of the Puur (trump J); the Nell (trump 9) is bit 7. */
export const PUUR_BIT = 8;
/** The Puur's code (lane 0, so its code is its bit). */
export const PUUR = codeOf(TRUMP_LANE, PUUR_BIT);
/** The last trick's 5 (J-2). */
export const LAST_TRICK = 5;

export const PACK = new FrenchLayout({
  // 6 7 8 9(Nell) 10 J(Puur) Q K A
  trumpBits: [0, 1, 2, 7, 3, PUUR_BIT, 4, 5, 6],
  promotedJack: -1,
  // by trump-lane bit: 6 7 8 10 Q K A Nell Puur
  trumpPoints: [0, 0, 0, 10, 3, 4, 11, 14, 20],
  plainPoints: [0, 0, 0, 0, 10, 2, 3, 4, 11],
  bonus: LAST_TRICK,
});

/** Card points in the pack with the last trick's 5 (J-2): 157. */
export const PACK_POINTS = PACK.packWorth;
/** POINTS[code]: card points (J-2), the same for every trump. */
export const POINTS = PACK.points;
/**
 * STRENGTH[led * 128 + code]: how strongly `code` bids for a trick whose led lane is
 * `led`: trumps 16 + bit, the led suit its bit, anything else -1 (cannot win).
 */
export const STRENGTH = PACK.strength;
/** FULL[trump * 4 + lane]: every card of the pack as codes under that trump. */
export const FULL = PACK.full;

export function toCode(trump: number, physical: number): number {
  return PACK.toCode(trump, physical);
}

/** Physical card of a code under `trump`; -1 if the code is no card. */
export function toPhysical(trump: number, code: number): number {
  return PACK.toPhysical(trump, code);
}

export function codeName(trump: number, code: number): string {
  return PACK.codeName(trump, code);
}
