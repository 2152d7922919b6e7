/**
 * The Vier-Anderle screen (RULES.md A): the Cego pack (tarocks T1..T22 and four suits),
 * the pot and what a trick wins or a hand without one costs, declaring in or out, the
 * duty to head, and the balances of the session.
 */
import type { DecisionKind } from '../game.js';
import { SUIT_MASK, TAROCK_LANE, codeName, parseCard } from './cards.js';
import type { AnderleView } from './view.js';
import type { AnderleRecord } from './record.js';
import {
  listText,
  signed,
  SUIT_LETTERS,
  SUIT_NAMES,
  type GameScreen,
  type ScreenContext,
  type Suit,
} from '../screen.js';

/** The suit (0..3) of a suit card: lane 1 holds a byte per suit. */
const suitOfCode = (code: number) => (code & 31) >>> 3;
const isTarock = (code: number) => code >>> 5 === TAROCK_LANE;

function perSeat(ctx: ScreenContext, value: (seat: number) => string): string {
  return Array.from({ length: ctx.seats.count }, (_, s) => `${ctx.seats.short(s)} ${value(s)}`).join(' · ');
}

function seatsWhere(obs: AnderleView, ctx: ScreenContext, declared: number): string {
  const seats = Array.from({ length: ctx.seats.count }, (_, s) => s).filter((s) => obs.declared(s) === declared);
  return listText(seats.map((s) => ctx.seats.short(s)));
}

export const anderleScreen: GameScreen<AnderleView, AnderleRecord> = {
  cardName: (_obs, code) => codeName(code),
  isCard: (name) => parseCard(name) >= 0,
  suit: (_obs, code): Suit => (isTarock(code) ? 'T' : SUIT_LETTERS[suitOfCode(code)]),
  group: (code) => (isTarock(code) ? 0 : 1 + suitOfCode(code)),
  players: (obs) => obs.players,
  winning: (obs) => obs.winningSeat,
  tricksDone: (obs) => obs.trick,
  winner: (obs, t) => obs.trickWinner(t),
  taker: (obs, t) => obs.trickWinner(t),
  trickWorth: (obs) => (obs.type === 2 ? `wins ${obs.pot / 4}` : ''),
  faceDown: () => false,

  scoreLines(obs, after, ctx) {
    const ledger = after;
    return [
      `pot ${obs.potBefore} before this hand · balances: ${perSeat(ctx, (s) => signed(ledger?.balances[s] ?? 0))}`,
    ];
  },

  dealLines(obs, ctx) {
    const lines = [`dealer ${ctx.seats.name(obs.dealer)} · forehand ${ctx.seats.short(obs.forehand)}`];
    if (obs.type === 1) {
      lines.push(
        `the pot was empty: the dealer antes 4, all play, and each player without a trick pays ${obs.pot} (A-5)`,
      );
    } else {
      lines.push(
        `pot ${obs.pot} with the dealer's ante: each trick wins ${obs.pot / 4}, ` +
          `a player in without a trick pays ${obs.pot} (A-6)`,
      );
      const declared = [
        ['in', seatsWhere(obs, ctx, 1)],
        ['out', seatsWhere(obs, ctx, 0)],
      ].filter(([, seats]) => seats !== '');
      if (declared.length) lines.push(declared.map(([what, seats]) => `${what}: ${seats}`).join(' · '));
    }
    return lines;
  },

  takenLines(obs, ctx) {
    const playing = Array.from({ length: ctx.seats.count }, (_, s) => s).filter((s) => obs.declared(s) === 1);
    return playing.length && obs.players > 0
      ? [`tricks: ${playing.map((s) => `${ctx.seats.short(s)} ${obs.seatTricks(s)}`).join(' · ')}`]
      : [];
  },

  question: (obs) =>
    `declare in (y): each trick wins ${obs.pot / 4}, no trick costs ${obs.pot}; or out (n): neither win nor pay?`,

  answer: (_kind: DecisionKind, yes) => (yes ? 'in' : 'out'),

  whyIllegal(obs, code) {
    const led = obs.ledSuit;
    if (led === -2) return 'the rules do not allow it here';
    const tarocks = obs.handLane(TAROCK_LANE) !== 0;
    if (led === -1) {
      if (tarocks && !isTarock(code)) return 'tarocks were led, and holding a tarock you must play one (A-3)';
    } else if ((obs.handLane(1) & SUIT_MASK[led]) !== 0) {
      if (isTarock(code) || suitOfCode(code) !== led)
        return `${SUIT_NAMES[led]} were led, and you must follow suit (A-3)`;
    } else if (tarocks && !isTarock(code)) return `void in ${SUIT_NAMES[led]}, you must play a tarock (A-3)`;
    return 'holding a card that heads the trick (beats every card in it), you must play one (A-3)';
  },

  dealOutcome(record, ctx) {
    const { before, after, events } = record;
    const lines: string[] = [];
    if (events.some((e) => e.type === 'void'))
      lines.push('nobody declared in: the hand is void and the pot stays (A-7)');
    const sole = events.find((e) => e.type === 'sole');
    if (sole) lines.push(`${ctx.seats.short(sole.seat)} alone declared in and takes the pot, ${sole.n} (A-7)`);
    lines.push(`stakes this hand: ${perSeat(ctx, (s) => signed(after.balances[s] - (before?.balances[s] ?? 0)))}`);
    lines.push(`pot now ${after.pot}`);
    return lines;
  },

  matchOutcome(record, ctx) {
    const after = record.after;
    return `balances ${perSeat(ctx, (s) => signed(after.balances[s]))}, ${after.pot} left in the pot`;
  },
};
