/**
 * The trick-taking layout of the Viersche pack (V-1 to V-3), which Hindersche shares
 * (H-1). Once trump is known, every physical card gets a code in lanes of strength:
 *
 *   lane 0       the trump suit, weakest to strongest: 6 7 8 9 10 Q K A Kloei Alt
 *                (the Kloei, the jack of the other suit of trump's colour, joins it)
 *   lanes 1..3   the other suits in pack order (C S H D without trump), 6 7 8 9 10
 *                J Q K A; the Kloei's suit has no bit 5
 *
 * so a higher bit beats a lower one in the same lane, any trump beats any plain card,
 * "holding the suit led" is `hand[led] !== 0`, and a card's points depend only on its
 * code. All tables are built once at load.
 */
import { CLUBS, DIAMONDS, JACK, PACK_SIZE, SUIT_SIZE, cardName, sameColour } from '../../core/french.js';

export const TRUMP_LANE = 0;
export const CARD_LANES = 4;
/** Bit of the Kloei and the Alt in the trump lane. */
const KLOEI_BIT = 8;
const ALT_BIT = 9;
/** Codes per trump: lanes 0..3 of 32 bits. */
const CODES = CARD_LANES << 5;

/** Trump-lane bit of each physical rank of the trump suit (the jack is the Alt). */
const TRUMP_BIT_OF_RANK = [0, 1, 2, 3, 4, ALT_BIT, 5, 6, 7];
const TRUMP_POINTS = [0, 0, 0, 0, 10, 3, 4, 11, 12, 12];
const PLAIN_POINTS = [0, 0, 0, 0, 10, 2, 3, 4, 11];

/** EFFECTIVE[trump * 36 + physical] = code. */
const EFFECTIVE = new Uint8Array(4 * PACK_SIZE);
/** PHYSICAL[trump * 128 + code] = physical card, or 255 for a code that is no card. */
const PHYSICAL = new Uint8Array(4 * CODES).fill(255);
/** POINTS[code]: card points (V-3), the same for every trump. */
export const POINTS = new Uint8Array(CODES);
/**
 * STRENGTH[led * 128 + code]: how strongly `code` bids for a trick whose led lane is
 * `led`: trumps 16 + bit, the led suit its bit, anything else -1 (cannot win).
 */
export const STRENGTH = new Int8Array(CARD_LANES * CODES);

for (let trump = CLUBS; trump <= DIAMONDS; trump++) {
  let lane = 1;
  for (let suit = CLUBS; suit <= DIAMONDS; suit++) {
    const suitLane = suit === trump ? TRUMP_LANE : lane++;
    for (let rank = 0; rank < SUIT_SIZE; rank++) {
      let code: number;
      if (suit === trump) code = TRUMP_BIT_OF_RANK[rank];
      else if (suit === sameColour(trump) && rank === JACK) code = KLOEI_BIT;
      else code = (suitLane << 5) | rank;
      const physical = suit * SUIT_SIZE + rank;
      EFFECTIVE[trump * PACK_SIZE + physical] = code;
      PHYSICAL[trump * CODES + code] = physical;
    }
  }
}
for (let bit = 0; bit < TRUMP_POINTS.length; bit++) POINTS[bit] = TRUMP_POINTS[bit];
for (let lane = 1; lane < CARD_LANES; lane++) {
  for (let bit = 0; bit < SUIT_SIZE; bit++) POINTS[(lane << 5) | bit] = PLAIN_POINTS[bit];
}
for (let led = 0; led < CARD_LANES; led++) {
  for (let code = 0; code < CODES; code++) {
    const lane = code >>> 5;
    STRENGTH[led * CODES + code] = lane === TRUMP_LANE ? 16 + (code & 31) : lane === led ? code & 31 : -1;
  }
}

export function toCode(trump: number, physical: number): number {
  return EFFECTIVE[trump * PACK_SIZE + physical];
}

/** Physical card of a code under `trump`; -1 if the code is no card. */
export function toPhysical(trump: number, code: number): number {
  const p = code < CODES ? PHYSICAL[trump * CODES + code] : 255;
  return p === 255 ? -1 : p;
}

export function codeName(trump: number, code: number): string {
  const p = toPhysical(trump, code);
  return p < 0 ? `code ${code} (no card)` : cardName(p);
}
