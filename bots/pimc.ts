/**
 * `pimc`: perfect-information Monte Carlo, for every game of the contract (it imports
 * no game).
 *
 * For a decision with more than one legal move, it draws `worlds` hidden-hand worlds
 * consistent with its observation (`game.sample`) and values every legal move in each
 * world as if every hand were known, with the exact solver (bots/solver, through
 * bots/perfect-play.ts):
 *
 * - a card: the solver's final measure of the seat's side (card points or tricks, the
 *   game's `searchGoal`; negated when fewer is better) after the move, with every seat
 *   playing perfectly from there. Exact with at most `exact` tricks left, else the
 *   deepest horizon search that fits the world's share of the `budget` (beyond the
 *   horizon the solver estimates: perfect-play.ts says how). In games that give deal
 *   aims (Hindersche, Hindersi-Jass, Vier-Anderle: `Game.dealAims`, `Game.outlook`)
 *   the value is the deal's outlook instead: exact march tests decide whether the move
 *   keeps a march forced for the seat or hands one to an opponent, and otherwise the
 *   game maps the seat's points (tricks) to its result (perfect-play.ts, `aimValues`). Before that, pimc
 *   minimised its points and almost never marched (1.0% of its Hindersche deals
 *   against 11.0% for `heuristic`), losing on marks (+0.080 +- 0.049 marks per deal
 *   against heuristic over 200 duplicate deals); with the outlook it marches in 8.1%,
 *   holds heuristic to 4.8%, and wins on marks (-0.094 +- 0.045), paying 3.5 card
 *   points per deal for it;
 * - a yes/no answer (claim, declaration, schleipfe, objection): the seat's
 *   `returns()` after applying the answer and playing the deal out with the solver
 *   policy in every seat (perfect-play.ts says how questions met on the way are
 *   answered).
 *
 * The move with the best mean over the worlds is played (`choose=mean`); or each world
 * votes for its best move, ties splitting the vote (`choose=votes`), and the most
 * votes win, the mean deciding between equal votes. Remaining ties go to the lowest
 * code.
 *
 * Budget: `budget` nodes per decision (a node is one solver visit), spread over the
 * worlds: each world's share is what is left of the budget over the worlds left, so
 * nodes that a cheap world does not use go to the next. A node budget keeps play a
 * function of the deal on every machine; there is no time cap. The default (a million
 * nodes) searches the early tricks of a deal two to four tricks deep in each world and
 * solves the last four or five exactly; measured on one core of the development
 * machine it takes 40 to 75 ms a move on average over a deal, depending on the game
 * (a decision early in a deal 100 to 250 ms, late ones a few ms).
 *
 * What the method gets wrong, knowingly (Frank and Basin 1998, Long et al. 2010):
 * strategy fusion (each world is solved as if the seat would know the hands later,
 * so it overrates moves that keep options open only with knowledge it will not have),
 * and non-locality (worlds are uniform among those consistent with what was seen, not
 * weighted by what the others' play suggests). The march tests and the measure are
 * paranoid (everyone else against the seat): right for marches, pessimistic for
 * points. `model=maxn` (each seat for itself, bots/solver/maxn.ts) and its halves
 * `maxn-late`/`maxn-early` replace the measure's model; none of them beat paranoid
 * outside the noise (maxn.ts has the figures), so paranoid is the default. Nor did a
 * doubled budget: Hindersi-Jass +1.40 [-0.44, 3.25] points a deal against heuristic at
 * 2 million nodes (82 ms a move), +1.70 [-0.17, 3.56] at 1 million (160 duplicate
 * deals, seed diag-2), where the cheating oracle gains from depth (+6.5 [2.0, 11.0]
 * solving exactly from the first trick, 30 deals): what holds pimc back there is the
 * hidden information, not the search.
 *
 * Randomness comes only from `ctx.rng` (the worlds), so play is a function of the deal.
 */
