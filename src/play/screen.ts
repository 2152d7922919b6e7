/**
 * What the person at the table sees, drawn from the observation of their seat alone
 * (as a bot sees it): the common layout here, the game's own lines from its
 * `GameScreen` (games/). The match score comes from RECORD.md's `after` of the deal
 * before, so it is the record's public view of the score, never the engine's.
 *
 * Every function returns plain lines; `Paint` adds colour (suits, emphasis) when the
 * terminal has it and is the identity otherwise, so a piped transcript is plain text.
 */
import { styleText } from 'node:util';
import { LANES } from '../core/cardset.js';
import { lowestBit } from '../core/bits.js';
import {
  HIDDEN,
  NO,
  type DecisionKind,
  type Observation,
  type Params,
  type DealRecord as GameRecord,
} from '../games/game.js';

/** A card's suit for colour: clubs, spades, hearts, diamonds, a tarock, or unseen. */
export type Suit = 'C' | 'S' | 'H' | 'D' | 'T' | '?';

/** A deal record (RECORD.md) as a session writes it: the run's fields and the game's (`Match.record`). */
export type DealRecord = Readonly<Record<string, unknown>> & GameRecord;

/** Colour for a terminal that has it; `plain` leaves text as it is. */
export interface Paint {
  suit(text: string, suit: Suit): string;
  strong(text: string): string;
  dim(text: string): string;
}

type Style = Parameters<typeof styleText>[0];

/** A four-colour pack: clubs green, spades plain, hearts red, diamonds blue; tarocks yellow. */
const SUIT_STYLE: Record<Suit, Style | null> = { C: 'green', S: null, H: 'red', D: 'blue', T: 'yellow', '?': null };

export const plain: Paint = { suit: (t) => t, strong: (t) => t, dim: (t) => t };

export const colours: Paint = {
  suit: (t, s) => {
    const style = SUIT_STYLE[s];
    return style ? styleText(style, t) : styleText('bold', t);
  },
  strong: (t) => styleText('bold', t),
  dim: (t) => styleText('dim', t),
};

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

export function seatsOf(person: number, labels: readonly string[], teams: readonly number[] | null): Seats {
  return {
    count: labels.length,
    person,
    name: (s) =>
      s === person ? 'you' : `seat ${s} (${teams && teams[s] === teams[person] ? 'partner, ' : ''}${labels[s]})`,
    short: (s) => (s === person ? 'you' : `seat ${s}`),
  };
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

/** The codes of a card set (lane masks) in display order: by group, strongest first. */
export function displayOrder(screen: GameScreen, lanes: ArrayLike<number>): number[] {
  const codes: number[] = [];
  for (let l = 0; l < LANES; l++) for (let m = lanes[l]; m !== 0; m &= m - 1) codes.push((l << 5) | lowestBit(m));
  return codes.sort((a, b) => screen.group(a) - screen.group(b) || b - a);
}

/** A hand in display order, its groups apart: `JH JD AH | KC | 10D 6D`. */
export function handText(screen: GameScreen, obs: Observation, lanes: ArrayLike<number>, paint: Paint): string {
  const codes = displayOrder(screen, lanes);
  if (codes.length === 0) return paint.dim('(no cards)');
  const parts: string[] = [];
  codes.forEach((c, i) => {
    if (i > 0 && screen.group(c) !== screen.group(codes[i - 1])) parts.push(paint.dim('|'));
    parts.push(cardText(screen, obs, c, paint));
  });
  return parts.join(' ');
}

/** The observer's own hand as lane masks. */
export function ownHand(obs: Observation): number[] {
  return Array.from({ length: LANES }, (_, l) => obs.handLane(l));
}

/** A card of the history. */
export interface Played {
  readonly ply: number;
  readonly seat: number;
  readonly code: number;
}

/** Every card played so far in the deal, in order (yes/no answers left out). */
export function cardsPlayed(obs: Observation): Played[] {
  const out: Played[] = [];
  for (let ply = 0; ply < obs.plies; ply++) {
    const code = obs.move(ply);
    if (code < NO) out.push({ ply, seat: obs.moveSeat(ply), code });
  }
  return out;
}

/** The cards of trick `t` (complete or not), from the history. */
export function trickCards(screen: GameScreen, obs: Observation, t: number): Played[] {
  const p = screen.players(obs);
  return p === 0 ? [] : cardsPlayed(obs).slice(t * p, (t + 1) * p);
}

/** `seat 1 AS · seat 2 6S · you KS`, the face-down card in brackets, `*` on the winner. */
export function trickText(
  screen: GameScreen,
  obs: Observation,
  cards: readonly Played[],
  winner: number,
  ctx: ScreenContext,
): string {
  return cards
    .map((c) => {
      let card = cardText(screen, obs, c.code, ctx.paint);
      if (screen.faceDown(obs, c.ply)) card = c.code === HIDDEN ? '(face down)' : `(${card})`;
      return `${ctx.seats.short(c.seat)} ${card}${c.seat === winner ? '*' : ''}`;
    })
    .join(' · ');
}

/** `trick 4: seat 1 AS* · seat 2 6S · ... -> seat 1, 21 points`: a settled trick. */
export function settledTrick(screen: GameScreen, obs: Observation, t: number, ctx: ScreenContext): string {
  const cards = trickCards(screen, obs, t);
  const winner = screen.winner(obs, t);
  const taker = screen.taker(obs, t);
  const worth = screen.trickWorth(
    obs,
    t,
    cards.map((c) => c.code),
  );
  const to =
    taker === winner ? ctx.seats.short(taker) : `${ctx.seats.short(winner)} wins, ${ctx.seats.short(taker)} takes`;
  return `trick ${t + 1}: ${trickText(screen, obs, cards, winner, ctx)} -> ${to}${worth ? `, ${worth}` : ''}`;
}

/** Width of the label column. */
const LABEL = 10;

/** A label and its lines, the label in a fixed column: `hand      JH JD | KC`. */
export function labelled(label: string, lines: readonly string[], paint: Paint): string[] {
  return lines.map((line, i) => `${paint.dim((i === 0 ? label : '').padEnd(LABEL))}${line}`);
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
