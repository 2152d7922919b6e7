/**
 * Hindersi-Jass's `Game.dealAims` and `Game.outlook` (game.ts), for search bots that
 * value card play by the deal's result (J-5) rather than by card points alone.
 *
 * Aims. Taking every trick charges 0 to the taker and 157 to every other player
 * (J-5): the one result that is not a sum of card points. It is given as a target of
 * all 157 points (the last trick's 5 included) for a seat while no other seat has
 * taken a trick; that is necessary for all the tricks but not sufficient (a trick worth
 * nothing may still go elsewhere), which search bots accept as a rare error.
 *
 * Outlook. `returns` (state.ts) of the deal ended as said: with a marcher, his sweep
 * (+1 for him, -1/(n-1) for each other); without, `seat` charged `own` and the others
 * the rest, (157 - own)/(n-1) - own over 157, which is linear in `own`. The Partie's
 * Striche (J-6) are not modelled here: a deal is valued by its points, as `returns` does.
 */
import type { DealAims } from '../game.js';
import { PACK_POINTS } from './cards.js';
import type { JassState } from './state.js';

export function dealAims(s: JassState, out: DealAims): void {
  const n = s.seats;
  let kept = 0;
  for (let q = 0; q < n; q++) kept += s.seatTricks[q];
  for (let q = 0; q < n; q++) out.target[q] = kept === s.seatTricks[q] ? PACK_POINTS : Infinity;
}

export function outlook(s: JassState, seat: number, own: number, marcher: number): number {
  const n = s.seats;
  if (marcher === seat) return 1;
  if (marcher >= 0) return -1 / (n - 1);
  return ((PACK_POINTS - own) / (n - 1) - own) / PACK_POINTS;
}
