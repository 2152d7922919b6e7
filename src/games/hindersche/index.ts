/**
 * Hindersche, as RULES.md sections C and H play it: four players each for himself, the
 * Viersche pack and play without the forced trump lead, the aim to take few points;
 * a rubber of games, each a Vier-Strich phase (marks for the most points, marches,
 * all-35) and a Butzen phase (erasing marks, drop-outs, the two-player stage), with
 * playoffs for ties as deals of their own, the double loss, frame marks, and money at
 * a tariff. Variants: `schleipfen` (H-2), `games` and `tariff` (H-9).
 * Not modelled: the redeal request (H-10).
 */
import { TafelError } from '../../core/errors.js';
import { boardProblem } from '../board.js';
import type { Game, TableConfig } from '../game.js';
import { hinderscheListing } from './listing.js';
import { HinderscheMatch, type HinderscheRules } from './match.js';
import { HinderscheSampler } from './sample.js';
import { samplerPerState } from '../trick/sample.js';
import { HINDERSCHE_FACTS } from './facts.js';
import { dealAims, outlook } from './aims.js';
import { HinderscheState, SEATS } from './state.js';
import { PACK, TRUMP_LANE } from './cards.js';
import { frenchCardNames } from '../trick/french-names.js';
import type { HinderscheView } from './view.js';
import type { HinderscheRecord } from './record.js';
import { HINDERSCHE_BOARD, HINDERSCHE_PROTOCOL } from './protocol.js';
import { heuristicHindersche } from './heuristic.js';
import { hinderscheScreen } from './screen.js';

/** The match rules of a table (rules are complete: defaults applied). */
function rulesOf(table: TableConfig): HinderscheRules {
  return {
    schleipfen: table.rules.schleipfen === true,
    games: Number(table.rules.games ?? 4),
    tariff: Number(table.rules.tariff ?? 5),
  };
}

export const hindersche: Game<HinderscheState, HinderscheView, HinderscheRecord> = {
  ...hinderscheListing,
  facts: HINDERSCHE_FACTS,
  checkTable(table: TableConfig): void {
    if (table.seats !== SEATS)
      throw new TafelError('bad-table', `hindersche is played by exactly 4 players, not ${table.seats}`);
  },
  // A board is the first deal of a rubber: all four play (H-4).
  checkBoard: (_table, board) => boardProblem(board, HINDERSCHE_BOARD),
  newState: () => new HinderscheState(),
  newMatch: (table, opts) => new HinderscheMatch(rulesOf(table), opts.singleDeal, opts.index),
  protocol: HINDERSCHE_PROTOCOL,
  // Viersche's cards (H-1).
  cardNames: frenchCardNames(PACK),
  heuristic: heuristicHindersche,
  screen: hinderscheScreen,
  experiments: {
    ladder: { margin: 0.04 },
    tune: {
      bad: 'dump=2:marchTricks=1:guard=100',
      tune: 'dump:c=0.3,marchTricks:c=1,guard:c=14',
      why: 'shed high cards at almost any price (dump 2), play for a march with nearly any hand (marchTricks 1), smear onto a player who holds 100 points (guard 100)',
    },
  },
  searchGoal: {
    measure: 'points',
    more: false,
    trumpLane: TRUMP_LANE,
    note: 'card points kept: the most points take the mark (H-4); the solver also answers march questions (100+) by target',
  },
  sample: samplerPerState(() => new HinderscheSampler()),
  // Marches (and their outlook) for search bots: aims.ts.
  dealAims,
  outlook,
};
