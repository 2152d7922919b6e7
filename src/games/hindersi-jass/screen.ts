/**
 * The Hindersi-Jass screen (RULES.md J): each for himself, fewest points wins; the
 * Jass trumps (Puur, Nell), the undertrump rule, the Partie's totals and the Striche
 * of the match.
 */
import { parseCard, suitOf } from '../../core/french.js';
import type { DecisionKind } from '../game.js';
import { PUUR, TRUMP_LANE } from './cards.js';
import type { JassView } from './view.js';
import type { JassRecord } from './record.js';
import {
  cardText,
  count,
  listText,
  signed,
  SUIT_LETTERS,
  SUIT_NAMES,
  type GameScreen,
  type ScreenContext,
  type Suit,
} from '../screen.js';

function laneSuit(obs: JassView, lane: number): string {
  return SUIT_NAMES[suitOf(obs.physical(lane << 5))];
}

function perSeat(ctx: ScreenContext, value: (seat: number) => string): string {
  return Array.from({ length: ctx.seats.count }, (_, s) => `${ctx.seats.short(s)} ${value(s)}`).join(' · ');
}

export const jassScreen: GameScreen<JassView, JassRecord> = {
  cardName: (obs, code) => obs.codeName(code),
  isCard: (name) => parseCard(name) >= 0,
  suit: (obs, code): Suit => SUIT_LETTERS[suitOf(obs.physical(code))],
  group: (code) => code >>> 5,
  players: (obs) => obs.seats,
  winning: (obs) => obs.winningSeat,
  tricksDone: (obs) => obs.trick,
  winner: (obs, t) => obs.trickWinner(t),
  taker: (obs, t) => obs.trickWinner(t),
  trickWorth: (obs, t) => count(obs.trickValue(t), 'point') + (t === obs.tricks - 1 ? ' with the last trick' : ''),
  faceDown: () => false,

  scoreLines(obs, after, ctx) {
    const score = after;
    const partie = score?.partie ?? 0;
    return [
      `Partie ${partie + 1} of ${String(ctx.rules.partien)}, deal ${obs.partieDeal + 1} of ${obs.partieDeals} · ` +
        `charged so far: ${perSeat(ctx, (s) => String(obs.partieTotal(s)))}`,
      `Striche: ${perSeat(ctx, (s) => signed(score?.striche[s] ?? 0))}`,
    ];
  },

  dealLines(obs, ctx) {
    const turnup = cardText(jassScreen, obs, obs.turnup, ctx.paint);
    return [
      `dealer ${ctx.seats.name(obs.dealer)} · forehand ${ctx.seats.short(obs.forehand)}`,
      `trump ${SUIT_NAMES[obs.trump]} (Puur ${obs.codeName(PUUR)}, Nell) · turn-up ${turnup} (${obs.turnupHeld ? "in the dealer's hand" : 'played'})`,
    ];
  },

  takenLines(obs, ctx) {
    return [perSeat(ctx, (s) => `${count(obs.seatPoints(s), 'point')} (${count(obs.seatTricks(s), 'trick')})`)];
  },

  question: () => 'yes or no?',
  answer: (_kind: DecisionKind, yes) => (yes ? 'yes' : 'no'),

  whyIllegal(obs, code) {
    const led = obs.ledLane;
    if (led < 0) return 'the rules do not allow it here';
    if (led === TRUMP_LANE)
      return `trumps were led, and holding a trump other than the Puur (${obs.codeName(PUUR)}) you must play one (J-4)`;
    if (code >>> 5 === TRUMP_LANE)
      return `holding ${laneSuit(obs, led)}, you may trump only above every trump in the trick (J-4)`;
    return `${laneSuit(obs, led)} were led, and holding ${laneSuit(obs, led)} you must follow suit or play a trump (J-4)`;
  },

  dealOutcome(record, ctx) {
    const charged = record.charged;
    const lines = [`points charged: ${perSeat(ctx, (s) => String(charged[s]))}`];
    for (const e of record.events) {
      if (e.type === 'all-tricks')
        lines.push(`${ctx.seats.short(e.seat)} took every trick: 0 for them, 157 for everyone else (J-5)`);
      else if (e.type === 'partie')
        lines.push(`the Partie is over: Striche ${perSeat(ctx, (s) => signed(e.striche[s]))}`);
      else lines.push(`the match is won by ${listText(e.winner.map((s) => ctx.seats.short(s)))}`);
    }
    return lines;
  },

  matchOutcome(record, ctx) {
    const won = record.events.find((e) => e.type === 'match');
    const score = record.after;
    if (won)
      return (
        `won by ${listText(won.winner.map((s) => ctx.seats.short(s)))}, ` +
        `Striche ${perSeat(ctx, (s) => signed(score.striche[s]))}`
      );
    const charged = record.charged;
    const fewest = Math.min(...charged);
    const best = charged.map((p, s) => (p === fewest ? s : -1)).filter((s) => s >= 0);
    return `points charged ${perSeat(ctx, (s) => String(charged[s]))}; fewest: ${listText(best.map((s) => ctx.seats.short(s)))}`;
  },
};
