/**
 * The public facts of a Viersche deal and of each seat's hand, for the run's database
 * (`Game.facts`, `Match.facts`): the Alt-Kloei pack's (../trick/alt-kloei-facts.ts)
 * and Viersche's own.
 */
import type { DealFacts } from '../game.js';
import { PACK_DEAL_FACTS, PACK_SEAT_FACTS, packDealFacts, packSeatFacts } from '../trick/alt-kloei-facts.js';
import { SEATS, TRICKS, type VierscheState } from './state.js';

export const VIERSCHE_FACTS: DealFacts = {
  deal: [
    ...PACK_DEAL_FACTS,
    { key: 'facedown', description: 'forehand led the first trick face down (no trump to lead, V-4)', type: 'bool' },
    { key: 'claim_trick', description: 'the trick after which the game was claimed (from 0), or null', type: 'int' },
    { key: 'claim_seat', description: 'the seat that claimed, or null', type: 'int' },
    { key: 'winner', description: 'the team that won the game in this deal (0: seats 0 and 2), or null', type: 'int' },
    { key: 'second_deal', description: 'the second deal of a game, after a carried score (V-7)', type: 'bool' },
  ],
  seat: [
    { key: 'team', description: "the seat's team (0: seats 0 and 2)", type: 'int' },
    ...PACK_SEAT_FACTS,
    { key: 'tricks', description: 'tricks the seat won', type: 'int' },
  ],
};

const SEAT_FACTS = VIERSCHE_FACTS.seat.length;

export function writeVierscheFacts(state: VierscheState, deal: Float64Array, seats: Float64Array): void {
  packDealFacts(state, deal);
  deal[4] = state.facedown ? 1 : 0;
  deal[5] = state.claimTrick >= 0 ? state.claimTrick : NaN;
  deal[6] = state.claimSeat >= 0 ? state.claimSeat : NaN;
  deal[7] = state.winner >= 0 ? state.winner : NaN;
  deal[8] = state.secondDeal ? 1 : 0;
  const k = SEAT_FACTS;
  for (let seat = 0; seat < SEATS; seat++) {
    seats[seat * k] = seat & 1;
    packSeatFacts(state, seat, seats, seat * k + 1);
    seats[seat * k + 7] = 0;
  }
  const played = Math.min(state.trick, TRICKS);
  const winners = state.trickWinner;
  for (let t = 0; t < played; t++) seats[winners[t] * k + 7]++;
}
