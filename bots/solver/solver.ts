/**
 * The exact solver of the card play: with every hand known (a sampled world, or the
 * oracle's view), the value of a position is the game's search measure (card points
 * or tricks, `Game.searchGoal`) that one side takes by the end when every seat plays
 * perfectly. It works through the game contract only: states are copied down a stack
 * of preallocated states and advanced with `apply`.
 *
 * ## Who plays against whom
 *
 * Partnership games (Viersche) are two-sided and zero-sum in the measure: the side is
 * the root seat's team, which maximises its card points; the other team minimises
 * them. That is exact minimax. For the games where everyone plays for himself
 * (Hindersche, Hindersi-Jass, Vier-Anderle) the reduction is **paranoid search**: the
 * root seat alone is the side, and every other seat is assumed to play against it
 * (to give it the most points in the fewest-points games, the fewest tricks in
 * Vier-Anderle). Why paranoid: it is sound (the value is a guarantee the root can
 * enforce whatever the others do), it keeps alpha-beta's two-valued pruning, and in
 * these games the others' interests really do line up against whoever is close to
 * losing. Its known cost is pessimism: it assumes a coalition that real players do not
 * always form. The game aims that are not sums of cards (a Hindersche march, the Jass
 * all-tricks charge, a Vier-Anderle trick at all) are reached through `target`: the
 * zero-window test "can the side reach t?" is exactly what the value search probes.
 *
 * ## What makes it fast (DDS is the model)
 *
 * - A transposition table at trick boundaries, keyed on the hands and the leader,
 *   holding bounds on the measure still to come (so transpositions share entries
 *   whatever was taken before).
 * - Zero-window searches converging on the value (MTD(f)'s idea, which lets the table
 *   prune with bounds): the first at a guess (the caller's, e.g. the previous move's
 *   value, or a greedy playout's), then bisection of the interval left (`converge`).
 * - Bounds from the points still in play: at a trick boundary the side can finish with
 *   no less than it has and no more than it has plus everything still in play, so a
 *   window outside that range is decided without search. `State.sureTaken` narrows
 *   the range by what each party surely still takes (the points of a run of top trumps).
 * - Equivalent-card pruning (`State.searchMoves`): of cards adjacent in strength with
 *   the cards between them gone, and worth the same, only one is searched.
 * - Move ordering: the table's best move first; when following, the moves a card
 *   player would try first (see `order`); leading, trumps first, and within trumps
 *   and within the rest the lead that last cut off at the same depth for the same
 *   seat (a killer move) first, then the rest of the trumps high first, the rest by
 *   the history heuristic (the killers: 14% fewer nodes on whole Viersche deals).
 * - The game's own search of the last tricks (`State.endgame`, where a game has one:
 *   Viersche's last five, on bare hand masks, viersche/endgame.ts). Most positions of
 *   a search lie in its last tricks, and there a copied state, full move generation,
 *   ordering and a table probe cost many times the position itself. The shortcut asks
 *   and keeps the solver's table itself at its trick boundaries (with `searchKey`'s
 *   keys, so the transpositions of the tricks before it still meet there).
 * - The game's own greedy playout and last card before the horizon (`State.greedyPlayout`,
 *   `State.horizonCard`, where a game has them: Viersche's viersche/playout.ts), on bare
 *   hand masks with exactly the solver's choices, node counts and history, so that play
 *   under a node budget stays the same. Horizon searches (pimc's, the oracle's) spend most
 *   of their nodes in playouts, and their leaves cost a state copy each through the
 *   state; through the game's own, pimc in Viersche takes about two thirds of the time.
 * - A second table inside the first tricks of a deal (`State.trickKey`, where a game has
 *   one): every zero-window probe descends again from the root, and there the bounds an
 *   earlier probe found for a position inside a trick often decide the new window.
 *
 * ## Budgets
 *
 * Nodes are positions visited, the shortcut's included (`State.endgame` reports them).
 * `nodeLimit` aborts a search that grows too large (`aborted` is then set and the
 * result is meaningless), checked between the shortcut's calls, so a search may pass
 * it by one call's positions (Viersche: at most 99,000 on six whole deals of the
 * bench). `horizon` stops the search after that many tricks from the root and values
 * the rest by a greedy playout (see `greedyPlayout`): an estimate, used by `pimc`
 * early in a deal. Every zero-window probe descends to the horizon again and most of
 * its positions there were estimated by an earlier probe: with `keepEstimates` each
 * position's estimate is kept in the table (about 40% of the playouts of pimc's
 * Viersche searches are then saved, and the nodes go to deeper search).
 */
