/**
 * `pimc`: perfect-information Monte Carlo, for every game of the contract (it imports
 * no game).
 *
 * For a decision with more than one legal move, it draws `worlds` hidden-hand worlds
 * consistent with its observation (`game.sample`) and values every legal move in each
 * world as if every hand were known; the move with the best mean over the worlds is
 * played. Who the others are taken to be in a world is the `model`: `auto` (the
 * default) takes `paranoid` in a game of two teams and in Vier-Anderle, `heuristic` in
 * the other games of individuals (`pimcModel`; bots/NOTES.md has the figures behind
 * every default here).
 *
 * ## The solver's models (`paranoid`, `maxn`, ...): bots/solver through perfect-play.ts
 *
 * - a card: the solver's final measure of the seat's side (card points or tricks, the
 *   game's `searchGoal`; negated when fewer is better) after the move, with every seat
 *   playing perfectly from there. Exact with at most `exact` tricks left, else the
 *   deepest horizon search that fits the world's share of the `budget` (beyond the
 *   horizon the solver estimates: perfect-play.ts says how). In games that give deal
 *   aims (`Game.dealAims`, `Game.outlook`) the value is the deal's outlook instead:
 *   exact march tests decide whether the move keeps a march forced for the seat or hands
 *   one to an opponent, and otherwise the game maps the seat's points (tricks) to its
 *   result (perfect-play.ts, `aimValues`): valued by points alone, pimc almost never
 *   marched;
 * - a yes/no answer (claim, declaration, schleipfe, objection): the seat's `returns()`
 *   after applying the answer and playing the deal out with the solver policy in every
 *   seat (perfect-play.ts says how questions met on the way are answered).
 *
 * `paranoid` (all the others against the seat) is exact minimax between two teams. In
 * the games of individuals it is pessimistic, and neither `model=maxn` (each seat for
 * itself, bots/solver/maxn.ts) and its halves `maxn-late`/`maxn-early` nor a doubled
 * budget did better.
 *
 * ## The heuristic model: policy-search.ts
 *
 * Every other seat plays the game's heuristic (policy.ts); the seat searches its own
 * next `depth` decisions (the move itself is the first; forced ones are free), plays the
 * heuristic beyond them, and a line's value is the seat's `returns()`, the deal's real
 * result. Cards and yes/no answers alike. The default `depth=1` is flat Monte Carlo
 * with heuristic playouts: searching the seat's later decisions in a world whose hands
 * it knows is where strategy fusion comes from, and it cost the gain. It is a model of
 * the others and pays most against players who are that model; in Viersche, where it
 * would take the partner for a heuristic player too, paranoid pimc beat it, hence `auto`.
 *
 * ## Remedies for determinization's flaws
 *
 * What the method gets wrong, knowingly (Frank and Basin 1998; Long, Sturtevant, Buro
 * and Furtak 2010 measure when it matters: experiments/pimc-properties.ts): strategy
 * fusion (each world is valued as if the seat would know the hands later) and
 * non-locality (worlds are uniform among those consistent with what was seen). Three
 * remedies are parameters:
 *
 * - `postpone=k` (EPIMC, Arjonilla, Saffidine and Cazenave 2024; heuristic model): the
 *   seat's next k decisions are made once per information set across the worlds, the
 *   per-world evaluation after them (infoset-search.ts). It removes the fusion of those
 *   decisions, but only as far as the worlds fill the information sets: in these games a
 *   trick of the others' cards rules out most worlds (the disambiguation factor), and a
 *   hundred worlds fall into some fifty sets at the seat's next decision, so each choice
 *   rests on one or two worlds and is fused in all but name. It measured no better than
 *   the same worlds without it, at several times the cost; off by default.
 * - `alphamu=M` (alpha-mu, Cazenave and Ventos 2019; the solver's paranoid model, which
 *   `auto` then means in every game): the seat's next M card decisions chosen once for
 *   all the worlds it cannot tell apart, every other seat playing each world as if it
 *   knew it (opponents against the seat, a partner for it), each world valued by the
 *   evaluation below only after them (alphamu.ts: Pareto fronts of per-world values,
 *   the move of the best mean played). It removes the fusion of those decisions against
 *   a pessimistic model of the others; M is lowered where the tree would not fit the
 *   budget (early in a deal it is plain pimc). Off by default (bots/NOTES.md).
 * - `infer=heuristic` (inference, after Rebstock et al. 2019): it draws `worlds *
 *   candidates` worlds, weighs each by `deviate` per move of another seat that the
 *   heuristic would not have made there (inference.ts), and values `worlds` of them
 *   drawn by weight. It pays where the others are heuristic players, and measured no
 *   better than uniform worlds against the other bots; off by default.
 *
 * ## Worlds, choosing, budget
 *
 * `worlds=0` (the default) is 20 with the solver's models, whose worlds share one node
 * budget, and 300 with the heuristic model, whose worlds cost little (a playout each):
 * there the worlds' sampling noise is what limits the choice, and 100 worlds beat 20
 * head to head, 300 beat 100 (bots/NOTES.md).
 *
 * The move with the best mean over the worlds is played (`choose=mean`); or each world
 * votes for its best move, ties splitting the vote (`choose=votes`), and the most votes
 * win, the mean deciding between equal votes. Remaining ties go to the lowest code.
 *
 * Budget: `budget` nodes per decision (a node is one position the solver visits, its
 * game's own endgame search included, or one move made by the heuristic model's
 * search), spread over the worlds: each world's share is what is left of the budget
 * over the worlds left, so nodes that a cheap world does not use go to the next. A node
 * budget keeps play a function of the deal on every machine; there is no time cap. With
 * the solver, the default (a million nodes) searches the early tricks two to four tricks
 * deep in each world and solves the last four or five exactly (400,000 nodes, 2.3 times
 * faster, lost 4 points a Viersche deal: bots/NOTES.md).
 *
 * Racing (`halving=on`, halving.ts): where each world values the moves by playouts (the
 * heuristic model, yes/no answers), a move whose mean falls far behind the leader's over
 * the worlds so far is not valued in the later worlds.
 *
 * Kept estimates (`estimates=kept`, the solver's models): a position at a search's
 * horizon is estimated by one greedy playout, kept in the solver's table for the
 * search's later zero-window probes and transpositions (`Solver.keepEstimates`), so a
 * budget buys deeper search. Off by default: in Viersche, at a budget small enough to
 * save time (400,000 nodes: half the time), it lost 2 points a deal (bots/NOTES.md).
 *
 * Randomness comes only from `ctx.rng` (the worlds, the resampling and the model bots'
 * streams), so play is a function of the deal.
 */
