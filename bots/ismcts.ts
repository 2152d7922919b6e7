/**
 * `ismcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
 * Powley and Whitehouse 2012) with UCT, for every game of the contract (it imports no
 * game).
 *
 * Why a tree over information sets. Flat Monte Carlo (`montecarlo`) scores each move
 * by what happens after it in playouts, so it cannot see that a card is good *because*
 * of a later reply; and searching each sampled world with its own tree fuses
 * strategies that differ by hidden cards (strategy fusion). SO-ISMCTS grows one tree
 * whose nodes are the move histories seen from the observer, and draws a fresh world
 * (`game.sample`) for every iteration. The statistics of a node are thus pooled over
 * all the worlds the observer cannot tell apart, and the tree learns replies, its own
 * later moves and the other seats' answers (partner and opponents alike are in the
 * tree, each choosing by its own returns), as far as the iterations reach.
 *
 * Why availability counts. A child exists in the tree for every move seen legal in
 * some world, but in a given world only some are legal (an opponent's card that he
 * does not hold there). UCB compares a child's mean with how often it *could* have
 * been chosen, not with the parent's visits: each child counts the iterations in
 * which it was legal at its parent, and that count replaces the parent's visit count
 * in the exploration term, as in the paper. Otherwise a rarely available move would
 * look rarely explored and be over-chosen whenever it is legal.
 *
 * An edge stores the returns of the seat that made its move (`returns()[seat]` of the
 * seat acting at its parent), so every seat maximises its own utility; yes/no answers
 * (claims, declarations, schleipfen) are edges like cards. Each iteration adds one
 * node and plays the rest of the deal out, by default with the game's `heuristic` in
 * every seat (it acts on its own observation of the sampled world). Random playouts
 * cost 1.5 to 3 times less but value a position as if everybody then played at
 * random, which misjudges most positions of these games; they measured weaker, also
 * at equal time.
 * The move played is the root child visited most (ties: the lowest code): visits are
 * a steadier guide than means, which a few lucky playouts can inflate.
 *
 * Why the exploration term is scaled. The games' returns spread very differently (a
 * Hindersi-Jass deal moves a seat's return by a few tenths, a Vier-Anderle hand by
 * whole quarter-pots), so one fixed constant explores too much in one game and too
 * little in another. `c` is therefore measured in standard deviations of the acting
 * seat's playout returns, as observed so far in the same search.
 *
 * Weaknesses it keeps from its method: at the other seats' nodes the tree models each
 * player as knowing what the observer knows (its hand included) and choosing among
 * the cards he holds in the iteration's world; SO-ISMCTS does not build their own
 * information sets. Worlds are drawn uniformly among the consistent ones, not weighted
 * by how likely the others' play so far makes them.
 *
 * The tree is a pool of nodes stored as parallel typed arrays (no object per node),
 * reset for every decision and grown by doubling when an iteration count outgrows it.
 * Randomness comes only from `ctx.rng`: each decision draws one key from it and seeds
 * from that its own streams (the iterations': worlds, expansion, random playouts; and
 * the heuristic playout bots'), so play is a function of the deal, and a search that
 * stops early leaves the later decisions as they were. A `time` cap breaks that (how
 * many iterations fit depends on the machine); it is off by default.
 *
 * Why it stops before no other move can catch up. `stop=decided` ends a search once
 * the most visited root move leads every other by more than `gap` times the
 * iterations left. With gap=1 no other move can reach it, so the move is the full
 * search's; the default 0.2 stops at about half of that search's iterations (a third
 * of all 5000), about twice as fast, and changes a move where the runner-up was still
 * within reach, about one decision in eleven, while two full searches fed different
 * streams already disagree on three in ten (bench/ismcts-stop.ts). Against gap=1 it
 * showed no loss in Viersche and a small one in Hindersche (bots/NOTES.md).
 */