import { lowestBit } from '../../src/core/bits.js';
import { LANES, setFirst } from '../../src/core/cardset.js';
import { insertByScore } from '../../src/core/scored.js';
import {
  Decision,
  NO,
  SEARCH_KEY_WORDS,
  type Game,
  type SearchGoal,
  type State,
  type TableConfig,
} from '../../src/games/game.js';
import { selfishMove } from './playout.js';
import { Transposition } from './transposition.js';

/** Deepest stack: every card of the largest deal plus a yes/no answer after each trick. */
const MAX_DEPTH = 160;
const INF = 1 << 20;
/**
 * Positions inside a trick are kept in their own table only with at least this many
 * tricks left. On Viersche's whole deals (nine tricks) there is a probe per 1,300 nodes
 * at seven tricks left and more, and the table takes 10-14% of the nodes off; deeper
 * down the probes cost more than they save (six tricks left: a probe per 20 nodes; from
 * six or five tricks left, more nodes in all). See bench/README.
 */
const TRICK_TABLE_FROM = 7;
/** log2 of the most rows of the table inside tricks. */
const TRICK_TABLE_BITS = 18;
/** Probes of one `converge` kept for `probes` (a bisection of 0-157 takes at most 9, stepping from a guess about 16). */
const MAX_PROBES = 64;
/** The most moves a seat can have: a 12-card Hindersi-Jass hand. */
const MAX_MOVES = 16;

export interface SolverOptions {
  /** log2 of the transposition table's entries (default 20). */
  readonly ttBits?: number;
  /** Value the last tricks by the game's `State.endgame` where it has one (default true). */
  readonly endgame?: boolean;
  /**
   * Keep bounds of positions inside tricks (games with `State.trickKey`) from this many
   * tricks left up (default `TRICK_TABLE_FROM`; Infinity: never).
   */
  readonly trickTableFrom?: number;
  /**
   * Play the greedy playout and the last card before the horizon through the game's
   * `State.greedyPlayout` and `State.horizonCard` where it has them (default true;
   * false: through the state, as the tests compare). Neither with `selfishPlayout`, and
   * the last card not with `keepEstimates` either.
   */
  readonly kernelPlayout?: boolean;
}

/** One zero-window search of `converge`: did the value reach `target`? `result` is its fail-soft bound. */
export interface Probe {
  readonly target: number;
  readonly result: number;
  readonly nodes: number;
}

export class Solver {
  readonly goal: SearchGoal;
  /** Nodes visited since the last `reset`. */
  nodes = 0;
  /** Abort a call (`value`, `moveValues`, `reaches`) after this many nodes. */
  nodeLimit = Infinity;
  /** Set when a search stopped at `nodeLimit`: its result is then meaningless. */
  aborted = false;
  /**
   * Tricks after which the search stops and estimates (Infinity: search to the end).
   * With a horizon the table is cleared before every search.
   */
  horizon = Infinity;
  /**
   * Beyond the horizon, each seat plays for itself (`selfishMove`, playout.ts) instead
   * of the coalition's rule of thumb (see `greedyPlayout`). For the games without teams.
   */
  selfishPlayout = false;
  /**
   * Keep the estimate of each position at the horizon in the table (exact bounds on what
   * is still to come), so that the zero-window probes of a search, which descend again
   * and again to the same positions, and transpositions reaching one position by other
   * orders of play, run its playout once (see `horizonValue`).
   */
  keepEstimates = false;

  /** Zero-window searches of the last `converge` (`value`, one per move of `moveValues`), in order: see `probes`. */
  private probeCount = 0;
  private readonly probeTarget = new Int32Array(MAX_PROBES);
  private readonly probeResult = new Int32Array(MAX_PROBES);
  private readonly probeNodes = new Float64Array(MAX_PROBES);

