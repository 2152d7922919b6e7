/**
 * A recorded deal made live again, for analysis: the deal state at every decision, built
 * from the record's fields alone (RECORD.md): the deal as dealt (dealer, hands, turn-up)
 * and the match's part of it (targets, slate, Partie totals, pot: what `before` and the
 * game's fields say) started by the game's own `GameProtocol.start`, then the moves
 * replayed: the cards of the tricks in order, and each yes/no question answered as the
 * record says it was (a Viersche claim, a Hindersche schleipfe or objection, a
 * Vier-Anderle declaration). The result is checked against the record (every card
 * legal, each trick won by the recorded seat, the deal over at the end), so a record
 * that does not replay is refused with what differs, never analysed wrongly.
 */
import { TafelError } from '../core/errors.js';
import { SUITS } from '../core/french.js';
import { newSets, setHas } from '../core/cardset.js';
import { cardCode } from '../games/card-names.js';
import { findGame } from '../games/index.js';
import { resolveParams } from '../games/params.js';
import { DECISION_NAMES, Decision, NO, YES, type Game, type State, type TableConfig } from '../games/game.js';

type Rec = Record<string, unknown>;

/** One decision of the deal: who made it, what kind, the move made, and how many tricks were complete before it. */
interface Ply {
  readonly seat: number;
  readonly decision: string;
  readonly move: number;
  readonly name: string;
  readonly trick: number;
}

export interface LiveDeal {
  readonly game: Game;
  readonly table: TableConfig;
  /** The deal as dealt, before any move. */
  readonly begun: State;
  readonly plies: readonly Ply[];
}

function bad(what: string): TafelError {
  return new TafelError('bad-record', `the record does not replay: ${what}`);
}

const obj = (v: unknown): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The answer the record gives to `seat`'s yes/no question after trick `k` (-1: before the first). */
function answerOf(rec: Rec, decision: number, seat: number, k: number): number {
  const has = (list: unknown, test: (x: Rec) => boolean) => arr(list).some((x) => test(obj(x)));
  switch (decision) {
    case Decision.Claim:
      return has(rec.claims, (c) => c.trick === k && c.seat === seat) ? YES : NO;
    case Decision.Schleipfe:
      return has(rec.schleipfen, (x) => x.trick === k && x.by === seat) ? YES : NO;
    case Decision.Object:
      return has(rec.schleipfen, (x) => x.trick === k && x.objected === seat) ? YES : NO;
    case Decision.Declare:
      return Array.isArray(rec.declarations)
        ? has(rec.declarations, (d) => d.seat === seat && d.in === true)
          ? YES
          : NO
        : arr(rec.players).includes(seat)
          ? YES
          : NO;
    default:
      throw bad(`an unknown question (${decision})`);
  }
}

/** The deal of `rec` made live: its game, table, the state as dealt and every decision after. */
export function rebuildDeal(rec: Rec): LiveDeal {
  const game = typeof rec.game === 'string' ? findGame(rec.game) : undefined;
  if (!game) throw bad(`unknown game ${JSON.stringify(rec.game)}`);
  const hands = arr(rec.hands).map((h) => arr(h).map(String));
  const seats = typeof rec.seats === 'number' ? rec.seats : hands.length;
  const rules = Object.fromEntries(Object.entries(obj(rec.rules)).map(([k, v]) => [k, String(v)]));
  const table: TableConfig = { seats, rules: resolveParams(game.variants, rules, `rules of ${game.name}`) };
  game.checkTable(table);
  const dealer = Number(rec.dealer);
  const players = Array.isArray(rec.players)
    ? rec.players.map(Number)
    : Array.from({ length: seats }, (_, i) => (dealer + 1 + i) % seats);
  const board = { dealer, hands, turnup: typeof rec.turnup === 'string' ? rec.turnup : null };
  const begun = game.newState(table);
  const problem = game.protocol.start(table, begun, board, game.protocol.recordFields(rec, seats, players));
  if (problem !== null) throw bad(problem);

  const trump = typeof rec.trump === 'string' ? SUITS.indexOf(rec.trump as (typeof SUITS)[number]) : 0;
  const s = game.newState(table);
  s.copyFrom(begun);
  const legal = newSets(1);
  const plies: Ply[] = [];
  /** Make `move`, `done` tricks being complete. */
  const apply = (move: number, done: number): void => {
    s.legal(legal, 0);
    if (!setHas(legal, 0, move))
      throw bad(`${s.moveName(move)} is not legal for seat ${s.toMove} with ${done} tricks done`);
    plies.push({ seat: s.toMove, decision: DECISION_NAMES[s.decision], move, name: s.moveName(move), trick: done });
    s.apply(move);
  };
  /** Answer the questions asked before the next card, `done` tricks being complete. */
  const answer = (done: number): void => {
    while (!s.isTerminal() && s.decision !== Decision.Card) apply(answerOf(rec, s.decision, s.toMove, done - 1), done);
  };
  const tricks = arr(rec.tricks).map(obj);
  tricks.forEach((t, k) => {
    answer(k);
    for (const name of arr(t.cards).map(String)) {
      if (s.isTerminal()) throw bad(`the deal is over before ${name} in trick ${k + 1}`);
      const code = cardCode(game.name, name, trump);
      if (code < 0) throw bad(`${name} is not a card of ${game.name}`);
      apply(code, k);
    }
  });
  answer(tricks.length);
  if (!s.isTerminal()) throw bad(`the deal is not over after its ${tricks.length} tricks`);
  // Each trick won by the seat the record names.
  const done = game.protocol.encode(s.observe(0)).tricks;
  tricks.forEach((t, k) => {
    const winner = obj(arr(done)[k]).winner;
    if (winner !== t.winner)
      throw bad(`trick ${k + 1} goes to seat ${String(winner)}, the record says ${String(t.winner)}`);
  });
  return { game, table, begun, plies };
}

/** The state of `deal` just before decision `ply` (0 .. plies; plies: the end). */
export function stateAt(deal: LiveDeal, ply: number): State {
  if (!Number.isSafeInteger(ply) || ply < 0 || ply > deal.plies.length)
    throw new TafelError('bad-option', `ply ${ply}: the deal has decisions 0 to ${deal.plies.length - 1}`);
  const s = deal.game.newState(deal.table);
  s.copyFrom(deal.begun);
  for (let p = 0; p < ply; p++) s.apply(deal.plies[p].move);
  return s;
}
