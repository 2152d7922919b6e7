/**
 * Brute-force max^n over the game contract, for checking bots/solver/maxn.ts: every
 * legal move, no table, no interchangeable cards, no horizon. Each seat maximises its
 * own utility of its final measure: the measure itself (negated where fewer is better),
 * or, where the measure is tricks and the game gives an outlook, `Game.outlook` of its
 * final trick count in the position searched from. Among equal moves, the one worst for
 * `root`; then the value vector least in seat order. Yes/no decisions are answered NO.
 */
import { newSets, setToCodes } from '../../src/core/cardset.js';
import { Decision, NO, type Game, type State, type TableConfig } from '../../src/games/game.js';

/** Every seat's final measure from `state` under max^n, ties broken against `root`. */
export function bruteMaxn(game: Game, table: TableConfig, state: State, root: number): number[] {
  const sign = game.searchGoal.more ? 1 : -1;
  const n = table.seats;
  const from = game.newState(table);
  from.copyFrom(state);
  const byOutlook = game.searchGoal.measure === 'tricks' && game.outlook !== undefined;
  const utility = (q: number, m: number) => (byOutlook ? game.outlook!(from, q, m, -1) : sign * m);
  const stack: State[] = [];
  const go = (s: State, d: number): number[] => {
    if (s.decision === Decision.None) return Array.from({ length: n }, (_, q) => s.taken(q));
    while (stack.length <= d) stack.push(game.newState(table));
    const child = stack[d];
    child.copyFrom(s);
    if (s.decision !== Decision.Card) {
      child.apply(NO);
      return go(child, d + 1);
    }
    const legal = newSets();
    s.legal(legal, 0);
    const p = s.toMove;
    let best: number[] | null = null;
    for (const m of setToCodes(legal, 0)) {
      child.copyFrom(s);
      child.apply(m);
      const v = go(child, d + 1);
      if (best === null || better(v, best, p)) best = v;
    }
    return best!;
  };
  const better = (v: number[], b: number[], p: number): boolean => {
    if (utility(p, v[p]) !== utility(p, b[p])) return utility(p, v[p]) > utility(p, b[p]);
    if (utility(root, v[root]) !== utility(root, b[root])) return utility(root, v[root]) < utility(root, b[root]);
    for (let q = 0; q < n; q++) if (v[q] !== b[q]) return v[q] < b[q];
    return false;
  };
  return go(from, 0);
}