  private readonly stack: State[] = [];
  private readonly moves = new Int32Array(MAX_DEPTH * LANES);
  private readonly keys = new Int32Array(MAX_DEPTH * SEARCH_KEY_WORDS);
  private readonly lastMove = new Int32Array(LANES);
  /** `State.greedyPlayout`'s answer: the side's measure at the end, moves made. */
  private readonly playout = new Int32Array(2);
  /** `State.horizonCard`'s answer: value, best move, nodes, stopped. */
  private readonly kernel = new Int32Array(4);
  /** Whether the game's own playout and last card may serve (`SolverOptions.kernelPlayout`). */
  private readonly kernelPlayout: boolean;
  /** `State.endgame`'s answer: the measure still to come, positions visited. */
  private readonly endgame = new Int32Array(2);
  /** The game's `State.endgameTricks` (0: none). */
  private readonly endgameTricks: number;
  /**
   * `endgameTricks` in a search without a horizon before the end of the deal, else 0:
   * the shortcut searches to the end, so a horizon search (an estimate) goes without.
   */
  private shortcutTricks = 0;
  /** Bounds of positions inside tricks (games with `State.trickKey`), and from how many tricks left. */
  private readonly trickTable: Transposition | null;
  private readonly trickTableFrom: number;
  /** `State.sureTaken`'s answer: the side's sure measure, the others'. */
  private readonly sure = new Int32Array(2);
  /** Per depth: the moves in search order, and their ordering scores. */
  private readonly list = new Int32Array(MAX_DEPTH * MAX_MOVES);
  private readonly scores = new Int32Array(MAX_DEPTH * MAX_MOVES);
  /** Cut-offs per seat and move code, weighted by tricks left squared (the history heuristic). */
  private readonly history: Int32Array;
  /** By depth * seats + seat: the lead that last cut off there (-1: none; see `order`). */
  private readonly killer: Int32Array;
  /** The root's legal moves (lanes 0-3) and their interchangeable-reduced set (4-7). */
  private readonly rootMoves = new Int32Array(2 * LANES);
  private readonly tt: Transposition;
  /** 1 for the seats whose measure counts, by seat. */
  private readonly inSide: Uint8Array;
  /** 1 for the seats that maximise the side's measure. */
  private readonly maximizer: Uint8Array;
  /**
   * 1 where a seat still to play to the trick would gain by winning it and is a bad
   * winner for the seat to play, by seat * seats + cards already in the trick.
   */
  private readonly threat: Uint8Array;
  /** The team (or seat) whose measure the table's entries hold, or -1. */
  private sideKey = -1;
  /** The horizon of the searches whose results the table holds. */
  private tableHorizon = Infinity;
  private limitAt = Infinity;
  private rootTricksLeft = 0;

  constructor(
    private readonly game: Game,
    private readonly table: TableConfig,
    options: SolverOptions = {},
  ) {
    this.goal = game.searchGoal;
    this.tt = new Transposition(options.ttBits ?? 20);
    this.inSide = new Uint8Array(table.seats);
    this.maximizer = new Uint8Array(table.seats);
    this.threat = new Uint8Array(table.seats * table.seats);
    this.history = new Int32Array(table.seats * 128);
    this.killer = new Int32Array(MAX_DEPTH * table.seats).fill(-1);
    this.endgameTricks = options.endgame === false ? 0 : (this.at(0).endgameTricks ?? 0);
    this.trickTableFrom = options.trickTableFrom ?? TRICK_TABLE_FROM;
    this.kernelPlayout = options.kernelPlayout !== false;
    const keyed = this.at(0).trickKey !== undefined && Number.isFinite(this.trickTableFrom);
    this.trickTable = keyed ? new Transposition(Math.min(options.ttBits ?? 20, TRICK_TABLE_BITS)) : null;
  }

  /** Forget the transposition table, the move-ordering history and killers, and the node count. */
  reset(): void {
    this.tt.reset();
    this.trickTable?.reset();
    this.history.fill(0);
    this.killer.fill(-1);
    this.nodes = 0;
    this.aborted = false;
  }

  /** The measure that `seat`'s side has taken so far in `state`. */
  takenBy(state: State, seat: number): number {
    this.setSide(seat, this.goal.more);
    return this.measure(state);
  }

