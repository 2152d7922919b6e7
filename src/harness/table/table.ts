/**
 * The play loop: one table (a deal state, a match, the bots of every entrant at every
 * seat) that plays duplicate groups of a live run. A group is one deal (or one whole
 * match) played once per seat rotation with the same cards; its results are summed
 * per entrant into a `GroupTally`. Nothing here allocates per move or per deal unless
 * records are kept.
 *
 * Seeding (the only source of randomness, so results never depend on scheduling):
 * seeding.ts, from (seed, group, deal) for the cards and (seed, group, deal, seat,
 * rotation) for each bot.
 *
 * With a move timeout every move is timed: one that returns late fails its bot here,
 * and one that never returns is stopped from outside through the `MoveWatch`.
 */
import { CODE_LIMIT, newSets, setHas } from '../../core/cardset.js';
import { Rng } from '../../core/rng.js';
import type { Match, State } from '../../games/game.js';
import type { Board } from './boards.js';
import type { Bot } from '../../games/bot.js';
import { entrantAt } from './lineup.js';
import { BotFault, type FaultKind } from '../programs/fault.js';
import { reseedDeal } from './seeding.js';
import type { LiveRun, RunSpec } from '../run/spec.js';
import type { MoveSite, MoveWatch } from './watch.js';

export type Unit = 'deal' | 'match';

/** A bot's fault at a move: its kind, where it was, and the entrant at fault. */
export class MoveFault extends BotFault {
  constructor(
    fault: FaultKind,
    message: string,
    readonly site: MoveSite,
    readonly entrant: number,
  ) {
    super(fault, message);
  }
}

/** Per-entrant sums of one group: `deal*` over every seat-deal, `match*` over every seat-match. */
export class GroupTally {
  readonly dealSums: Float64Array;
  readonly dealCounts: Float64Array;
  readonly matchSums: Float64Array;
  readonly matchCounts: Float64Array;
  /** Deals played in the group (all rotations). */
  deals = 0;

  constructor(entrants: number, dealMetrics: number, matchMetrics: number) {
    this.dealSums = new Float64Array(entrants * dealMetrics);
    this.dealCounts = new Float64Array(entrants);
    this.matchSums = new Float64Array(entrants * matchMetrics);
    this.matchCounts = new Float64Array(entrants);
  }

  clear(): void {
    // Loops, not fill(): these arrays are tiny and cleared once per group.
    for (let i = 0; i < this.dealSums.length; i++) this.dealSums[i] = 0;
    for (let i = 0; i < this.matchSums.length; i++) this.matchSums[i] = 0;
    for (let e = 0; e < this.dealCounts.length; e++) this.dealCounts[e] = this.matchCounts[e] = 0;
    this.deals = 0;
  }
}

/** Receives each finished deal's record (RECORD.md) when records are kept. */
export type RecordSink = (record: Record<string, unknown>) => void;

/**
 * Receives each finished deal's metrics (`values[seat * metrics + m]`) and the entrant
 * at each seat, for per-deal output. Both arrays are the table's own and are reused:
 * read them before returning.
 */
export type DealSink = (g: number, r: number, k: number, seatEntrant: Int32Array, values: Float64Array) => void;

/**
 * Receives what the run's database keeps (see db-schema.ts): each finished deal with its
 * metrics and facts (`Match.facts`, when the game has them), and each finished match
 * with its metrics. The arrays are the table's own and are reused: read them at once.
 */
export interface DbSink {
  deal(
    g: number,
    r: number,
    k: number,
    seatEntrant: Int32Array,
    metrics: Float64Array,
    dealFacts: Float64Array,
    seatFacts: Float64Array,
  ): void;
  match(g: number, r: number, seatEntrant: Int32Array, metrics: Float64Array): void;
}

