/**
 * The Viersche screen (RULES.md V): two teams, the trump with the Alt and the Kloei,
 * the face-down first lead, targets and claims, and the ladder (rungs), the score
 * written down after an undecided first deal, and the frame marks of sets.
 */
import { parseCard, suitOf } from '../../core/french.js';
import { Decision, type DecisionKind } from '../game.js';
import { POINTS, TRUMP_LANE } from './cards.js';
import type { VierscheView } from './view.js';
import type { VierscheRecord, VierscheScore } from './record.js';
import {
  cardText,
  count,
  SUIT_LETTERS,
  SUIT_NAMES,
  type GameScreen,
  type ScreenContext,
  type Suit,
} from '../screen.js';

const FRESH: VierscheScore = { rungs: [4, 4], carry: null, frame: [0, 0] };

/** Team 0 is seats 0 and 2, team 1 seats 1 and 3 (RECORD.md). */
const teamOf = (seat: number) => seat & 1;

function teamName(team: number, ctx: ScreenContext): string {
  return team === teamOf(ctx.seats.person) ? 'your team' : 'the other team';
}

function members(team: number, ctx: ScreenContext): string {
  const person = ctx.seats.person;
  return teamOf(person) === team ? `you + seat ${person ^ 2}` : `seats ${team} + ${team + 2}`;
}

/** The suit of a lane's cards: the trump's for lane 0. */
function laneSuit(obs: VierscheView, lane: number): string {
  return SUIT_NAMES[suitOf(obs.physical(lane << 5))];
}

export const vierscheScreen: GameScreen<VierscheView, VierscheRecord> = {
  cardName: (obs, code) => obs.codeName(code),
  isCard: (name) => parseCard(name) >= 0,
  suit: (obs, code): Suit => SUIT_LETTERS[suitOf(obs.physical(code))],
  group: (code) => code >>> 5,
  players: () => 4,
  winning: (obs) => obs.winningSeat,
  tricksDone: (obs) => obs.trick,
  winner: (obs, t) => obs.trickWinner(t),
  taker: (obs, t) => obs.trickWinner(t),
  trickWorth: (_obs, _t, cards) =>
    count(
      cards.reduce((p, c) => p + POINTS[c], 0),
      'point',
    ),
  faceDown: (obs, ply) => ply === 0 && obs.facedown,

  scoreLines(_obs, after, ctx) {
    const score = after ?? FRESH;
    const me = teamOf(ctx.seats.person);
    const lines = [
      `rungs to erase: your team ${score.rungs[me]}, the other ${score.rungs[1 - me]}`,
      `frame marks: your team ${score.frame[me]}, the other ${score.frame[1 - me]} (4 lose the match)`,
    ];
    if (score.carry)
      lines.push(`written down after the first deal: ${score.carry.points} for ${teamName(score.carry.team, ctx)}`);
    return lines;
  },

  dealLines(obs, ctx) {
    const me = teamOf(ctx.seats.person);
    const turnup = cardText(vierscheScreen, obs, obs.turnup, ctx.paint);
    return [
      `dealer ${ctx.seats.name(obs.dealer)} · forehand ${ctx.seats.short(obs.forehand)}`,
      `trump ${SUIT_NAMES[obs.trump]} · turn-up ${turnup} (${obs.turnupHeld ? "in the dealer's hand" : 'played'})`,
      `${obs.secondDeal ? 'second deal, to decide the game: ' : ''}` +
        `your team needs ${obs.target(me)} points, the other ${obs.target(1 - me)}`,
    ];
  },

  takenLines(obs, ctx) {
    const me = teamOf(ctx.seats.person);
    const side = (t: number) =>
      `${teamName(t, ctx)} (${members(t, ctx)}): ${count(obs.teamPoints(t), 'point')}, ${count(obs.teamTricks(t), 'trick')}`;
    return [side(me), side(1 - me)];
  },

  question(obs, ctx) {
    const me = teamOf(ctx.seats.person);
    return (
      `your team has ${obs.teamPoints(me)} points and needs ${obs.target(me)}: ` +
      'claim the game now (y), or play on for all nine tricks and two rungs (n)?'
    );
  },

  answer: (kind: DecisionKind, yes) => (kind === Decision.Claim ? (yes ? 'claim' : 'play on') : yes ? 'yes' : 'no'),

  whyIllegal(obs) {
    if (obs.trickCards === 0)
      return obs.trick === 0 && obs.handLane(TRUMP_LANE) !== 0
        ? 'holding a trump, forehand must lead one to the first trick (V-4)'
        : 'the rules do not allow it here';
    const led = obs.ledLane;
    if (led === TRUMP_LANE)
      return obs.trick === 0 && obs.facedown
        ? 'a card led face down counts as a trump lead, and holding a trump you must play one (V-4, V-5)'
        : 'trumps were led, and holding a trump you must play one (V-5)';
    return `${laneSuit(obs, led)} were led, and holding ${laneSuit(obs, led)} you must follow suit or play a trump (V-5)`;
  },

  dealOutcome(record, ctx) {
    const lines: string[] = [];
    const points = record.points;
    const me = teamOf(ctx.seats.person);
    const sum = (t: number) => points.reduce((p, x, s) => (teamOf(s) === t ? p + x : p), 0);
    lines.push(`card points: your team ${sum(me)}, the other ${sum(1 - me)}`);
    for (const c of record.claims ?? [])
      lines.push(`${ctx.seats.short(c.seat)} claimed the game after trick ${c.trick + 1}`);
    for (const e of record.events) {
      if (e.type === 'game') lines.push(`${teamName(e.team, ctx)} won the game: ${count(e.rungs, 'rung')} erased`);
      else if (e.type === 'carry')
        lines.push(`no game yet: ${e.points} written down for ${teamName(e.team, ctx)}, a second deal decides`);
      else if (e.type === 'set') lines.push(`${teamName(e.loser, ctx)} lost the set: ${count(e.marks, 'frame mark')}`);
      else lines.push(`${teamName(e.loser, ctx)} lost the match`);
    }
    return lines;
  },

  matchOutcome(record, ctx) {
    const events = record.events;
    const score = record.after;
    const me = teamOf(ctx.seats.person);
    const lost = events.find((e) => e.type === 'match');
    if (lost)
      return (
        `${lost.loser === me ? 'your team lost' : 'your team won'} the match, ` +
        `frame marks ${score.frame[me]} to ${score.frame[1 - me]}`
      );
    const game = events.find((e) => e.type === 'game');
    if (game) return `${game.team === me ? 'your team won' : 'your team lost'} the game (${count(game.rungs, 'rung')})`;
    const carry = events.find((e) => e.type === 'carry');
    return carry ? `no game: ${carry.points} written down for ${teamName(carry.team, ctx)}` : 'no result';
  },
};