  /**
   * The exact final measure of `seat`'s side from `state` under perfect play (its side
   * seeking `more` measure, by default the game's aim `goal.more`, the others the
   * opposite). `guess` seeds MTD(f). Seeking the opposite of the game's aim is how
   * the aims that are not sums are tested: a Hindersche march is 100 points or more.
   */
  value(state: State, seat: number, guess = NaN, more = this.goal.more): number {
    this.setSide(seat, more);
    const root = this.load(state);
    const lo = this.measure(root);
    const hi = lo + root.inPlay();
    return this.converge(0, guess, lo, hi);
  }

  /**
   * Whether `seat`'s side can make its measure reach at least `target` (`more`) or
   * keep it at most `target` (not `more`) whatever the others do: one zero-window
   * search. `more` defaults to the game's aim.
   */
  reaches(state: State, seat: number, target: number, more = this.goal.more): boolean {
    this.setSide(seat, more);
    this.load(state);
    // The side maximises when `more`: test value >= target; else the side minimises: test value <= target.
    return more ? this.search(0, target - 1, target) >= target : this.search(0, target, target + 1) <= target;
  }

  /**
   * The exact final measure of `seat`'s side after each of `seat`'s legal moves:
   * `out[code]` for every legal move code (moves interchangeable in this world share
   * one search). `state.toMove` must be `seat` at a card decision. `more` as in `value`.
   */
  moveValues(state: State, seat: number, out: Float64Array, more = this.goal.more): void {
    this.setSide(seat, more);
    const root = this.load(state);
    const off = 0;
    const legal = this.rootMoves;
    root.legal(legal, off);
    const reduced = this.rootMoves;
    const roff = LANES;
    for (let l = 0; l < LANES; l++) reduced[roff + l] = legal[off + l];
    root.searchMoves(reduced, roff);
    let guess = NaN;
    for (let l = 0; l < LANES; l++) {
      let current = 0;
      for (let m = legal[off + l]; m !== 0; m &= m - 1) {
        const bit = lowestBit(m);
        const code = (l << 5) | bit;
        if ((reduced[roff + l] >>> bit) & 1) {
          const child = this.at(1);
          child.copyFrom(root);
          child.apply(code);
          const lo = this.measure(child);
          const hi = lo + child.inPlay();
          current = this.converge(1, guess, lo, hi);
          if (this.aborted) return;
          guess = current;
        }
        out[code] = current;
      }
    }
  }

  /** Copy `state` to the bottom of the stack. */
  private load(state: State): State {
    const root = this.at(0);
    root.copyFrom(state);
    // Estimates depend on the root's distance to the horizon: they are never kept.
    if (this.horizon !== Infinity || this.tableHorizon !== Infinity) {
      this.tt.clear();
      this.trickTable?.clear();
    }
    this.tableHorizon = this.horizon;
    this.aborted = false;
    this.limitAt = this.nodes + this.nodeLimit;
    this.rootTricksLeft = root.tricksLeft();
    this.shortcutTricks = this.horizon >= this.rootTricksLeft ? this.endgameTricks : 0;
    return root;
  }

  private setSide(seat: number, more: boolean): void {
    const teams = this.game.teams(this.table.seats);
    for (let s = 0; s < this.table.seats; s++) {
      const side = teams === null ? s === seat : teams[s] === teams[seat];
      this.inSide[s] = side ? 1 : 0;
      this.maximizer[s] = side === more ? 1 : 0;
    }
    // Threats, by seat to play and cards already in the trick (see `order`).
    const seats = this.table.seats;
    for (let seat = 0; seat < seats; seat++) {
      const max = this.maximizer[seat] === 1;
      for (let cards = 1; cards < seats; cards++) {
        let threat = 0;
        for (let k = 1; k < seats - cards; k++) {
          const x = (seat + k) % seats;
          if (this.inSide[x] === this.maximizer[x] && (this.inSide[x] === 1) !== max) threat = 1;
        }
        this.threat[seat * seats + cards] = threat;
      }
    }
    // The table's bounds are the measure of one side seeking one aim: another needs a fresh table.
    const key = (teams === null ? seat : teams[seat]) * 2 + (more ? 1 : 0);
    if (key !== this.sideKey) {
      this.sideKey = key;
      this.tt.clear();
      this.trickTable?.clear();
    }
  }