import { CODE_LIMIT, setCodesInto, setFirst } from '../src/core/cardset.js';
import type { Rng } from '../src/core/rng.js';
import {
  Decision,
  type Game,
  type Observation,
  type ParamSpec,
  type SearchModel,
  type Params,
  type State,
  type TableConfig,
} from '../src/games/game.js';
import type { Bot, BotContext, BotSpec, MoveValues } from '../src/games/bot.js';
import { GAME_LISTINGS } from '../src/games/listings.js';
import { PolicyInference, resample } from './inference.js';
import { PolicyModel } from './policy.js';
import { PolicySearch } from './policy-search.js';
import { InfoSetSearch } from './infoset-search.js';
import { AlphaMu } from './alphamu.js';
import { MoveRace } from './halving.js';
import { TafelError } from '../src/core/errors.js';
import {
  modelParams,
  resolveModel,
  sharedPerfectPlay,
  type BotModel,
  type EstimatePlayout,
  type OpponentModel,
  type PerfectPlay,
} from './perfect-play.js';

/**
 * The model pimc plays with these parameters (`model`, `alphamu`, `postpone`) in this
 * game. `auto` is the game's own choice where it declares one (`Game.search`; pimc
 * measured it), else `resolveModel`'s rule (paranoid with teams, heuristic without).
 * The remedies fix the model they rest on: alpha-mu the paranoid solver, EPIMC
 * (`postpone`) the heuristic model.
 */
export function pimcModel(params: Params, game: Game, table: TableConfig): Exclude<BotModel, 'auto'> {
  const asked = params.model as BotModel;
  if (asked !== 'auto') return asked;
  if (Number(params.alphamu) > 0) return 'paranoid';
  if (Number(params.postpone) > 0) return 'heuristic';
  return game.search?.pimcModel ?? resolveModel(asked, game, table);
}

