/** Hindersi-Jass's observation in the bot protocol (PROTOCOL.md): trump, turn-up, points and tricks, the Partie. */
import { LANES } from '../../core/cardset.js';
import { PACK_SIZE, parseCard, suitOf, SUITS } from '../../core/french.js';
import { boardProblem, type BoardShape } from '../board.js';
import { bad, FieldProblem, whole, wholes } from '../fields.js';
import type { TableConfig } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { bySeat, recordNumbers, recordObject, trickProtocol } from '../trick/protocol.js';
import { PACK, PACK_POINTS } from './cards.js';
import { MAX_PLAYERS, type JassState } from './state.js';
import type { JassView } from './view.js';

/** A Jass deal's hands: the whole pack (9 cards each, 12 with 3), the turn-up in the dealer's hand. */
export function jassBoard(table: TableConfig): BoardShape {
  return {
    game: 'hindersi-jass',
    seats: table.seats,
    handSize: PACK_SIZE / table.seats,
    parse: parseCard,
    turnup: true,
  };
}

export const JASS_PROTOCOL = trickProtocol(
  (v: JassView) => ({
    trump: SUITS[v.trump],
    turnup: v.codeName(v.turnup),
    turnupHeld: v.turnupHeld,
    seatPoints: bySeat(v, (s) => v.seatPoints(s)),
    seatTricks: bySeat(v, (s) => v.seatTricks(s)),
    allTricks: v.allTricks,
    charged: bySeat(v, (s) => v.charged(s)),
    trickPointsSeen: v.trickPointsSeen,
    partieDeal: v.partieDeal,
    partieDeals: v.partieDeals,
    partieTotals: bySeat(v, (s) => v.partieTotal(s)),
  }),
  // The match's part: the deal's place in its Partie and the points charged before it (J-6).
  (table, state: JassState, cards, fields) => {
    const problem = boardProblem(cards, jassBoard(table));
    if (problem !== null) throw new FieldProblem(problem);
    const n = table.seats;
    // J-6: a Partie has a deal per player.
    if (fields.partieDeals !== n) throw bad(fields, 'partieDeals', `a Partie of ${n} players has ${n} deals (J-6)`);
    const partieDeal = whole(fields, 'partieDeal', 0, n - 1);
    const totals = wholes(fields, 'partieTotals', n, 0, PACK_POINTS * partieDeal);
    // J-5: a deal charges 157 in all, or 157 to every seat but one when one seat took every trick.
    const deals = totals.reduce((a, b) => a + b, 0) / PACK_POINTS;
    const sweeps = (deals - partieDeal) / (n - 2);
    if (!(Number.isInteger(sweeps) && sweeps >= 0 && sweeps <= partieDeal))
      throw bad(
        fields,
        'partieTotals',
        `each deal before this one charged ${PACK_POINTS} in all, or ${PACK_POINTS} to every seat but one that took every trick (J-5)`,
      );
    const hands = new Int32Array(MAX_PLAYERS * LANES);
    const turnup = dealFrenchBoard(PACK, cards, hands);
    const trump = suitOf(turnup);
    const ctx = { dealer: cards.dealer, partieDeal, partieDeals: n, totals };
    state.begin(ctx, trump, PACK.toCode(trump, turnup), hands);
  },
  // A record's Partie totals before the deal; its deal in the match gives its place in the Partie.
  (record, seats) => ({
    partieDeals: seats,
    partieDeal: Number(record.deal ?? 0) % seats,
    partieTotals: recordNumbers(recordObject(record.before).totals, () => new Array<number>(seats).fill(0)),
  }),
);