  private measure(s: State): number {
    let sum = 0;
    for (let seat = 0; seat < this.inSide.length; seat++) if (this.inSide[seat] === 1) sum += s.taken(seat);
    return sum;
  }

  private at(depth: number): State {
    while (this.stack.length <= depth) this.stack.push(this.game.newState(this.table));
    return this.stack[depth];
  }

  /**
   * Write the moves of `stack[depth]` into `list` in the order to search them and
   * return how many. The table's move first. Following to a trick, the moves a good
   * player tries first, where a "threat" is a seat still to play to the trick that
   * would gain by winning it and is a bad winner for this seat (seats out of the deal
   * count as if in: that only orders a little worse):
   * - the trick going this seat's way: throw points on it, highest first, or with a
   *   threat play low; rather than take it;
   * - else, if taking it is good for the seat: take it, with the strongest card under a
   *   threat, else with the most points and the weakest card that does;
   * - else throw the least points.
   * Leads: trumps first (drawing trumps; see `SearchGoal.trumpLane`), and within the
   * trumps and within the rest the killer first (the lead that last cut off at this
   * depth for this seat: a sibling's refutation often refutes again); then trumps
   * highest first, the rest by the history of cut-offs, high cards first.
   *
   * The greedy playout (`playoutMove`) scores moves alike but without threats, killers
   * or trump-first leads: those order a proof well but play badly (the estimates of
   * horizon searches, and with them pimc and the oracle, got worse).
   */
  private order(s: State, depth: number, ttMove: number): number {
    const off = depth * LANES;
    const moves = this.moves;
    s.searchMoves(moves, off);
    const seat = s.toMove;
    const hoff = seat * 128;
    const history = this.history;
    const list = this.list;
    const scores = this.scores;
    const base = depth * MAX_MOVES;
    let n = 0;
    if (s.trickCards === 0) {
      const trumpLane = this.goal.trumpLane;
      const killer = this.killer[depth * this.table.seats + seat];
      for (let l = 0; l < LANES; l++) {
        for (let m = moves[off + l]; m !== 0; m &= m - 1) {
          const bit = lowestBit(m);
          const code = (l << 5) | bit;
          // The table's move; then trumps before the rest, and within each the killer, then
          // (trumps) high cards, (the rest) the history, below 2^28, and high cards.
          const trump = l === trumpLane;
          const rank =
            code === killer ? 1 << 28 : trump ? bit : Math.min(history[hoff + code], (1 << 22) - 1) * 64 + bit;
          const score = code === ttMove ? 1 << 30 : (trump ? 1 << 29 : 0) + rank;
          n = insertByScore(list, scores, base, n, code, score);
        }
      }
      return n;
    }
    const max = this.maximizer[seat] === 1;
    const w = s.winning();
    // A winner is good for this seat when the trick then moves the measure its way.
    const goodNow = w >= 0 && (this.inSide[w] === 1) === max;
    const selfGood = (this.inSide[seat] === 1) === max;
    const threat = this.threat[seat * this.table.seats + s.trickCards] === 1;
    for (let l = 0; l < LANES; l++) {
      for (let m = moves[off + l]; m !== 0; m &= m - 1) {
        const bit = lowestBit(m);
        const code = (l << 5) | bit;
        let score: number;
        if (code === ttMove) score = 1 << 30;
        else {
          const pts = s.worth(code);
          const heads = s.heads(code);
          // Throw points on a trick going this seat's way unless a seat still to play may take it away.
          if (goodNow) score = heads ? 1000 + pts : threat ? 4000 - pts * 8 : 4000 + pts * 8;
          // Take a trick that is good to take: with the strongest card while it may still be
          // taken away, else with the most points and the weakest card that does it.
          else if (heads) score = selfGood ? (threat ? 4000 + bit * 4 + pts : 4000 + pts * 4 - bit) : 1000 - pts;
          else score = selfGood ? 2000 - pts * 8 : 3000 + pts * 8;
          score = score * 1024 + Math.min(1023, history[hoff + code]);
        }
        n = insertByScore(list, scores, base, n, code, score);
      }
    }
    return n;
  }

