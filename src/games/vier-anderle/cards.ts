/**
 * The Cego pack (RULES.md A-1) on the 4-lane card core (core/cardset.ts).
 *
 *   lane 0   the 22 tarocks, T1 .. T22 (the Gstieß) at bits 0 .. 21: bit = strength
 *   lane 1   the four suits, one byte each: bit = suit * 8 + rank, suits C S H D;
 *            rank in increasing strength, black 7 8 9 10 J C Q K, red 4 3 2 1 J C Q K
 *   lanes 2, 3   unused
 *
 * **Why this representation.** The Cego pack (38 cards, 54 with pips) fits in two of the
 * four lanes that every game already uses, so the card core is unchanged: the French
 * games keep their 4-lane loops and their layout, and nothing of theirs gets slower or
 * different. Within lane 0 a higher bit is a higher tarock; within a suit byte a higher
 * bit beats a lower one, so "holding the suit led" is `hand[1] & SUIT_MASK[s]`,
 * "heading" is `bitsAbove`, and "the highest card" is `highestBit`, exactly as in the
 * French games. Without pips the pack is the K Q C J of each suit (bits 4..7 of each
 * byte): the pip bits are simply never dealt (`fullPack(pips)`).
 */
export const TAROCK_LANE = 0;
const SUIT_LANE = 1;
const TAROCKS = 22;
const SUITS = ['C', 'S', 'H', 'D'] as const;
/** Rank names by rank bit (0..7) within a suit byte. */
const BLACK_RANKS = ['7', '8', '9', '10', 'J', 'C', 'Q', 'K'];
const RED_RANKS = ['4', '3', '2', '1', 'J', 'C', 'Q', 'K'];
/** Lane-1 mask of each suit. */
export const SUIT_MASK = [0xff, 0xff00, 0xff0000, 0xff000000 | 0];
/** Lane-1 mask of the court cards (K Q C J) of every suit. */
const COURTS = 0xf0f0f0f0 | 0;
export const ALL_TAROCKS = (1 << TAROCKS) - 1;

function isRed(suit: number): boolean {
  return suit >= 2;
}

/** Card names of RECORD.md: `T1`..`T22`, `KH`, `CS`, `10C`, `1D`. */
export function codeName(code: number): string {
  const lane = code >>> 5;
  const bit = code & 31;
  if (lane === TAROCK_LANE && bit < TAROCKS) return `T${bit + 1}`;
  if (lane === SUIT_LANE) {
    const suit = bit >>> 3;
    return (isRed(suit) ? RED_RANKS : BLACK_RANKS)[bit & 7] + SUITS[suit];
  }
  return `code ${code} (no card)`;
}

/** The code of a card name; -1 for a name that is no Cego card. */
export function parseCard(name: string): number {
  const m = /^T(\d+)$/.exec(name);
  if (m) {
    const t = Number(m[1]);
    return t >= 1 && t <= TAROCKS ? t - 1 : -1;
  }
  const suit = SUITS.indexOf(name.slice(-1) as (typeof SUITS)[number]);
  if (suit < 0) return -1;
  const rank = (isRed(suit) ? RED_RANKS : BLACK_RANKS).indexOf(name.slice(0, -1));
  return rank < 0 ? -1 : (SUIT_LANE << 5) | (suit * 8 + rank);
}

/** Whether `code` is a pip card (not K Q C J, not a tarock). */
export function isPip(code: number): boolean {
  return code >>> 5 === SUIT_LANE && (code & 7) < 4;
}

/** The pack as lane masks: [tarocks, suits]. 38 cards without pips, 54 with. */
export function fullPack(pips: boolean): readonly [number, number] {
  return pips ? WITH_PIPS : WITHOUT_PIPS;
}
const WITH_PIPS = [ALL_TAROCKS, -1] as const;
const WITHOUT_PIPS = [ALL_TAROCKS, COURTS] as const;

/** Lane `lane` of the pack (0 tarocks, 1 suits, 0 beyond), without building a tuple. */
export function packLane(pips: boolean, lane: number): number {
  return lane === TAROCK_LANE ? ALL_TAROCKS : lane === SUIT_LANE ? (pips ? -1 : COURTS) : 0;
}

/** The pack's codes in increasing order (38 without pips, 54 with), to copy before a shuffle. */
export function packCodes(pips: boolean): Uint8Array {
  return pips ? CODES_WITH_PIPS : CODES_WITHOUT_PIPS;
}
function codesOf(pips: boolean): Uint8Array {
  const out: number[] = [];
  for (let lane = 0; lane < 2; lane++) {
    const m = packLane(pips, lane);
    for (let b = 0; b < 32; b++) if ((m >>> b) & 1) out.push((lane << 5) | b);
  }
  return Uint8Array.from(out);
}
const CODES_WITH_PIPS = codesOf(true);
const CODES_WITHOUT_PIPS = codesOf(false);

export function packSize(pips: boolean): number {
  return pips ? 54 : 38;
}

/**
 * Whether the pips are in play for `seats` under the variant: auto uses them only
 * from 10 players; `never` allows at most 9 players (38 cards, 4 each); `always` any.
 * Throws a plain Error for an impossible combination (the game wraps it in TafelError).
 */
export function pipsFor(seats: number, mode: string): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') {
    if (seats * 4 > 38)
      throw new Error(
        `${seats} players need the pip cards (38 cards deal 4 each to at most 9): use pips=auto or always`,
      );
    return false;
  }
  if (mode === 'auto') return seats * 4 > 38;
  throw new Error(`pips=${mode} is not one of auto, always, never`);
}
