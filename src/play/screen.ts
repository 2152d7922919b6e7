/**
 * What the person at the table sees, drawn from the observation of their seat alone
 * (as a bot sees it): the common layout here, the game's own lines from its
 * `GameScreen` (the contract in games/screen.ts, each game's in its folder). The match score comes from RECORD.md's `after` of the deal
 * before, so it is the record's public view of the score, never the engine's.
 *
 * Every function returns plain lines; `Paint` adds colour (suits, emphasis) when the
 * terminal has it and is the identity otherwise, so a piped transcript is plain text.
 */
import type { styleText as StyleText } from 'node:util';
import { LANES } from '../core/cardset.js';
import { lowestBit } from '../core/bits.js';
import { HIDDEN, NO, type Observation } from '../games/game.js';
import { cardText, type GameScreen, type Paint, type ScreenContext, type Seats, type Suit } from '../games/screen.js';

type Style = Parameters<typeof StyleText>[0];

// From Node's loaded util, not an import of node:util, whose namespace would load the
// lazy parts of util (parseArgs, MIME types) for `tafel play` (bench/README.md, "Start-up").
const { styleText } = process.getBuiltinModule('node:util');

/** A four-colour pack: clubs green, spades plain, hearts red, diamonds blue; tarocks yellow. */
const SUIT_STYLE: Record<Suit, Style | null> = { C: 'green', S: null, H: 'red', D: 'blue', T: 'yellow', '?': null };

/** No colour: a piped transcript. */
export const plain: Paint = { suit: (t) => t, strong: (t) => t, dim: (t) => t };

/** Colour for a terminal that has it. */
export const colours: Paint = {
  suit: (t, s) => {
    const style = SUIT_STYLE[s];
    return style ? styleText(style, t) : styleText('bold', t);
  },
  strong: (t) => styleText('bold', t),
  dim: (t) => styleText('dim', t),
};

/** Who sits where, as the person's screen names them. */
export function seatsOf(person: number, labels: readonly string[], teams: readonly number[] | null): Seats {
  return {
    count: labels.length,
    person,
    name: (s) =>
      s === person ? 'you' : `seat ${s} (${teams && teams[s] === teams[person] ? 'partner, ' : ''}${labels[s]})`,
    short: (s) => (s === person ? 'you' : `seat ${s}`),
  };
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
