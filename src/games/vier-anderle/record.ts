/**
 * Vier-Anderle's deal record (RECORD.md, "Vier-Anderle"): the kernel's common part
 * (../trick/record.ts) with the hand's type and the declarations, and the session's
 * ledger and the money moved. No turn-up, no trump suit, no card points: a seat's
 * `points` are its tricks, and every trick is worth 0.
 */
import { YES, type DealRecord } from '../game.js';
import { dealRecord, type RecordCards } from '../trick/record.js';
import { codeName } from './cards.js';
import { ANTE, Outcome, type AnderleState } from './state.js';

/** The ledger: the stakes in the pot and each seat's balance (they sum to 0). */
export interface AnderleLedger {
  readonly pot: number;
  readonly balances: readonly number[];
}

type AnderleEvent =
  | { readonly type: 'ante'; readonly seat: number; readonly n: number }
  | { readonly type: 'trick-pay'; readonly seat: number; readonly n: number }
  | { readonly type: 'loser-pay'; readonly seat: number; readonly n: number }
  | { readonly type: 'void' }
  | { readonly type: 'sole'; readonly seat: number; readonly n: number };

/** A seat's declaration: in or out. */
interface Declaration {
  readonly seat: number;
  readonly in: boolean;
}

export interface AnderleRecord extends DealRecord<AnderleLedger, AnderleEvent> {
  /** 1: an empty-pot hand that everyone plays; 2: a hand with declaring. */
  readonly type: number;
  /** Type 2: the declarations in the order made. */
  readonly declarations?: readonly Declaration[];
}

/** Cego codes are fixed: a code is its card, and code order is the pack's. */
const CEGO: RecordCards = { cardOf: (code) => code, nameOf: codeName };

/** The record of the finished hand in `state`, the ledger going from `before` to `after`. */
export function anderleRecord(state: AnderleState, before: AnderleLedger | null, after: AnderleLedger): AnderleRecord {
  const points: (number | null)[] = [];
  for (let seat = 0; seat < state.seats; seat++)
    points.push(state.declared[seat] === 1 ? state.seatTricks[seat] : null);
  const declarations: Declaration[] = [];
  for (let p = 0; p < state.plies; p++) {
    const m = state.move(p);
    if (m >= 96) declarations.push({ seat: state.moveSeat(p), in: m === YES });
  }
  return dealRecord(
    state,
    CEGO,
    { players: playersIn(state), points, before, after, events: anderleEvents(state) },
    { afterKind: { type: state.type }, last: state.type === 2 ? { declarations } : {} },
  );
}

/** The events of a finished hand, in order. */
function anderleEvents(state: AnderleState): AnderleEvent[] {
  const ev: AnderleEvent[] = [{ type: 'ante', seat: state.dealer, n: ANTE }];
  if (state.outcome === Outcome.Void) ev.push({ type: 'void' });
  else if (state.outcome === Outcome.Sole) ev.push({ type: 'sole', seat: state.soleSeat, n: state.pot });
  else {
    if (state.type === 2)
      for (let t = 0; t < state.trick; t++)
        ev.push({ type: 'trick-pay', seat: state.trickWinner[t], n: state.pot / 4 });
    for (const seat of playersIn(state))
      if (state.seatTricks[seat] === 0) ev.push({ type: 'loser-pay', seat, n: state.pot });
  }
  return ev;
}

/**
 * The seats in, forehand's side first (the first in after the dealer leads): also a
 * sole participant, who plays no card (the kernel's playing order is not set then).
 */
function playersIn(state: AnderleState): number[] {
  const out: number[] = [];
  for (let i = 1; i <= state.seats; i++) {
    const seat = (state.dealer + i) % state.seats;
    if (state.declared[seat] === 1) out.push(seat);
  }
  return out;
}
