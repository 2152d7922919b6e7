/**
 * Experiment: the game-tree properties that predict how well perfect-information Monte
 * Carlo plays (Long, Sturtevant, Buro and Furtak, "Understanding the Success of Perfect
 * Information Monte Carlo Sampling in Game Tree Search", AAAI 2010), measured per game.
 *
 * The paper's three properties, as it defines them on its synthetic trees:
 *
 * - **leaf correlation** `lc`: the probability that sibling terminal nodes have the same
 *   payoff. Low correlation means a player can still swing the result with the last
 *   choices, where PIMC's assumption that every hand is known does the most harm
 *   (strategy fusion); PIMC loses most to an equilibrium player when `lc` is low.
 * - **bias** `b`: the probability that the game favours one player, a leaf being a win
 *   for him. Far from 0.5, most lines end the same way whatever is chosen, and PIMC's
 *   mistakes cost little.
 * - **disambiguation factor** `df`: how quickly hidden information is revealed, the
 *   share of a player's information set that each move of another player rules out
 *   (its set shrinks by a factor 1 - df a move). High `df` means the game soon becomes
 *   one of perfect information, where PIMC is right; the paper finds PIMC's advantage
 *   over random play growing with `df`, and good play even at low correlation when
 *   `df` is high.
 *
 * How they are measured here, on deals played by `--play` (the game's heuristic in every
 * seat by default, or uniformly random moves) from the cards of `tafel run` (deal i of
 * seed S is group i's):
 *
 * - `lc` and `b`: at every decision with a choice while at most `--tricks` tricks are
 *   left (the bottom of the tree, where sibling leaves are), every legal move is valued
 *   exactly, with every hand known, by minimax to the end of the deal on the mover's
 *   relative result, its `returns()` (the deal's real result: rungs, marks, charged
 *   points, stakes) minus the mean of the other seats', the mover's side maximising and
 *   every other seat minimising (exact between the teams of Viersche, paranoid in the
 *   games of individuals; in the zero-sum games the relative result orders outcomes as
 *   the mover's return does). A child's payoff is its sign: a win for the mover above 0
 *   (its team ahead or its game won; fewer marks, fewer points charged or more money
 *   than the others on average), a loss below, a draw at 0. `lc` is the
 *   share of these decisions whose children all have the same payoff (`lc_exact`:
 *   the same value to 1e-9, the stricter reading); `b` is the share of children that
 *   are wins for the mover. Both by tricks left as well.
 * - `df`: at every card played by a seat, for every other seat (the observer, which sees
 *   the card), `--worlds` worlds are drawn from the observer's information set just
 *   before it (`game.sample`, uniform among the consistent ones) and the card is applied
 *   in each: the worlds where it is illegal (the player does not hold it there, or holds
 *   a card it would have had to play instead) are the ones it rules out. `df` is the mean
 *   share ruled out, a face-down card that the observer cannot see excepted; by trick
 *   as well.
 *
 * - Beside them, what EPIMC (pimc's `postpone`) has to work with: at every decision with
 *   a choice, `--worlds` worlds drawn from the mover's information set, the move played
 *   applied in each and each played on with the heuristic to the mover's next decision
 *   with a choice; the number of the mover's information sets they fall into there (by
 *   the moves it has seen), per world. EPIMC chooses once per set, so each choice rests
 *   on the worlds of one set.
 *
 * Intervals: the decisions and moves of one deal are not independent, so each rate is
 * pooled over every deal and given a Student-t 95% interval over deals (a cluster ratio
 * estimate: the linearized per-deal residuals).
 *
 *   tafel experiment pimc-properties [--game G] [--deals N] [--tricks K] [--worlds W] [--play heuristic|random] [--seed S]
 */
