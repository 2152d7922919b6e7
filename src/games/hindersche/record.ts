/**
 * Hindersche's deal record (RECORD.md, "Hindersche"): the kernel's common part
 * (../trick/record.ts) with the playoff, the cards out of play, the ties left open and
 * the schleipfen, and the rubber's scoring state and events. Seats out of the deal hold
 * no cards (`hands` `[]`) and score `null`.
 */
import type { DealRecord } from '../game.js';
import { dealRecord, frenchCards, recordCards } from '../trick/record.js';
import { PACK } from './cards.js';
import { Kind } from './score.js';
import { SEATS, TRICKS, type HinderscheState } from './state.js';

/** The scoring state: the game of the rubber, its phase, the slate, the seats still in, frame marks by seat. */
export interface HinderscheScore {
  readonly game: number;
  readonly phase: number;
  readonly slate: readonly number[];
  readonly in: readonly number[];
  readonly frame: readonly number[];
}

export type HinderscheEvent =
  | { readonly type: 'mark'; readonly seat: number; readonly n: number; readonly why: string }
  | { readonly type: 'out'; readonly seat: number }
  | { readonly type: 'game'; readonly loser: number; readonly frame: number }
  | { readonly type: 'rubber'; readonly balance: readonly number[] };

/** A tie to be played off (H-8); `places` only when it is for more than one place. */
export interface HinderscheTie {
  readonly for: 'most' | 'fewest';
  readonly tied: readonly number[];
  readonly places?: number;
}

/** A schleipfe (H-2): `by` offered to take trick `trick`, and who objected. */
interface Schleipfe {
  readonly trick: number;
  readonly by: number;
  readonly objected: number | null;
}

export interface HinderscheRecord extends DealRecord<HinderscheScore, HinderscheEvent> {
  /** A playoff deal: the tie it plays off. */
  readonly playoff?: HinderscheTie;
  /** The cards out of play (the stack) when fewer than four play. */
  readonly outOfPlay: readonly string[];
  /** The ties the deal left open, to be played off next. */
  readonly ties?: readonly HinderscheTie[];
  readonly schleipfen?: readonly Schleipfe[];
}

/** What the record takes from the match: the scoring state around the deal, its events, and the ties. */
export interface HinderscheScoring {
  readonly before: HinderscheScore | null;
  readonly after: HinderscheScore;
  readonly events: readonly HinderscheEvent[];
  /** The tie the deal played off, or null. */
  readonly playoff: HinderscheTie | null;
  readonly newTies: readonly HinderscheTie[];
}

/** The record of the finished deal in `state`, scored by the match as `scoring` says. */
export function hinderscheRecord(state: HinderscheState, scoring: HinderscheScoring): HinderscheRecord {
  const cards = frenchCards(PACK, state.trump);
  const points: (number | null)[] = [];
  for (let seat = 0; seat < SEATS; seat++) points.push(state.plays(seat) ? state.seatPoints[seat] : null);
  const schleipfen: Schleipfe[] = [];
  for (let t = 0; t < Math.min(state.trick, TRICKS); t++) {
    if (state.trickOfferer[t] >= 0) {
      const objector = state.trickObjector[t];
      schleipfen.push({ trick: t, by: state.trickOfferer[t], objected: objector >= 0 ? objector : null });
    }
  }
  const { before, after, events, playoff, newTies } = scoring;
  return dealRecord(
    state,
    cards,
    {
      kind: state.kind === Kind.Playoff ? 'playoff' : 'normal',
      points,
      takers: state.trickTaker,
      before,
      after,
      events,
    },
    {
      afterKind: playoff ? { playoff } : {},
      afterTrump: { outOfPlay: recordCards(state.stack, 0, cards) },
      last: { ...(newTies.length ? { ties: newTies } : {}), ...(schleipfen.length ? { schleipfen } : {}) },
    },
  );
}
