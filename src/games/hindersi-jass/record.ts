/**
 * Hindersi-Jass's deal record (RECORD.md, "Hindersi-Jass"): the kernel's common part
 * (../trick/record.ts) with the points charged, and the match's scoring state and
 * events. A trick's `points` include the last trick's 5.
 */
import type { DealRecord } from '../game.js';
import { dealRecord, frenchCards } from '../trick/record.js';
import { PACK } from './cards.js';
import type { JassState } from './state.js';

/** The scoring state: the Partie (from 0), the points charged in it by seat, net Striche by seat. */
export interface JassScore {
  readonly partie: number;
  readonly totals: readonly number[];
  readonly striche: readonly number[];
}

export type JassEvent =
  | { readonly type: 'all-tricks'; readonly seat: number }
  | { readonly type: 'partie'; readonly striche: readonly number[] }
  | { readonly type: 'match'; readonly winner: readonly number[] };

/** Every seat plays: `points` has a number for each. */
export interface JassRecord extends DealRecord<JassScore, JassEvent, number> {
  /** By seat: the points charged for the deal (157 to each other seat after all the tricks, J-5). */
  readonly charged: readonly number[];
}

/** The record of the finished deal in `state`, scored from `before` to `after` by `events`. */
export function jassRecord(
  state: JassState,
  before: JassScore | null,
  after: JassScore,
  events: readonly JassEvent[],
): JassRecord {
  const n = state.seats;
  return dealRecord(
    state,
    frenchCards(PACK, state.trump),
    { points: Array.from(state.seatPoints.subarray(0, n)), before, after, events },
    { afterPoints: { charged: Array.from(state.charged.subarray(0, n)) } },
  );
}