export class Table {
  readonly state: State;
  private readonly match: Match;
  /** bots[entrant][seat]: every entrant can sit at every seat. */
  private readonly bots: Bot[][];
  private readonly botRngs: Rng[][];
  private readonly seatBots: Bot[];
  /** The random streams of the bots in `seatBots`. */
  private readonly seatRngs: Rng[];
  private readonly seatEntrant: Int32Array;
  private readonly cards = new Rng();
  private readonly legal = newSets();
  private readonly dealValues: Float64Array;
  private readonly matchValues: Float64Array;
  private readonly dealFacts: Float64Array;
  private readonly seatFacts: Float64Array;
  /** The run's chosen deals (group g's first deal is board g), or null: every deal from the seed. */
  private readonly boards: readonly Board[] | null;
  /** Some bot hears when its deals begin and end (a bot program); else the hooks are skipped. */
  private readonly dealHooks: boolean;
  /** Where the deal under way is, for those hooks (one object, rewritten per deal). */
  private readonly site = { group: 0, rotation: 0, deal: 0 };
  /** The rotation whose bots sit at the seats (-1: none yet). */
  private seated = -1;

  private readonly moveTimeout: number;
  /** Where timed moves are announced to a watching thread (set per batch), or null. */
  watch: MoveWatch | null = null;
  /** With `spec.timeMoves`: per entrant e, moves made [2e] and their milliseconds [2e + 1], summed until the owner resets them. */
  readonly moveTime: Float64Array;

  constructor(
    private readonly run: LiveRun,
    private readonly sink: RecordSink | null = null,
    private readonly dealSink: DealSink | null = null,
    private readonly dbSink: DbSink | null = null,
  ) {
    const { game, table, lineup, spec } = run;
    const seats = table.seats;
    this.moveTimeout = spec.moveTimeout ?? Infinity;
    this.state = game.newState(table);
    this.match = game.newMatch(table, { singleDeal: spec.unit === 'deal', index: 0 });
    this.match.recording = sink !== null;
    this.botRngs = lineup.entrants.map(() => Array.from({ length: seats }, () => new Rng()));
    this.bots = lineup.entrants.map((e, i) =>
      Array.from({ length: seats }, (_, seat) =>
        // Only a bot marked `cheats` sees the live state (and every table flags it as cheating).
        e.spec.create({
          game,
          table,
          seat,
          rng: this.botRngs[i][seat],
          params: e.params,
          ...(e.spec.cheats === true ? { state: this.state } : {}),
        }),
      ),
    );
    this.dealHooks = this.bots.some((row) =>
      row.some((b) => b.startDeal !== undefined || b.finishDeal !== undefined || b.abandonDeal !== undefined),
    );
    // Filled (a packed array, no holes) with the first entrant's bots until a rotation seats them.
    this.seatBots = this.bots[0].slice();
    this.seatRngs = this.botRngs[0].slice();
    this.seatEntrant = new Int32Array(seats);
    this.moveTime = new Float64Array(spec.timeMoves ? 2 * lineup.entrants.length : 0);
    this.dealValues = new Float64Array(seats * game.dealMetrics.length);
    this.matchValues = new Float64Array(seats * game.matchMetrics.length);
    this.dealFacts = new Float64Array(game.facts?.deal.length ?? 0);
    this.seatFacts = new Float64Array(seats * (game.facts?.seat.length ?? 0));
    this.boards = spec.boards?.boards ?? null;
  }

  /** Play every rotation of group `g`, adding the results to `out` (which the caller clears). */
  playGroup(g: number, out: GroupTally): void {
    for (let r = 0; r < this.run.lineup.rotations; r++) this.playRotation(g, r, out);
  }