import { CODE_LIMIT, LANES, setFirst } from '../src/core/cardset.js';
import type { Rng } from '../src/core/rng.js';
import { Decision, type Game, type Observation, type ParamSpec, type State } from '../src/games/game.js';
import type { Bot, BotContext, BotSpec } from './bot.js';
import { modelParams, sharedPerfectPlay, type EstimatePlayout, type OpponentModel, type PerfectPlay } from './perfect-play.js';

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'worlds',
    type: 'int',
    default: 20,
    min: 1,
    max: 100000,
    description: 'hidden-hand worlds sampled per decision (the same worlds value every move)',
  },
  {
    key: 'budget',
    type: 'int',
    default: 1_000_000,
    min: 100,
    max: 1_000_000_000,
    description: 'solver nodes per decision, shared among the worlds (deeper search with more; machine-independent)',
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
  ...modelParams('coalition'),
];

/** log2 of the transposition table's entries: searches here are thousands of nodes, not millions. */
const TT_BITS = 16;

class PimcBot implements Bot {
  private readonly game: Game;
  private readonly rng: Rng;
  private readonly worlds: number;
  private readonly budget: number;
  private readonly exact: number;
  private readonly model: OpponentModel;
  private readonly playout: EstimatePlayout;
  private readonly votes: boolean;
  private readonly play: PerfectPlay;
  private readonly world: State;

  private readonly moves = new Int32Array(CODE_LIMIT);
  private readonly totals = new Float64Array(CODE_LIMIT);
  private readonly ballots = new Float64Array(CODE_LIMIT);
  private readonly values = new Float64Array(CODE_LIMIT);

  constructor(ctx: BotContext) {
    this.game = ctx.game;
    this.rng = ctx.rng;
    this.worlds = Number(ctx.params.worlds);
    this.budget = Number(ctx.params.budget);
    this.exact = Number(ctx.params.exact);
    this.model = ctx.params.model as OpponentModel;
    this.playout = ctx.params.playout as EstimatePlayout;
    this.votes = ctx.params.choose === 'votes';
    this.play = sharedPerfectPlay(ctx.game, ctx.table, TT_BITS);
    this.world = ctx.game.newState(ctx.table);
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (count === 1) return setFirst(legal, 0);
    const n = listMoves(legal, this.moves);
    const { moves, totals, ballots, values, play, world } = this;
    totals.fill(0, 0, n);
    ballots.fill(0, 0, n);
    play.begin(this.budget, this.exact, this.model, this.playout);
    const card = obs.decision === Decision.Card;
    for (let w = 0; w < this.worlds; w++) {
      this.game.sample(obs, this.rng, world);
      const share = play.left / (this.worlds - w);
      if (card) {
        play.aimValues(world, obs.seat, share, values);
      } else {
        for (let i = 0; i < n; i++) values[moves[i]] = play.answerValue(world, obs.seat, moves[i], share);
      }
      let top = -Infinity;
      let ties = 0;
      for (let i = 0; i < n; i++) {
        const v = values[moves[i]];
        totals[i] += v;
        if (v > top) {
          top = v;
          ties = 1;
        } else if (v === top) ties++;
      }
      if (this.votes) for (let i = 0; i < n; i++) if (values[moves[i]] === top) ballots[i] += 1 / ties;
    }
    let best = 0;
    for (let i = 1; i < n; i++) {
      const better = this.votes
        ? ballots[i] > ballots[best] || (ballots[i] === ballots[best] && totals[i] > totals[best])
        : totals[i] > totals[best];
      if (better) best = i;
    }
    return moves[best];
  }
}

/** Copy the moves of `legal` into `out` in increasing code order; returns their number. */
export function listMoves(legal: Int32Array, out: Int32Array): number {
  let n = 0;
  for (let l = 0; l < LANES; l++) {
    for (let m = legal[l]; m !== 0; m &= m - 1) out[n++] = (l << 5) | (31 - Math.clz32(m & -m));
  }
  return n;
}

export const pimc: BotSpec = {
  name: 'pimc',
  description: 'perfect-information Monte Carlo: every legal move solved exactly (or to a horizon) in sampled worlds, best mean',
  params: PARAMS,
  create: (ctx) => new PimcBot(ctx),
};
