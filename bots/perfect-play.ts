/**
 * Perfect-information play with the exact solver (bots/solver), under a node budget:
 * what `pimc` does in each sampled world and what the `oracle` does in the real one.
 * It imports no game.
 *
 * ## Card decisions: values of every legal move
 *
 * `cardValues` writes, for every legal move of the seat to act, the solver's value of
 * the final measure of its side (card points or tricks, `Game.searchGoal`), turned so
 * that higher is better (negated when the goal is fewer). How deep it looks:
 *
 * - With at most `exact` tricks left, an exact solve (no horizon) that may use
 *   whatever remains of the decision's budget. These searches are small in every game
 *   at the default (hundreds to a few thousand nodes), but a Vier-Anderle hand with
 *   ten or more players can blow up; then the search aborts and the world falls back
 *   to deepening.
 * - Otherwise (or after such an abort), iterative deepening on the solver's
 *   `horizon`: 1 trick, 2 tricks, ... up to the end of the deal, within the world's
 *   `share` of the budget, keeping the values of the deepest search that finished. A
 *   horizon of `h` tricks searches the next `h` tricks exactly (counting the current
 *   one) and values each position there by **the solver's estimate beyond the
 *   horizon** (`Solver.horizon`; at the time of writing the side's measure at the end of
 *   a greedy playout of the rest of the deal, every seat following a card player's rule
 *   of thumb, so the estimate knows who holds the high cards; before that it was the
 *   measure so far plus what is still in play split evenly by seat; with `begin`'s
 *   `keepEstimates`, one playout per position and search, kept in the solver's table).
 *   So the first `h` tricks are played perfectly and the rest by rule of thumb. The
 *   first level (finish
 *   the current trick when mid-trick, else one trick) always runs, whatever the budget,
 *   so every world gives values. A level is started only if the allowance left is at
 *   least `GROWTH` times what the previous level cost (each trick multiplies the cost
 *   several times over, so a level that cannot finish is not begun; the nodes saved go
 *   to later worlds). A depth that reaches the end of the deal is an exact solve.
 *
 * Who the other seats are taken to be (`begin`'s `model`, the bots' `model` parameter)
 * in the games without teams: `paranoid` (the default), the solver's reduction, all
 * of them against the seat; or `maxn`, each seat for itself (bots/solver/maxn.ts,
 * which says why it is not the default); `maxn-late` uses max^n only for the exact
 * solves (at most `exact` tricks left), `maxn-early` only for the horizon searches.
 * March and declaration tests are paranoid in every model: there the others' interests
 * do line up against the seat. Separately, `begin`'s `playout` says how the seats play
 * in the playout that estimates beyond a paranoid search's horizon: as the coalition the
 * search assumes (`coalition`, pimc's default) or each for itself (`selfish`, the
 * oracle's default: it made the oracle clearly stronger in Hindersche and Hindersi-Jass,
 * and pimc was not; bots/NOTES.md).
 *
 * ## Card decisions by the deal's aims: `aimValues`
 *
 * In Hindersche and Hindersi-Jass the card measure is a poor proxy at the edges: 100
 * points (a Hindersche march) or all the tricks (Hindersi-Jass J-5) turn the worst
 * result into the best, and another player's march costs everyone. So when the game
 * provides `Game.dealAims` and `Game.outlook` (game.ts), `aimValues` values each legal
 * move by the deal's **outlook** (about `returns()[seat]`, the game's real result)
 * instead of the measure:
 *
 * 1. March tests, exact zero-window searches (`Solver.reaches(·, q, target, true)`,
 *    paranoid: everyone else against `q`, which is what the others want when a march
 *    costs them all), for every seat `q` that can still reach its target:
 *    - the seat itself: if it can force its march from here, each move is tested and
 *      the moves that keep the march forced get the outlook of its march;
 *    - each other seat, in playing order: if it can force its march whatever the seat
 *      does, every move gets the outlook of that march; if it cannot, but could force
 *      `AIM_SLACK` (25) less, the seat's moves are tested one by one and those that
 *      hand it the march get its outlook (without that margin no single move is taken
 *      to hand over a march: this keeps the tests few early in a deal).
 *    The tests share at most `AIM_SHARE` (30%) of the world's share of the budget; a
 *    test that does not fit in what is left counts as "no march" (so a tight budget
 *    falls back to the measure). They are cheap: from a full Hindersche deal a median
 *    of about a thousand nodes, far less later and in Jass (an all-tricks target is
 *    refuted at once).
 * 2. The other moves get `Game.outlook(state, seat, own, -1)`, with `own` the seat's
 *    measure from `cardValues` (the rest of the world's share): a smooth, game-made
 *    map of "my points" to the result (in Hindersche the chance of ending with the
 *    most points, i.e. a mark, is what matters, not the points themselves).
 *
 * So a seat plays for a march where, in enough worlds, it can be forced, and plays to
 * stop one where a move would hand it to an opponent, and otherwise weighs its points
 * by what they cost in the game's currency. Games without the two members get
 * `cardValues` unchanged. Yes/no playouts keep using `cardValues` (their result is
 * `returns` anyway).
 *
 * Every search starts from a cleared solver (`Solver.reset`: table, move-ordering
 * history, node count): bounds depend on the side and on the horizon, and a fresh
 * start makes node counts, and so the play, a function of the position alone (never of
 * what an earlier decision or deal searched).
 *
 * ## Yes/no decisions: play the deal out
 *
 * The solver values card play only (it answers NO to every yes/no question), so a
 * yes/no answer is valued by applying it and playing the rest of the deal out with the
 * **solver policy** in every seat: each seat plays the move that is best for its own
 * side by `cardValues` (each playout move gets `share / PLAYOUT_SPLIT` nodes of
 * deepening; at most `exact` tricks left it is exact), ties to the lowest code. Then
 * `returns()[seat]` at the end of the deal is the answer's value, so what the game
 * really pays (rungs, marks, stakes) decides, not the card measure. Yes/no questions
 * met during the playout:
 *
 * - `Decision.Declare` (Vier-Anderle A-6): the seat declares in exactly when it can
 *   be sure of a trick, `Solver.reaches(·, seat, 1)`, assuming that every seat still
 *   to declare comes in too and that everyone else plays against it (the solver's
 *   paranoid reduction). Why: in, a trick earns at least a quarter of the pot and no
 *   trick costs the whole pot; out costs nothing. In a world with every hand known, a
 *   sure trick makes "in" worth at least +1 and anything else risks -4, and assuming
 *   the most opponents (all still to declare in) keeps the test on the safe side. If
 *   declaring in ends the hand at once (the last seat, nobody else in: A-7 sole
 *   player), the returns decide.
 * - Any other question (a Viersche claim, a Hindersche schleipfe or objection) met in
 *   the playout that values a root answer is decided by a one-step look-ahead: each
 *   answer is played out (with every deeper question answered NO, declarations by the
 *   rule above) and the seat takes the one with the higher return, NO on a tie. Deeper
 *   questions are answered NO (play on): that is what the solver assumes, and it bounds
 *   the cost (two playouts per question met, not an exponential tree). Once the
 *   decision's budget is spent, questions are answered NO without look-ahead (with
 *   schleipfen on, three questions follow every trick). For Viersche this is sound
 *   where it matters: a team asked to claim has reached its target, so claiming is
 *   worth its game, and declining pays only if it then takes all nine tricks; the
 *   look-ahead sees both.
 *
 * Playout moves are chosen with a small allowance, so a playout is the solver's
 * best guess at perfect play, not perfect play itself; late in a deal (at most
 * `exact` tricks left, where claims usually arise) it is exact for every seat.
 */
