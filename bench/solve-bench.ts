/**
 * `tafel bench --solve`: the exact solver (bots/solver) timed on seeded positions, one
 * thread. Position i of a seed is deal i of that seed, dealt exactly as a `--deals`
 * run deals its single deals (`Match.reset(i)`, then `startDeal` with the cards stream
 * (key, i, 0, 0) of table.ts), then played at random for `fromTrick` complete tricks
 * from a stream of its own (key, i, PLAY_STREAM), yes/no decisions answered so that
 * every seat plays on: NO to a claim or an offer (as the solver answers them), YES to
 * declaring in (Vier-Anderle with money in the pot), until a card is to be played. The
 * seat to move is the root: the solver values the final measure of its side.
 *
 * What is timed is `reset` (an O(1) table clear) and `value`, per position; dealing
 * and random play are not. With `passes` every position is solved that many times,
 * pass after pass, and keeps its fastest time. Small endgames from another stream are solved first,
 * untimed (some 100,000 nodes), so that the first timed position does not pay for the JIT.
 *
 * The signature hashes every root seat and solved value in order (an aborted
 * position hashes as a marker). The values are exact, so an optimisation of the
 * solver or the states must leave it unchanged; a different signature means a
 * different answer somewhere (or different positions: a change in dealing or play).
 */
import { newSets, setSelect } from '../src/core/cardset.js';
import { TafelError } from '../src/core/errors.js';
import { Rng, fmix32, seedKey, type SeedKey } from '../src/core/rng.js';
import { Decision, NO, YES, type Game, type Match, type State, type TableConfig } from '../src/games/game.js';
import { Solver, type Probe } from '../bots/solver/solver.js';
import { quantile, quantileRanks } from '../src/harness/stats/stats.js';

/**
 * The random play's stream purpose (the y coordinate of `Rng.reseed`): table.ts uses
 * 0 for the cards and 1 + seat (at most 13) for the bots; this is clear of both.
 */
const PLAY_STREAM = 0x5b;
/** The warm-up positions' stream purpose (their deals and play). */
const WARM_STREAM = 0x5c;
/**
 * The untimed warm-up: endgames of WARM_TRICKS tricks (fewer in shorter deals) until
 * WARM_NODES nodes or WARM_POSITIONS positions, whichever comes first.
 */
const WARM_TRICKS = 3;
const WARM_NODES = 100_000;
const WARM_POSITIONS = 400;

/**
 * Builds seeded solve-bench positions of one game and table: position i as described
 * above. Reuses its buffers; `at` returns the same state object each time.
 */
export class SolvePositions {
  readonly state: State;
  /** Tricks in a deal of this table (`tricksLeft` right after the deal). */
  readonly tricks: number;
  private readonly match: Match;
  private readonly cards = new Rng();
  private readonly play = new Rng();
  private readonly legal = newSets();

  constructor(
    game: Game,
    table: TableConfig,
    private readonly key: SeedKey,
  ) {
    this.state = game.newState(table);
    this.match = game.newMatch(table, { singleDeal: true, index: 0 });
    this.deal(0, 0);
    this.tricks = this.state.tricksLeft();
  }

  /** Position `i` after `fromTrick` complete tricks of random play (0 <= fromTrick < tricks). */
  at(i: number, fromTrick: number): State {
    return this.playTo(i, this.tricks - fromTrick, 0);
  }

  /** Deal `i` played at random until `tricksLeft` tricks are left, from stream `purpose` (0: PLAY_STREAM). */
  playTo(i: number, tricksLeft: number, purpose: number): State {
    const s = this.deal(i, purpose);
    this.play.reseed(this.key, i, purpose === 0 ? PLAY_STREAM : purpose);
    const legal = this.legal;
    for (;;) {
      if (s.isTerminal()) break;
      if (s.decision !== Decision.Card) {
        s.apply(s.decision === Decision.Declare ? YES : NO);
        continue;
      }
      if (s.trickCards === 0 && s.tricksLeft() <= tricksLeft) break;
      const n = s.legal(legal, 0);
      s.apply(setSelect(legal, 0, this.play.below(n)));
    }
    return s;
  }

  private deal(i: number, purpose: number): State {
    // Exactly table.ts's single deal i (group i, deal 0 of its match): match index i,
    // cards stream (key, i, 0, 0 << 8). The warm-up deals from a stream of its own.
    this.match.reset(i);
    if (purpose === 0) this.cards.reseed(this.key, i, 0, 0);
    else this.cards.reseed(this.key, i, purpose, 1);
    this.match.startDeal(this.state, this.cards);
    return this.state;
  }
}

