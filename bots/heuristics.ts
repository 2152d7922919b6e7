/**
 * The heuristic bot of each game, for bots that play with it inside their search
 * (ismcts playouts). A module of its own so that search bots need not import the
 * registry, which lists them (that cycle would break module loading).
 */
import type { BotSpec } from './bot.js';
import { heuristic } from './heuristic.js';
import { heuristicHindersche } from './heuristic-hindersche.js';
import { heuristic as heuristicJass } from './heuristic-jass.js';
import { heuristicAnderle } from './heuristic-anderle.js';

export const HEURISTICS: readonly BotSpec[] = [heuristic, heuristicHindersche, heuristicJass, heuristicAnderle];

/** The heuristic that plays `game`, if any. */
export function heuristicFor(game: string): BotSpec | undefined {
  return HEURISTICS.find((b) => b.games?.includes(game));
}