import { stringify } from 'csv-stringify/sync';
import { newSets, setFirst, setHas, setSelect } from '../src/core/cardset.js';
import { TafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, HIDDEN, type Game, type Observation, type State, type TableConfig } from '../src/games/game.js';
import { GAMES, findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import { RatioMoments, type Estimate } from '../src/harness/stats/stats.js';
import { estimateText } from '../src/harness/stats/interval-text.js';
import { PolicyModel } from '../bots/policy.js';
import { writtenLine } from '../src/report/format.js';
import { gameNamed } from '../src/harness/run/parts.js';
import { planFor, seedOf, wholes } from './command.js';
import type { Experiment, ExperimentFlag, Plan } from './experiment.js';

export const NAME = 'pimc-properties';
const PLAYS = ['heuristic', 'random'] as const;
/** The most tricks left at which decisions are valued by exact minimax (the cost grows about tenfold a trick). */
const MAX_TRICKS = 4;
type Play = (typeof PLAYS)[number];

const QUESTION =
  'Leaf correlation, bias and disambiguation (Long et al. 2010): why does PIMC do well or badly in each game?';

export interface Options {
  games: readonly string[];
  deals: number;
  /** Decisions with at most this many tricks left are valued for `lc` and `b`. */
  tricks: number;
  worlds: number;
  play: Play;
  seed: string;
}

/** A rate summed over every deal, and per deal (for the interval over deals). */
export class Rate {
  hits = 0;
  n = 0;
  readonly perDeal: { hits: number; n: number }[] = [];

  add(deal: number, hit: number, n = 1): void {
    while (this.perDeal.length <= deal) this.perDeal.push({ hits: 0, n: 0 });
    this.perDeal[deal].hits += hit;
    this.perDeal[deal].n += n;
    this.hits += hit;
    this.n += n;
  }

  /**
   * The pooled rate with a Student-t interval over the deals (the independent units, its
   * `n`; stats.RatioMoments), or none where the deals give none (`degenerate`); n 0 when
   * nothing was counted.
   */
  estimate(deals: number): Estimate {
    if (this.n === 0) return { n: 0, mean: NaN, sd: NaN, low: NaN, high: NaN };
    const m = new RatioMoments();
    for (let i = 0; i < deals; i++) {
      const d = this.perDeal[i] ?? { hits: 0, n: 0 };
      m.add(d.hits, d.n);
    }
    return m.estimate();
  }
}

export interface GameProperties {
  game: string;
  seats: number;
  deals: number;
  /** Overall, then by tricks left (index 1..tricks) for lc and b, by trick (0-based) for df. */
  lc: Rate;
  lcExact: Rate;
  bias: Rate;
  df: Rate;
  /** Information sets of the mover's next decision per world drawn (see `nextInformationSets`). */
  sets: Rate;
  lcByTricksLeft: Rate[];
  biasByTricksLeft: Rate[];
  dfByTrick: Rate[];
  setsByTrick: Rate[];
}

/**
 * Exact paranoid minimax of a seat's relative result (its `returns()` minus the mean of
 * the other seats'), on a stack of states (allocation-free after construction).
 */
export class Minimax {
  /** Positions visited. */
  nodes = 0;
  private readonly stack: State[];
  private readonly legal: Int32Array[];
  private readonly ret: Float64Array;
  private readonly side: Int8Array;

  constructor(game: Game, table: TableConfig, depth: number) {
    this.stack = Array.from({ length: depth + 1 }, () => game.newState(table));
    this.legal = Array.from({ length: depth + 1 }, () => newSets(1));
    this.ret = new Float64Array(table.seats);
    this.side = new Int8Array(table.seats);
    this.teams = game.teams(table.seats);
  }

  private readonly teams: readonly number[] | null;

  /** The value for `seat` of `s` when `seat`'s side maximises its relative result and everyone else minimises it. */
  value(s: State, seat: number): number {
    for (let q = 0; q < this.side.length; q++) {
      this.side[q] = this.teams ? (this.teams[q] === this.teams[seat] ? 1 : 0) : q === seat ? 1 : 0;
    }
    this.stack[0].copyFrom(s);
    return this.search(0, seat, -Infinity, Infinity);
  }

  /** `seat`'s return minus the mean return of the other seats. */
  utility(s: State, seat: number): number {
    s.returns(this.ret);
    let others = 0;
    for (let q = 0; q < this.ret.length; q++) if (q !== seat) others += this.ret[q];
    return this.ret[seat] - others / (this.ret.length - 1);
  }

  private search(level: number, seat: number, alpha: number, beta: number): number {
    const s = this.stack[level];
    this.nodes++;
    if (s.isTerminal()) return this.utility(s, seat);
    if (level + 1 >= this.stack.length) throw new Error('Minimax: deeper than its stack');
    const legal = this.legal[level];
    const n = s.legal(legal, 0);
    const max = this.side[s.toMove] === 1;
    let best = max ? -Infinity : Infinity;
    const child = this.stack[level + 1];
    for (let k = 0; k < n; k++) {
      child.copyFrom(s);
      child.apply(setSelect(legal, 0, k));
      const v = this.search(level + 1, seat, alpha, beta);
      if (max) {
        if (v > best) best = v;
        if (best > alpha) alpha = best;
      } else {
        if (v < best) best = v;
        if (best < beta) beta = best;
      }
      if (alpha >= beta) break;
    }
    return best;
  }
}

const EPS = 1e-9;
const payoff = (v: number) => (v > EPS ? 1 : v < -EPS ? -1 : 0);

/** The most plies a deal's last `tricks` tricks can take (cards, and yes/no answers between them). */
function plyBound(seats: number, tricks: number): number {
  return tricks * (seats + 2 * seats * seats) + 8;
}

export function measureGame(game: Game, seats: number, o: Options): GameProperties {
  const table: TableConfig = { seats, rules: resolveParams(game.variants, {}, 'experiment') };
  game.checkTable(table);
  const key = seedKey(o.seed);
  const cards = new Rng();
  const moves = new Rng();
  const sampler = new Rng();
  // The heuristic plays the deals (with --play heuristic) and, always, the worlds on to a seat's next decision.
  const heuristic = PolicyModel.heuristic(game, table);
  const model = o.play === 'heuristic' ? heuristic : null;
  const state = game.newState(table);
  const child = game.newState(table);
  const world = game.newState(table);
  const minimax = new Minimax(game, table, plyBound(seats, o.tricks));
  const legal = newSets(1);
  const worldLegal = newSets(1);
  const byLevel = () => Array.from({ length: o.tricks + 1 }, () => new Rate());
  const p: GameProperties = {
    game: game.name,
    seats,
    deals: o.deals,
    lc: new Rate(),
    lcExact: new Rate(),
    bias: new Rate(),
    df: new Rate(),
    sets: new Rate(),
    lcByTricksLeft: byLevel(),
    biasByTricksLeft: byLevel(),
    dfByTrick: [],
    setsByTrick: [],
  };
  const ruledOut = new Float64Array(seats);
  for (let d = 0; d < o.deals; d++) {
    cards.reseed(key, d, 0, 0);
    moves.reseed(key, d, 1, 0);
    sampler.reseed(key, d, 2, 0);
    heuristic.reseed(moves);
    game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, cards);
    let startLeft = 0;
    while (!state.isTerminal()) {
      const n = state.legal(legal, 0);
      const mover = state.toMove;
      const left = state.tricksLeft();
      if (n > 1 && left <= o.tricks && left > 0) {
        let first = NaN;
        let same = 1;
        let exact = 1;
        let wins = 0;
        for (let k = 0; k < n; k++) {
          child.copyFrom(state);
          child.apply(setSelect(legal, 0, k));
          const v = minimax.value(child, mover);
          if (k === 0) first = v;
          else {
            if (payoff(v) !== payoff(first)) same = 0;
            if (Math.abs(v - first) > EPS) exact = 0;
          }
          if (payoff(v) > 0) wins++;
        }
        p.lc.add(d, same);
        p.lcExact.add(d, exact);
        p.bias.add(d, wins, n);
        p.lcByTricksLeft[left].add(d, same);
        p.biasByTricksLeft[left].add(d, wins, n);
      }
      const move =
        n === 1 ? setFirst(legal, 0) : model ? model.move(state, legal, n) : setSelect(legal, 0, moves.below(n));
      const card = state.decision === Decision.Card;
      if (left > startLeft) startLeft = left;
      if (n > 1) {
        const next = nextInformationSets(
          game,
          state.observe(mover),
          move,
          o.worlds,
          sampler,
          world,
          heuristic,
          worldLegal,
        );
        if (next.reached > 0) {
          const trick = startLeft - left;
          while (p.setsByTrick.length <= trick) p.setsByTrick.push(new Rate());
          p.sets.add(d, next.sets, next.reached);
          p.setsByTrick[trick].add(d, next.sets, next.reached);
        }
      }
      if (card) {
        for (let q = 0; q < seats; q++) {
          ruledOut[q] = NaN;
          if (q === mover || !inDeal(state, q)) continue;
          ruledOut[q] = ruledOutShare(game, state.observe(q), move, o.worlds, sampler, world, worldLegal);
        }
      }
      state.apply(move);
      if (card) {
        const trick = startLeft - left;
        while (p.dfByTrick.length <= trick) p.dfByTrick.push(new Rate());
        for (let q = 0; q < seats; q++) {
          // A face-down card rules nothing out for a seat that did not see it.
          if (Number.isNaN(ruledOut[q])) continue;
          const obs = state.observe(q);
          if (obs.move(obs.plies - 1) === HIDDEN) continue;
          p.df.add(d, ruledOut[q]);
          p.dfByTrick[trick].add(d, ruledOut[q]);
        }
      }
    }
  }
  return p;
}

