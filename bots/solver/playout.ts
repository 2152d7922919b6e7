/**
 * The rule-of-thumb card of a seat that plays for itself, for the greedy playout that
 * estimates a position beyond the horizon of max^n search (maxn.ts). "Good" means good
 * for the seat to move alone, not for a side (solver.ts's playout, for paranoid search,
 * plays the others as a coalition against the root).
 *
 * Also the estimate beyond the horizon of the paranoid solver when `Solver.selfishPlayout`
 * is set (the bots' `playout=selfish`): the oracle's default, which made it clearly
 * stronger in Hindersi-Jass and Hindersche; pimc keeps the coalition playout, with which
 * it measured better (bots/NOTES.md).
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
