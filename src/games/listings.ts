/**
 * The games tafel plays, as the command line lists them, and their engines loaded on
 * demand: `--version`, `--help` and `tafel games` read the listings alone, and a command
 * that plays a game imports that game's engine only (bench/README.md, "Start-up").
 * src/games/index.ts is the same registry with every engine loaded, for the library,
 * the workers and the harness.
 */
import { TafelError } from '../core/errors.js';
import type { Game, GameListing } from './game.js';
import { vierscheListing } from './viersche/listing.js';
import { hinderscheListing } from './hindersche/listing.js';
import { hindersiJassListing } from './hindersi-jass/listing.js';
import { vierAnderleListing } from './vier-anderle/listing.js';

export const GAME_LISTINGS: readonly GameListing[] = [
  vierscheListing,
  hinderscheListing,
  hindersiJassListing,
  vierAnderleListing,
];

/** Each game's engine, by name, imported when first asked for. */
const ENGINES: Readonly<Record<string, () => Promise<Game>>> = {
  [vierscheListing.name]: async () => (await import('./viersche/index.js')).viersche,
  [hinderscheListing.name]: async () => (await import('./hindersche/index.js')).hindersche,
  [hindersiJassListing.name]: async () => (await import('./hindersi-jass/index.js')).hindersiJass,
  [vierAnderleListing.name]: async () => (await import('./vier-anderle/index.js')).vierAnderle,
};

/** The games' names as the messages list them: `viersche, hindersche, ...`. */
export function gameNames(): string {
  return GAME_LISTINGS.map((g) => g.name).join(', ');
}

/** The listing of the game `name`, or an `unknown-game` error (`where: ` before it when given). */
export function listingNamed(name: string, where?: string): GameListing {
  const listing = GAME_LISTINGS.find((g) => g.name === name);
  if (!listing)
    throw new TafelError('unknown-game', `${where ? `${where}: ` : ''}unknown game '${name}' (known: ${gameNames()})`);
  return listing;
}

/** The game `name` with its engine, or an `unknown-game` error as `listingNamed` gives it. */
export async function loadGame(name: string, where?: string): Promise<Game> {
  return ENGINES[listingNamed(name, where).name]();
}