export interface SolveBenchOptions {
  readonly seed: string;
  /** Positions to solve. */
  readonly deals: number;
  /** Complete tricks of random play before the root (0: the whole deal). */
  readonly fromTrick: number;
  /** Nodes after which one position's search is abandoned (Infinity: none). */
  readonly nodeLimit: number;
  /** Whether the solver may use the game's own endgame search (`State.endgame`; default true). */
  readonly endgame?: boolean;
  /**
   * Times every position is solved (default 1), pass after pass: a position's time is
   * the least of its passes, which filters out what else the machine was doing. Every
   * pass must find the same values and node counts (a search from a reset solver costs
   * the same whatever ran before); a difference is an internal error.
   */
  readonly passes?: number;
  /** Nodes of untimed warm-up before the first position (default WARM_NODES; 0: none). */
  readonly warmUpNodes?: number;
  /** Called once the options are checked, before any solving, with the head line. */
  readonly onStart?: (head: string) => void;
  /** Called after each position (for `--verbose`). */
  readonly onPosition?: (p: SolvedPosition) => void;
}

export interface SolvedPosition {
  readonly index: number;
  /** The root: the seat to move, whose side's final measure is the value. */
  readonly seat: number;
  readonly tricksLeft: number;
  /** The exact final measure of the seat's side; NaN when aborted. */
  readonly value: number;
  readonly nodes: number;
  readonly ms: number;
  readonly aborted: boolean;
  /** The zero-window searches that found the value, in order (`Solver.probes`; none when aborted). */
  readonly probes: readonly Probe[];
}

export interface SolveBenchResult {
  readonly game: string;
  readonly seats: number;
  readonly seed: string;
  readonly fromTrick: number;
  readonly tricks: number;
  readonly nodeLimit: number;
  readonly positions: readonly SolvedPosition[];
  /** Hash of the root seats and values in order (8 hex digits). */
  readonly signature: string;
}

/** The faster of two solves of one position, which must agree in everything else (else an internal error). */
export function fasterSolve(a: SolvedPosition, b: SolvedPosition): SolvedPosition {
  const same =
    (Number.isNaN(a.value) ? Number.isNaN(b.value) : a.value === b.value) &&
    a.nodes === b.nodes &&
    a.aborted === b.aborted &&
    a.seat === b.seat &&
    a.probes.length === b.probes.length &&
    a.probes.every(
      (q, i) => q.target === b.probes[i].target && q.result === b.probes[i].result && q.nodes === b.probes[i].nodes,
    );
  if (!same)
    throw new Error(
      `bench --solve: position ${a.index} solved twice differently (value ${a.value} / ${b.value}, nodes ${a.nodes} / ${b.nodes}): the solver depends on what ran before`,
    );
  return b.ms < a.ms ? b : a;
}

/** Check `fromTrick` against the table's deal: a TafelError (exit 2) when out of range. */
function checkFromTrick(game: Game, tricks: number, fromTrick: number): void {
  if (!Number.isSafeInteger(fromTrick) || fromTrick < 0 || fromTrick >= tricks) {
    throw new TafelError(
      'bad-option',
      `--from-trick must be 0 to ${tricks - 1} for ${game.name} (a deal of ${tricks} tricks), not ${fromTrick}`,
    );
  }
}

export function solveBench(game: Game, table: TableConfig, o: SolveBenchOptions): SolveBenchResult {
  const key = seedKey(o.seed);
  const positions = new SolvePositions(game, table, key);
  checkFromTrick(game, positions.tricks, o.fromTrick);
  o.onStart?.(headLine(game.name, table.seats, o, positions.tricks));
  const solver = new Solver(game, table, { endgame: o.endgame });

  // Untimed warm-up: small endgames from their own stream (not part of the signature).
  const warmUp = o.warmUpNodes ?? WARM_NODES;
  let warmNodes = 0;
  for (let w = 0; w < WARM_POSITIONS && warmNodes < warmUp; w++) {
    const s = positions.playTo(w, Math.min(WARM_TRICKS, positions.tricks - 1), WARM_STREAM);
    if (s.isTerminal()) continue;
    solver.reset();
    solver.nodeLimit = warmUp;
    solver.value(s, s.toMove);
    warmNodes += solver.nodes;
  }

  const passes = o.passes ?? 1;
  const out: SolvedPosition[] = [];
  for (let pass = 1; pass <= passes; pass++) {
    for (let i = 0; i < o.deals; i++) {
      const s = positions.at(i, o.fromTrick);
      const seat = s.toMove;
      const tricksLeft = s.tricksLeft();
      const t0 = performance.now();
      solver.reset();
      solver.nodeLimit = o.nodeLimit;
      const v = solver.value(s, seat);
      const ms = performance.now() - t0;
      const aborted = solver.aborted;
      const probes = aborted ? [] : solver.probes();
      const p: SolvedPosition = {
        index: i,
        seat,
        tricksLeft,
        value: aborted ? NaN : v,
        nodes: solver.nodes,
        ms,
        aborted,
        probes,
      };
      if (pass === 1) out.push(p);
      else out[i] = fasterSolve(out[i], p);
      if (pass === passes) o.onPosition?.(out[i]);
    }
  }
  let h = fmix32(0x7afe1 ^ o.deals);
  for (const p of out) {
    h = fmix32(h ^ Math.imul(p.seat + 1, 0x9e3779b1));
    h = fmix32(h ^ (p.aborted ? 0x7fffffff : Math.round(p.value * 16)));
  }
  return {
    game: game.name,
    seats: table.seats,
    seed: o.seed,
    fromTrick: o.fromTrick,
    tricks: positions.tricks,
    nodeLimit: o.nodeLimit,
    positions: out,
    signature: (h >>> 0).toString(16).padStart(8, '0'),
  };
}

