/**
 * Viersche as `tafel games` and `--help` list it, apart from its engine (index.ts), so
 * that the command line names and describes the game without loading its rules, bots and
 * tables (src/games/listings.ts loads the engine when a command plays the game).
 */
import type { GameListing } from '../game.js';

export const vierscheListing: GameListing = {
  name: 'viersche',
  title: 'Viersche (Hundert): 4 players in two teams, first to 100 card points wins a game',
  minSeats: 4,
  maxSeats: 4,
  defaultSeats: 4,
  variants: [],
  teams: () => [0, 1, 0, 1],
  dealMetrics: [
    { key: 'points', description: "card points of the seat's team in the deal", higherIsBetter: true },
    { key: 'won', description: "the seat's team won a game in this deal", higherIsBetter: true, binary: true },
    {
      key: 'rungs',
      description: 'rungs erased by the team minus rungs erased by the other team',
      higherIsBetter: true,
    },
  ],
  matchMetrics: [
    { key: 'won', description: "the seat's team won the match", higherIsBetter: true, binary: true },
    { key: 'sets', description: 'sets won by the team', higherIsBetter: true },
    { key: 'marks', description: 'frame marks chalked against the team', higherIsBetter: false },
  ],
};