  /** Play rotation `r` of group `g` alone (match index g * rotations + r), adding to `out`. */
  playRotation(g: number, r: number, out: GroupTally): void {
    const { game, key, table } = this.run;
    const seats = table.seats;
    // Seated once per rotation: with one rotation (every seat the same entrant) this would run once a deal.
    if (r !== this.seated) this.seat(r);
    const match = this.match;
    match.reset(g);
    const dm = game.dealMetrics.length;
    while (!match.over) {
      const k = match.dealIndex;
      reseedDeal(this.cards, this.seatRngs, key, g, k, r);
      if (k === 0 && this.boards !== null) match.startBoard(this.state, this.boards[g]);
      else match.startDeal(this.state, this.cards);
      if (this.dealHooks) this.startHooks(g, r, k);
      this.playDeal(g, r, k);
      if (this.dealHooks) this.finishHooks(g, r, k);
      match.finishDeal(this.state);
      match.dealMetrics(this.state, this.dealValues);
      const values = this.dealValues;
      const sums = out.dealSums;
      for (let seat = 0; seat < seats; seat++) {
        // A seat that took no part in the deal (NaN) is left out of its bot's means.
        const first = values[seat * dm];
        if (first !== first) continue;
        const e = this.seatEntrant[seat];
        for (let m = 0; m < dm; m++) sums[e * dm + m] += values[seat * dm + m];
        out.dealCounts[e]++;
      }
      out.deals++;
      if (this.sink) this.sink(this.recordOf(g, r, k));
      if (this.dealSink) this.dealSink(g, r, k, this.seatEntrant, this.dealValues);
      if (this.dbSink) {
        match.facts?.(this.state, this.dealFacts, this.seatFacts);
        this.dbSink.deal(g, r, k, this.seatEntrant, this.dealValues, this.dealFacts, this.seatFacts);
      }
    }
    if (this.run.spec.unit === 'match') {
      const mm = game.matchMetrics.length;
      match.matchMetrics(this.matchValues);
      for (let seat = 0; seat < seats; seat++) {
        const e = this.seatEntrant[seat];
        for (let m = 0; m < mm; m++) out.matchSums[e * mm + m] += this.matchValues[seat * mm + m];
        out.matchCounts[e]++;
      }
      this.dbSink?.match(g, r, this.seatEntrant, this.matchValues);
    }
  }

  /** Seat the bots of rotation `r`. */
  private seat(r: number): void {
    const lineup = this.run.lineup;
    const seats = this.run.table.seats;
    for (let seat = 0; seat < seats; seat++) {
      const e = entrantAt(lineup, seat, r);
      this.seatEntrant[seat] = e;
      // Stored only when it changes: a store of an object costs a write barrier.
      const bot = this.bots[e][seat];
      if (this.seatBots[seat] !== bot) {
        this.seatBots[seat] = bot;
        this.seatRngs[seat] = this.botRngs[e][seat];
      }
    }
    this.seated = r;
  }

  /** Tell the bots that hear of it that their deal begins (seat by seat, in seat order). */
  private startHooks(g: number, r: number, k: number): void {
    const site = this.site;
    site.group = g;
    site.rotation = r;
    site.deal = k;
    for (let seat = 0; seat < this.seatBots.length; seat++) {
      const bot = this.seatBots[seat];
      if (!bot.startDeal) continue;
      try {
        bot.startDeal(this.state.observe(seat), site);
      } catch (e) {
        throw this.hookFailure(seat, g, r, k, 'as its deal began', e);
      }
    }
  }

  /** Tell the bots that hear of it that the deal is over, with what each seat sees at its end. */
  private finishHooks(g: number, r: number, k: number): void {
    for (let seat = 0; seat < this.seatBots.length; seat++) {
      const bot = this.seatBots[seat];
      if (!bot.finishDeal) continue;
      try {
        bot.finishDeal(this.state.observe(seat));
      } catch (e) {
        throw this.hookFailure(seat, g, r, k, 'as its deal ended', e);
      }
    }
  }

  /**
   * The deal under way is given up (a bot failed): bots that hold something for it (a
   * program in the middle of a deal) let it go. The table is not used again.
   */
  abandon(): void {
    if (!this.dealHooks) return;
    for (const row of this.bots) for (const bot of row) bot.abandonDeal?.();
  }

  private playDeal(g: number, r: number, k: number): void {
    const limit = this.moveTimeout;
    if (limit === Infinity && this.moveTime.length === 0) this.playUntimed(g, r, k);
    else this.playTimed(g, r, k, limit);
  }

  /**
   * The deal's moves when none is timed: one try around the whole loop rather than one
   * a move, and no timing branches, which keeps the loop (with the bot, `legal` and the
   * following rule inlined into it) short. A fault is told as `playTimed` tells it.
   */
  private playUntimed(g: number, r: number, k: number): void {
    const state = this.state;
    const legal = this.legal;
    const bots = this.seatBots;
    let seat = -1;
    // Whether the bot was choosing when something threw (else the rules threw, or the
    // loop itself with an illegal move's fault: passed on as it is).
    let acting = false;
    try {
      while (!state.isTerminal()) {
        seat = state.toMove;
        const n = state.legal(legal, 0);
        acting = true;
        const move = bots[seat].act(state.observe(seat), legal, n);
        acting = false;
        // `setHas` written out: a call here would count against V8's inlining budget for the loop.
        if (!(move >>> 0 === move && move < CODE_LIMIT && ((legal[move >>> 5] >>> move) & 1) !== 0)) {
          throw this.illegal(move, seat, g, r, k);
        }
        state.apply(move);
      }
    } catch (e) {
      if (!acting) throw e;
      throw this.botThrew(e, seat, g, r, k);
    }
  }