import { LANES, newSets, setFirst, setSelect, setSize } from '../src/core/cardset.js';
import { Rng } from '../src/core/rng.js';
import type { Observation, ParamSpec, State } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import type { Bot, BotContext, BotSpec, MoveValues } from '../src/games/bot.js';

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'iterations',
    type: 'int',
    default: 5000,
    min: 1,
    max: 10_000_000,
    description: 'search iterations per decision (each: one sampled world, one descent, one new node, one playout)',
  },
  {
    key: 'time',
    type: 'number',
    default: 0,
    min: 0,
    description:
      'time cap per decision in ms, checked after each iteration (0: none; a cap makes play machine-dependent)',
  },
  {
    key: 'c',
    type: 'number',
    default: 1,
    min: 0,
    max: 100,
    description:
      "UCB exploration constant, in standard deviations of the acting seat's playout returns (measured during the search, so one value fits every game)",
  },
  {
    key: 'stop',
    type: ['decided', 'never'],
    default: 'decided',
    description:
      'decided: stop once the most visited root move leads by the share `gap` of the iterations left (gap=1: none can catch up, the same move in fewer iterations); never: every iteration',
  },
  {
    key: 'gap',
    type: 'number',
    default: 0.2,
    min: 0,
    max: 1,
    description:
      "with stop=decided: stop once the most visited root move leads every other by more than this share of the iterations left (1: when none can catch up, so the full search's move)",
  },
  {
    key: 'rollout',
    type: ['heuristic', 'random'],
    default: 'heuristic',
    description:
      "playouts: heuristic (the game's heuristic bot in every seat; random for a game without one) or random (uniform legal moves, faster, weaker)",
  },
];

/**
 * Most nodes allocated up front: a search adds at most one node per iteration, so the
 * pool is sized for the iterations up to this; beyond, it doubles as it fills.
 */
const INITIAL_NODES = 1 << 16;

/** Iterations between the tests of `stop=decided` (a power of two). */
const STOP_EVERY = 16;

/**
 * `LOG[a]` = `Math.log(a)` for the availability counts most nodes have: UCB takes the
 * logarithm of one at every child of every node an iteration passes, and a lookup gives
 * the very same number for a fraction of the call's cost.
 */
const LOG = Float64Array.from({ length: 1 << 12 }, (_, a) => Math.log(a));

class IsmctsBot implements Bot {
  private readonly game: BotContext['game'];
  /** `ctx.rng`: one key drawn from it per decision seeds the decision's streams. */
  private readonly dealRng: Rng;
  /** The decision's stream: worlds, expansion, random playouts. */
  private readonly rng = new Rng();
  private readonly seats: number;
  private readonly iterations: number;
  private readonly time: number;
  private readonly c: number;
  /** Stop a search once its move is decided (`stop=decided`). */
  private readonly stopDecided: boolean;
  /** The share of the iterations left by which the most visited root move must lead (`gap`). */
  private readonly gap: number;
  /** One heuristic bot per seat when playouts are heuristic, else null. */
  private readonly playBots: Bot[] | null;
  private readonly playRngs: Rng[];
  private readonly key: [number, number, number, number] = [0, 0, 0, 0];

  private readonly world: State;
  private readonly scratch: State;
  private readonly legal = newSets(1);
  private readonly untried = newSets(1);
  private readonly returns: Float64Array;
  // Per seat: the playout returns of this search so far (count, mean, sum of squared
  // deviations: Welford), and c times their standard deviation.
  private readonly retCount: Float64Array;
  private readonly retMean: Float64Array;
  private readonly retM2: Float64Array;
  private readonly explore: Float64Array;

  // The node pool (node 0 is the root). `seat` made `move` at `parent`; `total` sums
  // that seat's returns over the node's `visits`; `avail` counts the iterations in
  // which `move` was legal at `parent`.
  private capacity = 0;
  private size = 0;
  private parent = new Int32Array(0);
  private firstChild = new Int32Array(0);
  private nextSibling = new Int32Array(0);
  private move = new Uint8Array(0);
  private seat = new Uint8Array(0);
  private visits = new Int32Array(0);
  private avail = new Int32Array(0);
  private total = new Float64Array(0);

