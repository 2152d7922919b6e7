/**
 * The relative key written card by card (the first form of `relativeKey`): per lane,
 * every card still held, in order of strength, as presence, owner and value class.
 * Slow and plain, for checking that the packed key tells apart exactly the same positions.
 */
import { LANES } from '../../src/core/cardset.js';

export function referenceKey(hands: Int32Array, seats: number, value: Uint8Array): string {
  const distinct = [...new Set(value)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let lane = 0; lane < LANES; lane++) {
    const cards: string[] = [];
    for (let bit = 0; bit < 32; bit++) {
      for (let s = 0; s < seats; s++) {
        if ((hands[s * LANES + lane] >>> bit) & 1) cards.push(`${s}:${distinct.indexOf(value[(lane << 5) | bit])}`);
      }
    }
    parts.push(cards.join(','));
  }
  return parts.join('|');
}
