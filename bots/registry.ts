/** The built-in bots, by name. */
import type { BotSpec } from './bot.js';
import { heuristic } from './heuristic.js';
import { heuristicHindersche } from './heuristic-hindersche.js';
import { heuristic as heuristicJass } from './heuristic-jass.js';
import { heuristicAnderle } from './heuristic-anderle.js';
import { montecarlo } from './montecarlo.js';
import { random } from './random.js';

export const BUILTIN_BOTS: readonly BotSpec[] = [random, heuristic, heuristicHindersche, heuristicJass, heuristicAnderle, montecarlo];

/**
 * The built-in bot `name` for `game`. Several specs may share a name (each game has
 * its own `heuristic`); the one that plays the game wins, else any of that name (so
 * the caller can say which games it plays).
 */
export function builtinBot(name: string, game?: string): BotSpec | undefined {
  const named = BUILTIN_BOTS.filter((b) => b.name === name);
  return named.find((b) => !b.games || (game !== undefined && b.games.includes(game))) ?? named[0];
}
