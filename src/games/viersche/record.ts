/**
 * Viersche's deal record (RECORD.md, "Viersche"): the kernel's common part
 * (../trick/record.ts) with the targets, the face-down first trick and the claims, and
 * the match's scoring state and events.
 */
import type { DealRecord } from '../game.js';
import { dealRecord, frenchCards } from '../trick/record.js';
import { PACK } from './cards.js';
import type { VierscheState } from './state.js';

/** The scoring state: rungs left by team, the score written down after an undecided first deal, frame marks by team. */
export interface VierscheScore {
  readonly rungs: readonly [number, number];
  readonly carry: { readonly team: number; readonly points: number } | null;
  readonly frame: readonly [number, number];
}

export type VierscheEvent =
  | { readonly type: 'game'; readonly team: number; readonly rungs: number }
  | { readonly type: 'carry'; readonly team: number; readonly points: number }
  | { readonly type: 'set'; readonly loser: number; readonly marks: number }
  | { readonly type: 'match'; readonly loser: number };

/** A claim (V-8) after trick `trick` (from 0). */
interface VierscheClaim {
  readonly trick: number;
  readonly seat: number;
  readonly correct: boolean;
}

/** Every seat plays: `points` has a number for each. */
export interface VierscheRecord extends DealRecord<VierscheScore, VierscheEvent, number> {
  /** The points each team needed in this deal. */
  readonly targets: readonly number[];
  readonly claims?: readonly VierscheClaim[];
}

/** The record of the finished deal in `state`, scored from `before` to `after` by `events`. */
export function vierscheRecord(
  state: VierscheState,
  before: VierscheScore | null,
  after: VierscheScore,
  events: readonly VierscheEvent[],
): VierscheRecord {
  const rec = dealRecord(
    state,
    frenchCards(PACK, state.trump),
    { points: Array.from(state.seatPoints), before, after, events },
    {
      afterPoints: { targets: Array.from(state.targets) },
      last:
        state.claimTrick >= 0 ? { claims: [{ trick: state.claimTrick, seat: state.claimSeat, correct: true }] } : {},
    },
  );
  if (!state.facedown || rec.tricks.length === 0) return rec;
  const [first, ...rest] = rec.tricks;
  return { ...rec, tricks: [{ ...first, facedown: true }, ...rest] };
}
