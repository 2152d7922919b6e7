/**
 * The 36-card French pack of C-1: suits clubs, spades, hearts, diamonds and ranks
 * 6 7 8 9 10 J Q K A. A physical card is `suit * 9 + rank` (0..35), in the order of
 * RECORD.md's names, so records and tables agree without translation. Games map
 * physical cards to their own strength order (see cardset.ts); the pack knows nothing
 * of trumps or points.
 */
export const SUITS = ['C', 'S', 'H', 'D'] as const;
const RANKS = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;

export const CLUBS = 0;
export const DIAMONDS = 3;

export const SIX = 0;
export const JACK = 5;

export const PACK_SIZE = 36;
export const SUIT_SIZE = 9;

export function suitOf(card: number): number {
  return (card / SUIT_SIZE) | 0;
}
export function rankOf(card: number): number {
  return card % SUIT_SIZE;
}
/** The other suit of the same colour (clubs<->spades, hearts<->diamonds). */
export function sameColour(suit: number): number {
  return suit ^ 1;
}

const NAMES: readonly string[] = Array.from({ length: PACK_SIZE }, (_, c) => RANKS[rankOf(c)] + SUITS[suitOf(c)]);
const BY_NAME = new Map(NAMES.map((n, c) => [n, c]));

/** RECORD.md name of a physical card: `10H`, `JD`, `6S`. */
export function cardName(card: number): string {
  return NAMES[card];
}

/** Physical card of a RECORD.md name; -1 if the name is not a card of the pack. */
export function parseCard(name: string): number {
  return BY_NAME.get(name.toUpperCase()) ?? -1;
}
