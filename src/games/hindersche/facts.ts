/**
 * The public facts of a Hindersche deal and of each seat's hand, for the run's
 * database (`Game.facts`, `Match.facts`): the Alt-Kloei pack's
 * (../trick/alt-kloei-facts.ts) and Hindersche's own.
 */
import type { DealFacts } from '../game.js';
import { PACK_DEAL_FACTS, PACK_SEAT_FACTS, packDealFacts, packSeatFacts } from '../trick/alt-kloei-facts.js';
import { Kind } from './score.js';
import { SEATS, type HinderscheState } from './state.js';

/** H-4: a march by card points. */
const MARCH_POINTS = 100;

export const HINDERSCHE_FACTS: DealFacts = {
  deal: [
    ...PACK_DEAL_FACTS,
    { key: 'kind', description: 'a normal deal, or a playoff (H-8)', type: ['normal', 'playoff'] },
    { key: 'game', description: 'the game of the rubber (from 0)', type: 'int' },
    { key: 'phase', description: 'the phase of the game: 1 (Vier-Strich) or 2 (Butzen)', type: 'int' },
    { key: 'players', description: 'seats taking part', type: 'int' },
    { key: 'marcher', description: 'the seat that marched (H-4, H-6), or null', type: 'int' },
    {
      key: 'march',
      description: 'how: 100 card points or more, or (phase 2) all 9 tricks with fewer; null without a march',
      type: ['points', 'all-tricks'],
    },
    {
      key: 'game_end',
      description: 'the deal ended its game: 0 no, 1 a seat lost it, 2 by a double loss (H-5)',
      type: 'int',
    },
  ],
  seat: [
    { key: 'plays', description: 'the seat takes part in the deal (still in, or in the playoff)', type: 'bool' },
    ...PACK_SEAT_FACTS,
    { key: 'tricks', description: 'tricks the seat kept', type: 'int' },
  ],
};

export function writeHinderscheFacts(
  state: HinderscheState,
  game: number,
  marcher: number,
  gameEnd: number,
  deal: Float64Array,
  seats: Float64Array,
): void {
  packDealFacts(state, deal);
  deal[4] = state.kind === Kind.Playoff ? 1 : 0;
  deal[5] = game;
  deal[6] = state.phase;
  deal[7] = state.players;
  deal[8] = marcher >= 0 ? marcher : NaN;
  deal[9] = marcher < 0 ? NaN : state.seatPoints[marcher] >= MARCH_POINTS ? 0 : 1;
  deal[10] = gameEnd;
  const k = HINDERSCHE_FACTS.seat.length;
  for (let seat = 0; seat < SEATS; seat++) {
    const plays = ((state.mask >>> seat) & 1) === 1;
    seats[seat * k] = plays ? 1 : 0;
    if (!plays) {
      for (let f = 1; f < k; f++) seats[seat * k + f] = NaN;
      continue;
    }
    packSeatFacts(state, seat, seats, seat * k + 1);
    seats[seat * k + 7] = state.tricksKept[seat];
  }
}
