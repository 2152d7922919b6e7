/** The built-in bots, by name. */
import type { BotSpec } from './bot.js';
import { heuristic } from './heuristic.js';
import { montecarlo } from './montecarlo.js';
import { random } from './random.js';

export const BUILTIN_BOTS: readonly BotSpec[] = [random, heuristic, montecarlo];

export function builtinBot(name: string): BotSpec | undefined {
  return BUILTIN_BOTS.find((b) => b.name === name);
}