import { CODE_LIMIT, LANES, newSets, setCodesInto, setFirst } from '../src/core/cardset.js';
import {
  Decision,
  NO,
  YES,
  type DealAims,
  type Game,
  type ParamSpec,
  type State,
  type TableConfig,
} from '../src/games/game.js';
import { MaxnSolver } from './solver/maxn.js';
import { Solver } from './solver/solver.js';

/** Start a deeper level only if the allowance left is at least this many times the last level's cost. */
const GROWTH = 3;
/** A playout move may use this fraction of the world's share for deepening. */
const PLAYOUT_SPLIT = 8;
/** The march tests of `aimValues` may use at most this fraction of the world's share. */
const AIM_SHARE = 0.3;
/**
 * An opponent's march is tested move by move only when he can force this much less
 * than his target against the seat's best defence (else no single move of the seat is
 * taken to hand him the march).
 */
const AIM_SLACK = 25;

/**
 * The engine for `game` at `table` with a table of 2^`ttBits` entries, shared by every
 * bot that asks with the same game and table object (the harness gives all the bots of
 * one table the same object). Safe because the bots of a table take turns and an
 * engine keeps nothing from one decision to the next (every search clears the table);
 * it saves a transposition table per seat (tens of megabytes at a 13-seat table).
 */
export function sharedPerfectPlay(game: Game, table: TableConfig, ttBits: number): PerfectPlay {
  let byTable = engines.get(game);
  if (!byTable) engines.set(game, (byTable = new WeakMap()));
  let byBits = byTable.get(table);
  if (!byBits) byTable.set(table, (byBits = new Map<number, PerfectPlay>()));
  let engine = byBits.get(ttBits);
  if (!engine) byBits.set(ttBits, (engine = new PerfectPlay(game, table, ttBits)));
  return engine;
}

