/** The games tafel plays, by name. */
import type { Game } from './game.js';
import { viersche } from './viersche/index.js';
import { hindersche } from './hindersche/index.js';
import { hindersiJass } from './hindersi-jass/index.js';
import { vierAnderle } from './vier-anderle/index.js';

export const GAMES: readonly Game[] = [viersche, hindersche, hindersiJass, vierAnderle];

export function findGame(name: string): Game | undefined {
  return GAMES.find((g) => g.name === name);
}
