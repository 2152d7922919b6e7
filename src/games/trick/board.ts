/** Dealing a board (game.ts `BoardDeal`) of a French-suited game into its kernel's hands. */
import { LANES } from '../../core/cardset.js';
import { parseCard, suitOf } from '../../core/french.js';
import type { BoardDeal } from '../game.js';
import type { FrenchLayout } from './french.js';

/**
 * Write the board's hands into `hands` (`seat * LANES + lane` masks of codes under the
 * trump) and return the physical turn-up, whose suit is trump. The board is checked.
 */
export function dealFrenchBoard(layout: FrenchLayout, board: BoardDeal, hands: Int32Array): number {
  const turnup = parseCard(board.turnup!);
  const trump = suitOf(turnup);
  hands.fill(0);
  board.hands.forEach((hand, seat) => {
    for (const name of hand) {
      const code = layout.toCode(trump, parseCard(name));
      hands[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
    }
  });
  return turnup;
}