const engines = new WeakMap<Game, WeakMap<TableConfig, Map<number, PerfectPlay>>>();

/** How the other seats are modelled in card values (see the module doc). */
export type OpponentModel = 'paranoid' | 'maxn' | 'maxn-late' | 'maxn-early';
/**
 * How the seats play in the playout that estimates a position beyond a paranoid
 * search's horizon (games without teams): `coalition`, as the search assumes, or
 * `selfish`, each for itself (bots/solver/playout.ts).
 */
export type EstimatePlayout = 'coalition' | 'selfish';
const ESTIMATE_PLAYOUTS: readonly EstimatePlayout[] = ['coalition', 'selfish'];

/**
 * The models of the bots' `model` parameter: the solver's (above); `heuristic`, every
 * other seat playing the game's heuristic (policy-search.ts); and `auto`, which is
 * `paranoid` in games with teams and `heuristic` in games without.
 */
export type BotModel = OpponentModel | 'heuristic' | 'auto';

/** The models, for the bots' parameter lists. */
const BOT_MODELS: readonly BotModel[] = ['auto', 'paranoid', 'maxn', 'maxn-late', 'maxn-early', 'heuristic'];

/**
 * What `auto` means for a game and table: in a game of two teams, `paranoid` is exact
 * minimax between the sides, the sound choice whoever the others are (the heuristic
 * model takes the partner for a heuristic player, and lost to it head to head); in a
 * game of individuals no search model is sound, and the heuristic model played best
 * (bots/NOTES.md has the figures).
 */
export function resolveModel(model: BotModel, game: Game, table: TableConfig): Exclude<BotModel, 'auto'> {
  if (model !== 'auto') return model;
  return game.teams(table.seats) === null ? 'heuristic' : 'paranoid';
}

/** The `model`, `playout` and `depth` parameters of the bots that play through `PerfectPlay` or `PolicySearch` (pimc, the oracle). */
export function modelParams(defaults: {
  model: BotModel;
  playout: EstimatePlayout;
  depth: number;
  /** What `auto` means for this bot, as its parameter list says it. */
  auto: string;
}): ParamSpec[] {
  return [
    {
      key: 'model',
      type: BOT_MODELS,
      default: defaults.model,
      description: `who the others are taken to be: paranoid (all against the seat; with teams, the other team), maxn (games without teams: each seat for itself), maxn-late/maxn-early (max^n only in the exact/horizon searches), heuristic (each other seat plays the game's heuristic; the seat searches its own decisions for the deal's real result), auto (${defaults.auto})`,
    },
    {
      key: 'playout',
      type: ESTIMATE_PLAYOUTS,
      default: defaults.playout,
      description:
        'the playout that estimates beyond a horizon, in games without teams: coalition (the others against the seat, as the search assumes) or selfish (each seat for itself)',
    },
    {
      key: 'depth',
      type: 'int',
      default: defaults.depth,
      min: 1,
      max: 39,
      description:
        "with the heuristic model: the seat's own decisions searched (the move itself is the first); beyond them the heuristic plays the seat too",
    },
  ];
}

