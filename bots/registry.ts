/** The built-in bots, by name: the generic ones and each game's `heuristic` (`Game.heuristic`). */
import type { BotSpec } from '../src/games/bot.js';
import { GAMES, findGame } from '../src/games/index.js';
import { montecarlo } from './montecarlo.js';
import { ismcts } from './ismcts.js';
import { pimc } from './pimc.js';
import { oracle } from './oracle.js';
import { random } from './random.js';

export const BUILTIN_BOTS: readonly BotSpec[] = [
  random,
  ...GAMES.map((g) => g.heuristic),
  montecarlo,
  ismcts,
  pimc,
  oracle,
];

/**
 * The built-in bot `name` for the game named `game`. Each game has its own `heuristic`:
 * the game's own wins, else the first of that name (so the caller can say which games
 * it plays).
 */
export function builtinBot(name: string, game?: string): BotSpec | undefined {
  const own = game === undefined ? undefined : findGame(game)?.heuristic;
  return own?.name === name ? own : BUILTIN_BOTS.find((b) => b.name === name);
}
