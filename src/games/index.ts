/** The games tafel plays, by name. */
import type { Game } from './game.js';
import { viersche } from './viersche/index.js';

export const GAMES: readonly Game[] = [viersche as unknown as Game];

export function findGame(name: string): Game | undefined {
  return GAMES.find((g) => g.name === name);
}
