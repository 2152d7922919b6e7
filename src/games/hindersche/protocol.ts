/** Hindersche's observation in the bot protocol (PROTOCOL.md): who plays, the slate, trump, points kept. */
import { LANES } from '../../core/cardset.js';
import { parseCard, suitOf, SUITS } from '../../core/french.js';
import { boardProblem, type BoardShape } from '../board.js';
import { bad, FieldProblem, type Fields, flags, whole, wholes } from '../fields.js';
import type { BoardDeal } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { bySeat, recordNumbers, recordObject, trickProtocol } from '../trick/protocol.js';
import { PACK } from './cards.js';
import { Kind, SLATE_TARGET, TieFor } from './score.js';
import { SEATS, type HinderscheState } from './state.js';
import type { HinderscheView } from './view.js';

const HAND_SIZE = 9;
/** A bound on a seat's marks, for checking requests (the slate holds a few: H-4, H-6). */
const MAX_MARKS = 99;

/** A deal of all four (phase 1, a board): 9 cards each, the turn-up in the dealer's hand. */
export const HINDERSCHE_BOARD: BoardShape = {
  game: 'hindersche',
  seats: SEATS,
  handSize: HAND_SIZE,
  parse: parseCard,
  turnup: true,
};

/** With fewer players (H-7): 9 cards to each, none to the others, the turn-up out of play (C-4). */
function fewerProblem(cards: BoardDeal, plays: readonly boolean[]): string | null {
  if (cards.hands.length !== SEATS) return `${cards.hands.length} hands for a table of ${SEATS} seats`;
  const seen = new Set<number>();
  for (let s = 0; s < SEATS; s++) {
    const hand = cards.hands[s];
    const want = plays[s] ? HAND_SIZE : 0;
    if (hand.length !== want) return `seat ${s} holds ${hand.length} cards, not ${want}`;
    for (const name of hand) {
      const card = parseCard(name);
      if (card < 0) return `${name} is not a card of the hindersche pack`;
      if (seen.has(card)) return `duplicate card ${name}`;
      seen.add(card);
    }
  }
  const turnup = cards.turnup === null ? -1 : parseCard(cards.turnup);
  if (turnup < 0) return `turnup ${String(cards.turnup)} is not a card of the hindersche pack`;
  if (seen.has(turnup))
    return `turnup ${cards.turnup} is in a hand: with fewer than four players it is out of play (C-4)`;
  return null;
}

/** The deal's part of the slate: who plays, the phase, a playoff, the marks; checked against H-4 to H-8. */
function slateContext(fields: Fields, dealer: number, schleipfen: boolean) {
  const plays = flags(fields, 'plays', SEATS);
  let mask = 0;
  for (let s = 0; s < SEATS; s++) if (plays[s]) mask |= 1 << s;
  const players = plays.filter((p) => p).length;
  if (players < 2) throw bad(fields, 'plays', 'a deal has two players at least');
  if (!plays[dealer]) throw bad(fields, 'plays', `the dealer (seat ${dealer}) plays (H-7)`);
  const phase = whole(fields, 'phase', 1, 2);
  const kind = whole(fields, 'kind', Kind.Normal, Kind.Playoff);
  const playoff = kind === Kind.Playoff;
  const playoffFor = playoff ? whole(fields, 'playoffFor', TieFor.Most, TieFor.Fewest) : TieFor.None;
  // Four equal scores tie nobody: in phase 1 each takes a mark, in phase 2 nothing changes (H-4, H-6).
  if (playoff && players === SEATS) throw bad(fields, 'plays', 'a playoff is never among all four (H-4, H-6)');
  const playoffPlaces = playoff ? whole(fields, 'playoffPlaces', 1, players - 1) : 0;
  const slate = wholes(fields, 'slate', SEATS, 0, MAX_MARKS);
  if (phase === 1 && !playoff) {
    if (players !== SEATS) throw bad(fields, 'plays', 'all four play a deal of phase 1 (H-4)');
    if (slate.reduce((a, b) => a + b, 0) >= SLATE_TARGET)
      throw bad(fields, 'slate', `phase 1 ends once the slate holds ${SLATE_TARGET} marks (H-4)`);
  }
  if (phase === 2 && plays.some((p, s) => p && slate[s] === 0))
    throw bad(fields, 'plays', 'only players with marks play in phase 2 (H-6)');
  if (phase === 2 && !playoff && plays.some((p, s) => !p && slate[s] > 0))
    throw bad(fields, 'plays', 'every player with marks plays a deal of phase 2 (H-6)');
  return { dealer, mask, phase, kind, slate, playoffFor, playoffPlaces, schleipfen };
}

export const HINDERSCHE_PROTOCOL = trickProtocol(
  (v: HinderscheView) => ({
    plays: bySeat(v, (s) => v.plays(s)),
    players: v.players,
    phase: v.phase,
    kind: v.kind,
    playoffFor: v.playoffFor,
    playoffPlaces: v.playoffPlaces,
    slate: bySeat(v, (s) => v.slate(s)),
    schleipfen: v.schleipfen,
    trump: SUITS[v.trump],
    turnup: v.codeName(v.turnup),
    turnupHolder: v.turnupHolder,
    turnupHeld: v.turnupHeld,
    stackSize: v.stackSize,
    offerer: v.offerer,
    seatPoints: bySeat(v, (s) => v.seatPoints(s)),
    tricksKept: bySeat(v, (s) => v.tricksKept(s)),
    trickTakers: Array.from({ length: v.trick }, (_, t) => v.trickTaker(t)),
    trickPointsSeen: v.trickPointsSeen,
  }),
  // The match's part: the slate and who plays (a later phase, a playoff); the cards
  // out of play are the pack's cards that no hand holds.
  (table, state: HinderscheState, cards, fields) => {
    const ctx = slateContext(fields, cards.dealer, table.rules.schleipfen === true);
    const plays = flags(fields, 'plays', SEATS);
    const problem = plays.every((p) => p) ? boardProblem(cards, HINDERSCHE_BOARD) : fewerProblem(cards, plays);
    if (problem !== null) throw new FieldProblem(problem);
    const hands = new Int32Array(SEATS * LANES);
    const turnup = dealFrenchBoard(PACK, cards, hands);
    const trump = suitOf(turnup);
    const stack = new Int32Array(LANES);
    for (let l = 0; l < LANES; l++) {
      let held = 0;
      for (let s = 0; s < SEATS; s++) held |= hands[s * LANES + l];
      stack[l] = PACK.full[trump * LANES + l] & ~held;
    }
    state.begin(ctx, trump, PACK.toCode(trump, turnup), hands, stack);
  },
  // A record's slate and phase before the deal, its kind and playoff (RECORD.md).
  (record, seats, players) => {
    const before = recordObject(record.before);
    const playoff = recordObject(record.playoff);
    const isPlayoff = record.kind === 'playoff';
    return {
      plays: Array.from({ length: seats }, (_, s) => players.includes(s)),
      phase: Number(before.phase ?? 1),
      kind: isPlayoff ? Kind.Playoff : Kind.Normal,
      playoffFor: !isPlayoff ? TieFor.None : playoff.for === 'fewest' ? TieFor.Fewest : TieFor.Most,
      playoffPlaces: isPlayoff ? Number(playoff.places ?? 1) : 0,
      slate: recordNumbers(before.slate, () => new Array<number>(seats).fill(0)),
    };
  },
);
