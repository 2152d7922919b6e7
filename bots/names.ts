/**
 * The built-in bots by name, each loaded when first asked for: what `--program` may not
 * call a bot program, and how a lineup finds a built-in bot without loading the others
 * and every game (registry.ts lists them all, for `tafel bots` and the web page).
 * test/bot-names.test.ts keeps the two the same.
 */
import type { BotSpec } from '../src/games/bot.js';
import type { Game } from '../src/games/game.js';

/** The generic bots' modules; `heuristic` is each game's own (`Game.heuristic`). */
const GENERIC: Readonly<Record<string, () => Promise<BotSpec>>> = {
  random: async () => (await import('./random.js')).random,
  montecarlo: async () => (await import('./montecarlo.js')).montecarlo,
  ismcts: async () => (await import('./ismcts.js')).ismcts,
  pimc: async () => (await import('./pimc.js')).pimc,
  oracle: async () => (await import('./oracle.js')).oracle,
};

/** The built-in bots' names, in the registry's order. */
export const BUILTIN_BOT_NAMES: readonly string[] = ['random', 'heuristic', 'montecarlo', 'ismcts', 'pimc', 'oracle'];

/** The built-in bot `name` for `game` (its own heuristic; registry.ts's `builtinBot`), or undefined. */
export async function loadBuiltinBot(name: string, game: Game): Promise<BotSpec | undefined> {
  if (name === game.heuristic.name) return game.heuristic;
  return Object.hasOwn(GENERIC, name) ? GENERIC[name]() : undefined;
}