/** ` and in g` for each game that declares `model` pimc's `auto` (`Game.search`), for the parameter's description. */
function declaring(model: SearchModel): string {
  return GAME_LISTINGS.filter((g) => g.search?.pimcModel === model)
    .map((g) => ` and in ${g.name}`)
    .join('');
}

/** The default worlds per decision: the solver's share one node budget; the heuristic model's cost little each. */
const WORLDS_SOLVER = 20;
const WORLDS_HEURISTIC = 300;

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'worlds',
    type: 'int',
    default: 0,
    min: 0,
    max: 100000,
    description: `hidden-hand worlds sampled per decision (the same worlds value every move); 0: ${WORLDS_SOLVER} with the solver's models, ${WORLDS_HEURISTIC} with the heuristic model`,
  },
  {
    key: 'budget',
    type: 'int',
    default: 1_000_000,
    min: 100,
    max: 1_000_000_000,
    description: 'search nodes per decision, shared among the worlds (deeper search with more; machine-independent)',
  },
  {
    key: 'exact',
    type: 'int',
    default: 4,
    min: 0,
    max: 12,
    description: 'tricks left at or below which every world is solved exactly (within what is left of the budget)',
  },
  {
    key: 'choose',
    type: ['mean', 'votes'],
    default: 'mean',
    description: "mean: the best mean value over the worlds; votes: each world's best move(s) get its vote",
  },
  ...modelParams({
    model: 'auto',
    playout: 'coalition',
    depth: 1,
    auto: `paranoid with teams${declaring('paranoid')}, heuristic in the other games; paranoid with alphamu, heuristic with postpone`,
  }),
  {
    key: 'halving',
    type: ['on', 'off'],
    default: 'on',
    description:
      'on: moves whose mean falls far behind the leader over the worlds so far are not valued in the later worlds (halving.ts; with choose=mean and uniform worlds, in the heuristic model and at yes/no answers); off: every move in every world',
  },
  {
    key: 'estimates',
    type: ['replayed', 'kept'],
    default: 'replayed',
    description:
      "the solver's models: kept: a position at the horizon is estimated by one playout per search, kept in the table for the search's later probes and transpositions; replayed: a playout at every visit",
  },
  {
    key: 'postpone',
    type: 'int',
    default: 0,
    min: 0,
    max: 8,
    description:
      'EPIMC: the next decisions of the seat after this one chosen once per information set (the same choice in every world it cannot tell apart) before the per-world evaluation begins; with the heuristic model (model=auto means heuristic with it)',
  },
  {
    key: 'alphamu',
    type: 'int',
    default: 0,
    min: 0,
    max: 6,
    description:
      "alpha-mu: the seat's next M card decisions (this one the first) chosen once for the worlds it cannot tell apart, the others playing each world as if they knew it, each world valued by the solver after them (Pareto fronts of per-world values); lowered when the tree does not fit the budget; 0 (off) or 1 is plain pimc; with the solver's paranoid model (model=auto means paranoid with it)",
  },
  {
    key: 'infer',
    type: ['none', 'heuristic'],
    default: 'none',
    description:
      "weigh worlds by the others' past moves: heuristic (each move the game's heuristic would not have made there costs the world a factor `deviate`) or none (uniform worlds)",
  },
  {
    key: 'deviate',
    type: 'number',
    default: 0.25,
    min: 0.001,
    max: 1,
    description:
      "with infer=heuristic: a world's weight factor for each past move of another seat that the heuristic would not have made",
  },
  {
    key: 'candidates',
    type: 'int',
    default: 4,
    min: 1,
    max: 1000,
    description:
      'with infer=heuristic: worlds drawn and weighed per world solved; the solved ones are drawn from them by weight',
  },
];

/** The most candidate worlds `infer=heuristic` keeps per decision (each is a whole state). */
const MAX_WEIGHED = 100_000;

/** log2 of the transposition table's entries: searches here are thousands of nodes, not millions. */
const TT_BITS = 16;

