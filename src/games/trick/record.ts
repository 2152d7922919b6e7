/**
 * The deal record (RECORD.md) of a trick-kernel deal, built once for every game: the
 * dealer, the players in playing order, the hands as dealt, the turn-up and trump, and
 * the tricks come from the kernel's state; the game gives what it scores (`points`,
 * `before`, `after`, `events`) and its own fields, placed where RECORD.md's order puts
 * them (`own`). Key order is part of the record's bytes: JSON keeps insertion order.
 * Allocates: called only when records are written.
 */
import { LANES } from '../../core/cardset.js';
import { lowestBit } from '../../core/bits.js';
import { SUITS, cardName } from '../../core/french.js';
import type { DealRecord, TrickRecord } from '../game.js';
import type { FrenchLayout } from './french.js';
import type { TrickState } from './state.js';

/** How a deal's cards are written. */
export interface RecordCards {
  /** The card of move `code` in pack order: a hand is listed in that order. */
  cardOf(code: number): number;
  /** The RECORD.md name of a card of `cardOf`. */
  nameOf(card: number): string;
}

/** The cards of a French layout under the deal's trump: physical cards, in pack order (6C 7C ... AD). */
export function frenchCards(pack: FrenchLayout, trump: number): RecordCards {
  return { cardOf: (code) => pack.toPhysical(trump, code), nameOf: cardName };
}

/** What the game scores in the deal, and who played when the kernel's playing order does not say. */
export interface RecordScore<Score, Event, Point extends number | null> {
  /** The seats taking part in playing order; by default the kernel's, forehand first. */
  readonly players?: readonly number[];
  readonly kind?: 'normal' | 'playoff';
  /** By seat: what the seat took, or null when it did not take part. */
  readonly points: readonly Point[];
  /** Who kept each trick, by trick; by default its winner. */
  readonly takers?: ArrayLike<number>;
  readonly before: Score | null;
  readonly after: Score;
  readonly events: readonly Event[];
}

/**
 * A game's own fields, by where they go: after `kind`, after `trump`, after `points`,
 * and last. Each is an object whose keys are written in their own order; a field left
 * out (an optional list when empty) is simply not in its object.
 */
export interface OwnFields<Kind, Trump, Points, Last> {
  readonly afterKind?: Kind;
  readonly afterTrump?: Trump;
  readonly afterPoints?: Points;
  readonly last?: Last;
}

/** The deal record of the finished deal in `state`: the common part with the game's `own` fields in place. */
export function dealRecord<
  Score,
  Event,
  Point extends number | null,
  Kind = object,
  Trump = object,
  Points = object,
  Last = object,
>(
  state: TrickState,
  cards: RecordCards,
  score: RecordScore<Score, Event, Point>,
  own: OwnFields<Kind, Trump, Points, Last> = {},
): DealRecord<Score, Event, Point> & Kind & Trump & Points & Last {
  const name = (code: number) => cards.nameOf(cards.cardOf(code));
  // A slot left out spreads nothing, and its type is then `object`: hence the casts.
  return {
    dealer: state.dealer,
    players: score.players ?? playingOrder(state),
    kind: score.kind ?? 'normal',
    ...(own.afterKind as Kind),
    hands: Array.from({ length: state.seats }, (_, seat) => recordCards(state.dealt, seat * LANES, cards)),
    turnup: state.turnup < 0 ? null : name(state.turnup),
    trump: state.trump < 0 ? null : SUITS[state.trump],
    ...(own.afterTrump as Trump),
    tricks: recordTricks(state, name, score.takers ?? state.trickWinner),
    points: score.points,
    ...(own.afterPoints as Points),
    before: score.before,
    after: score.after,
    events: score.events,
    ...(own.last as Last),
  };
}

/** The cards of a set (`LANES` masks at `sets[off]`) by name, in pack order. */
export function recordCards(sets: ArrayLike<number>, off: number, cards: RecordCards): string[] {
  const out: number[] = [];
  for (let l = 0; l < LANES; l++)
    for (let m = sets[off + l]; m !== 0; m &= m - 1) out.push(cards.cardOf((l << 5) | lowestBit(m)));
  return out.sort((a, b) => a - b).map((c) => cards.nameOf(c));
}

/** The seats taking part, forehand first, by the kernel's playing order. */
function playingOrder(state: TrickState): number[] {
  const out: number[] = [];
  for (let seat = state.forehand, k = 0; k < state.players; k++, seat = state.nextSeat(seat)) out.push(seat);
  return out;
}

/** The tricks played (all of them, or up to a claim), each card named by `name`. */
function recordTricks(state: TrickState, name: (code: number) => string, takers: ArrayLike<number>): TrickRecord[] {
  const tricks: TrickRecord[] = [];
  for (let t = 0; t < Math.min(state.trick, state.tricks); t++) {
    const start = state.trickStart[t];
    const cards: string[] = [];
    for (let i = 0; i < state.players; i++) cards.push(name(state.move(start + i)));
    tricks.push({
      leader: state.trickLeader[t],
      cards,
      winner: state.trickWinner[t],
      taker: takers[t],
      points: state.trickValue[t],
    });
  }
  return tricks;
}