/**
 * The share of `worlds` worlds drawn from the information set of `obs` (its observer's)
 * in which `move`, about to be made by the seat to act, is illegal: the share of the set
 * that the move rules out. `world` and `legal` are the caller's buffers.
 */
export function ruledOutShare(
  game: Game,
  obs: Observation,
  move: number,
  worlds: number,
  rng: Rng,
  world: State,
  legal: Int32Array,
): number {
  let out = 0;
  for (let w = 0; w < worlds; w++) {
    game.sample(obs, rng, world);
    world.legal(legal, 0);
    if (!setHas(legal, 0, move)) out++;
  }
  return out / worlds;
}

/**
 * EPIMC's raw material: `worlds` worlds drawn from the information set of `obs` (the
 * seat to act's own), `move` applied in each and the deal played on with the heuristic
 * to the seat's next decision with a choice; returns how many of them got there
 * (`reached`) and into how many information sets of the seat they fall (`sets`: worlds
 * in which it has seen the same moves). EPIMC makes one choice per set, so the worlds
 * per set are what each of its choices rests on. Allocates (a key per world).
 */
export function nextInformationSets(
  game: Game,
  obs: Observation,
  move: number,
  worlds: number,
  rng: Rng,
  world: State,
  model: PolicyModel,
  legal: Int32Array,
): { sets: number; reached: number } {
  const seat = obs.seat;
  const from = obs.plies;
  const seen = new Set<string>();
  let reached = 0;
  for (let w = 0; w < worlds; w++) {
    game.sample(obs, rng, world);
    world.apply(move);
    for (;;) {
      if (world.isTerminal()) break;
      const n = world.legal(legal, 0);
      if (n > 1 && world.toMove === seat) break;
      world.apply(n === 1 ? setFirst(legal, 0) : model.move(world, legal, n));
    }
    if (world.isTerminal()) continue;
    reached++;
    const o = world.observe(seat);
    let key = '';
    for (let ply = from; ply < o.plies; ply++) key += `${o.moveSeat(ply)}:${o.move(ply)},`;
    seen.add(key);
  }
  return { sets: seen.size, reached };
}

