/**
 * Helpers shared by the bots-*.test.ts files.
 */
import type { Bot } from '../src/games/bot.js';
import { newSets, setHas } from '../src/core/cardset.js';
import { Rng, type SeedKey } from '../src/core/rng.js';
import type { Game, TableConfig } from '../src/games/game.js';

/**
 * The first decision of single deal 0 of `key` (cards from stream (key, 0)), put to the
 * bot that `create` makes for the seat to act (its stream (key, 1)): whether its move
 * is legal and how long it took, for the tests of time caps.
 */
export function timedFirstMove(
  game: Game,
  table: TableConfig,
  key: SeedKey,
  create: (seat: number, rng: Rng) => Bot,
): { legal: boolean; ms: number } {
  const state = game.newState(table);
  game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(state, new Rng(key, 0));
  const seat = state.toMove;
  const bot = create(seat, new Rng(key, 1));
  const legal = newSets(1);
  const n = state.legal(legal, 0);
  const t0 = performance.now();
  const move = bot.act(state.observe(seat), legal, n);
  return { legal: setHas(legal, 0, move), ms: performance.now() - t0 };
}
