/**
 * The rule-of-thumb card of a seat that plays for itself, for the greedy playouts that
 * estimate a position beyond a search's horizon (solver.ts, maxn.ts) in the games where
 * every seat plays for itself. "Good" means good for the seat to move alone, not for a
 * side: in paranoid search the others are assumed to play against the root only up to
 * the horizon; beyond it, the estimate is how the deal would go if everyone then played
 * for himself, which is how it does go (a coalition playout had the others feed the
 * root every trick and made every position look worse than it is).
 *
 * - Following, in a fewest game: onto a trick another seat is winning, throw the most
 *   points without heading it; forced to head, head with the most points (the trick is
 *   lost anyway); in a most game: head with the weakest card that does, else throw the
 *   fewest points.
 * - Leading: in a most game the strongest card; in a fewest game the weakest card
 *   outside the trump lane (the one least likely to take the trick), trumps last.
 *
 * Allocation-free: it writes the moves into the caller's `moves` at `off`.
 */
import { LANES } from '../../src/core/cardset.js';
import type { SearchGoal, State } from '../../src/games/game.js';

export function selfishMove(s: State, goal: SearchGoal, moves: Int32Array, off: number): number {
  s.searchMoves(moves, off);
  const more = goal.more;
  const leading = s.trickCards === 0;
  let best = -1;
  let bestScore = -Infinity;
  for (let l = 0; l < LANES; l++) {
    for (let m = moves[off + l]; m !== 0; m &= m - 1) {
      const bit = 31 - Math.clz32(m & -m);
      const code = (l << 5) | bit;
      let score: number;
      if (leading) score = more ? bit : (l === goal.trumpLane ? 0 : 64) - bit;
      else {
        const pts = s.worth(code);
        const heads = s.heads(code);
        if (more) score = heads ? 4000 + pts * 4 - bit : 2000 - pts * 8;
        else score = heads ? 1000 + pts * 8 + bit : 3000 + pts * 8 + bit;
      }
      if (score > bestScore) {
        bestScore = score;
        best = code;
      }
    }
  }
  return best;
}