class PimcBot implements Bot {
  private readonly game: Game;
  private readonly table: TableConfig;
  private readonly rng: Rng;
  private readonly worlds: number;
  private readonly budget: number;
  private readonly exact: number;
  /** The model in force (`auto` resolved for the game). */
  private readonly model: Exclude<BotModel, 'auto'>;
  private readonly depth: number;
  private readonly playout: EstimatePlayout;
  private readonly keepEstimates: boolean;
  private readonly votes: boolean;
  private readonly play: PerfectPlay;
  /** Inference from the others' moves (null: uniform worlds), its candidate worlds and their weights and draws. */
  private readonly inference: PolicyInference | null;
  /** The model of the others (the game's heuristic), for inference and for `model=heuristic`; and that model's search. */
  private readonly policy: PolicyModel | null;
  private readonly search: PolicySearch | null;
  private readonly candidates: number;
  private readonly pool: State[] = [];
  private readonly weight: Float64Array;
  private readonly draws: Int32Array;
  /** The worlds of the decision (in the pool) and how many times each was drawn. */
  private readonly chosen: State[];
  private readonly times: Float64Array;
  /** With `postpone` > 0 (heuristic model): the search over the seat's information sets. */
  private readonly postpone: number;
  private readonly infoset: InfoSetSearch | null;
  /** With `alphamu` > 0 (paranoid model): alpha-mu's search over the seat's next decisions. */
  private readonly alphamu: number;
  private readonly alpha: AlphaMu | null;
  /** With `halving=on`: the race that drops moves far behind across the worlds (null: every move in every world). */
  private readonly race: MoveRace | null;
  /** The last decision was raced (its values are the race's, for `explain`). */
  private raced = false;
  /** The moves still in the race, their indices, for the model's search. */
  private readonly raceMoves = new Int32Array(CODE_LIMIT);
  private readonly raceIndex = new Int32Array(CODE_LIMIT);

  private readonly moves = new Int32Array(CODE_LIMIT);
  private readonly totals = new Float64Array(CODE_LIMIT);
  private readonly ballots = new Float64Array(CODE_LIMIT);
  private readonly values = new Float64Array(CODE_LIMIT);