/** Whether `seat` holds cards in the deal of `s` (a seat may sit out: declared out, or out of a Hindersche game). */
function inDeal(s: State, seat: number): boolean {
  const obs = s.observe(seat);
  return (obs.handLane(0) | obs.handLane(1) | obs.handLane(2) | obs.handLane(3)) !== 0;
}

function measureAll(o: Options): GameProperties[] {
  return o.games.map((name) => {
    const game = findGame(name)!;
    return measureGame(game, game.defaultSeats, o);
  });
}

const COLUMNS = ['game', 'seats', 'property', 'at', 'n', 'mean', 'ci95_low', 'ci95_high'] as const;
type Row = Record<(typeof COLUMNS)[number], string | number>;

function csvRows(results: readonly GameProperties[]): Row[] {
  const fix = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '');
  const rows: Row[] = [];
  for (const r of results) {
    const add = (property: string, at: string, rate: Rate) => {
      const e = rate.estimate(r.deals);
      if (e.n > 0)
        rows.push({
          game: r.game,
          seats: r.seats,
          property,
          at,
          n: e.n,
          mean: fix(e.mean),
          ci95_low: fix(e.low),
          ci95_high: fix(e.high),
        });
    };
    add('lc', 'all', r.lc);
    add('lc_exact', 'all', r.lcExact);
    add('bias', 'all', r.bias);
    add('df', 'all', r.df);
    add('sets_per_world', 'all', r.sets);
    r.lcByTricksLeft.forEach((rate, k) => add('lc', `tricks_left=${k}`, rate));
    r.biasByTricksLeft.forEach((rate, k) => add('bias', `tricks_left=${k}`, rate));
    r.dfByTrick.forEach((rate, k) => add('df', `trick=${k + 1}`, rate));
    r.setsByTrick.forEach((rate, k) => add('sets_per_world', `trick=${k + 1}`, rate));
  }
  return rows;
}