  constructor(ctx: BotContext) {
    this.game = ctx.game;
    this.dealRng = ctx.rng;
    this.seats = ctx.table.seats;
    this.iterations = Number(ctx.params.iterations);
    this.time = Number(ctx.params.time);
    this.c = Number(ctx.params.c);
    this.stopDecided = ctx.params.stop === 'decided';
    this.gap = Number(ctx.params.gap);
    this.world = ctx.game.newState(ctx.table);
    this.scratch = ctx.game.newState(ctx.table);
    this.returns = new Float64Array(ctx.table.seats);
    this.retCount = new Float64Array(ctx.table.seats);
    this.retMean = new Float64Array(ctx.table.seats);
    this.retM2 = new Float64Array(ctx.table.seats);
    this.explore = new Float64Array(ctx.table.seats);
    this.playRngs = [];
    this.playBots = null;
    if (ctx.params.rollout === 'heuristic') {
      const spec = ctx.game.heuristic;
      const params = resolveParams(spec.params, {}, `bot ${spec.name}`);
      this.playBots = [];
      for (let s = 0; s < ctx.table.seats; s++) {
        const rng = new Rng();
        this.playRngs.push(rng);
        this.playBots.push(spec.create({ game: ctx.game, table: ctx.table, seat: s, rng, params }));
      }
    }
    this.grow(Math.min(INITIAL_NODES, this.iterations + 1));
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (count === 1) return setFirst(legal, 0);
    const key = this.key;
    for (let i = 0; i < 4; i++) key[i] = this.dealRng.next();
    for (let s = 0; s < this.playRngs.length; s++) this.playRngs[s].reseed(key, s);
    this.rng.reseed(key, this.seats);
    this.size = 0;
    this.newNode(-1, 0, 0);
    this.retCount.fill(0);
    this.retMean.fill(0);
    this.retM2.fill(0);
    this.explore.fill(0);
    const start = this.time > 0 ? performance.now() : 0;
    for (let it = 0; it < this.iterations; it++) {
      this.iterate(obs);
      if (this.time > 0 && performance.now() - start >= this.time) break;
      if (this.stopDecided && (it & (STOP_EVERY - 1)) === STOP_EVERY - 1 && this.decided(this.iterations - it - 1))
        break;
    }
    return this.bestRootMove(legal);
  }

  /** `act`, then the tree's root: each legal move's visits and its mean of the seat's returns() there. */
  explain(obs: Observation, legal: Int32Array, count: number): MoveValues {
    const chosen = this.act(obs, legal, count);
    const moves: { move: number; value: number; visits: number }[] = [];
    for (let i = 0; i < count; i++) moves.push({ move: setSelect(legal, 0, i), value: NaN, visits: 0 });
    if (count === 1) return { chosen, meaning: 'forced: the only legal move, not searched', moves };
    for (let ch = this.firstChild[0]; ch >= 0; ch = this.nextSibling[ch]) {
      const entry = moves.find((m) => m.move === this.move[ch]);
      if (entry && this.visits[ch] > 0) {
        entry.visits = this.visits[ch];
        entry.value = this.total[ch] / this.visits[ch];
      }
    }
    return {
      chosen,
      meaning: `mean returns() of the seat over its visits, ${this.visits[0]} iterations (most visits chosen)`,
      moves,
    };
  }

  /** One iteration: a world, a descent with one expansion, a playout, the update. */
  private iterate(obs: Observation): void {
    this.game.sample(obs, this.rng, this.world);
    const s = this.scratch;
    s.copyFrom(this.world);
    const legal = this.legal;
    const untried = this.untried;
    let node = 0;
    while (!s.isTerminal()) {
      s.legal(legal, 0);
      const c = this.explore[s.toMove];
      for (let l = 0; l < LANES; l++) untried[l] = legal[l];
      let best = -1;
      let bestScore = -Infinity;
      for (let ch = this.firstChild[node]; ch >= 0; ch = this.nextSibling[ch]) {
        const m = this.move[ch];
        const lane = m >>> 5;
        const bit = 1 << (m & 31);
        if ((legal[lane] & bit) === 0) continue;
        untried[lane] &= ~bit;
        const a = ++this.avail[ch];
        const v = this.visits[ch];
        const score = this.total[ch] / v + c * Math.sqrt((a < LOG.length ? LOG[a] : Math.log(a)) / v);
        if (score > bestScore) {
          bestScore = score;
          best = ch;
        }
      }
      const k = setSize(untried, 0);
      if (k > 0) {
        const m = setSelect(untried, 0, this.rng.below(k));
        node = this.newNode(node, m, s.toMove);
        s.apply(m);
        break;
      }
      s.apply(this.move[best]);
      node = best;
    }
    this.playOut(s);
    s.returns(this.returns);
    for (let v = node; v > 0; v = this.parent[v]) {
      this.visits[v]++;
      this.total[v] += this.returns[this.seat[v]];
    }
    this.visits[0]++;
    this.measure();
  }

