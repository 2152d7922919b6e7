/**
 * The Hindersche screen (RULES.md H): each for himself, few points wanted; the slate
 * of the game (phase 1 Vier-Strich, phase 2 Butzen), playoffs, who sits out, the
 * turn-up in the dealer's hand or out of play, schleipfen offers and objections, and
 * the frame marks of the rubber.
 */
import { parseCard, suitOf } from '../../core/french.js';
import { Decision, type DecisionKind } from '../game.js';
import { TRUMP_LANE } from './cards.js';
import type { HinderscheView } from './view.js';
import type { HinderscheEvent, HinderscheRecord, HinderscheScore } from './record.js';
import { Kind, TieFor } from './score.js';
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

const SEATS = 4;
const FRESH: HinderscheScore = { game: 0, phase: 1, slate: [0, 0, 0, 0], in: [0, 1, 2, 3], frame: [0, 0, 0, 0] };
const PHASES = ['', 'phase 1 (Vier-Strich)', 'phase 2 (Butzen)'];
const WHY: Readonly<Record<string, string>> = {
  most: 'the most points',
  fewest: 'the fewest points',
  march: 'a march',
  'march-opponent': "another's march",
  excess: 'excess marks',
  playoff: 'the playoff',
  'all-35': 'all took 35',
};

function laneSuit(obs: HinderscheView, lane: number): string {
  return SUIT_NAMES[suitOf(obs.physical(lane << 5))];
}

/** `you 0 · seat 1 2 · ...` over every seat. */
function perSeat(ctx: ScreenContext, value: (seat: number) => string): string {
  return Array.from({ length: SEATS }, (_, s) => `${ctx.seats.short(s)} ${value(s)}`).join(' · ');
}

/** Mark events, those of the same change and cause together: `seat 0, seat 1 and you get 1 mark for another's march`. */
function marksText(events: readonly HinderscheEvent[], ctx: ScreenContext): string[] {
  const groups = new Map<string, { n: number; why: string; seats: number[] }>();
  for (const e of events) {
    if (e.type !== 'mark') continue;
    const key = `${e.n} ${e.why}`;
    const group = groups.get(key) ?? { n: e.n, why: e.why, seats: [] };
    group.seats.push(e.seat);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ n, why, seats }) => {
    const who = listText(seats.sort((a, b) => a - b).map((s) => ctx.seats.short(s)));
    const one = seats.length === 1 && seats[0] !== ctx.seats.person;
    const verb = n > 0 ? (one ? 'gets' : 'get') : one ? 'erases' : 'erase';
    return `${who} ${verb} ${count(Math.abs(n), 'mark')} for ${WHY[why] ?? why}`;
  });
}