function report(o: Options, results: readonly GameProperties[], seconds: number, command: string): string {
  const show = (rate: Rate, deals: number) => {
    const e = rate.estimate(deals);
    if (e.n === 0) return '-';
    // Three decimals where two would print a narrow interval as [x, x].
    const digits = !e.degenerate && e.high - e.low < 0.01 ? 3 : 2;
    return estimateText(e, (x) => x.toFixed(digits), 'deals');
  };
  const levels = Array.from({ length: o.tricks }, (_, i) => o.tricks - i);
  const perWorlds = (rate: Rate, deals: number) => {
    const e = rate.estimate(deals);
    if (e.n === 0) return '-';
    return estimateText(e, (v) => (o.worlds * v).toFixed(1), 'deals');
  };
  const tricks = Math.max(...results.map((r) => r.dfByTrick.length));
  return (
    [
      "# PIMC's game-tree properties (Long, Sturtevant, Buro and Furtak 2010)",
      '',
      `${o.deals} deals per game played by \`${o.play}\` in every seat, seed \`${o.seed}\`; \`lc\` and \`b\` at every decision with a choice and at most ${o.tricks} tricks left,`,
      `\`df\` from ${o.worlds} worlds drawn per card and observer. Produced by \`${command}\` in ${seconds.toFixed(0)} s on one core; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      '95% intervals over deals in brackets; `n` counts decisions (lc), children (b) or observed cards (df).',
      '',
      `| game | seats | leaf correlation lc | lc, equal values | bias b | disambiguation df | information sets per ${o.worlds} worlds at the next decision | n (lc / b / df) |`,
      '|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.game} | ${r.seats} | ${show(r.lc, r.deals)} | ${show(r.lcExact, r.deals)} | ${show(r.bias, r.deals)} | ${show(r.df, r.deals)} | ${perWorlds(r.sets, r.deals)} | ${r.lc.n} / ${r.bias.n} / ${r.df.n} |`,
      ),
      '',
      'Leaf correlation and bias by tricks left:',
      '',
      `| game | ${levels.map((k) => `lc, ${k} left`).join(' | ')} | ${levels.map((k) => `b, ${k} left`).join(' | ')} |`,
      `|---|${levels.map(() => '---|').join('')}${levels.map(() => '---|').join('')}`,
      ...results.map(
        (r) =>
          `| ${r.game} | ${levels.map((k) => show(r.lcByTricksLeft[k], r.deals)).join(' | ')} | ${levels.map((k) => show(r.biasByTricksLeft[k], r.deals)).join(' | ')} |`,
      ),
      '',
      "Disambiguation by trick (the share of an observer's worlds that a card played in that trick rules out):",
      '',
      `| game | ${Array.from({ length: tricks }, (_, k) => `trick ${k + 1}`).join(' | ')} |`,
      `|---|${Array.from({ length: tricks }, () => '---|').join('')}`,
      ...results.map(
        (r) =>
          `| ${r.game} | ${Array.from({ length: tricks }, (_, k) => (r.dfByTrick[k] ? r.dfByTrick[k].estimate(r.deals).mean.toFixed(2) : '-')).join(' | ')} |`,
      ),
      '',
      `Information sets per ${o.worlds} worlds at the seat's next decision, by trick (each of EPIMC's choices there rests on ${o.worlds} / this many worlds):`,
      '',
      `| game | ${Array.from({ length: tricks }, (_, k) => `trick ${k + 1}`).join(' | ')} |`,
      `|---|${Array.from({ length: tricks }, () => '---|').join('')}`,
      ...results.map(
        (r) =>
          `| ${r.game} | ${Array.from({ length: tricks }, (_, k) => (r.setsByTrick[k] ? (o.worlds * r.setsByTrick[k].estimate(r.deals).mean).toFixed(0) : '-')).join(' | ')} |`,
      ),
      '',
      "**Definitions** (the program's header gives them in full). `lc`: the share of decisions near the end whose moves all lead to the same payoff",
      "(win, draw or loss for the mover: the sign of its `returns()` minus the others' mean, under exact minimax with every hand known);",
      '`lc, equal values` asks for the same value.',
      "`b`: the share of those moves that are wins for the mover. `df`: the share of an observer's information set (worlds consistent with what it saw)",
      'that a card played by another seat rules out. Information sets at the next decision: worlds drawn at a decision with a choice, the move played',
      "applied, each played on with the heuristic to the seat's next decision, counted by what the seat has seen there (EPIMC's unit of choice).",
      '',
      "**Reading** (the paper's findings on synthetic trees): PIMC loses most against an equilibrium player where leaf correlation is low (the last",
      'choices still swing the result, and PIMC makes them as if it knew the hands); a bias far from 0.5 makes its mistakes cheap; a high disambiguation',
      'factor makes the game one of perfect information soon, where PIMC is right, and lets it play well even at low correlation.',
      ...comparison(results),
    ].join('\n') + '\n'
  );
}

