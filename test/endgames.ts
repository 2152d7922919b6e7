/** Random endgames for the search tests (solver, max^n): seeded, so every run checks the same positions. */
import { newSets, setSelect } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES, type Game, type State, type TableConfig } from '../src/games/game.js';

/** The table of `seats` with every rule variant at its default, then `rules` over them. */
export function defaultTable(
  game: Game,
  seats: number,
  rules: Record<string, string | number | boolean> = {},
): TableConfig {
  const all: Record<string, string | number | boolean> = {};
  for (const v of game.variants) all[v.key] = v.default;
  return { seats, rules: { ...all, ...rules } };
}

/**
 * Deal `index` of stream `stream` (its own seed), played at random until `tricks` tricks
 * are left, plus `extra` cards; null if the deal ended first. Yes/no questions are
 * answered so that play goes on (declarations in, everything else no), so the result is
 * at a card decision.
 */
export function endgame(
  stream: string,
  game: Game,
  table: TableConfig,
  index: number,
  tricks: number,
  extra: number,
): State | null {
  const state = game.newState(table);
  const match = game.newMatch(table, { singleDeal: true, index });
  const key = seedKey(`${stream}-${game.name}-${table.seats}`);
  const cards = new Rng();
  cards.reseed(key, index, 0, 0);
  match.startDeal(state, cards);
  const rng = new Rng();
  rng.reseed(key, index, 1, 0);
  const legal = newSets();
  const step = () => {
    const n = state.legal(legal, 0);
    state.apply(state.decision === Decision.Card ? setSelect(legal, 0, rng.below(n)) : onward(state));
  };
  while (!state.isTerminal() && state.tricksLeft() > tricks) step();
  for (let i = 0; i < extra && !state.isTerminal(); i++) step();
  while (!state.isTerminal() && state.decision !== Decision.Card) state.apply(onward(state));
  return state.isTerminal() ? null : state;
}

/** The answer to a yes/no question that keeps every seat playing. */
function onward(state: State): number {
  return state.decision === Decision.Declare ? YES : NO;
}