  private playTimed(g: number, r: number, k: number, limit: number): void {
    const state = this.state;
    const legal = this.legal;
    const timed = limit !== Infinity;
    const clocked = this.moveTime.length > 0;
    while (!state.isTerminal()) {
      const seat = state.toMove;
      const n = state.legal(legal, 0);
      let move: number;
      let started = 0;
      if (timed) this.watch?.begin(g, r, k, seat);
      if (timed || clocked) started = performance.now();
      try {
        move = this.seatBots[seat].act(state.observe(seat), legal, n);
      } catch (e) {
        throw this.botThrew(e, seat, g, r, k);
      }
      if (clocked) {
        const e = this.seatEntrant[seat];
        this.moveTime[2 * e]++;
        this.moveTime[2 * e + 1] += performance.now() - started;
      }
      if (timed) {
        this.watch?.end();
        const took = performance.now() - started;
        if (took > limit) {
          throw this.failure('time', seat, g, r, k, `took longer than the move timeout of ${limit} ms over one move`);
        }
      }
      if (!(move >>> 0 === move && move < CODE_LIMIT && setHas(legal, 0, move)))
        throw this.illegal(move, seat, g, r, k);
      state.apply(move);
    }
  }

  /** A fault the bot reports itself (a program's: bot.ts) keeps its kind; anything else it threw is 'threw'. */
  private botThrew(e: unknown, seat: number, g: number, r: number, k: number): MoveFault {
    if (e instanceof BotFault) return this.failure(e.fault, seat, g, r, k, e.message.split('\n')[0]);
    return this.failure('threw', seat, g, r, k, `threw ${String((e as Error)?.message ?? e).split('\n')[0]}`);
  }

  private illegal(move: unknown, seat: number, g: number, r: number, k: number): MoveFault {
    const shown =
      typeof move === 'number' && move >>> 0 === move && move < CODE_LIMIT ? this.state.moveName(move) : String(move);
    return this.failure('illegal', seat, g, r, k, `played an illegal move (${shown})`);
  }

  private failure(fault: FaultKind, seat: number, g: number, r: number, k: number, what: string): MoveFault {
    this.watch?.end();
    const site = { group: g, rotation: r, deal: k, seat };
    return new MoveFault(fault, failedMove(this.run.spec, site, what), site, this.seatEntrant[seat]);
  }

  /** A bot program's fault keeps its kind and says itself what happened; anything else is a bot that threw. */
  private hookFailure(seat: number, g: number, r: number, k: number, when: string, e: unknown): MoveFault {
    if (e instanceof BotFault) return this.failure(e.fault, seat, g, r, k, e.message);
    return this.failure('threw', seat, g, r, k, `threw ${when}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
  }

  private recordOf(g: number, r: number, k: number): Record<string, unknown> {
    const { game, table, lineup, spec } = this.run;
    return {
      v: 1,
      game: game.name,
      rules: table.rules,
      seed: spec.seed,
      match: g * lineup.rotations + r,
      deal: k,
      rotation: r,
      seats: table.seats,
      bots: Array.from(this.seatEntrant, (e) => lineup.entrants[e].label),
      ...(k === 0 && this.boards !== null ? { board: this.boards[g].id } : {}),
      ...this.match.record(this.state),
    };
  }
}

/** How a bot's failure is told: `bot LABEL at seat S WHAT (seed X, deal G, rotation R)`. */
export function failedMove(spec: RunSpec, at: MoveSite, what: string): string {
  const label = spec.entrants[spec.seatings[at.rotation][at.seat]].label;
  const where = spec.unit === 'deal' ? `deal ${at.group}` : `match ${at.group}, deal ${at.deal}`;
  return `bot ${label} at seat ${at.seat} ${what} (seed ${spec.seed}, ${where}, rotation ${at.rotation})`;
}
