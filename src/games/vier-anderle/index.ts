/**
 * Vier-Anderle, as RULES.md section A plays it: 2 to 13 players each for himself,
 * played for stakes from a pot. The Cego pack (cards.ts: tarocks in lane 0, the four
 * suits in lane 1), 4 cards each, must follow / must tarock / must head, the
 * empty-pot hand, declaring in or out when the pot holds money, and a
 * session of `hands` hands, optionally until the pot is empty.
 *
 * Search utility (`State.returns`): the seat's money change this hand divided by a
 * quarter of the pot after the ante; not zero-sum among the seats (the pot is the
 * counterparty; see state.ts).
 */
import { TafelError } from '../../core/errors.js';
import { boardProblem } from '../board.js';
import type { Game, TableConfig } from '../game.js';
import { vierAnderleListing } from './listing.js';
import { TAROCK_LANE, codeName, parseCard, pipsFor } from './cards.js';
import { AnderleMatch, DEFAULT_HANDS } from './match.js';
import { AnderleSampler } from './sample.js';
import { samplerPerState } from '../trick/sample.js';
import { dealAims, outlook } from './aims.js';
import { AnderleState, MAX_PLAYERS, MIN_SEATS } from './state.js';
import type { AnderleView } from './view.js';
import type { AnderleRecord } from './record.js';
import { ANDERLE_FACTS } from './facts.js';
import { ANDERLE_PROTOCOL, anderleBoard } from './protocol.js';
import { heuristicAnderle } from './heuristic.js';
import { anderleScreen } from './screen.js';

/**
 * The pack's names in a fixed order: tarocks T1..T22, each suit's K Q C J, then (with
 * pips) 10 9 8 7 of the black suits and 1 2 3 4 of the red.
 */
const PACK: readonly string[] = [
  ...Array.from({ length: 22 }, (_, i) => `T${i + 1}`),
  ...['C', 'S', 'H', 'D'].flatMap((s) => ['K', 'Q', 'C', 'J'].map((f) => f + s)),
];
const PACK_WITH_PIPS: readonly string[] = [
  ...PACK,
  ...['C', 'S'].flatMap((s) => ['10', '9', '8', '7'].map((r) => r + s)),
  ...['H', 'D'].flatMap((s) => ['1', '2', '3', '4'].map((r) => r + s)),
];

function pipsOf(table: TableConfig): boolean {
  try {
    return pipsFor(table.seats, String(table.rules.pips ?? 'auto'));
  } catch (e) {
    throw new TafelError('bad-table', `vier-anderle: ${(e as Error).message}`);
  }
}

export const vierAnderle: Game<AnderleState, AnderleView, AnderleRecord> = {
  ...vierAnderleListing,
  facts: ANDERLE_FACTS,
  checkTable(table: TableConfig): void {
    if (!(Number.isInteger(table.seats) && table.seats >= MIN_SEATS && table.seats <= MAX_PLAYERS)) {
      throw new TafelError('bad-table', `vier-anderle is played by 2 to 13 players, not ${table.seats}`);
    }
    pipsOf(table);
    const pot = table.rules.pot;
    if (pot !== undefined && !(typeof pot === 'number' && Number.isInteger(pot) && pot >= 0 && pot % 4 === 0)) {
      throw new TafelError(
        'bad-table',
        `vier-anderle: pot=${String(pot)}: the pot holds a whole number of stakes divisible by 4 (each trick pays a quarter of it, A-6)`,
      );
    }
    const h = table.rules.hands;
    if (h !== undefined && !(typeof h === 'number' && Number.isInteger(h) && h >= 1)) {
      throw new TafelError('bad-table', `vier-anderle: hands=${String(h)} is not a whole number from 1`);
    }
  },
  checkBoard: (table, board) => boardProblem(board, anderleBoard(table.seats, pipsOf(table))),
  newState: (table) => new AnderleState(table.seats, pipsOf(table)),
  newMatch: (table, opts) =>
    new AnderleMatch(
      table.seats,
      Number(table.rules.hands ?? DEFAULT_HANDS),
      table.rules.untilEmpty === true,
      opts.singleDeal,
      opts.index,
      Number(table.rules.pot ?? 0),
    ),
  protocol: ANDERLE_PROTOCOL,
  // Fixed codes: the trump suit plays no part.
  cardNames: {
    name: (code) => codeName(code),
    code: (name) => parseCard(name.toUpperCase()),
    pack: (table) => (pipsOf(table) ? PACK_WITH_PIPS : PACK),
  },
  heuristic: heuristicAnderle,
  screen: anderleScreen,
  experiments: {
    ladder: { margin: 0.25 },
    // The default heuristic loses stakes to random players, who declare in half the time
    // where it declares in a fifth: tuned against them, for the declaration thresholds.
    tune: {
      bad: 'threshold=1.2:potWeight=0.2',
      tune: 'threshold:c=0.2,perSpeaker:c=0.05,perIn:c=0.05,potWeight:c=0.1',
      why: 'declare in only with a strong hand (threshold 1.2), and less still as the pot grows (potWeight 0.2): in 5% of the deals',
      against: 'random',
    },
  },
  searchGoal: {
    measure: 'tricks',
    more: true,
    trumpLane: TAROCK_LANE,
    note: 'tricks: each pays a quarter of the pot, and a player in with none pays the pot (A-5, A-6)',
  },
  sample: samplerPerState(() => new AnderleSampler()),
  // The hand's money for search bots (no march): aims.ts.
  dealAims,
  outlook,
};
