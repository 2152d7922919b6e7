/**
 * Card names (RECORD.md: `10H`, `JD`) both ways for a French game (`Game.cardNames`): its
 * layout puts the deal's trump suit in lane 0, so a code names a card only together with
 * the trump suit (0..3, C S H D: the observation's `trump`).
 */
import { TafelError } from '../../core/errors.js';
import { parseCard } from '../../core/french.js';
import type { CardNames } from '../game.js';
import type { FrenchLayout } from './french.js';

export function frenchCardNames(pack: FrenchLayout): CardNames {
  return {
    name: (code, trump) => pack.codeName(checkedTrump(trump), code),
    code(name, trump) {
      checkedTrump(trump);
      const physical = parseCard(name);
      return physical < 0 ? -1 : pack.toCode(trump, physical);
    },
    pack: () => FRENCH_PACK,
  };
}

/** The 36 cards suit by suit (C S H D), 6 to A. */
const FRENCH_PACK: readonly string[] = ['C', 'S', 'H', 'D'].flatMap((s) =>
  ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'].map((r) => r + s),
);

function checkedTrump(trump: number): number {
  if (trump >>> 0 !== trump || trump > 3) throw new TafelError('bad-input', `trump suit ${trump}: not 0..3 (C S H D)`);
  return trump;
}
