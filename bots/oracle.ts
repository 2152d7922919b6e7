/**
 * `oracle`: the cheating ceiling. It sees the live deal state (every hand), which the
 * harness gives only to bots marked `cheats: true` (`BotContext.state`), and plays the
 * best move for its seat in the one true world under its `model` of the others: the
 * `pimc` evaluation with a single world that is the real one.
 *
 * - `model=heuristic` (what `auto` means in the games of individuals): every other seat
 *   plays the game's heuristic, and the oracle searches its own decisions to the end of
 *   the deal within the budget (bots/policy-search.ts, `depth` decisions deep, by
 *   default all), valuing a line by the seat's `returns()`, the deal's real result. The
 *   heuristic is a deterministic function of what its seat sees, so where the others
 *   *are* heuristic players (the ladder seats each bot of these games alone among them)
 *   the oracle knows their every answer to its own moves, and a search that reaches the
 *   end of the deal is the best response to that field: no bot can expect a better
 *   return there. With the default budget it does so from the second trick on, and at
 *   the first card in about a third of deals (bots/NOTES.md); beyond what it searched,
 *   the heuristic plays its seat too. Against other players it is a model, not a bound.
 * - the solver's models (`paranoid`, what `auto` means with teams; `maxn`, ...): every
 *   seat plays perfectly with every hand known (bots/perfect-play.ts). A card: the legal
 *   move with the best solver value of the seat's side's final measure (card points or
 *   tricks; fewer is better where the game says so), ties to the lowest code, or where
 *   the game gives deal aims (a Hindersche march, the Jass sweep) the deal's outlook after
 *   the move (`aimValues`). `budget` is a node limit per move, generous by default; when
 *   the exact solve does not fit, the deepest horizon search that does decides, with
 *   the solver's estimate beyond the horizon: in the games without teams a playout with
 *   each seat playing for itself (`playout`, default `selfish`), which made the oracle
 *   clearly stronger than the coalition's playout (bots/NOTES.md). A yes/no answer:
 *   each answer applied and the deal played out with the solver policy in every seat,
 *   the higher `returns()` wins (NO on a tie). Against players who are not perfect
 *   (the heuristic opponents of the Viersche ladder), a reference, not a bound.
 *
 * It measures how much of a gap hidden information leaves; every table and summary marks
 * it as cheating. Deterministic: with the solver's models it uses no randomness, and
 * the heuristic model's bots are reseeded from `ctx.rng`.
 */
import { CODE_LIMIT, setCodesInto, setFirst } from '../src/core/cardset.js';
import { TafelError } from '../src/core/errors.js';
import { Decision, type Observation, type ParamSpec, type State } from '../src/games/game.js';
import type { Bot, BotContext, BotSpec, MoveValues } from '../src/games/bot.js';
import {
  modelParams,
  resolveModel,
  sharedPerfectPlay,
  type BotModel,
  type EstimatePlayout,
  type OpponentModel,
  type PerfectPlay,
} from './perfect-play.js';
import { PolicyModel } from './policy.js';
import { PolicySearch } from './policy-search.js';
import type { Rng } from '../src/core/rng.js';

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'budget',
    type: 'int',
    default: 1_000_000,
    min: 100,
    max: 1_000_000_000,
    description: 'search nodes per decision (exact solve if it fits, else the deepest horizon that does)',
  },
  {
    key: 'exact',
    type: 'int',
    default: 6,
    min: 0,
    max: 12,
    description: 'tricks left at or below which it tries the exact solve first (within the budget)',
  },
  ...modelParams({ model: 'auto', playout: 'selfish', depth: 39, auto: 'paranoid with teams, heuristic without' }),
];

/** A larger table than pimc's: the oracle's searches run to a million nodes. */
const TT_BITS = 18;

class OracleBot implements Bot {
  private readonly seat: number;
  private readonly state: State;
  private readonly budget: number;
  private readonly exact: number;
  private readonly model: Exclude<BotModel, 'auto'>;
  private readonly depth: number;
  /** With `model=heuristic`: the search against the game's heuristic in the other seats. */
  private readonly search: PolicySearch | null;
  private readonly policy: PolicyModel | null;
  private readonly rng: Rng;
  private readonly playout: EstimatePlayout;
  private readonly play: PerfectPlay;
  private readonly moves = new Int32Array(CODE_LIMIT);
  private readonly values = new Float64Array(CODE_LIMIT);

  constructor(ctx: BotContext, state: State) {
    this.seat = ctx.seat;
    this.state = state;
    this.budget = Number(ctx.params.budget);
    this.exact = Number(ctx.params.exact);
    this.model = resolveModel(ctx.params.model as BotModel, ctx.game, ctx.table);
    this.depth = Number(ctx.params.depth);
    this.rng = ctx.rng;
    this.policy = this.model === 'heuristic' ? PolicyModel.heuristic(ctx.game, ctx.table) : null;
    this.search = this.policy ? new PolicySearch(ctx.game, ctx.table, this.policy) : null;
    this.playout = ctx.params.playout as EstimatePlayout;
    this.play = sharedPerfectPlay(ctx.game, ctx.table, TT_BITS);
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (count === 1) return setFirst(legal, 0);
    const s = this.state;
    if (s.toMove !== this.seat || obs.seat !== this.seat) {
      throw new Error(`oracle at seat ${this.seat}: the state it was given has seat ${s.toMove} to move`);
    }
    const n = setCodesInto(legal, 0, this.moves);
    const { moves, values, play } = this;
    if (this.search) {
      this.policy!.reseed(this.rng);
      this.search.values(s, this.seat, moves, n, this.budget, values, this.depth);
    } else {
      play.begin(this.budget, this.exact, this.model as OpponentModel, this.playout);
      if (obs.decision === Decision.Card) play.aimValues(s, this.seat, this.budget, values);
      else for (let i = 0; i < n; i++) values[moves[i]] = play.answerValue(s, this.seat, moves[i], this.budget);
    }
    let best = 0;
    for (let i = 1; i < n; i++) if (values[moves[i]] > values[moves[best]]) best = i;
    return moves[best];
  }

  /** `act`, then its value of each legal move in the one true world. */
  explain(obs: Observation, legal: Int32Array, count: number): MoveValues {
    const chosen = this.act(obs, legal, count);
    if (count === 1)
      return { chosen, meaning: 'forced: the only legal move, not searched', moves: [{ move: chosen, value: NaN }] };
    const n = setCodesInto(legal, 0, this.moves);
    const goal = this.play.solver.goal;
    const meaning = this.search
      ? "the seat's returns() against the heuristic in the true world"
      : obs.decision !== Decision.Card
        ? "the seat's returns() after the answer, played out by the solver"
        : this.play.hasAims
          ? "the deal's outlook (about returns()) by the solver"
          : `the side's final ${goal.measure} by the solver (${this.model})${goal.more ? '' : ', negated (fewer is better)'}`;
    const moves = [];
    for (let i = 0; i < n; i++) moves.push({ move: this.moves[i], value: this.values[this.moves[i]] });
    return { chosen, meaning, moves };
  }
}

export const oracle: BotSpec = {
  name: 'oracle',
  description:
    'sees every hand and plays the best move under its model (the exact solver with teams, a search against the heuristic without): a ceiling',
  params: PARAMS,
  cheats: true,
  create(ctx) {
    if (!ctx.state) {
      throw new TafelError(
        'bad-bot',
        'bot oracle needs the live deal state (BotContext.state), which the harness gives only to bots whose spec says cheats: true',
      );
    }
    return new OracleBot(ctx, ctx.state);
  },
};
