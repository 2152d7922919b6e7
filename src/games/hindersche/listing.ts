/**
 * Hindersche as `tafel games` and `--help` list it, apart from its engine (index.ts), so
 * that the command line names and describes the game without loading its rules, bots and
 * tables (src/games/listings.ts loads the engine when a command plays the game).
 */
import type { GameListing } from '../game.js';

export const hinderscheListing: GameListing = {
  name: 'hindersche',
  title: 'Hindersche: 4 players each for himself, take few points; Vier-Strich, Butzen, playoffs, rubbers of 4 games',
  minSeats: 4,
  maxSeats: 4,
  defaultSeats: 4,
  variants: [
    {
      key: 'schleipfen',
      type: 'boolean',
      default: false,
      description: 'H-2: after each trick the others may offer to take it, and anyone may object',
    },
    { key: 'games', type: 'int', default: 4, min: 1, max: 1000, description: 'H-9: games in a rubber' },
    {
      key: 'tariff',
      type: 'number',
      default: 5,
      min: 0,
      description: 'H-9: money each frame mark pays to every other player',
    },
  ],
  teams: () => null,
  dealMetrics: [
    // Marks are the deal's score (H-4, H-6), so they are the headline; points only decide them.
    {
      key: 'marks',
      description:
        'slate marks the deal added (+) or erased (-) for the seat; in single deals an unplayed tie counts as places/tied',
      higherIsBetter: false,
    },
    {
      key: 'points',
      description: 'card points the seat took in the deal (seats not playing are left out)',
      higherIsBetter: false,
    },
    {
      key: 'march',
      description: 'the seat made a march (100 points; in Butzen also all 9 tricks)',
      higherIsBetter: true,
      binary: true,
    },
  ],
  matchMetrics: [
    {
      key: 'balance',
      description: 'money won (+) or paid (-) at the tariff when the rubber is settled',
      higherIsBetter: true,
    },
    { key: 'frame', description: 'frame marks (games lost, 2 for a double loss)', higherIsBetter: false },
    { key: 'lost', description: 'the seat lost at least one game of the rubber', higherIsBetter: false, binary: true },
    { key: 'marches', description: 'marches the seat made in the rubber', higherIsBetter: true },
  ],
};
