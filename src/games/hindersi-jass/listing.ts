/**
 * Hindersi-Jass as `tafel games` and `--help` list it, apart from its engine (index.ts), so
 * that the command line names and describes the game without loading its rules, bots and
 * tables (src/games/listings.ts loads the engine when a command plays the game).
 */
import type { GameListing } from '../game.js';

export const hindersiJassListing: GameListing = {
  name: 'hindersi-jass',
  title: 'Hindersi-Jass: 3 or 4 players each for himself, fewest card points wins; Partien scored with Striche',
  minSeats: 3,
  maxSeats: 4,
  defaultSeats: 4,
  variants: [
    {
      key: 'partien',
      description: 'Partien in a match (J-6); a Partie is one deal per player',
      type: 'int',
      default: 4,
      min: 1,
      max: 1000,
    },
  ],
  teams: () => null,
  dealMetrics: [
    {
      key: 'points',
      description: 'points charged to the seat in the deal (157 to each other seat when one takes every trick)',
      higherIsBetter: false,
    },
    { key: 'allTricks', description: 'the seat took every trick (J-5)', higherIsBetter: true, binary: true },
    {
      key: 'fewest',
      description: 'the seat was charged the fewest points of the table (ties count for each)',
      higherIsBetter: true,
      binary: true,
    },
  ],
  matchMetrics: [
    { key: 'striche', description: 'net Striche over the match (Striche minus Nuller, J-6)', higherIsBetter: true },
    {
      key: 'won',
      description: 'the seat had the most net Striche (shared wins count for each winner)',
      higherIsBetter: true,
      binary: true,
    },
    { key: 'points', description: 'points charged to the seat over the whole match', higherIsBetter: false },
  ],
};
