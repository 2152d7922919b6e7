/** Each game's screen, by game name. */
import type { Game } from '../../games/game.js';
import type { GameScreen } from '../screen.js';
import { vierscheScreen } from './viersche.js';
import { hinderscheScreen } from './hindersche.js';
import { jassScreen } from './hindersi-jass.js';
import { anderleScreen } from './vier-anderle.js';

const SCREENS: Readonly<Record<string, GameScreen>> = {
  viersche: vierscheScreen,
  hindersche: hinderscheScreen,
  'hindersi-jass': jassScreen,
  'vier-anderle': anderleScreen,
};

export function screenFor(game: Game): GameScreen {
  const screen = SCREENS[game.name];
  if (!screen) throw new Error(`no screen for the game ${game.name}`);
  return screen;
}
