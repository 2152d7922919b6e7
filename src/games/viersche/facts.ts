/**
 * The public facts of a Viersche deal and of each seat's hand, for the run's database
 * (`Game.facts`, `Match.facts`). Shared with Hindersche, which plays the same pack.
 */
import { LANES } from '../../core/cardset.js';
import { popcount } from '../../core/bits.js';
import { cardName, PACK_SIZE, SUITS } from '../../core/french.js';
import type { DealFacts, Fact } from '../game.js';
import { POINTS, TRUMP_LANE, toPhysical } from './cards.js';
import { SEATS, TRICKS, type VierscheState } from './state.js';

/** The Alt (the jack of trumps) and the Kloei (the other jack of trump's colour): trump-lane bits. */
const ALT = 1 << 9;
const KLOEI = 1 << 8;

export const CARD_NAMES: readonly string[] = Array.from({ length: PACK_SIZE }, (_, c) => cardName(c));

/** Facts of any deal of the Viersche pack (Viersche and Hindersche). */
export const PACK_DEAL_FACTS: readonly Fact[] = [
  { key: 'dealer', description: 'the dealing seat', type: 'int' },
  { key: 'trump', description: 'the trump suit', type: SUITS },
  { key: 'turnup', description: "the card turned for trump (the dealer's)", type: CARD_NAMES },
  { key: 'tricks', description: 'tricks played', type: 'int' },
];

/** Facts of a seat's dealt hand on the Viersche pack. */
export const PACK_SEAT_FACTS: readonly Fact[] = [
  { key: 'trumps', description: 'trumps dealt to the seat (the Kloei counts as one)', type: 'int' },
  { key: 'alt', description: 'the seat was dealt the Alt (the jack of trumps)', type: 'bool' },
  { key: 'kloei', description: "the seat was dealt the Kloei (the other jack of trump's colour)", type: 'bool' },
  { key: 'aces', description: 'aces dealt to the seat', type: 'int' },
  { key: 'hand_points', description: 'card points dealt to the seat', type: 'int' },
  { key: 'taken', description: 'card points the seat took in tricks', type: 'int' },
];

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

interface PackDeal {
  readonly dealer: number;
  readonly trump: number;
  readonly turnup: number;
  readonly trick: number;
  readonly dealt: Int32Array;
  readonly seatPoints: Int32Array;
}

/** `PACK_DEAL_FACTS` into `deal[0..4)`. */
export function packDealFacts(state: PackDeal, deal: Float64Array): void {
  deal[0] = state.dealer;
  deal[1] = state.trump;
  deal[2] = toPhysical(state.trump, state.turnup);
  deal[3] = Math.min(state.trick, TRICKS);
}

/** `PACK_SEAT_FACTS` of `seat` into `out[at..at+6)`. */
export function packSeatFacts(state: PackDeal, seat: number, out: Float64Array, at: number): void {
  const h = seat * LANES;
  const trumps = state.dealt[h + TRUMP_LANE];
  let aces = 0;
  let points = 0;
  for (let l = 0; l < LANES; l++) {
    const m = state.dealt[h + l];
    // The ace is bit 8 of a plain suit and bit 7 of trumps.
    if ((m >>> (l === TRUMP_LANE ? 7 : 8)) & 1) aces++;
    for (let b = m; b !== 0; b &= b - 1) points += POINTS[(l << 5) | (31 - Math.clz32(b & -b))];
  }
  out[at] = popcount(trumps);
  out[at + 1] = trumps & ALT ? 1 : 0;
  out[at + 2] = trumps & KLOEI ? 1 : 0;
  out[at + 3] = aces;
  out[at + 4] = points;
  out[at + 5] = state.seatPoints[seat];
}

export function writeVierscheFacts(state: VierscheState, deal: Float64Array, seats: Float64Array): void {
  packDealFacts(state, deal);
  deal[4] = state.facedown ? 1 : 0;
  deal[5] = state.claimTrick >= 0 ? state.claimTrick : NaN;
  deal[6] = state.claimSeat >= 0 ? state.claimSeat : NaN;
  deal[7] = state.winner >= 0 ? state.winner : NaN;
  deal[8] = state.secondDeal ? 1 : 0;
  const k = VIERSCHE_FACTS.seat.length;
  const played = Math.min(state.trick, TRICKS);
  for (let seat = 0; seat < SEATS; seat++) {
    seats[seat * k] = seat & 1;
    packSeatFacts(state, seat, seats, seat * k + 1);
    let tricks = 0;
    for (let t = 0; t < played; t++) if (state.trickWinner[t] === seat) tricks++;
    seats[seat * k + 7] = tricks;
  }
}
