/**
 * The screen contract: what a game's play screen (its folder's screen.ts) draws for
 * `tafel play`, and the few helpers the screens share. The common layout around it
 * (src/play/screen.ts) draws tricks, hands and the transcript; a game's `GameScreen`
 * gives its own lines, from the observation of the person's seat alone.
 */
import { HIDDEN, type DecisionKind, type Observation, type Params, type DealRecord as GameRecord } from './game.js';

/** A card's suit for colour: clubs, spades, hearts, diamonds, a tarock, or unseen. */
export type Suit = 'C' | 'S' | 'H' | 'D' | 'T' | '?';

/** The French pack's suits as the French games' screens name and colour them (C-1), by suit index of core/french.ts (C S H D). */
export const SUIT_LETTERS: readonly Suit[] = ['C', 'S', 'H', 'D'];
export const SUIT_NAMES: readonly string[] = ['clubs', 'spades', 'hearts', 'diamonds'];

/** A deal record (RECORD.md) as a session writes it: the run's fields and the game's (`Match.record`). */
export type DealRecord = Readonly<Record<string, unknown>> & GameRecord;

/** Colour for a terminal that has it (src/play/screen.ts: `colours`; `plain` leaves text as it is). */
export interface Paint {
  suit(text: string, suit: Suit): string;
  strong(text: string): string;
  dim(text: string): string;
}

/** Who sits where, as the person's screen names them. */
export interface Seats {
  readonly count: number;
  /** The person's seat. */
  readonly person: number;
  /** `you`, or `seat 2 (pimc)` (`seat 2 (partner, pimc)` in a partnership). */
  name(seat: number): string;
  /** `you` or `seat 2`. */
  short(seat: number): string;
}

/** What a game's screen is drawn with. */
export interface ScreenContext {
  readonly seats: Seats;
  readonly paint: Paint;
  /** The table's rule variants, defaults applied. */
  readonly rules: Params;
}

/**
 * A game's part of the screen, from the game's own observation type. Tricks are shown
 * by the common code from the observation's history (`Observation.move`): every trick
 * of a deal has `players` cards, and only cards are played inside a trick.
 */
export interface GameScreen<O extends Observation = Observation, R extends GameRecord = GameRecord> {
  /** The RECORD.md name of a card (`10H`, `T21`); `??` for one the seat has not seen. */
  cardName(obs: O, code: number): string;
  /** Whether an upper-case name is a card of the game's pack (to tell "not held" from "no card"). */
  isCard(name: string): boolean;
  /** The suit a card is coloured by. */
  suit(obs: O, code: number): Suit;
  /** The group a card is shown in (a lane, or a suit within one): hands are sorted by group, then strength. */
  group(code: number): number;
  /** Players in this deal (the cards of a trick); 0 while that is not known yet. */
  players(obs: O): number;
  /** The seat whose card wins the current trick so far, or -1. */
  winning(obs: O): number;
  /** Tricks complete and settled (whoever takes them known). */
  tricksDone(obs: O): number;
  /** The seat that won settled trick `t`, and the seat that took it (they differ after a schleipfe). */
  winner(obs: O, t: number): number;
  taker(obs: O, t: number): number;
  /** What settled trick `t` is worth, as shown: `21 points`; empty where tricks count alone. */
  trickWorth(obs: O, t: number, cards: readonly number[]): string;
  /** Whether the card at `ply` was led face down. */
  faceDown(obs: O, ply: number): boolean;
  /** The score of the match so far from the last deal's `after` (null: nothing played yet) and the deal's public context. */
  scoreLines(obs: O, after: R['after'] | null, ctx: ScreenContext): string[];
  /** The deal: dealer, players, trump or pot. */
  dealLines(obs: O, ctx: ScreenContext): string[];
  /** What each seat or side has taken so far. */
  takenLines(obs: O, ctx: ScreenContext): string[];
  /** The yes/no question the observing seat must answer now. */
  question(obs: O, ctx: ScreenContext): string;
  /** A yes/no answer as the transcript tells it: `claim`, `play on`, `out`. */
  answer(kind: DecisionKind, yes: boolean): string;
  /** One line: why `code`, a card the seat holds, is not legal now (with the rule's id). */
  whyIllegal(obs: O, code: number, ctx: ScreenContext): string;
  /** What a finished deal did, from its record. */
  dealOutcome(record: R, ctx: ScreenContext): string[];
  /** How a finished match ended, from its last deal's record. */
  matchOutcome(record: R, ctx: ScreenContext): string;
}

/** A card as the person sees it, coloured. */
export function cardText(screen: GameScreen, obs: Observation, code: number, paint: Paint): string {
  return paint.suit(screen.cardName(obs, code), code === HIDDEN ? '?' : screen.suit(obs, code));
}

/** `a, b and c`. */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `+5`, `-3`, `0`. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A number of things: `1 trick`, `3 tricks`, `2 matches`. */
export function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : /(ch|s)$/.test(what) ? 'es' : 's'}`;
}
