/**
 * Analysis of one decision of a recorded deal (`tafel serve`): the state rebuilt from the
 * record (rebuild.ts), then
 *
 * - the solver's value of every legal move with every hand known (bots/perfect-play.ts,
 *   as `pimc` and the `oracle` use it, the paranoid model: the seat's side against all
 *   the others, which is exact minimax between two teams). A card: the final measure of
 *   the seat's side (`Game.searchGoal`: card points or tricks, the points already taken
 *   included), exact when the whole rest of the deal fits the node budget, else the
 *   deepest horizon that does with the solver's estimate beyond it (marked, with its
 *   depth in tricks). A yes/no answer: the seat's `returns()` after the answer, the deal
 *   played out by the solver policy in every seat (an estimate: perfect-play.ts).
 * - a chosen bot's own values as it sees the position, from the seat's observation only
 *   (`Bot.explain`; the `oracle` is given the state, as at a table). Its random stream
 *   is seeded from the record's seed and the decision's index, so the same analysis
 *   gives the same values; it is not the stream the bot had when the deal was played.
 *
 * Pure computation: the server runs it in a worker thread (analysis-worker.ts) that it
 * can stop.
 */
import { TafelError } from '../core/errors.js';
import { newSets, setCodesInto } from '../core/cardset.js';
import { Rng, seedKey } from '../core/rng.js';
import { Decision, NO, YES, type State } from '../games/game.js';
import { resolveEntrant } from '../harness/table/lineup.js';
import { PerfectPlay } from '../../bots/perfect-play.js';
import { builtinOnly } from './play.js';
import { rebuildDeal, stateAt, type LiveDeal } from './rebuild.js';

/** The solver's transposition table: 2^20 entries. */
const TT_BITS = 20;
/** Tricks left at or below which the exact solve is tried first: always. */
const ALWAYS_EXACT = 99;
export const DEFAULT_BUDGET = 10_000_000;
export const MAX_BUDGET = 50_000_000;

export interface AnalysisRequest {
  readonly record: Record<string, unknown>;
  readonly ply: number;
  /** A built-in bot as `tafel play --bots` names one (`pimc:worlds=20`), or empty: none. */
  readonly bot: string;
  readonly budget: number;
}

interface MoveValue {
  readonly move: string;
  readonly value: number | null;
  readonly visits?: number;
}

export interface Analysis {
  readonly ply: number;
  readonly seat: number;
  readonly decision: string;
  /** The move the record shows. */
  readonly played: string;
  readonly solver: {
    /** What the values are. */
    readonly meaning: string;
    /** Whether a higher value is better for the seat (false: fewer card points are, Hindersche). */
    readonly more: boolean;
    /** Exact (the whole rest of the deal searched) or an estimate. */
    readonly exact: boolean;
    /** Tricks searched when not exact. */
    readonly depth: number | null;
    readonly nodes: number;
    readonly ms: number;
    readonly values: readonly MoveValue[];
  };
  readonly bot: {
    readonly name: string;
    readonly meaning: string;
    readonly chosen: string;
    readonly ms: number;
    readonly values: readonly MoveValue[];
  } | null;
}

const num = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Who the measure is of: the seat's team or the seat. */
function sideOf(deal: LiveDeal, seat: number): string {
  const teams = deal.game.teams(deal.table.seats);
  if (!teams) return `seat ${seat}`;
  const mates = teams.flatMap((t, s) => (t === teams[seat] ? [s] : []));
  return `team ${teams[seat]} (seats ${mates.join('+')})`;
}

function solverValues(deal: LiveDeal, s: State, budget: number): Analysis['solver'] {
  const { game, table } = deal;
  const seat = s.toMove;
  const legal = newSets(1);
  const moves = new Int32Array(128);
  s.legal(legal, 0);
  const n = setCodesInto(legal, 0, moves);
  const play = new PerfectPlay(game, table, TT_BITS);
  play.begin(budget, ALWAYS_EXACT, 'paranoid');
  const start = performance.now();
  const out = new Float64Array(128);
  const goal = game.searchGoal;
  if (s.decision === Decision.Card) {
    const depth = play.cardValues(s, seat, budget, out);
    const sign = goal.more ? 1 : -1;
    return {
      meaning: `the final ${goal.measure} of ${sideOf(deal, seat)} after the card, every hand known, the others against it (${goal.more ? 'more' : 'fewer'} is better)`,
      more: goal.more,
      exact: depth === Infinity,
      depth: depth === Infinity ? null : depth,
      nodes: play.used,
      ms: performance.now() - start,
      values: Array.from(moves.subarray(0, n), (m) => ({ move: s.moveName(m), value: num(sign * out[m]) })),
    };
  }
  const values = [YES, NO].map((m) => ({ move: s.moveName(m), value: num(play.answerValue(s, seat, m, budget)) }));
  return {
    meaning: `seat ${seat}'s returns() after the answer, the deal played out by the solver in every seat (an estimate)`,
    more: true,
    exact: false,
    depth: null,
    nodes: play.used,
    ms: performance.now() - start,
    values,
  };
}

async function botValues(deal: LiveDeal, s: State, text: string, seed: string, ply: number): Promise<Analysis['bot']> {
  const { game, table } = deal;
  const entrant = await resolveEntrant(builtinOnly(text, 'bot'), game);
  if (entrant.spec.games && !entrant.spec.games.includes(game.name))
    throw new TafelError('bad-option', `bot ${entrant.label} does not play ${game.name}`);
  const seat = s.toMove;
  const rng = new Rng(seedKey(seed), ply, 1, seat);
  const bot = entrant.spec.create({
    game,
    table,
    seat,
    rng,
    params: entrant.params,
    ...(entrant.spec.cheats === true ? { state: s } : {}),
  });
  const legal = newSets(1);
  const count = s.legal(legal, 0);
  const obs = s.observe(seat);
  const start = performance.now();
  if (!bot.explain) {
    const chosen = bot.act(obs, legal, count);
    return {
      name: entrant.label,
      meaning: `${entrant.spec.name} gives no values of its own, only its move`,
      chosen: s.moveName(chosen),
      ms: performance.now() - start,
      values: [],
    };
  }
  const e = bot.explain(obs, legal, count);
  return {
    name: entrant.label,
    meaning: e.meaning,
    chosen: s.moveName(e.chosen),
    ms: performance.now() - start,
    values: e.moves.map((m) => ({
      move: s.moveName(m.move),
      value: num(m.value),
      ...(m.visits !== undefined ? { visits: m.visits } : {}),
    })),
  };
}

/** The analysis of decision `ply` of the deal in `req.record`. */
export async function analyse(req: AnalysisRequest): Promise<Analysis> {
  const deal = rebuildDeal(req.record);
  if (!Number.isSafeInteger(req.ply) || req.ply < 0 || req.ply >= deal.plies.length)
    throw new TafelError('bad-option', `ply ${req.ply}: the deal has decisions 0 to ${deal.plies.length - 1}`);
  const s = stateAt(deal, req.ply);
  const p = deal.plies[req.ply];
  const solver = solverValues(deal, s, req.budget);
  const bot = req.bot
    ? await botValues(deal, s, req.bot, typeof req.record.seed === 'string' ? req.record.seed : '1', req.ply)
    : null;
  return { ply: req.ply, seat: p.seat, decision: p.decision, played: p.name, solver, bot };
}
