/**
 * Brute-force minimax over the game contract, for checking the solver: every legal
 * move, no table, no pruning, no interchangeable cards. Yes/no decisions are answered
 * NO, as the solver does (game.ts, "Search support").
 */
import { newSets, setToCodes } from '../../src/core/cardset.js';
import { Decision, NO, type Game, type State, type TableConfig } from '../../src/games/game.js';

/** The final measure of `seat`'s side, which seeks `more` of it (default: the game's aim). */
export function bruteForce(
  game: Game,
  table: TableConfig,
  state: State,
  seat: number,
  more = game.searchGoal.more,
): number {
  const teams = game.teams(table.seats);
  const inSide = (s: number) => (teams === null ? s === seat : teams[s] === teams[seat]);
  const stack: State[] = [];
  const at = (d: number) => {
    while (stack.length <= d) stack.push(game.newState(table));
    return stack[d];
  };
  const go = (s: State, d = 0): number => {
    if (s.decision === Decision.None) {
      let sum = 0;
      for (let x = 0; x < table.seats; x++) if (inSide(x)) sum += s.taken(x);
      return sum;
    }
    const child = at(d);
    child.copyFrom(s);
    if (s.decision !== Decision.Card) {
      child.apply(NO);
      return go(child, d + 1);
    }
    const legal = newSets();
    s.legal(legal, 0);
    const maximize = inSide(s.toMove) === more;
    let best = maximize ? -Infinity : Infinity;
    for (const m of setToCodes(legal, 0)) {
      child.copyFrom(s);
      child.apply(m);
      const v = go(child, d + 1);
      best = maximize ? Math.max(best, v) : Math.min(best, v);
    }
    return best;
  };
  return go(state);
}
