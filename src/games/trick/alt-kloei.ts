/**
 * The Alt-Kloei pack in trick play, which Viersche (V-1 to V-3) and Hindersche (H-1)
 * share: the French layout of french.ts with the trumps ranked 6 7 8 9 10 Q K A Kloei
 * Alt (the Kloei, the jack of the other suit of trump's colour, joins the trumps; the
 * Alt is the trump jack) and the points of V-3 (140 in the pack).
 */
import { FrenchLayout, TRUMP_LANE } from './french.js';

export { TRUMP_LANE };
export const CARD_LANES = 4;

export const PACK = new FrenchLayout({
  // 6 7 8 9 10 J(Alt) Q K A
  trumpBits: [0, 1, 2, 3, 4, 9, 5, 6, 7],
  promotedJack: 8,
  trumpPoints: [0, 0, 0, 0, 10, 3, 4, 11, 12, 12],
  plainPoints: [0, 0, 0, 0, 10, 2, 3, 4, 11],
  bonus: 0,
});

/** Trump-lane bits of the Alt (the jack of trumps) and of the Kloei (the other jack of trump's colour). */
export const ALT_BIT = 9;
export const KLOEI_BIT = 8;

/** POINTS[code]: card points (V-3), the same for every trump. */
export const POINTS = PACK.points;
/**
 * STRENGTH[led * 128 + code]: how strongly `code` bids for a trick whose led lane is
 * `led`: trumps 16 + bit, the led suit its bit, anything else -1 (cannot win).
 */
export const STRENGTH = PACK.strength;

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