  /** Add the last playout's returns to each seat's spread, and rescale exploration. */
  private measure(): void {
    const r = this.returns;
    for (let seat = 0; seat < r.length; seat++) {
      const x = r[seat];
      const n = ++this.retCount[seat];
      const d = x - this.retMean[seat];
      this.retMean[seat] += d / n;
      this.retM2[seat] += d * (x - this.retMean[seat]);
      this.explore[seat] = n > 1 ? this.c * Math.sqrt(this.retM2[seat] / (n - 1)) : 0;
    }
  }

  private playOut(s: State): void {
    const legal = this.legal;
    const bots = this.playBots;
    if (bots === null) {
      const rng = this.rng;
      while (!s.isTerminal()) s.apply(setSelect(legal, 0, rng.below(s.legal(legal, 0))));
      return;
    }
    while (!s.isTerminal()) {
      const seat = s.toMove;
      const n = s.legal(legal, 0);
      s.apply(n === 1 ? setFirst(legal, 0) : bots[seat].act(s.observe(seat), legal, n));
    }
  }

  /**
   * Whether the most visited root child stays ahead whatever the `left` iterations do:
   * each adds one visit to one root child, so no other child (nor a root move not yet
   * tried) can reach its visits. The search's move is then the one the full search
   * would play, from the same iterations.
   */
  private decided(left: number): boolean {
    let first = 0;
    let second = 0;
    for (let ch = this.firstChild[0]; ch >= 0; ch = this.nextSibling[ch]) {
      const v = this.visits[ch];
      if (v > first) {
        second = first;
        first = v;
      } else if (v > second) second = v;
    }
    return first - second > this.gap * left;
  }

  /** The root child with the most visits; ties go to the lowest move code. */
  private bestRootMove(legal: Int32Array): number {
    let best = -1;
    let bestVisits = -1;
    for (let ch = this.firstChild[0]; ch >= 0; ch = this.nextSibling[ch]) {
      const m = this.move[ch];
      if (((legal[m >>> 5] >>> (m & 31)) & 1) === 0) continue;
      const v = this.visits[ch];
      if (v > bestVisits || (v === bestVisits && m < best)) {
        bestVisits = v;
        best = m;
      }
    }
    return best >= 0 ? best : setFirst(legal, 0);
  }

  /** A fresh node for `move`, made by `seat`, as the first child of `parent`. */
  private newNode(parent: number, move: number, seat: number): number {
    if (this.size === this.capacity) this.grow(this.capacity * 2);
    const n = this.size++;
    this.parent[n] = parent;
    this.firstChild[n] = -1;
    this.move[n] = move;
    this.seat[n] = seat;
    this.visits[n] = 0;
    this.avail[n] = 1;
    this.total[n] = 0;
    if (parent >= 0) {
      this.nextSibling[n] = this.firstChild[parent];
      this.firstChild[parent] = n;
    } else {
      this.nextSibling[n] = -1;
    }
    return n;
  }

  /** Enlarge the pool to `capacity` nodes, keeping the nodes it holds. */
  private grow(capacity: number): void {
    const keep = this.size;
    const widen = <T extends Int32Array | Uint8Array | Float64Array>(a: T, b: T): T => {
      b.set(a.subarray(0, keep));
      return b;
    };
    this.parent = widen(this.parent, new Int32Array(capacity));
    this.firstChild = widen(this.firstChild, new Int32Array(capacity));
    this.nextSibling = widen(this.nextSibling, new Int32Array(capacity));
    this.move = widen(this.move, new Uint8Array(capacity));
    this.seat = widen(this.seat, new Uint8Array(capacity));
    this.visits = widen(this.visits, new Int32Array(capacity));
    this.avail = widen(this.avail, new Int32Array(capacity));
    this.total = widen(this.total, new Float64Array(capacity));
    this.capacity = capacity;
  }
}

export const ismcts: BotSpec = {
  name: 'ismcts',
  description:
    'information-set MCTS (SO-ISMCTS, UCT): one tree over what this seat sees, a fresh sampled world per iteration',
  params: PARAMS,
  create: (ctx) => new IsmctsBot(ctx),
};
