/**
 * The public facts of a deal of the Alt-Kloei pack and of each seat's dealt hand, for
 * the run's database (`Game.facts`, `Match.facts`): the part Viersche and Hindersche
 * share, each game adding its own.
 */
import { LANES } from '../../core/cardset.js';
import { popcount } from '../../core/bits.js';
import { SUITS } from '../../core/french.js';
import type { Fact } from '../game.js';
import { ALT_BIT, KLOEI_BIT, PACK, TRUMP_LANE, toPhysical } from './alt-kloei.js';
import { CARD_NAMES } from './french.js';

const ALT = 1 << ALT_BIT;
const KLOEI = 1 << KLOEI_BIT;
/** A lane's cards' points by its mask: a lookup a lane, not a loop over its cards. */
const LANE_POINTS = PACK.lanePoints;

/** Facts of any deal of the pack: written by `packDealFacts`. */
export const PACK_DEAL_FACTS: readonly Fact[] = [
  { key: 'dealer', description: 'the dealing seat', type: 'int' },
  { key: 'trump', description: 'the trump suit', type: SUITS },
  { key: 'turnup', description: "the card turned for trump (the dealer's)", type: CARD_NAMES },
  { key: 'tricks', description: 'tricks played', type: 'int' },
];

/** Facts of a seat's dealt hand: written by `packSeatFacts`. */
export const PACK_SEAT_FACTS: readonly Fact[] = [
  { key: 'trumps', description: 'trumps dealt to the seat (the Kloei counts as one)', type: 'int' },
  { key: 'alt', description: 'the seat was dealt the Alt (the jack of trumps)', type: 'bool' },
  { key: 'kloei', description: "the seat was dealt the Kloei (the other jack of trump's colour)", type: 'bool' },
  { key: 'aces', description: 'aces dealt to the seat', type: 'int' },
  { key: 'hand_points', description: 'card points dealt to the seat', type: 'int' },
  { key: 'taken', description: 'card points the seat took in tricks', type: 'int' },
];

/** What the facts read of a deal (a Viersche or Hindersche state). */
interface PackDeal {
  readonly dealer: number;
  readonly trump: number;
  readonly turnup: number;
  readonly trick: number;
  readonly tricks: number;
  readonly dealt: Int32Array;
  readonly seatPoints: Int32Array;
}

/** `PACK_DEAL_FACTS` into `deal[0..4)`. */
export function packDealFacts(state: PackDeal, deal: Float64Array): void {
  deal[0] = state.dealer;
  deal[1] = state.trump;
  deal[2] = toPhysical(state.trump, state.turnup);
  deal[3] = Math.min(state.trick, state.tricks);
}

/** `PACK_SEAT_FACTS` of `seat` into `out[at..at+6)`. */
export function packSeatFacts(state: PackDeal, seat: number, out: Float64Array, at: number): void {
  const h = seat * LANES;
  const dealt = state.dealt;
  const trumps = dealt[h + TRUMP_LANE];
  let aces = 0;
  let points = 0;
  for (let l = 0; l < LANES; l++) {
    const m = dealt[h + l];
    // The ace is bit 8 of a plain suit and bit 7 of trumps.
    if ((m >>> (l === TRUMP_LANE ? 7 : 8)) & 1) aces++;
    points += LANE_POINTS[(l << 10) | m];
  }
  out[at] = popcount(trumps);
  out[at + 1] = trumps & ALT ? 1 : 0;
  out[at + 2] = trumps & KLOEI ? 1 : 0;
  out[at + 3] = aces;
  out[at + 4] = points;
  out[at + 5] = state.seatPoints[seat];
}
