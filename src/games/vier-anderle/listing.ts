/**
 * Vier-Anderle as `tafel games` and `--help` list it, apart from its engine (index.ts), so
 * that the command line names and describes the game without loading its rules, bots and
 * tables (src/games/listings.ts loads the engine when a command plays the game).
 */
import type { GameListing } from '../game.js';

export const vierAnderleListing: GameListing = {
  name: 'vier-anderle',
  title: 'Vier-Anderle: 2 to 13 players each for himself, a tarock game for stakes from a pot',
  minSeats: 2,
  maxSeats: 13,
  defaultSeats: 4,
  variants: [
    {
      key: 'pips',
      description: 'pip cards in the pack (A-1): auto (only from 10 players), always, never (at most 9 players)',
      type: ['auto', 'always', 'never'],
      default: 'auto',
    },
    { key: 'hands', description: 'hands in a session (A-8)', type: 'int', default: 12, min: 1, max: 100000 },
    {
      key: 'pot',
      description:
        'stakes in the pot at the start of each single deal (--deals), a multiple of 4: 0 is an empty-pot hand (A-5) where everyone plays, so only card play is tested; above 0 every seat declares in or out first (A-6)',
      type: 'int',
      default: 8,
      min: 0,
      max: 1_000_000,
    },
    {
      key: 'untilEmpty',
      description: `after the hands, play on until the pot is empty (A-8; at most 1000 more hands)`,
      type: 'boolean',
      default: false,
    },
  ],
  teams: () => null,
  dealMetrics: [
    { key: 'stakes', description: 'money won in the hand, in stakes (the dealer ante included)', higherIsBetter: true },
    { key: 'tricks', description: 'tricks taken in the hand', higherIsBetter: true },
    {
      key: 'in',
      description: 'the seat took part in the hand (declared in, or a type-1 hand)',
      higherIsBetter: true,
      binary: true,
    },
  ],
  matchMetrics: [{ key: 'balance', description: 'balance at the end of the session, in stakes', higherIsBetter: true }],
  // The heuristic model expects the others to play the heuristic and declares in too
  // often against anyone else: paranoid pimc beat it head to head and in a mixed field,
  // losing only in a field of heuristic players (bots/NOTES.md). The remedies fix the
  // model they rest on: alpha-mu the paranoid solver, EPIMC (`postpone`) the heuristic model.
  search: { pimcModel: 'paranoid' },
};
