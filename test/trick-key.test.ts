/**
 * `State.trickKey` (game.ts, "Search support"): positions inside a trick with equal keys
 * must have equal futures, since the solver shares table entries between them. For
 * every game that has the key, every position of the whole game tree of random
 * three-trick endgames is visited; where two positions inside a trick have the same
 * key, they must have the same legal moves and the same exact measure still to come
 * (minimax over the tree, for the side of seat 0 and for the other side). Legal moves
 * (V-5 in Viersche) and trick winners depend on the trick's cards and who played them,
 * which is why they are in the key.
 */
import { describe, expect, it } from 'vitest';
import { newSets, setToCodes } from '../src/core/cardset.js';
import { Decision, NO, SEARCH_KEY_WORDS, type Game, type State, type TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

const DEALS = 25;

interface Seen {
  readonly legal: string;
  readonly future: string;
}

const keyed = GAMES.filter((g) => g.newState(defaultTable(g, g.minSeats)).trickKey !== undefined);

describe('State.trickKey: equal keys inside a trick, equal futures', () => {
  it('some game has a key for positions inside a trick', () => {
    expect(keyed.map((g) => g.name)).toContain('viersche');
  });

  for (const game of keyed) {
    it(`${game.name}: every position of random three-trick endgames`, () => {
      const table = defaultTable(game, game.minSeats);
      const teams = game.teams(table.seats);
      const sides =
        teams === null
          ? [...Array(table.seats).keys()].map((s) => [s])
          : [0, 1].map((t) => [...Array(table.seats).keys()].filter((s) => teams[s] === t));
      const seen = new Map<string, Seen>();
      const key = new Int32Array(SEARCH_KEY_WORDS);
      let shared = 0;
      for (let i = 0; i < DEALS; i++) {
        const root = endgame('trick-key', game, table, i, 3, 0);
        if (root === null) continue;
        walk(game, table, root, sides, seen, key, () => shared++);
      }
      // The tree has transpositions inside tricks (the same hands and trick reached by
      // another split of the cards between tricks), so keys are really compared.
      expect(shared).toBeGreaterThan(20);
    });
  }
});

/**
 * Visit every position below `s`; return, per side, the exact measure it takes from
 * here on when it maximises and the others minimise it (a string, for comparing).
 */
function walk(
  game: Game,
  table: TableConfig,
  s: State,
  sides: number[][],
  seen: Map<string, Seen>,
  key: Int32Array,
  onShared: () => void,
): number[] {
  const taken = sides.map((side) => side.reduce((sum, x) => sum + s.taken(x), 0));
  if (s.decision === Decision.None) return sides.map(() => 0);
  const child = game.newState(table);
  if (s.decision !== Decision.Card) {
    child.copyFrom(s);
    child.apply(NO);
    const after = sides.map((side) => side.reduce((sum, x) => sum + child.taken(x), 0));
    return walk(game, table, child, sides, seen, key, onShared).map((v, k) => v + after[k] - taken[k]);
  }
  const legal = newSets();
  s.legal(legal, 0);
  const moves = setToCodes(legal, 0);
  const values = sides.map((side) => (side.includes(s.toMove) ? -Infinity : Infinity));
  for (const m of moves) {
    child.copyFrom(s);
    child.apply(m);
    const after = sides.map((side) => side.reduce((sum, x) => sum + child.taken(x), 0));
    const below = walk(game, table, child, sides, seen, key, onShared);
    sides.forEach((side, k) => {
      const v = below[k] + after[k] - taken[k];
      values[k] = side.includes(s.toMove) ? Math.max(values[k], v) : Math.min(values[k], v);
    });
  }
  if (s.trickCards > 0) {
    const words = s.trickKey!(key, 0);
    const id = Array.from(key.subarray(0, words)).join(',');
    const here: Seen = { legal: moves.join(','), future: values.join(',') };
    const before = seen.get(id);
    if (before === undefined) seen.set(id, here);
    else {
      onShared();
      expect(here, `key ${id}`).toEqual(before);
    }
  }
  return values;
}
