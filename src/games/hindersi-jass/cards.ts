/**
 * The trick-taking layout of the Hindersi-Jass pack (J-1, J-2). Once trump is known,
 * every physical card gets a code in lanes of strength:
 *
 *   lane 0       the trump suit, weakest to strongest: 6 7 8 10 Q K A Nell(9) Puur(J)
 *   lanes 1..3   the other suits in pack order (C S H D without trump), 6 7 8 9 10 J Q
 *                K A (bit = physical rank)
 *
 * No second jack is promoted (unlike Viersche's Kloei), so every lane is exactly one
 * physical suit. A higher bit beats a lower one in the same lane, any trump beats any
 * plain card, "holding the suit led" is `hand[led] !== 0`, and a card's points depend
 * only on its code. All tables are built once at load.
 */
import { CLUBS, DIAMONDS, PACK_SIZE, SUIT_SIZE, cardName } from '../../core/french.js';
import { codeOf } from '../../core/cardset.js';

export const TRUMP_LANE = 0;
export const CARD_LANES = 4;
/** Trump-lane bits of the Nell (trump 9) and the Puur (trump J). */
const NELL_BIT = 7;
export const PUUR_BIT = 8;
/** The Puur's code (lane 0, so its code is its bit). */
export const PUUR = codeOf(TRUMP_LANE, PUUR_BIT);
/** Card points in the pack (152) and with the last trick's 5 (J-2). */
const CARD_POINTS = 152;
export const LAST_TRICK = 5;
export const PACK_POINTS = CARD_POINTS + LAST_TRICK;
/** Codes per trump: lanes 0..3 of 32 bits. */
const CODES = CARD_LANES << 5;

/** Trump-lane bit of each physical rank (6 7 8 9 10 J Q K A) of the trump suit. */
const TRUMP_BIT_OF_RANK = [0, 1, 2, NELL_BIT, 3, PUUR_BIT, 4, 5, 6];
/** J-2 by trump-lane bit: 6 7 8 10 Q K A Nell Puur. */
const TRUMP_POINTS = [0, 0, 0, 10, 3, 4, 11, 14, 20];
/** J-2 by plain rank: 6 7 8 9 10 J Q K A. */
const PLAIN_POINTS = [0, 0, 0, 0, 10, 2, 3, 4, 11];

/** EFFECTIVE[trump * 36 + physical] = code. */
const EFFECTIVE = new Uint8Array(4 * PACK_SIZE);
/** PHYSICAL[trump * 128 + code] = physical card, or 255 for a code that is no card. */
const PHYSICAL = new Uint8Array(4 * CODES).fill(255);
/** POINTS[code]: card points (J-2), the same for every trump. */
export const POINTS = new Uint8Array(CODES);
/**
 * STRENGTH[led * 128 + code]: how strongly `code` bids for a trick whose led lane is
 * `led`: trumps 16 + bit, the led suit its bit, anything else -1 (cannot win).
 */
export const STRENGTH = new Int8Array(CARD_LANES * CODES);
/** FULL[trump * 4 + lane]: every card of the pack as codes under that trump. */
export const FULL = new Int32Array(4 * CARD_LANES);

for (let trump = CLUBS; trump <= DIAMONDS; trump++) {
  let lane = 1;
  for (let suit = CLUBS; suit <= DIAMONDS; suit++) {
    const suitLane = suit === trump ? TRUMP_LANE : lane++;
    for (let rank = 0; rank < SUIT_SIZE; rank++) {
      const code = suit === trump ? TRUMP_BIT_OF_RANK[rank] : (suitLane << 5) | rank;
      const physical = suit * SUIT_SIZE + rank;
      EFFECTIVE[trump * PACK_SIZE + physical] = code;
      PHYSICAL[trump * CODES + code] = physical;
      FULL[trump * CARD_LANES + (code >>> 5)] |= 1 << (code & 31);
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
  const p = code >= 0 && code < CODES ? PHYSICAL[trump * CODES + code] : 255;
  return p === 255 ? -1 : p;
}

export function codeName(trump: number, code: number): string {
  const p = toPhysical(trump, code);
  return p < 0 ? `code ${code} (no card)` : cardName(p);
}