  constructor(ctx: BotContext) {
    this.game = ctx.game;
    this.table = ctx.table;
    this.rng = ctx.rng;
    this.alphamu = Number(ctx.params.alphamu);
    this.model = pimcModel(ctx.params, ctx.game, ctx.table);
    if (this.alphamu > 0 && this.model !== 'paranoid') {
      throw new TafelError(
        'bad-bot',
        `pimc: alphamu=${this.alphamu} needs model=paranoid (the others taken to know the world and play against the seat); model is ${this.model}`,
      );
    }
    if (this.alphamu > 0 && ctx.params.choose === 'votes') {
      throw new TafelError('bad-bot', `pimc: alphamu=${this.alphamu} plays the best mean; choose=votes does not apply`);
    }
    this.worlds = Number(ctx.params.worlds) || (this.model === 'heuristic' ? WORLDS_HEURISTIC : WORLDS_SOLVER);
    this.budget = Number(ctx.params.budget);
    this.exact = Number(ctx.params.exact);
    this.depth = Number(ctx.params.depth);
    this.playout = ctx.params.playout as EstimatePlayout;
    this.keepEstimates = ctx.params.estimates === 'kept';
    this.votes = ctx.params.choose === 'votes';
    this.play = sharedPerfectPlay(ctx.game, ctx.table, TT_BITS);
    const infer = ctx.params.infer === 'heuristic';
    this.policy = infer || this.model === 'heuristic' ? PolicyModel.heuristic(ctx.game, ctx.table) : null;
    this.inference = infer ? new PolicyInference(this.policy!, Number(ctx.params.deviate)) : null;
    this.search = this.model === 'heuristic' ? new PolicySearch(ctx.game, ctx.table, this.policy!) : null;
    this.candidates = this.inference ? Number(ctx.params.candidates) : 1;
    if (this.worlds * this.candidates > MAX_WEIGHED) {
      throw new TafelError(
        'bad-bot',
        `pimc: worlds x candidates = ${this.worlds * this.candidates} worlds to keep and weigh per decision; at most ${MAX_WEIGHED}`,
      );
    }
    this.weight = new Float64Array(this.worlds * this.candidates);
    this.draws = new Int32Array(this.worlds * this.candidates);
    this.chosen = new Array<State>(this.worlds);
    this.times = new Float64Array(this.worlds);
    this.postpone = Number(ctx.params.postpone);
    if (this.postpone > 0 && !this.search) {
      throw new TafelError('bad-bot', `pimc: postpone=${this.postpone} needs model=heuristic (model is ${this.model})`);
    }
    this.infoset =
      this.postpone > 0
        ? new InfoSetSearch(ctx.game, ctx.table, this.policy!, this.search!, this.worlds, 1 + this.postpone)
        : null;
    this.alpha = this.alphamu > 0 ? new AlphaMu(ctx.game, ctx.table, this.play) : null;
    const racing = ctx.params.halving === 'on' && !this.votes && !this.inference && !this.infoset && !this.alpha;
    this.race = racing ? new MoveRace(this.worlds) : null;
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (count === 1) return setFirst(legal, 0);
    const n = setCodesInto(legal, 0, this.moves);
    const { moves, totals, ballots, values, play } = this;
    this.raced = false;
    totals.fill(0, 0, n);
    ballots.fill(0, 0, n);
    this.policy?.reseed(this.rng);
    const distinct = this.inference !== null && obs.plies > 0 ? this.drawWorlds(obs) : this.sampleWorlds(obs);
    const { chosen, times } = this;
    if (this.infoset) {
      this.infoset.values(
        chosen,
        times,
        distinct,
        obs.seat,
        moves,
        n,
        1 + this.postpone,
        this.depth,
        this.budget,
        values,
      );
      for (let i = 0; i < n; i++) totals[i] = values[moves[i]];
      return moves[this.best(n)];
    }
    const search = this.search;
    if (!search) play.begin(this.budget, this.exact, this.model as OpponentModel, this.playout, this.keepEstimates);
    if (this.alpha && obs.decision === Decision.Card) {
      this.alpha.search(chosen, times, distinct, obs.seat, moves, n, this.alphamu, totals);
      return moves[this.best(n)];
    }
    const searchStart = search ? search.used : 0;
    const card = obs.decision === Decision.Card;
    if (this.race && (search || !card)) {
      this.raced = true;
      return moves[this.racedBest(obs.seat, n, distinct)];
    }
    for (let w = 0; w < distinct; w++) {
      const world = chosen[w];
      if (search) {
        const left = Math.max(0, this.budget - (search.used - searchStart));
        search.values(world, obs.seat, moves, n, left / (distinct - w), values, this.depth);
      } else {
        const share = play.left / (distinct - w);
        if (card) play.aimValues(world, obs.seat, share, values);
        else for (let i = 0; i < n; i++) values[moves[i]] = play.answerValue(world, obs.seat, moves[i], share);
      }
      let top = -Infinity;
      let ties = 0;
      for (let i = 0; i < n; i++) {
        const v = values[moves[i]];
        totals[i] += times[w] * v;
        if (v > top) {
          top = v;
          ties = 1;
        } else if (v === top) ties++;
      }
      if (this.votes) for (let i = 0; i < n; i++) if (values[moves[i]] === top) ballots[i] += times[w] / ties;
    }
    return moves[this.best(n)];
  }

