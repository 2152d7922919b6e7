/** The built-in bots, by name. */
import type { BotSpec } from './bot.js';
import { HEURISTICS } from './heuristics.js';
import { montecarlo } from './montecarlo.js';
import { ismcts } from './ismcts.js';
import { pimc } from './pimc.js';
import { oracle } from './oracle.js';
import { random } from './random.js';

export const BUILTIN_BOTS: readonly BotSpec[] = [random, ...HEURISTICS, montecarlo, ismcts, pimc, oracle];

/**
 * The built-in bot `name` for `game`. Several specs may share a name (each game has
 * its own `heuristic`); the one that plays the game wins, else any of that name (so
 * the caller can say which games it plays).
 */
export function builtinBot(name: string, game?: string): BotSpec | undefined {
  const named = BUILTIN_BOTS.filter((b) => b.name === name);
  return named.find((b) => !b.games || (game !== undefined && b.games.includes(game))) ?? named[0];
}