  /**
   * The exact value at `stack[depth]`, known to lie in [lo, hi], by zero-window
   * searches. Without a guess (NaN): the first at the greedy playout's value, then
   * bisection of what is left. Classic MTD(f) steps from each result to the next, which
   * on card points (values 0 to 140, fail-soft results often one point off) took a
   * median 25 searches from six tricks left; bisection takes about 6, and 30% fewer
   * nodes. With a guess (`moveValues`: the sibling's value) the searches step away from
   * it by 1, 2, 4, ... until the value is bracketed, then bisect: probes near the value
   * are the dear ones, and a guess on the value costs two (8-10% fewer nodes than
   * bisection for `moveValues` in Viersche; from the greedy playout's guess, which is
   * typically 13 points off after three tricks, stepping costs more than bisection).
   */
  private converge(depth: number, guess: number, lo: number, hi: number): number {
    const stepping = !Number.isNaN(guess);
    let beta = stepping ? guess : this.greedyPlayout(this.stack[depth], depth + 1);
    let step = 1;
    let above = false;
    let below = false;
    this.probeCount = 0;
    while (lo < hi) {
      beta = Math.min(hi, Math.max(lo + 1, beta));
      const before = this.nodes;
      const g = this.search(depth, beta - 1, beta);
      if (this.aborted) return NaN;
      this.keepProbe(beta, g, this.nodes - before);
      if (g < beta) {
        hi = g;
        below = true;
      } else {
        lo = g;
        above = true;
      }
      if (stepping && !(above && below)) {
        // Still on one side of the guess: the next test a step further out.
        beta = above ? lo + step : hi - step + 1;
        step *= 2;
      } else beta = (lo + hi + 1) >> 1;
    }
    return lo;
  }

  private keepProbe(target: number, result: number, nodes: number): void {
    const i = this.probeCount;
    if (i === MAX_PROBES) return;
    this.probeTarget[i] = target;
    this.probeResult[i] = result;
    this.probeNodes[i] = nodes;
    this.probeCount = i + 1;
  }

  /**
   * The zero-window searches of the last exact value found (`value`, or the last move
   * of `moveValues`), in order: each tested whether the value reaches `target`, and
   * `result` is the fail-soft bound it returned (the value is at least `result` when
   * `result >= target`, else at most it). Where the nodes of a solve went: the probes
   * near the value are the dear ones. None when the bounds decided without search.
   */
  probes(): Probe[] {
    const out: Probe[] = [];
    for (let i = 0; i < this.probeCount; i++)
      out.push({ target: this.probeTarget[i], result: this.probeResult[i], nodes: this.probeNodes[i] });
    return out;
  }

  /**
   * The estimate beyond the horizon: the rest of the deal played out by every seat
   * taking `playoutMove`'s move (throw points on a trick going its
   * way, win cheaply when winning is good for it, else duck with the fewest points;
   * lead by the history of cut-offs, high cards first).
   * A card player's rule of thumb, so the estimate knows who holds the high cards,
   * which an even split of the points left would not. With `selfishPlayout` each seat
   * plays for itself instead (playout.ts), not as the side or its opponents.
   */
  private greedyPlayout(s: State, depth: number): number {
    if (this.kernelPlayout && !this.selfishPlayout && s.greedyPlayout !== undefined) {
      // The game's own playout on bare hands: the same cards, a fraction of the time.
      const out = this.playout;
      s.greedyPlayout(this.inSide, this.maximizer, this.history, out);
      this.nodes += out[1];
      return out[0];
    }
    const scratch = this.at(depth);
    scratch.copyFrom(s);
    while (scratch.decision !== Decision.None) {
      if (scratch.decision !== Decision.Card) scratch.apply(NO);
      else if (this.selfishPlayout) scratch.apply(selfishMove(scratch, this.goal, this.moves, depth * LANES));
      else scratch.apply(this.playoutMove(scratch, depth));
      this.nodes++;
    }
    return this.measure(scratch);
  }