  /**
   * `act`, then its totals per legal move: the mean over the worlds (each counted as
   * often as drawn) of what a world gave the move; with `postpone` or `alphamu`, that
   * search's own value.
   */
  explain(obs: Observation, legal: Int32Array, count: number): MoveValues {
    const chosen = this.act(obs, legal, count);
    const n = setCodesInto(legal, 0, this.moves);
    if (count === 1)
      return { chosen, meaning: 'forced: the only legal move, not searched', moves: [{ move: chosen, value: NaN }] };
    const card = obs.decision === Decision.Card;
    const own = this.infoset ? `EPIMC value (postpone=${this.postpone})` : this.alpha && card ? 'alphamu value' : null;
    const goal = this.game.searchGoal;
    const what =
      own ??
      `mean over ${this.worlds} worlds of ${
        this.search
          ? "the seat's returns() against the heuristic"
          : !card
            ? "the seat's returns() after the answer, played out by the solver"
            : this.play.hasAims
              ? "the deal's outlook (about returns()) by the solver"
              : `the side's final ${goal.measure} by the solver${goal.more ? '' : ', negated (fewer is better)'}`
      }`;
    const moves = [];
    if (this.raced) {
      // The race (halving.ts) valued a dropped move only in the worlds before it fell behind.
      const race = this.race!;
      for (let i = 0; i < n; i++) moves.push({ move: this.moves[i], value: race.meanOf(i), visits: race.worldsOf(i) });
      return { chosen, meaning: `${what}; a move dropped by the race over the worlds it ran (visits)`, moves };
    }
    const scale = own ? 1 : 1 / this.worlds;
    for (let i = 0; i < n; i++) moves.push({ move: this.moves[i], value: this.totals[i] * scale });
    return { chosen, meaning: this.votes && !own ? `${what}; chosen by votes` : what, moves };
  }

  /**
   * The index of the move with the best mean over the worlds among those the race
   * keeps (halving.ts): each world values only the moves still in the race, by the
   * heuristic model's search or, at a yes/no answer, the solver's playouts.
   */
  private racedBest(seat: number, n: number, distinct: number): number {
    const { chosen, moves, totals, values, play, raceMoves, raceIndex } = this;
    const race = this.race!;
    const search = this.search;
    const searchStart = search ? search.used : 0;
    race.begin(n);
    for (let w = 0; w < distinct; w++) {
      const world = chosen[w];
      let k = 0;
      for (let i = 0; i < n; i++) {
        if (race.alive[i] === 0) continue;
        raceIndex[k] = i;
        raceMoves[k++] = moves[i];
      }
      if (search) {
        const left = Math.max(0, this.budget - (search.used - searchStart));
        search.values(world, seat, raceMoves, k, left / (distinct - w), values, this.depth);
      } else {
        const share = play.left / (distinct - w);
        for (let j = 0; j < k; j++) values[raceMoves[j]] = play.answerValue(world, seat, raceMoves[j], share);
      }
      for (let j = 0; j < k; j++) {
        const v = values[raceMoves[j]];
        totals[raceIndex[j]] += v;
        race.record(raceIndex[j], v);
      }
      race.endWorld();
    }
    for (let i = 0; i < n; i++) if (race.alive[i] === 0) totals[i] = -Infinity;
    return this.best(n);
  }

  /** The index of the move chosen by `choose` from the totals (and ballots); ties to the lowest code. */
  private best(n: number): number {
    const { totals, ballots } = this;
    let best = 0;
    for (let i = 1; i < n; i++) {
      const better = this.votes
        ? ballots[i] > ballots[best] || (ballots[i] === ballots[best] && totals[i] > totals[best])
        : totals[i] > totals[best];
      if (better) best = i;
    }
    return best;
  }

  /** Draw `worlds` uniform worlds into `chosen`, each weighing 1. Returns their number. */
  private sampleWorlds(obs: Observation): number {
    const { pool, chosen, times } = this;
    while (pool.length < this.worlds) pool.push(this.game.newState(this.table));
    for (let w = 0; w < this.worlds; w++) {
      this.game.sample(obs, this.rng, pool[w]);
      chosen[w] = pool[w];
      times[w] = 1;
    }
    return this.worlds;
  }

  /**
   * Draw `worlds * candidates` worlds into the pool, weigh each by the others' moves,
   * and draw `worlds` of them in proportion to their weights: the distinct ones go to
   * `chosen`, each with the number of times it was drawn in `times`. Returns how many
   * distinct worlds were drawn.
   */
  private drawWorlds(obs: Observation): number {
    const inference = this.inference!;
    const { weight, draws, pool } = this;
    const total = this.worlds * this.candidates;
    inference.observer = obs.seat;
    while (pool.length < total) pool.push(this.game.newState(this.table));
    let top = -Infinity;
    for (let k = 0; k < total; k++) {
      this.game.sample(obs, this.rng, pool[k], inference); // its weight starts at 1 with ply 0
      weight[k] = inference.logWeight;
      if (weight[k] > top) top = weight[k];
    }
    for (let k = 0; k < total; k++) weight[k] = Math.exp(weight[k] - top);
    resample(weight, total, this.worlds, this.rng.uniform(), draws);
    let distinct = 0;
    for (let k = 0; k < total; k++) {
      if (draws[k] === 0) continue;
      this.chosen[distinct] = pool[k];
      this.times[distinct++] = draws[k];
    }
    return distinct;
  }
}

export const pimc: BotSpec = {
  name: 'pimc',
  description:
    'perfect-information Monte Carlo: every legal move valued in sampled worlds with the hands known (the exact solver with teams, a search against the heuristic without), best mean',
  params: PARAMS,
  create: (ctx) => new PimcBot(ctx),
};