export class PerfectPlay {
  readonly solver: Solver;
  /** Max^n search, for games without teams (null with teams: there minimax is exact). */
  readonly maxn: MaxnSolver | null;
  /** The model of the current decision's card values (`begin`). */
  model: OpponentModel = 'paranoid';
  /** Nodes searched since `begin`. */
  used = 0;
  /** Tricks left at or below which worlds are solved exactly (see the module doc). */
  exact = 4;
  /** The decision's node budget: what exact solves may use up, and what shares are cut from. */
  budget = 0;

  /** +1 when more of the measure is better, -1 when less. */
  private readonly sign: number;
  private readonly game: Game;
  /** The march targets by seat (`Game.dealAims`), and the marcher each move leads to (-1: none). */
  private readonly aims: DealAims;
  private readonly marcher = new Int8Array(CODE_LIMIT);
  private readonly moveList = new Int32Array(CODE_LIMIT);
  private readonly childState: State;
  private readonly legal = newSets(2);
  private readonly trial = new Float64Array(CODE_LIMIT);
  private readonly values = new Float64Array(CODE_LIMIT);
  private readonly ret: Float64Array;
  /** The state a root answer is played out in, the state of a look-ahead, and of a declaration test. */
  private readonly optionState: State;
  private readonly lookState: State;
  private readonly declareState: State;

  constructor(game: Game, table: TableConfig, ttBits: number) {
    this.solver = new Solver(game, table, { ttBits });
    this.maxn = game.teams(table.seats) === null ? new MaxnSolver(game, table, { ttBits }) : null;
    this.game = game;
    this.sign = game.searchGoal.more ? 1 : -1;
    this.aims = { target: new Float64Array(table.seats) };
    this.childState = game.newState(table);
    this.ret = new Float64Array(table.seats);
    this.optionState = game.newState(table);
    this.lookState = game.newState(table);
    this.declareState = game.newState(table);
  }

  /** Start a decision with `budget` nodes. */
  begin(
    budget: number,
    exact: number,
    model: OpponentModel = 'paranoid',
    playout: EstimatePlayout = 'coalition',
    keepEstimates = false,
  ): void {
    this.model = model;
    this.solver.selfishPlayout = playout === 'selfish' && this.maxn !== null;
    this.solver.keepEstimates = keepEstimates;
    this.budget = budget;
    this.exact = exact;
    this.used = 0;
  }

  /** Nodes of the budget not yet used (0 once overspent). */
  get left(): number {
    return Math.max(0, this.budget - this.used);
  }

  /**
   * The value (higher is better for `seat`'s side) of each legal move of `seat`, who
   * is to play a card in `s`, written to `out[code]`. Deepening uses at most about
   * `share` nodes. Returns the depth in tricks of the values (Infinity: exact).
   */
  cardValues(s: State, seat: number, share: number, out: Float64Array): number {
    const tl = s.tricksLeft();
    if (tl <= this.exact && this.search(s, seat, Infinity, Math.max(1, this.left), out)) return Infinity;
    let spent = 0;
    let last = 0;
    let depth = 0;
    for (let h = 1; ; h++) {
      const full = h >= tl;
      const limit = h === 1 ? Infinity : share - spent;
      if (h > 1 && limit < GROWTH * last) break;
      const before = this.used;
      const into = h === 1 ? out : this.trial;
      if (!this.search(s, seat, full ? Infinity : h, limit, into)) break;
      last = this.used - before;
      spent += last;
      depth = full ? Infinity : h;
      if (h > 1) this.copyLegal(s, into, out);
      if (full) break;
    }
    return depth;
  }

  /** Whether the game gives marches and an outlook, so that `aimValues` differs from `cardValues`. */
  get hasAims(): boolean {
    return this.game.dealAims !== undefined && this.game.outlook !== undefined;
  }

