/**
 * The common part of a trick-play game's observation in the bot protocol (PROTOCOL.md):
 * the seat's hands, the history, the current trick and the tricks done. Each game adds
 * its own public facts (trump, points, claims, the pot...) in its protocol.ts.
 */
import { LANES } from '../../core/cardset.js';
import { problemOf, type Fields } from '../fields.js';
import {
  DECISION_NAMES,
  HIDDEN,
  NO,
  YES,
  type BoardDeal,
  type GameProtocol,
  type Json,
  type RecordFields,
  type State,
  type TableConfig,
} from '../game.js';
import type { TrickView } from './view.js';

/** A game's window with its card names (every game's view has `codeName`). */
export interface NamedView extends TrickView {
  codeName(code: number): string;
}

/** The names of the cards in `mask(lane)` over every lane, lowest code first. */
function cardNames(view: NamedView, mask: (lane: number) => number): string[] {
  const out: string[] = [];
  for (let lane = 0; lane < LANES; lane++) {
    const m = mask(lane);
    for (let bit = 0; bit < 32; bit++) if ((m >>> bit) & 1) out.push(view.codeName((lane << 5) | bit));
  }
  return out;
}

/** `f(seat)` for every seat. */
export function bySeat<T extends Json>(view: NamedView, f: (seat: number) => T): T[] {
  return Array.from({ length: view.seats }, (_, s) => f(s));
}

/** The move's protocol name: a card's RECORD.md name, `yes`, `no`, or `??` for a card not seen. */
function moveName(view: NamedView, move: number): string {
  if (move === YES) return 'yes';
  if (move === NO) return 'no';
  if (move === HIDDEN) return '??';
  return view.codeName(move);
}

/** What every trick-play game shows: PROTOCOL.md, "Observation". */
function encodeTrick(view: NamedView): { [key: string]: Json } {
  const history: Json[] = [];
  for (let p = 0; p < view.plies; p++) history.push([view.moveSeat(p), moveName(view, view.move(p))]);
  const tricks: Json[] = [];
  const done = view.trickCards > 0 && view.trickWinner(view.trick) >= 0 ? view.trick + 1 : view.trick;
  for (let t = 0; t < done; t++)
    tricks.push({ leader: view.trickLeader(t), winner: view.trickWinner(t), value: view.trickValue(t) });
  const current: Json[] = [];
  if (view.trickCards > 0) {
    const start = view.trickStart(view.trick);
    for (let p = start; p >= 0 && p < view.plies; p++) {
      const m = view.move(p);
      // Yes/no answers between the cards of a trick are not cards of it.
      if (m !== YES && m !== NO) current.push([view.moveSeat(p), moveName(view, m)]);
    }
  }
  return {
    seat: view.seat,
    seats: view.seats,
    dealer: view.dealer,
    forehand: view.forehand,
    decision: DECISION_NAMES[view.decision],
    toMove: view.toMove,
    hand: cardNames(view, (l) => view.handLane(l)),
    dealt: cardNames(view, (l) => view.dealtLane(l)),
    handSizes: bySeat(view, (s) => view.handSize(s)),
    history,
    trick: view.trick,
    leader: view.leader,
    current,
    winning: view.winningSeat,
    tricks,
  };
}

/**
 * How a game starts the deal a request describes (`GameProtocol.start`): throws a
 * `FieldProblem` (../fields.ts) for what no deal of the table can have.
 */
export type StartDeal<S extends State> = (table: TableConfig, state: S, cards: BoardDeal, fields: Fields) => void;

/** A game's protocol: the common fields followed by the game's own (`extra`), and `start` the way back. */
export function trickProtocol<O extends NamedView, S extends State>(
  extra: (view: O) => { [key: string]: Json },
  start: StartDeal<S>,
  recordFields: GameProtocol['recordFields'],
): GameProtocol<O, S> {
  return {
    encode: (view) => ({ ...encodeTrick(view), ...extra(view) }),
    moveName,
    start: (table, state, cards, fields) => problemOf(() => start(table, state, cards, fields)),
    recordFields,
  };
}

/** A record's field as an object ({} when absent or not one). */
export const recordObject = (v: unknown): RecordFields =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as RecordFields) : {};
/** A record's field as numbers, or `fallback` when absent. */
export const recordNumbers = (v: unknown, fallback: () => number[]): number[] =>
  Array.isArray(v) ? v.map(Number) : fallback();
