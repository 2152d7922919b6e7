/**
 * Checking a board (game.ts `BoardDeal`) against a game's deal: the part every game
 * shares. A game says how its cards are named, how many each seat holds and whether
 * the dealer turns a card for trump; the whole pack is then dealt exactly when the
 * hands' sizes add up to it, since no card may appear twice.
 */
import type { BoardDeal } from './game.js';

export interface BoardShape {
  /** The game's name, for messages. */
  readonly game: string;
  readonly seats: number;
  /** Cards in each hand. */
  readonly handSize: number;
  /** A number unique to the card of `name`, or -1 when the game's pack has no such card. */
  readonly parse: (name: string) => number;
  /** Whether the dealer turns his last card for trump (it is then in his hand). */
  readonly turnup: boolean;
}

/** The first thing wrong with `board` for a game of this shape, or null. */
export function boardProblem(board: BoardDeal, shape: BoardShape): string | null {
  const { seats, handSize, parse, game } = shape;
  if (board.hands.length !== seats) return `${board.hands.length} hands for a table of ${seats} seats`;
  if (!(Number.isInteger(board.dealer) && board.dealer >= 0 && board.dealer < seats))
    return `dealer ${board.dealer} is not a seat (0 to ${seats - 1})`;
  const seen = new Set<number>();
  for (const hand of board.hands) {
    for (const name of hand) {
      const card = parse(name);
      if (card < 0) return `${name} is not a card of the ${game} pack`;
      if (seen.has(card)) return `duplicate card ${name}`;
      seen.add(card);
    }
  }
  for (let seat = 0; seat < seats; seat++) {
    const n = board.hands[seat].length;
    if (n !== handSize) return `seat ${seat} holds ${n} cards, not ${handSize}`;
  }
  if (!shape.turnup) return board.turnup === null ? null : `${game} turns no card up (turnup ${board.turnup})`;
  if (board.turnup === null) return 'no turnup (the card the dealer turns for trump)';
  const turnup = parse(board.turnup);
  if (turnup < 0) return `turnup ${board.turnup} is not a card of the ${game} pack`;
  if (!board.hands[board.dealer].some((name) => parse(name) === turnup))
    return `turnup ${board.turnup} is not in the dealer's hand (seat ${board.dealer})`;
  return null;
}
