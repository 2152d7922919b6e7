/**
 * The public facts of a Vier-Anderle hand and of each seat's cards, for the run's
 * database (`Game.facts`, `Match.facts`).
 */
import { popcount } from '../../core/bits.js';
import { LANES } from '../../core/cardset.js';
import type { DealFacts } from '../game.js';
import { TAROCK_LANE } from './cards.js';
import type { AnderleState } from './state.js';

/** Tarock bits of the Gstieß (T22) and the 21; the kings, bit 7 of each suit byte of lane 1. */
const GSTIESS = 1 << 21;
const T21 = 1 << 20;
const KINGS = 0x80808080 | 0;

export const ANDERLE_FACTS: DealFacts = {
  deal: [
    { key: 'dealer', description: 'the dealing seat', type: 'int' },
    {
      key: 'type',
      description: 'hand type: 1 from an empty pot (everyone plays, A-5), 2 with declarations (A-6)',
      type: 'int',
    },
    {
      key: 'outcome',
      description: 'played, void (nobody in) or sole (one seat in takes the pot without play, A-7)',
      type: ['playing', 'played', 'void', 'sole'],
    },
    { key: 'pot_before', description: "the pot before the dealer's ante", type: 'number' },
    { key: 'pot_after', description: 'the pot after the hand was settled', type: 'number' },
    { key: 'players', description: 'seats in play', type: 'int' },
    { key: 'tricks', description: 'tricks played', type: 'int' },
  ],
  seat: [
    { key: 'tarocks', description: 'tarocks dealt to the seat', type: 'int' },
    { key: 'gstiess', description: 'the seat was dealt the Gstieß (T22, the highest tarock)', type: 'bool' },
    { key: 't21', description: 'the seat was dealt the 21 (the second tarock)', type: 'bool' },
    { key: 'kings', description: 'kings dealt to the seat', type: 'int' },
    { key: 'balance_after', description: "the seat's balance in the session after the hand", type: 'number' },
  ],
};

export function writeAnderleFacts(
  state: AnderleState,
  potAfter: number,
  balances: Int32Array,
  deal: Float64Array,
  seats: Float64Array,
): void {
  let players = 0;
  for (let s = 0; s < state.seats; s++) if (state.declared[s] === 1) players++;
  deal[0] = state.dealer;
  deal[1] = state.type;
  deal[2] = state.outcome;
  deal[3] = state.potBefore;
  deal[4] = potAfter;
  deal[5] = players;
  deal[6] = state.trick;
  const k = ANDERLE_FACTS.seat.length;
  for (let seat = 0; seat < state.seats; seat++) {
    const tarocks = state.dealt[seat * LANES + TAROCK_LANE];
    const at = seat * k;
    seats[at] = popcount(tarocks);
    seats[at + 1] = tarocks & GSTIESS ? 1 : 0;
    seats[at + 2] = tarocks & T21 ? 1 : 0;
    seats[at + 3] = popcount(state.dealt[seat * LANES + 1] & KINGS);
    seats[at + 4] = balances[seat];
  }
}