/**
 * `[a, b]`: a 95% interval for the q-quantile of the solve times that `sorted` was
 * drawn from (`quantileRanks`, free of any assumption on their distribution); a side
 * that this many positions cannot bound at 95% shows as 0 or inf.
 */
function quantileInterval(sorted: readonly number[], q: number): string {
  if (sorted.length === 0) return 'n/a';
  const { low, high } = quantileRanks(sorted.length, q);
  return `[${low < 0 ? '0' : sorted[low].toFixed(2)}, ${high >= sorted.length ? 'inf' : sorted[high].toFixed(2)}]`;
}

export function positionLine(p: SolvedPosition): string {
  const value = p.aborted ? 'aborted at the node limit' : `value ${p.value}`;
  return `position ${p.index}: seat ${p.seat}, ${p.tricksLeft} tricks left, ${value}, ${p.nodes} nodes, ${p.ms.toFixed(2)} ms${probeList(p.probes)}`;
}

/**
 * `; probes >=t? >=r (n), >=t? <=r (n), ...`: each zero-window search in order, as the
 * question it asked (does the value reach t?), what it proved (the value is at least r,
 * or at most r) and its nodes.
 */
function probeList(probes: readonly Probe[]): string {
  if (probes.length === 0) return '';
  return `; probes ${probes.map((q) => `>=${q.target}? ${q.result >= q.target ? '>=' : '<='}${q.result} (${q.nodes})`).join(', ')}`;
}

/** The first line: what is solved, with which seed and limit. */
function headLine(
  game: string,
  seats: number,
  o: { seed: string; deals: number; fromTrick: number; nodeLimit: number; endgame?: boolean; passes?: number },
  tricks: number,
): string {
  const where =
    o.fromTrick === 0
      ? 'whole deals'
      : `after ${o.fromTrick} trick${o.fromTrick === 1 ? '' : 's'} of random play (${tricks - o.fromTrick} left)`;
  const limit = Number.isFinite(o.nodeLimit) ? `node limit ${o.nodeLimit}` : 'no node limit';
  const endgame = o.endgame === false ? ', no endgame search' : '';
  const passes = (o.passes ?? 1) > 1 ? `, best of ${o.passes} passes` : '';
  return `bench --solve: ${game}, ${seats} seats, ${o.deals} positions, ${where}, seed ${o.seed}, 1 thread, ${limit}${endgame}${passes}`;
}

/**
 * The summary lines (after the head line and any per-position lines). Times and nodes are those of the solved positions; aborted ones
 * are counted on their own line (their cost is left out, so the figures then
 * understate the real cost). The last two lines are always the median and the p90.
 */
export function summaryLines(r: SolveBenchResult): string[] {
  const solved = r.positions.filter((p) => !p.aborted);
  const aborted = r.positions.filter((p) => p.aborted);
  const times = solved.map((p) => p.ms).sort((a, b) => a - b);
  const totalMs = times.reduce((a, b) => a + b, 0);
  let totalNodes = 0;
  let maxNodes = 0;
  let maxAt = -1;
  for (const p of solved) {
    totalNodes += p.nodes;
    if (p.nodes > maxNodes) {
      maxNodes = p.nodes;
      maxAt = p.index;
    }
  }
  const ms = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(2));
  const lines = [`positions: ${r.positions.length}`, `solved: ${solved.length}`];
  if (aborted.length > 0) {
    const shown =
      aborted
        .slice(0, 10)
        .map((p) => p.index)
        .join(', ') + (aborted.length > 10 ? ', ...' : '');
    const spent = aborted.reduce((a, p) => a + p.ms, 0);
    lines.push(
      `aborted: ${aborted.length} at the node limit (positions ${shown}; ${(spent / 1000).toFixed(2)} s spent on them), left out of every figure below, which therefore understates the cost`,
    );
  } else {
    lines.push('aborted: 0');
  }
  lines.push(
    `nodes-total: ${totalNodes}`,
    `nodes-max: ${solved.length ? `${maxNodes} (position ${maxAt})` : 'n/a'}`,
    `solve-total-s: ${(totalMs / 1000).toFixed(2)}`,
    `nodes-per-second: ${totalMs > 0 ? Math.round(totalNodes / (totalMs / 1000)) : 'n/a'}`,
    `solve-max-ms: ${ms(times.length ? times[times.length - 1] : NaN)}`,
    `solve-mean-ms: ${ms(times.length ? totalMs / times.length : NaN)}`,
    `signature: ${r.signature}`,
    `solve-median-ci95-ms: ${quantileInterval(times, 0.5)}`,
    `solve-p90-ci95-ms: ${quantileInterval(times, 0.9)}`,
    `solve-median-ms: ${ms(quantile(times, 0.5))}`,
    `solve-p90-ms: ${ms(quantile(times, 0.9))}`,
  );
  return lines;
}