export const hinderscheScreen: GameScreen<HinderscheView, HinderscheRecord> = {
  cardName: (obs, code) => obs.codeName(code),
  isCard: (name) => parseCard(name) >= 0,
  suit: (obs, code): Suit => SUIT_LETTERS[suitOf(obs.physical(code))],
  group: (code) => code >>> 5,
  players: (obs) => obs.players,
  winning: (obs) => obs.winningSeat,
  tricksDone: (obs) => obs.trick,
  winner: (obs, t) => obs.trickWinner(t),
  taker: (obs, t) => obs.trickTaker(t),
  trickWorth: (obs, t) => count(obs.trickValue(t), 'point'),
  faceDown: () => false,

  scoreLines(obs, after, ctx) {
    const score = after ?? FRESH;
    const inGame = new Set(score.in);
    return [
      `game ${score.game + 1} of ${String(ctx.rules.games)}, ${PHASES[obs.phase]}`,
      `slate: ${perSeat(ctx, (s) => (inGame.has(s) ? String(obs.slate(s)) : 'out'))}`,
      `frame marks: ${perSeat(ctx, (s) => String(score.frame[s]))} (${String(ctx.rules.tariff)} each to every other player)`,
    ];
  },

  dealLines(obs, ctx) {
    const lines = [`dealer ${ctx.seats.name(obs.dealer)} · forehand ${ctx.seats.short(obs.forehand)}`];
    if (obs.kind === Kind.Playoff) {
      const tied = Array.from({ length: obs.players }, (_, k) => ctx.seats.short(obs.player(k)));
      lines.push(
        `playoff between ${listText(tied)}: ` +
          (obs.playoffFor === TieFor.Most ? 'the most points gets the mark (H-8)' : 'the fewest points erases (H-8)'),
      );
    } else if (obs.players < SEATS) {
      const out = Array.from({ length: SEATS }, (_, s) => s).filter((s) => !obs.plays(s));
      lines.push(`sitting out: ${listText(out.map((s) => ctx.seats.short(s)))}`);
    }
    const turnup = cardText(hinderscheScreen, obs, obs.turnup, ctx.paint);
    const where =
      obs.turnupHolder < 0
        ? `out of play with ${count(obs.stackSize - 1, 'more card')} face down`
        : obs.turnupHeld
          ? "in the dealer's hand"
          : 'played';
    lines.push(`trump ${SUIT_NAMES[obs.trump]} · turn-up ${turnup} (${where})`);
    lines.push(
      `a march: 100 points or more${obs.phase === 2 ? ', or all nine tricks' : ''}` +
        (obs.schleipfen ? ' · schleipfen on (H-2)' : ''),
    );
    return lines;
  },

  takenLines(obs, ctx) {
    const seats = Array.from({ length: obs.players }, (_, k) => obs.player(k)).sort((a, b) => a - b);
    return [
      seats
        .map((s) => `${ctx.seats.short(s)} ${count(obs.seatPoints(s), 'point')} (${count(obs.tricksKept(s), 'trick')})`)
        .join(' · '),
    ];
  },

  question(obs, ctx) {
    const winner = obs.trickWinner(obs.trick);
    const points = count(obs.trickPointsSeen, 'point');
    if (obs.decision === Decision.Object)
      return `${ctx.seats.short(obs.offerer)} offers to take ${ctx.seats.short(winner)}'s trick (${points}): object (y) or let it go (n)?`;
    return `${ctx.seats.short(winner)} won this trick (${points}): offer to take it, schleipfen (y), or pass (n)?`;
  },

  answer(kind: DecisionKind, yes) {
    if (kind === Decision.Schleipfe) return yes ? 'schleipfe (I take this trick)' : 'pass';
    if (kind === Decision.Object) return yes ? 'object' : 'no objection';
    return yes ? 'yes' : 'no';
  },

  whyIllegal(obs) {
    const led = obs.ledLane;
    if (led < 0) return 'the rules do not allow it here';
    if (led === TRUMP_LANE) return 'trumps were led, and holding a trump you must play one (H-1, V-5)';
    return `${laneSuit(obs, led)} were led, and holding ${laneSuit(obs, led)} you must follow suit or play a trump (H-1, V-5)`;
  },

  dealOutcome(record, ctx) {
    const points = record.points;
    const lines = [
      `card points: ${points
        .map((p, s) => (p === null ? null : `${ctx.seats.short(s)} ${p}`))
        .filter((x) => x !== null)
        .join(' · ')}`,
    ];
    for (const tie of record.ties ?? [])
      lines.push(
        `tie for the ${tie.for} points between ${listText(tie.tied.map((s) => ctx.seats.short(s)))} ` +
          '(in a rubber a playoff settles it; a single deal leaves it open)',
      );
    const events = record.events;
    lines.push(...marksText(events, ctx));
    for (const e of events) {
      if (e.type === 'mark') continue;
      else if (e.type === 'out') lines.push(`${ctx.seats.short(e.seat)} is out of this game`);
      else if (e.type === 'game')
        lines.push(`${ctx.seats.short(e.loser)} lost the game: ${count(e.frame, 'frame mark')}`);
      else lines.push(`rubber settled: ${perSeat(ctx, (s) => signed(e.balance[s]))}`);
    }
    return lines;
  },

  matchOutcome(record, ctx) {
    const events = record.events;
    const rubber = events.find((e) => e.type === 'rubber');
    if (rubber)
      return `rubber settled at ${String(ctx.rules.tariff)} a frame mark: ${perSeat(ctx, (s) => signed(rubber.balance[s]))}`;
    const marks = marksText(events, ctx);
    const ties = record.ties?.length ?? 0;
    return (marks.length ? marks.join('; ') : 'no marks') + (ties ? ` (${count(ties, 'tie')} open)` : '');
  },
};
