/**
 * The public facts of a Hindersi-Jass deal and of each seat's hand, for the run's
 * database (`Game.facts`, `Match.facts`).
 */
import { LANES } from '../../core/cardset.js';
import { popcount } from '../../core/bits.js';
import { SUITS } from '../../core/french.js';
import type { DealFacts } from '../game.js';
import { CARD_NAMES } from '../trick/french.js';
import { POINTS, PUUR_BIT, TRUMP_LANE, toPhysical } from './cards.js';
import type { JassState } from './state.js';

/** Trump-lane bits of the Nell (the nine of trumps) and of the trump ace; plain aces are bit 8. */
const NELL_BIT = 7;
const TRUMP_ACE_BIT = 6;
const PLAIN_ACE_BIT = 8;

export const JASS_FACTS: DealFacts = {
  deal: [
    { key: 'dealer', description: 'the dealing seat', type: 'int' },
    { key: 'trump', description: 'the trump suit', type: SUITS },
    { key: 'turnup', description: "the card turned for trump (the dealer's)", type: CARD_NAMES },
    { key: 'partie_deal', description: 'the deal within its Partie (from 0)', type: 'int' },
    { key: 'all_tricks', description: 'the seat that took every trick (J-5), or null', type: 'int' },
  ],
  seat: [
    { key: 'trumps', description: 'trumps dealt to the seat', type: 'int' },
    { key: 'puur', description: 'the seat was dealt the Puur (the jack of trumps)', type: 'bool' },
    { key: 'nell', description: 'the seat was dealt the Nell (the nine of trumps)', type: 'bool' },
    { key: 'aces', description: 'aces dealt to the seat', type: 'int' },
    { key: 'hand_points', description: 'card points dealt to the seat', type: 'int' },
    { key: 'taken', description: "card points the seat took in tricks (the last trick's 5 included)", type: 'int' },
    { key: 'tricks', description: 'tricks the seat took', type: 'int' },
  ],
};

export function writeJassFacts(state: JassState, deal: Float64Array, seats: Float64Array): void {
  deal[0] = state.dealer;
  deal[1] = state.trump;
  deal[2] = toPhysical(state.trump, state.turnup);
  deal[3] = state.partieDeal;
  deal[4] = state.allTricks >= 0 ? state.allTricks : NaN;
  const k = JASS_FACTS.seat.length;
  for (let seat = 0; seat < state.seats; seat++) {
    const h = seat * LANES;
    const trumps = state.dealt[h + TRUMP_LANE];
    let aces = 0;
    let points = 0;
    for (let l = 0; l < LANES; l++) {
      const m = state.dealt[h + l];
      if ((m >>> (l === TRUMP_LANE ? TRUMP_ACE_BIT : PLAIN_ACE_BIT)) & 1) aces++;
      for (let b = m; b !== 0; b &= b - 1) points += POINTS[(l << 5) | (31 - Math.clz32(b & -b))];
    }
    const at = seat * k;
    seats[at] = popcount(trumps);
    seats[at + 1] = (trumps >>> PUUR_BIT) & 1;
    seats[at + 2] = (trumps >>> NELL_BIT) & 1;
    seats[at + 3] = aces;
    seats[at + 4] = points;
    seats[at + 5] = state.seatPoints[seat];
    seats[at + 6] = state.seatTricks[seat];
  }
}
