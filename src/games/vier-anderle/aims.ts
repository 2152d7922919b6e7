/**
 * Vier-Anderle's `Game.dealAims` and `Game.outlook` (game.ts): what search bots need to
 * value card play by the hand's money instead of by tricks alone. A seat in
 * the hand that takes no trick pays the whole pot; each trick earns a quarter of it
 * when the pot held money and nothing in an empty-pot hand. So the first
 * trick is worth far more than any later one, which the trick count does not say: a
 * move that makes one trick sure beats a move that makes two tricks likely.
 *
 * Aims: none (no march in this game). Outlook: `returns()` of state.ts for a hand that
 * ends with `seat` holding `own` tricks, in quarters of the pot: -4 with no trick, else
 * `own` or 0, less the dealer's ante; 0 for a seat out of the hand.
 */
import type { DealAims } from '../game.js';
import { ANTE, type AnderleState } from './state.js';

export function dealAims(_s: AnderleState, out: DealAims): void {
  out.target.fill(Infinity);
}

export function outlook(s: AnderleState, seat: number, own: number, _marcher: number): number {
  const quarter = s.pot / 4;
  const ante = seat === s.dealer ? -ANTE / quarter : 0;
  if (s.declared[seat] !== 1) return ante;
  const tricks = Math.round(own);
  if (tricks <= 0) return ante - 4;
  return ante + (s.type === 2 ? tricks : 0);
}