/** The games ordered by each property, in words (nothing with fewer than two games). */
function comparison(results: readonly GameProperties[]): string[] {
  if (results.length < 2) return [];
  const order = (rate: (r: GameProperties) => Rate) =>
    [...results]
      .map((r) => ({ game: r.game, mean: rate(r).estimate(r.deals).mean }))
      .sort((a, b) => a.mean - b.mean)
      .map((x) => `${x.game} ${x.mean.toFixed(2)}`)
      .join(', ');
  return [
    '',
    `Here, from the lowest: leaf correlation ${order((r) => r.lc)}; with equal values ${order((r) => r.lcExact)};`,
    `disambiguation ${order((r) => r.df)}; bias ${order((r) => r.bias)}; information sets per world at the next decision ${order((r) => r.sets)}.`,
  ];
}

/** The options of these flag values, checked. */
function optionsOf(v: Readonly<Record<string, string | boolean | undefined>>): Options {
  if (v.game !== undefined) gameNamed(String(v.game), '--game');
  const play = String(v.play ?? 'heuristic');
  if (!(PLAYS as readonly string[]).includes(play))
    throw new TafelError('bad-option', `--play '${play}': heuristic or random`);
  const n = wholes(FLAGS, v);
  const o: Options = {
    games: v.game === undefined ? GAMES.map((g) => g.name) : [String(v.game)],
    deals: n.deals,
    tricks: n.tricks,
    worlds: n.worlds,
    play: play as Play,
    seed: seedOf(FLAGS, v),
  };
  if (o.tricks > MAX_TRICKS)
    throw new TafelError(
      'bad-option',
      `--tricks ${o.tricks}: at most ${MAX_TRICKS} (exact minimax of more is too slow)`,
    );
  return o;
}

/** The plan: no runs (it measures positions, in one thread); `run` computes its table. */
export function planOf(o: Options): Plan {
  const options = { ...o };
  // `--game` is written only when it chose one game (every game is the default).
  const values = { ...options, game: o.games.length === 1 ? o.games[0] : undefined };
  return planFor({ experiment: NAME, question: QUESTION, options }, FLAGS, values);
}

const FLAGS: readonly ExperimentFlag[] = [
  { flag: '--game <g>', description: 'one game (default: all four)' },
  { flag: '--deals <n>', description: 'deals per game', default: '200', min: 1 },
  {
    flag: '--tricks <k>',
    description: `value the decisions with at most K tricks left for lc and b (at most ${MAX_TRICKS})`,
    default: '4',
    min: 1,
  },
  { flag: '--worlds <w>', description: 'worlds drawn per card and observer for df', default: '100', min: 1 },
  { flag: '--play <p>', description: 'who plays the deals: heuristic or random', default: 'heuristic' },
  { flag: '--seed <s>', description: 'master seed', default: 'properties-1' },
];

export const experiment: Experiment = {
  name: NAME,
  question: QUESTION,
  flags: FLAGS,
  plan: (v) => planOf(optionsOf(v)),
  run(plan, session) {
    // No runs, so a shard has nothing to play: the results are made without --shard.
    if (session.shard) return Promise.resolve(null);
    const x = plan.options;
    const o: Options = {
      games: (x.games as readonly string[]).map(String),
      deals: Number(x.deals),
      tricks: Number(x.tricks),
      worlds: Number(x.worlds),
      play: x.play as Play,
      seed: String(x.seed),
    };
    const results = measureAll(o);
    return Promise.resolve({
      tables: { [NAME]: stringify(csvRows(results), { header: true, columns: [...COLUMNS] }) },
      report: (seconds: number) => report(o, results, seconds, plan.command),
    });
  },
};
