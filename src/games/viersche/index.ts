/**
 * Viersche (Hundert), as RULES.md section V plays it: four players in two teams, a
 * 36-card pack with the Alt and the Kloei as top trumps, the forced trump lead and
 * the face-down lead, claims, one- and two-deal games, rungs, sets and frame marks.
 * No rule variants.
 */
import { TafelError } from '../../core/errors.js';
import { boardProblem } from '../board.js';
import type { Game, TableConfig } from '../game.js';
import { vierscheListing } from './listing.js';
import { VierscheMatch } from './match.js';
import { VierscheSampler } from './sample.js';
import { samplerPerState } from '../trick/sample.js';
import { SEATS, VierscheState } from './state.js';
import { PACK, TRUMP_LANE } from './cards.js';
import { frenchCardNames } from '../trick/french-names.js';
import { VIERSCHE_FACTS } from './facts.js';
import type { VierscheView } from './view.js';
import type { VierscheRecord } from './record.js';
import { VIERSCHE_PROTOCOL, vierscheBoard } from './protocol.js';
import { heuristic } from './heuristic.js';
import { vierscheScreen } from './screen.js';

export const viersche: Game<VierscheState, VierscheView, VierscheRecord> = {
  ...vierscheListing,
  facts: VIERSCHE_FACTS,
  checkTable(table: TableConfig): void {
    if (table.seats !== SEATS)
      throw new TafelError('bad-table', `viersche is played by exactly 4 players, not ${table.seats}`);
  },
  checkBoard: (table, board) => boardProblem(board, vierscheBoard(table)),
  newState: () => new VierscheState(),
  newMatch: (_table, opts) => new VierscheMatch(opts.singleDeal, opts.index),
  protocol: VIERSCHE_PROTOCOL,
  cardNames: frenchCardNames(PACK),
  heuristic,
  screen: vierscheScreen,
  experiments: {
    ladder: { margin: 4 },
    tune: {
      bad: 'aggression=1:smear=0.1:trumpLength=10',
      tune: 'aggression,cash,smear,trumpLength',
      why: 'grab every trick (aggression 1), hardly ever smear points onto the partner (smear 0.1), lead trumps only with ten of them',
    },
  },
  searchGoal: {
    measure: 'points',
    more: true,
    trumpLane: TRUMP_LANE,
    note: "the team's card points: 100 of them win a game (V-7)",
  },
  sample: samplerPerState(() => new VierscheSampler()),
};