  /**
   * Like `cardValues`, but each value is the deal's outlook for `seat` (`Game.outlook`,
   * about `returns()[seat]`) after the move: the march tests of the module doc decide
   * who marches, else the card-measure value from `cardValues` is the seat's own
   * measure. Games without `dealAims`/`outlook` get `cardValues`. Returns its depth.
   */
  aimValues(s: State, seat: number, share: number, out: Float64Array): number {
    const game = this.game;
    if (!game.dealAims || !game.outlook) return this.cardValues(s, seat, share, out);
    const before = this.used;
    const allowance = share * AIM_SHARE;
    const n = this.listLegal(s);
    const moves = this.moveList;
    const marcher = this.marcher;
    for (let i = 0; i < n; i++) marcher[moves[i]] = -1;
    game.dealAims(s, this.aims);
    const target = this.aims.target;
    const inPlay = s.inPlay();
    const seats = s.seats;
    // The seat itself first, then the others in playing order.
    for (let k = 0; k < seats; k++) {
      const q = (seat + k) % seats;
      const t = target[q];
      if (!(s.taken(q) + inPlay >= t)) continue;
      const root = this.marchTest(s, q, t, allowance - (this.used - before));
      if (root < 0) continue;
      if (q === seat) {
        if (root === 0) continue;
      } else if (root === 1) {
        for (let i = 0; i < n; i++) if (marcher[moves[i]] < 0) marcher[moves[i]] = q;
        continue;
      } else if (this.marchTest(s, q, t - AIM_SLACK, allowance - (this.used - before)) !== 1) continue;
      const c = this.childState;
      for (let i = 0; i < n; i++) {
        const m = moves[i];
        if (marcher[m] >= 0) continue;
        c.copyFrom(s);
        c.apply(m);
        if (this.marchTest(c, q, t, allowance - (this.used - before)) === 1) marcher[m] = q;
      }
    }
    const depth = this.cardValues(s, seat, Math.max(0, share - (this.used - before)), out);
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      out[m] = game.outlook(s, seat, this.sign * out[m], marcher[m]);
    }
    return depth;
  }

  /** 1 if `seat` can force at least `target` of the measure in `s` (exact), 0 if not, -1 if the test did not fit in `limit` nodes. */
  private marchTest(s: State, seat: number, target: number, limit: number): number {
    if (limit < 1) return -1;
    const r = this.test(s, seat, target, Infinity, limit, true);
    return this.solver.aborted ? -1 : r ? 1 : 0;
  }

  /** The legal moves of `s` into `moveList`, in code order; returns their number. */
  private listLegal(s: State): number {
    const legal = this.legal;
    s.legal(legal, 0);
    return setCodesInto(legal, 0, this.moveList);
  }

  /** The move the solver policy plays for `s.toMove` at a card decision (ties: the lowest code). */
  bestMove(s: State, share: number): number {
    const legal = this.legal;
    const n = s.legal(legal, LANES);
    if (n === 1) return setFirst(legal, LANES);
    const values = this.values;
    this.cardValues(s, s.toMove, share, values);
    let best = -1;
    let bestValue = -Infinity;
    for (let l = 0; l < LANES; l++) {
      for (let m = legal[LANES + l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | (31 - Math.clz32(m & -m));
        if (values[code] > bestValue) {
          bestValue = values[code];
          best = code;
        }
      }
    }
    return best;
  }

  /**
   * `returns()[seat]` after answering `option` (YES or NO) at the yes/no decision of
   * `world` and playing the deal out with the solver policy (see the module doc);
   * each playout move may deepen with `share / PLAYOUT_SPLIT` nodes.
   */
  answerValue(world: State, seat: number, option: number, share: number): number {
    const a = this.optionState;
    a.copyFrom(world);
    a.apply(option);
    this.playOut(a, share / PLAYOUT_SPLIT, true);
    a.returns(this.ret);
    return this.ret[seat];
  }

  /** The answer the playout gives at the yes/no decision of `s` (see the module doc). */
  answer(s: State, share: number, lookahead: boolean): number {
    if (s.decision === Decision.Declare) return this.declare(s, share);
    if (!lookahead || this.used >= this.budget) return NO;
    const seat = s.toMove;
    const t = this.lookState;
    t.copyFrom(s);
    t.apply(NO);
    this.playOut(t, share, false);
    t.returns(this.ret);
    const no = this.ret[seat];
    t.copyFrom(s);
    t.apply(YES);
    this.playOut(t, share, false);
    t.returns(this.ret);
    return this.ret[seat] > no ? YES : NO;
  }

  private playOut(s: State, share: number, lookahead: boolean): void {
    while (!s.isTerminal())
      s.apply(s.decision === Decision.Card ? this.bestMove(s, share) : this.answer(s, share, lookahead));
  }

  /** Declare in when a trick is sure with every seat still to declare in too (module doc). */
  private declare(s: State, share: number): number {
    const seat = s.toMove;
    const d = this.declareState;
    d.copyFrom(s);
    do d.apply(YES);
    while (d.decision === Decision.Declare);
    if (d.isTerminal()) {
      d.returns(this.ret);
      return this.ret[seat] > 0 ? YES : NO;
    }
    return this.reaches(d, seat, 1, share) ? YES : NO;
  }

  /** `Solver.reaches` exactly when it fits, else the deepest horizon that finishes (as `cardValues`). */
  private reaches(s: State, seat: number, target: number, share: number): boolean {
    const sv = this.solver;
    const tl = s.tricksLeft();
    if (tl <= this.exact) {
      const r = this.test(s, seat, target, Infinity, Math.max(1, this.left));
      if (!sv.aborted) return r;
    }
    let answer = false;
    let spent = 0;
    let last = 0;
    for (let h = 1; ; h++) {
      const full = h >= tl;
      const limit = h === 1 ? Infinity : share - spent;
      if (h > 1 && limit < GROWTH * last) break;
      const before = this.used;
      const r = this.test(s, seat, target, full ? Infinity : h, limit);
      if (sv.aborted) break;
      answer = r;
      last = this.used - before;
      spent += last;
      if (full) break;
    }
    return answer;
  }

  /** One `reaches` call from a cleared table (`more`: the aim, by default the game's); `solver.aborted` tells if it fit. */
  private test(
    s: State,
    seat: number,
    target: number,
    horizon: number,
    limit: number,
    more = this.solver.goal.more,
  ): boolean {
    const sv = this.solver;
    sv.reset();
    sv.horizon = horizon;
    sv.nodeLimit = limit;
    const r = sv.reaches(s, seat, target, more);
    this.used += Math.min(sv.nodes, limit);
    sv.horizon = Infinity;
    sv.nodeLimit = Infinity;
    return r;
  }

  /** One solver call: `moveValues` from a cleared table, turned to higher-is-better. False if it aborted. */
  private search(s: State, seat: number, horizon: number, limit: number, out: Float64Array): boolean {
    const m = this.model;
    const useMaxn =
      m === 'maxn' || (m === 'maxn-late' && horizon === Infinity) || (m === 'maxn-early' && horizon !== Infinity);
    const sv = useMaxn && this.maxn !== null ? this.maxn : this.solver;
    sv.reset();
    sv.horizon = horizon;
    sv.nodeLimit = limit;
    sv.moveValues(s, seat, out);
    this.used += Math.min(sv.nodes, limit);
    const ok = !sv.aborted;
    sv.horizon = Infinity;
    sv.nodeLimit = Infinity;
    if (ok && this.sign < 0) {
      const legal = this.legal;
      s.legal(legal, 0);
      for (let l = 0; l < LANES; l++) {
        for (let m = legal[l]; m !== 0; m &= m - 1) {
          const code = (l << 5) | (31 - Math.clz32(m & -m));
          out[code] = -out[code];
        }
      }
    }
    return ok;
  }

  private copyLegal(s: State, from: Float64Array, to: Float64Array): void {
    const legal = this.legal;
    s.legal(legal, 0);
    for (let l = 0; l < LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | (31 - Math.clz32(m & -m));
        to[code] = from[code];
      }
    }
  }
}
