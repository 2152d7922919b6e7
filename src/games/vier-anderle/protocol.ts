/** Vier-Anderle's observation in the bot protocol (PROTOCOL.md): the pot, declarations, tricks taken. */
import { LANES } from '../../core/cardset.js';
import { boardProblem, type BoardShape } from '../board.js';
import { bad, FieldProblem, whole } from '../fields.js';
import { bySeat, recordObject, trickProtocol } from '../trick/protocol.js';
import { packCodes, parseCard } from './cards.js';
import { ANTE, HAND, type AnderleState } from './state.js';
import type { AnderleView } from './view.js';

/** A hand's cards: 4 to every seat (those who will declare out too), of the pack with or without pips. */
export function anderleBoard(seats: number, pips: boolean): BoardShape {
  const pack = new Set(packCodes(pips));
  const parse = (name: string) => {
    const code = parseCard(name);
    return pack.has(code) ? code : -1;
  };
  return { game: 'vier-anderle', seats, handSize: HAND, parse, turnup: false };
}

/** The most the state keeps in the pot (32-bit words), the dealer's ante added. */
const MAX_POT = 2 ** 31 - 1 - ANTE;

export const ANDERLE_PROTOCOL = trickProtocol(
  (v: AnderleView) => ({
    pips: v.pips,
    potType: v.type,
    potBefore: v.potBefore,
    pot: v.pot,
    declared: bySeat(v, (s) => v.declared(s)),
    players: v.players,
    ledSuit: v.ledSuit,
    seatTricks: bySeat(v, (s) => v.seatTricks(s)),
    delta: bySeat(v, (s) => v.delta(s)),
  }),
  // The match's part: the pot the earlier hands left.
  (table, state: AnderleState, cards, fields) => {
    const problem = boardProblem(cards, anderleBoard(table.seats, state.pips));
    if (problem !== null) throw new FieldProblem(problem);
    const potBefore = whole(fields, 'potBefore', 0, MAX_POT);
    if (potBefore % 4 !== 0) throw bad(fields, 'potBefore', 'the pot is always a multiple of 4 (A-6)');
    const hands = new Int32Array(table.seats * LANES);
    cards.hands.forEach((hand, seat) => {
      for (const name of hand) {
        const code = parseCard(name);
        hands[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
      }
    });
    state.begin({ dealer: cards.dealer, potBefore }, hands);
  },
  // A record's pot before the hand.
  (record) => ({ potBefore: Number(recordObject(record.before).pot ?? 0) }),
);
