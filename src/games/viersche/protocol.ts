/** Viersche's observation in the bot protocol (PROTOCOL.md): trump, turn-up, targets, points, claims. */
import { LANES } from '../../core/cardset.js';
import { parseCard, suitOf, SUITS } from '../../core/french.js';
import { boardProblem, type BoardShape } from '../board.js';
import { bad, flag, FieldProblem, wholes } from '../fields.js';
import type { TableConfig } from '../game.js';
import { dealFrenchBoard } from '../trick/board.js';
import { recordNumbers, trickProtocol } from '../trick/protocol.js';
import { PACK } from './cards.js';
import { CARRY_MIN, carriedTargets, FIRST_TARGET } from './match.js';
import { SEATS, type VierscheState } from './state.js';
import type { VierscheView } from './view.js';

/** A Viersche deal's hands: 9 cards each, the turn-up in the dealer's hand. */
export function vierscheBoard(table: TableConfig): BoardShape {
  return { game: 'viersche', seats: table.seats, handSize: 9, parse: parseCard, turnup: true };
}

/** Whether `targets` are a second deal's: those of a leading team with 70 to 99 points (V-7). */
function carried(targets: readonly number[]): boolean {
  const t: [number, number] = [0, 0];
  for (let team = 0; team < 2; team++) {
    for (let x = CARRY_MIN; x < FIRST_TARGET; x++) {
      carriedTargets(team, x, t);
      if (t[0] === targets[0] && t[1] === targets[1]) return true;
    }
  }
  return false;
}

export const VIERSCHE_PROTOCOL = trickProtocol(
  (v: VierscheView) => ({
    trump: SUITS[v.trump],
    turnup: v.codeName(v.turnup),
    turnupHeld: v.turnupHeld,
    facedown: v.facedown,
    secondDeal: v.secondDeal,
    targets: [v.target(0), v.target(1)],
    teamPoints: [v.teamPoints(0), v.teamPoints(1)],
    teamTricks: [v.teamTricks(0), v.teamTricks(1)],
    seatPoints: [0, 1, 2, 3].map((s) => v.seatPoints(s)),
    trickPointsSeen: v.trickPointsSeen,
    claimTrick: v.claimTrick,
    winner: v.winner,
    gameRungs: v.gameRungs,
  }),
  // The match's part: a first deal's targets or a second deal's (V-7).
  (table, state: VierscheState, cards, fields) => {
    const problem = boardProblem(cards, vierscheBoard(table));
    if (problem !== null) throw new FieldProblem(problem);
    const secondDeal = flag(fields, 'secondDeal');
    const targets = wholes(fields, 'targets', 2, 1, FIRST_TARGET);
    if (!secondDeal && !(targets[0] === FIRST_TARGET && targets[1] === FIRST_TARGET))
      throw bad(fields, 'targets', `a first deal's are [${FIRST_TARGET},${FIRST_TARGET}] (V-7)`);
    if (secondDeal && !carried(targets))
      throw bad(
        fields,
        'targets',
        `a second deal's are 100 - x for the leading team and x - 40 for the other, x from ${CARRY_MIN} to ${FIRST_TARGET - 1} (V-7)`,
      );
    const hands = new Int32Array(SEATS * LANES);
    const turnup = dealFrenchBoard(PACK, cards, hands);
    const trump = suitOf(turnup);
    const ctx = { dealer: cards.dealer, targets: [targets[0], targets[1]] as const, secondDeal };
    state.begin(ctx, trump, PACK.toCode(trump, turnup), hands);
  },
  // A record's targets (V-7): a second deal's are not the first's.
  (record) => {
    const targets = recordNumbers(record.targets, () => [FIRST_TARGET, FIRST_TARGET]);
    return { targets, secondDeal: !(targets[0] === FIRST_TARGET && targets[1] === FIRST_TARGET) };
  },
);
