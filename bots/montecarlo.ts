/**
 * `montecarlo`: flat Monte Carlo over determinized worlds, for every game of the
 * contract (it imports no game).
 *
 * For a decision with more than one legal move, it draws `worlds` hidden-hand worlds
 * consistent with its observation (`game.sample`), and in each world tries every
 * legal move (cards and yes/no answers alike): copy the world, apply the move, play
 * the deal out `playouts` times with uniformly random legal moves, and add
 * `returns()[seat]`. The move with the best total (= best mean) is played; ties go
 * to the lowest move code.
 *
 * Common random numbers: every move is scored in the same worlds and, within a world,
 * with the same playout streams, so the comparison between moves is not swamped by
 * the luck of the deal. That is why worlds are sampled once per decision, not once
 * per move, and why each playout's generator is reseeded from a key drawn once per
 * (world, playout) instead of running on from the previous move's playout.
 *
 * Weaknesses it inherits from its method: determinization assumes it will know the
 * hidden cards later (strategy fusion), and random playouts value a position as if
 * everybody played at random afterwards. It is a yardstick for real search bots.
 *
 * Randomness comes only from `ctx.rng`, so play is a function of the deal. A time
 * `budget` breaks that (how many worlds fit depends on the machine); it is off by
 * default.
 */
import { CODE_LIMIT, newSets, setCodesInto, setFirst, setSelect } from '../src/core/cardset.js';
import { Rng } from '../src/core/rng.js';
import type { Observation, ParamSpec, State } from '../src/games/game.js';
import type { Bot, BotContext, BotSpec } from '../src/games/bot.js';

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'worlds',
    type: 'int',
    default: 24,
    min: 1,
    max: 100000,
    description: 'hidden-hand worlds sampled per decision (the same worlds score every move)',
  },
  {
    key: 'playouts',
    type: 'int',
    default: 1,
    min: 1,
    max: 10000,
    description: 'random playouts per world and move',
  },
  {
    key: 'budget',
    type: 'number',
    default: 0,
    min: 0,
    description: 'time cap per decision in ms, checked after each world (0: none; a cap makes play machine-dependent)',
  },
];

class MonteCarloBot implements Bot {
  private readonly game: BotContext['game'];
  private readonly rng: Rng;
  private readonly worlds: number;
  private readonly playouts: number;
  private readonly budget: number;

  private readonly world: State;
  private readonly scratch: State;
  private readonly moves = new Int32Array(CODE_LIMIT);
  private readonly totals = new Float64Array(CODE_LIMIT);
  private readonly legal = newSets(1);
  private readonly returns: Float64Array;
  private readonly playRng = new Rng();
  private readonly playKey: [number, number, number, number] = [0, 0, 0, 0];

  constructor(ctx: BotContext) {
    this.game = ctx.game;
    this.rng = ctx.rng;
    this.worlds = Number(ctx.params.worlds);
    this.playouts = Number(ctx.params.playouts);
    this.budget = Number(ctx.params.budget);
    this.world = ctx.game.newState(ctx.table);
    this.scratch = ctx.game.newState(ctx.table);
    this.returns = new Float64Array(ctx.table.seats);
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (count === 1) return setFirst(legal, 0);
    const n = setCodesInto(legal, 0, this.moves);
    this.totals.fill(0, 0, n);
    const start = this.budget > 0 ? performance.now() : 0;
    for (let w = 0; w < this.worlds; w++) {
      this.game.sample(obs, this.rng, this.world);
      for (let p = 0; p < this.playouts; p++) this.scoreMoves(obs.seat, n);
      if (this.budget > 0 && performance.now() - start >= this.budget) break;
    }
    return this.moves[this.best(n)];
  }

  /** One playout per move from the current world, all on the same random stream. */
  private scoreMoves(seat: number, n: number): void {
    const key = this.playKey;
    for (let i = 0; i < 4; i++) key[i] = this.rng.next();
    for (let i = 0; i < n; i++) {
      const s = this.scratch;
      s.copyFrom(this.world);
      s.apply(this.moves[i]);
      this.playRng.reseed(key, 0);
      this.playOut(s);
      s.returns(this.returns);
      this.totals[i] += this.returns[seat];
    }
  }

  private playOut(s: State): void {
    const legal = this.legal;
    const rng = this.playRng;
    while (!s.isTerminal()) {
      const count = s.legal(legal, 0);
      s.apply(setSelect(legal, 0, rng.below(count)));
    }
  }

  private best(n: number): number {
    let best = 0;
    for (let i = 1; i < n; i++) if (this.totals[i] > this.totals[best]) best = i;
    return best;
  }
}

export const montecarlo: BotSpec = {
  name: 'montecarlo',
  description: 'flat Monte Carlo: every legal move scored by random playouts in the same sampled worlds',
  params: PARAMS,
  create: (ctx) => new MonteCarloBot(ctx),
};
