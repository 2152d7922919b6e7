/**
 * Hindersi-Jass, as RULES.md sections C and J play it: 3 or 4 players, each for
 * himself, the aim to take as few card points as possible. Jass ranking (Puur, Nell)
 * and points (157 with the last trick), the dealer's last card turned for trump,
 * following with the no-undertrump rule and the Puur exception (J-4), the all-tricks
 * rule (J-5), Partien of one deal per seat scored with Striche and Nuller, and a match
 * of `partien` Partien (J-6). Departures from the real game: none intended; the
 * decisions RULES.md leaves open are marked **Decision** in state.ts and match.ts.
 *
 * Search utility (`State.returns`): (mean charge of the others - own charge) / 157,
 * zero-sum, per deal (see state.ts).
 */
import { TafelError } from '../../core/errors.js';
import { boardProblem } from '../board.js';
import type { Game, TableConfig } from '../game.js';
import { hindersiJassListing } from './listing.js';
import { DEFAULT_PARTIEN, JassMatch } from './match.js';
import { JassSampler } from './sample.js';
import { samplerPerState } from '../trick/sample.js';
import { dealAims, outlook } from './aims.js';
import { JassState, MAX_PLAYERS, MIN_SEATS } from './state.js';
import { PACK, TRUMP_LANE } from './cards.js';
import { frenchCardNames } from '../trick/french-names.js';
import type { JassView } from './view.js';
import type { JassRecord } from './record.js';
import { JASS_FACTS } from './facts.js';
import { JASS_PROTOCOL, jassBoard } from './protocol.js';
import { heuristic } from './heuristic.js';
import { jassScreen } from './screen.js';

export const hindersiJass: Game<JassState, JassView, JassRecord> = {
  ...hindersiJassListing,
  facts: JASS_FACTS,
  checkTable(table: TableConfig): void {
    if (!(table.seats >= MIN_SEATS && table.seats <= MAX_PLAYERS)) {
      throw new TafelError('bad-table', `hindersi-jass is played by 3 or 4 players, not ${table.seats}`);
    }
    const p = table.rules.partien;
    if (p !== undefined && !(typeof p === 'number' && Number.isInteger(p) && p >= 1)) {
      throw new TafelError('bad-table', `hindersi-jass: partien=${String(p)} is not a whole number from 1`);
    }
  },
  checkBoard: (table, board) => boardProblem(board, jassBoard(table)),
  newState: (table) => new JassState(table.seats),
  newMatch: (table, opts) =>
    new JassMatch(table.seats, Number(table.rules.partien ?? DEFAULT_PARTIEN), opts.singleDeal, opts.index),
  protocol: JASS_PROTOCOL,
  cardNames: frenchCardNames(PACK),
  heuristic,
  screen: jassScreen,
  experiments: { ladder: { margin: 3 } },
  searchGoal: {
    measure: 'points',
    more: false,
    trumpLane: TRUMP_LANE,
    note: 'card points with the last 5: the fewest win the Partie (J-5, J-6)',
  },
  sample: samplerPerState(() => new JassSampler()),
  // Marches (and their outlook) for search bots: aims.ts.
  dealAims,
  outlook,
};