  /**
   * The greedy playout's move: the move `order` would put first with no table move,
   * no threats, no killer and no trump-first lead, found without ordering the rest (the
   * first in code order among the best scores, as `insertByScore` keeps them). Most of
   * a horizon search's time is spent in its playouts, so it is kept to one pass.
   */
  private playoutMove(s: State, depth: number): number {
    const off = depth * LANES;
    const moves = this.moves;
    s.searchMoves(moves, off);
    const hoff = s.toMove * 128;
    const history = this.history;
    let best = -1;
    let bestScore = -INF * 1024;
    if (s.trickCards === 0) {
      for (let l = 0; l < LANES; l++) {
        for (let m = moves[off + l]; m !== 0; m &= m - 1) {
          const bit = lowestBit(m);
          const code = (l << 5) | bit;
          const score = Math.min(history[hoff + code], (1 << 22) - 1) * 64 + bit;
          if (score > bestScore) {
            bestScore = score;
            best = code;
          }
        }
      }
      return best;
    }
    const seat = s.toMove;
    const max = this.maximizer[seat] === 1;
    const w = s.winning();
    const goodNow = w >= 0 && (this.inSide[w] === 1) === max;
    const selfGood = (this.inSide[seat] === 1) === max;
    for (let l = 0; l < LANES; l++) {
      for (let m = moves[off + l]; m !== 0; m &= m - 1) {
        const bit = lowestBit(m);
        const code = (l << 5) | bit;
        const pts = s.worth(code);
        let score: number;
        // As `order` without threats (see there).
        if (goodNow) score = s.heads(code) ? 1000 + pts : 4000 + pts * 8;
        else if (s.heads(code)) score = selfGood ? 4000 + pts * 4 - bit : 1000 - pts;
        else score = selfGood ? 2000 - pts * 8 : 3000 + pts * 8;
        score = score * 1024 + Math.min(1023, history[hoff + code]);
        if (score > bestScore) {
          bestScore = score;
          best = code;
        }
      }
    }
    return best;
  }

  /**
   * The estimate of `stack[depth]`, a trick boundary at the horizon whose side has
   * `base`: the greedy playout's, or with `keepEstimates` the one kept in the table for
   * the same hands and leader. The table holds one horizon's entries (it is cleared
   * whenever the horizon is set, `load`), and a position with these hands lies at the
   * horizon in every line that reaches it, so an entry here is never a bound of a
   * searched position. A kept estimate differs from a fresh playout only where the
   * playout's leads would follow history that changed since (`playoutMove`).
   */
  private horizonValue(s: State, depth: number, base: number, left: number): number {
    if (!this.keepEstimates) return this.greedyPlayout(s, depth + 1);
    const koff = depth * SEARCH_KEY_WORDS;
    const words = s.searchKey(this.keys, koff);
    const tt = this.tt;
    const slot = tt.slotOf(this.keys, koff, words, left);
    if (tt.hit) return base + tt.lower(slot);
    const v = this.greedyPlayout(s, depth + 1);
    tt.store(slot, this.keys, koff, words, v - base, v - base, 0, left);
    return v;
  }

  /** `State.endgame` at a trick boundary: the measure still to come, fail-soft in (alpha, beta). */
  private endgameValue(s: State, alpha: number, beta: number): number {
    const out = this.endgame;
    s.endgame!(this.inSide, this.maximizer, alpha, beta, out, this.tt);
    this.nodes += out[1];
    return out[0];
  }

  /** The last trick has one card per hand and nothing to choose: play it out in `scratch`. */
  private lastTrick(s: State, scratch: State): number {
    scratch.copyFrom(s);
    const moves = this.lastMove;
    while (scratch.decision !== Decision.None) {
      if (scratch.decision !== Decision.Card) scratch.apply(NO);
      else {
        scratch.legal(moves, 0);
        scratch.apply(setFirst(moves, 0));
      }
      this.nodes++;
    }
    return this.measure(scratch);
  }

  /** Fail-soft alpha-beta on the side's final measure, from `stack[depth]`. */
  private search(depth: number, alpha: number, beta: number): number {
    const s = this.stack[depth];
    if (++this.nodes > this.limitAt) {
      this.aborted = true;
      return 0;
    }
    const decision = s.decision;
    if (decision === Decision.None) return this.measure(s);
    const child = this.at(depth + 1);
    if (decision !== Decision.Card) {
      child.copyFrom(s);
      child.apply(NO);
      return this.search(depth + 1, alpha, beta);
    }

    let slot = -1;
    /** The table asked: the trick boundaries' or the one inside tricks (with `words` of key; 0: none). */
    let table = this.tt;
    let words = 0;
    let base = 0;
    let top: number;
    let lo = 0;
    let hi = 0;
    let ttMove = -1;
    const koff = depth * SEARCH_KEY_WORDS;
    /** Tricks left: also the work an entry stands for, for the table's replacement. */
    const left = s.tricksLeft();
    if (s.trickCards === 0) {
      base = this.measure(s);
      top = base + s.inPlay();
      if (top <= alpha) return top;
      if (base >= beta) return base;
      if (this.rootTricksLeft - left >= this.horizon) return this.horizonValue(s, depth, base, left);
      // The shortcut asks and keeps the table itself (with its own keys and moves).
      if (left <= this.shortcutTricks) return base + this.endgameValue(s, alpha - base, beta - base);
      if (left === 1) return this.lastTrick(s, child);
      // What each party surely still takes narrows [base, top] before the table is asked.
      const sure = this.sure;
      s.sureTaken(this.inSide, sure);
      lo = base + sure[0];
      hi = top - sure[1];
      if (hi <= alpha) return hi;
      if (lo >= beta) return lo;
      words = s.searchKey(this.keys, koff);
    } else if (this.trickTable !== null && left >= this.trickTableFrom) {
      // Inside one of the first tricks: re-searches there (each probe of `converge`
      // descends again) are cut by what earlier probes found for the same position.
      table = this.trickTable;
      base = this.measure(s);
      lo = base;
      hi = base + s.inPlay();
      words = s.trickKey!(this.keys, koff);
    }
    if (words > 0) {
      slot = table.slotOf(this.keys, koff, words, left);
      if (table.hit) {
        lo = Math.max(lo, base + table.lower(slot));
        hi = Math.min(hi, base + table.upper(slot));
        if (lo >= beta || lo === hi) return lo;
        if (hi <= alpha) return hi;
        ttMove = table.move(slot);
      }
    }

    const seat = s.toMove;
    let best: number;
    let bestMove = 0;
    if (
      s.trickCards === this.table.seats - 1 &&
      this.rootTricksLeft - (left - 1) >= this.horizon &&
      this.kernelPlayout &&
      !this.selfishPlayout &&
      !this.keepEstimates &&
      s.horizonCard !== undefined
    ) {
      // The last card before the horizon: the game's own search of it and its playouts (the same nodes and values).
      const out = this.kernel;
      s.horizonCard(this.inSide, this.maximizer, this.history, ttMove, alpha, beta, this.limitAt - this.nodes, out);
      this.nodes += out[2];
      if (out[3] === 1) {
        this.aborted = true;
        return 0;
      }
      best = out[0];
      bestMove = out[1];
    } else {
      const maximize = this.maximizer[seat] === 1;
      const n = this.order(s, depth, ttMove);
      const list = this.list;
      const lbase = depth * MAX_MOVES;
      best = maximize ? -INF : INF;
      let a = alpha;
      let b = beta;
      for (let i = 0; i < n; i++) {
        const code = list[lbase + i];
        child.copyFrom(s);
        child.apply(code);
        const v = this.search(depth + 1, a, b);
        if (this.aborted) return 0;
        if (maximize) {
          if (v > best) {
            best = v;
            bestMove = code;
            if (v > a) a = v;
          }
        } else if (v < best) {
          best = v;
          bestMove = code;
          if (v < b) b = v;
        }
        if (a >= b) {
          this.history[seat * 128 + code] += left * left;
          if (s.trickCards === 0) this.killer[depth * this.table.seats + seat] = code;
          break;
        }
      }
    }

    if (slot >= 0)
      table.keep(
        slot,
        this.keys,
        koff,
        words,
        best - base,
        alpha - base,
        beta - base,
        lo - base,
        hi - base,
        bestMove,
        left,
      );
    return best;
  }
}
