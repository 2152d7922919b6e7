/**
 * The game contract: what every game of tafel provides, and the only thing that bots
 * and the harness know about games. The four games implement it on one trick-play
 * kernel (trick/state.ts); test/contract.test.ts checks every game against it.
 *
 * ## Two levels: the deal and the match
 *
 * A **deal** is one round of card play (with the decisions that belong to it: claims,
 * declaring in or out, schleipfen). Its state, `State`, is what bots search over: it
 * can be copied cheaply, advanced move by move, and it knows each seat's utility when
 * it ends. A **match** (a Viersche match of sets, a Hindersche rubber, a Jass match of
 * Partien, a Vier-Anderle session) is the scoring that runs across deals: ladders,
 * slates, pots. `Match` sets up each deal's state (who deals, who plays, which targets
 * or pot apply) and scores it when it ends. Match state that matters to play (a second
 * deal's targets, the pot) is copied into the deal state and is public.
 *
 * ## Seats, decisions and moves
 *
 * Seats are 0..seats-1 and `s + 1 (mod seats)` acts after `s` (C-2). At every
 * non-terminal point exactly one seat, `toMove`, faces one `decision`:
 *
 * - `Decision.Card`: play a card. Moves are card codes of the game's layout.
 * - any other kind (claim, declare, schleipfen offer, objection): a yes/no question,
 *   answered with the moves `YES` or `NO`.
 *
 * A move is a small integer, `lane << 5 | bit` (see core/cardset.ts). Card codes use
 * lanes 0..3 in the game's own layout (for the French games, lane 0 is the trump suit
 * in order of strength, so bots can reason on masks); `YES`/`NO` are codes 126 and
 * 127, above every card. The
 * legal moves are therefore always a card set: `legal(out, off)` writes them as lane
 * masks into a caller-owned Int32Array and returns how many there are. Nothing in the
 * play loop allocates: the state is mutated in place and the caller owns all buffers.
 *
 * ## What a bot may know: observations
 *
 * Bots never receive a `State`. `state.observe(seat)` returns that seat's
 * `Observation`: a read-only window that answers only what the seat may know (its own
 * hand, the public turn-up, the cards played, claims and scores). The window holds the
 * state in an ECMAScript private field (`#state`), which no code outside the class can
 * reach: not by property access, not by reflection, not by `Object.keys`. Peeking is
 * impossible by construction, and tests check that two worlds that differ only in
 * what a seat cannot see give that seat identical observations.
 *
 * An observation is live: it reflects the state as it is now. Each state keeps one
 * window per seat, so observing allocates nothing. A method that takes a seat, a ply, a
 * trick or a lane answers outside the deal's range with a stated default (-1 for a
 * seat, move or card; 0 for a count or a mask), never with a number read from another
 * part of the state.
 *
 * ## Search: determinization
 *
 * `Game.sample(obs, rng, out)` writes into `out` a full state (every hand dealt) that
 * is consistent with the observation: the observer's hand, every card seen, the
 * dealer's turn-up, and the voids revealed by play. Worlds are drawn uniformly among
 * the consistent ones; a game says where it cannot afford exactness (Vier-Anderle
 * with a dozen players late in a hand, when uniform proposals almost never fit,
 * builds a world by matching and mixes it by random swaps: near uniform, not exactly;
 * its sample.ts). (In Viersche and Hindersche following with a trump when a plain
 * suit is led is always allowed, so it reveals nothing; failing to follow or trump
 * reveals a void. Hindersi-Jass reveals more and less: an undertrump on a plain lead
 * shows a void in it, and a non-trump on a trump lead shows no trump except possibly
 * the Puur. Each game's sampler documents what its play reveals.)
 * Search bots sample worlds, then `copyFrom`, `apply` and `returns` inside them.
 *
 * ## Search support
 *
 * Exact search (bots/solver) solves the card play of a deal with every hand known: it
 * maximises one side's `taken` measure (the game's `searchGoal`: card points, or
 * tricks) against the other seats. Because the measure still to be taken from a trick
 * boundary depends only on the cards still in the hands and who leads (`searchKey`),
 * values of positions reached by different orders of play are shared; `inPlay`
 * bounds them, and `searchMoves` leaves out cards that are interchangeable (the 7 and
 * the 8 of a suit once the cards between them are gone). A game may also search its
 * last tricks itself, on its own bare representation (`endgame`), where the generic
 * search through copied states is at its most wasteful. Yes/no decisions inside such
 * a search are answered NO (play on): a claim stops the counting, and the solver values
 * the card play itself; bots value those decisions by other means.
 *
 * ## Results
 *
 * A terminal deal state gives each seat a utility through `returns` (for search; each
 * game documents its scale) and the metrics that the harness reports through
 * `Match.dealMetrics`. The match's own metrics (a set won, a rubber's balance) come from
 * `Match.matchMetrics` once `Match.over`.
 */
import type { Rng } from '../core/rng.js';
import { codeOf } from '../core/cardset.js';
import type { BotSpec } from './bot.js';
import type { GameScreen } from './screen.js';

/** The kinds of decision a seat can face. Every kind but `Card` is answered YES or NO. */
export const Decision = {
  /** The deal is over: nobody acts. */
  None: -1,
  /** Play a card. */
  Card: 0,
  /** Viersche V-8: claim that your team has reached its target. */
  Claim: 1,
  /** Vier-Anderle A-6: declare in (YES) or out (NO). */
  Declare: 2,
  /** Hindersche H-2: offer to take the trick just won by another player. */
  Schleipfe: 3,
  /** Hindersche H-2: object to another player's offer to take the trick. */
  Object: 4,
} as const;
export type DecisionKind = (typeof Decision)[keyof typeof Decision];

export const DECISION_NAMES: Readonly<Record<DecisionKind, string>> = {
  [-1]: 'none',
  0: 'card',
  1: 'claim',
  2: 'declare',
  3: 'schleipfe',
  4: 'object',
};

/** The answers to a yes/no decision: the two highest codes, which no pack uses. */
export const NO = codeOf(3, 30);
export const YES = codeOf(3, 31);

/** A value a rule variant or bot parameter may take. */
export type ParamValue = string | number | boolean;
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * A named, typed, documented setting: a rule variant (`--rules key=value`) or a bot
 * parameter (`bot:key=value`). `parse` turns command-line text into the value or
 * throws a `TafelError` that says what is wrong.
 */
export interface ParamSpec {
  readonly key: string;
  readonly description: string;
  readonly default: ParamValue;
  /** 'int', 'number', 'boolean' or a list of allowed words. */
  readonly type: 'int' | 'number' | 'boolean' | readonly string[];
  /** Inclusive bounds for numbers. */
  readonly min?: number;
  readonly max?: number;
}

/** A per-seat quantity the harness averages over deals or matches. */
export interface Metric {
  readonly key: string;
  readonly description: string;
  /** Higher is better for the seat (false for "points taken" in the reverse games). */
  readonly higherIsBetter: boolean;
  /** Takes only the values 0 and 1 (a rate: reported with a Wilson interval). */
  readonly binary?: boolean;
}

/**
 * A public fact of a finished deal, or of one seat's part in it (its dealt hand, what it
 * took), which the harness writes as a column of the run's database (`--db`: the
 * `deals` and `seats` tables) for questions that the metrics do not answer. Written as
 * numbers: an `int` or `number` as it is, a `bool` as 0 or 1, a word of `values` as its
 * index there; NaN where the fact does not apply (a seat out of the deal, no claim).
 */
export interface Fact {
  /** The column's name: lower case, digits and `_`. */
  readonly key: string;
  readonly description: string;
  readonly type: 'int' | 'number' | 'bool' | readonly string[];
}

/** The facts a game writes for each deal and each seat of it (see `Match.facts`). */
export interface DealFacts {
  readonly deal: readonly Fact[];
  readonly seat: readonly Fact[];
}

/** What is fixed for a whole table: the number of seats and the rule variants. */
export interface TableConfig {
  readonly seats: number;
  readonly rules: Params;
}

/**
 * The read-only window of one seat. The common part is here; each game's window
 * adds what its players see (trump, trick, points, pot...). Everything a window
 * returns is public or belongs to its seat.
 */
export interface Observation {
  /** The observing seat. */
  readonly seat: number;
  readonly seats: number;
  /** The seat that acts now; -1 when the deal is over. */
  readonly toMove: number;
  /** What `toMove` must decide now. */
  readonly decision: DecisionKind;
  /** Whether the deal is over. */
  readonly terminal: boolean;
  /** Lane `lane` of the observer's own hand (card codes of the game's layout); 0 outside 0..LANES-1. */
  handLane(lane: number): number;
  /** Number of moves made so far in this deal (cards and yes/no answers). */
  readonly plies: number;
  /** The seat that made move `ply`; -1 outside [0, plies). */
  moveSeat(ply: number): number;
  /**
   * Move `ply` as this seat saw it; `HIDDEN` for a card it has not seen (a face-down
   * lead); -1 (which is `HIDDEN`) outside [0, plies).
   */
  move(ply: number): number;
  /** A canonical text of everything this window shows. For tests (it allocates). */
  fingerprint(): string;
}

/**
 * Sees a sampled world's history as the sampler replays it into the world (a search
 * bot weighs the world by how likely the others' moves were in it). A sampler that
 * gives up on a world part-way (an illegal move in it) starts its next world at ply 0
 * again, so a watcher starts over whenever it sees ply 0.
 */
export interface HistoryWatcher<S extends State = State> {
  /** `state` is the world just before move `ply`, which is `move` (a face-down card as the world has it). */
  before(state: S, ply: number, move: number): void;
}

/** A card that the observer has not seen (a face-down lead before it is revealed). */
export const HIDDEN = -1;

/**
 * The state of one deal. Mutated in place; `copyFrom` copies another state of the
 * same game and table into this one without allocating (search keeps a stack of
 * preallocated states).
 */
export interface State {
  readonly seats: number;
  /** The seat that acts now; -1 when the deal is over. */
  readonly toMove: number;
  readonly decision: DecisionKind;
  isTerminal(): boolean;
  /**
   * Write the legal moves into `out[off .. off + LANES)` as a move set and return
   * their number (at least 1 unless terminal).
   */
  legal(out: Int32Array, off: number): number;
  /** Make a legal move for `toMove`. Trusts its input: check with `legal` first. */
  apply(move: number): void;
  /** Become a copy of `other` (same game, same table). Allocation-free. */
  copyFrom(other: this): void;
  /** The window of `seat`. Always the same object for the same seat and state. */
  observe(seat: number): Observation;
  /**
   * Utility of each seat at a terminal state, written to `out[0 .. seats)`. Each game
   * documents its scale; search maximises its own seat's entry.
   */
  returns(out: Float64Array): void;
  /** The move as text (`10H`, `claim`, `pass`...) for logs and errors. */
  moveName(move: number): string;

  // ---- Exact search (see "Search support" below). ----

  /** Cards already in the current trick: 0 at a trick boundary (and at a yes/no decision between tricks). */
  readonly trickCards: number;
  /** The seat whose card wins the current trick so far, or -1 (no card yet, or none can win: a face-down lead). */
  winning(): number;
  /** Whether card `move` would now win the current trick (head it), for move ordering. */
  heads(move: number): boolean;
  /** What card `move` is worth to the search measure (its points; 0 when the measure is tricks). */
  worth(move: number): number;
  /** Tricks not yet complete (the current one included). */
  tricksLeft(): number;
  /** The search measure taken by `seat` so far (`Game.searchGoal`: card points with bonuses, or tricks). */
  taken(seat: number): number;
  /**
   * An upper bound on how much of the measure all seats together can still take: the
   * points in the hands, in the current trick and in pending bonuses (or the tricks left).
   */
  inPlay(): number;
  /**
   * At a trick boundary, the measure that surely still goes to each party whatever
   * anyone plays: `out[0]` to the seats with `inSide[seat] === 1`, `out[1]` to the
   * others (0 where the game knows no such bound). The solver narrows `inPlay`'s
   * bounds with it (the "sure tricks" of double-dummy solvers, in card points).
   */
  sureTaken(inSide: Uint8Array, out: Int32Array): void;
  /**
   * Like `legal`, but with interchangeable cards reduced to one each: a card is left
   * out when the mover holds another legal card of the same lane and measure value with
   * no card between the two still in any hand or in the current trick (so which of
   * them is played can change nothing that follows). Returns the number written.
   */
  searchMoves(out: Int32Array, off: number): number;
  /**
   * At a trick boundary, write into `out[off ..)` words that identify the position's
   * future: every hand still in play, who acts and anything else on which the moves
   * and the measure still to be taken depend. Two positions of the same deal with the
   * same words have the same futures (a transposition table keys on them). Returns the
   * number of words, at most `SEARCH_KEY_WORDS`.
   */
  searchKey(out: Int32Array, off: number): number;
  /**
   * Inside a trick (`trickCards > 0`), words that identify the position's future like
   * `searchKey` at a boundary: the hands, the cards of the trick and who played them,
   * and anything else that the play and the measure still to come depend on. Optional:
   * the solver keeps bounds of positions inside the first tricks of a deal with it.
   * At most `SEARCH_KEY_WORDS` words.
   */
  trickKey?(out: Int32Array, off: number): number;
  /**
   * Tricks left at or below which `endgame` values a trick boundary; absent (or 0)
   * when the game has no such shortcut.
   */
  readonly endgameTricks?: number;
  /**
   * At a trick boundary with a card to play and at most `endgameTricks` tricks left:
   * the measure still to be taken by the seats with `inSide[seat] === 1` when those
   * with `maximizer[seat] === 1` maximise it and the others minimise it (yes/no
   * decisions answered no), searched fail-soft in the window (`alpha`, `beta`) of that
   * measure: `out[0]` gets the value when it lies inside, else a bound beyond the edge
   * that the value lies beyond; `out[1]` the positions visited. Without copies of the
   * state: the bottom of the solver's tree, where most of its positions lie. With a
   * `table`, the search may keep and use bounds at its trick boundaries (its top
   * included: the solver does not ask the table there), keyed exactly as `searchKey`
   * keys them (so the solver's entries and the game's are one): bounds on the measure
   * still to come, a lead card as the move.
   */
  endgame?(
    inSide: Uint8Array,
    maximizer: Uint8Array,
    alpha: number,
    beta: number,
    out: Int32Array,
    table?: BoundTable,
  ): void;
  /**
   * The solver's greedy playout from here (bots/solver/solver.ts, `playoutMove`: the
   * estimate beyond a horizon), every seat taking the rule's card, yes/no decisions
   * answered no, on the game's own bare representation: `out[0]` gets the measure the
   * seats with `inSide[seat] === 1` hold at the end, `out[1]` the moves made (cards and
   * answers). `maximizer` and `history` (cut-offs by seat * 128 + move code) as the
   * solver holds them. Optional: it must choose exactly the cards the solver's own
   * playout would (a game's tests check it), so that estimates, node counts and
   * budgeted play stay the same.
   */
  greedyPlayout?(inSide: Uint8Array, maximizer: Uint8Array, history: Int32Array, out: Int32Array): void;
  /**
   * The solver's search (bots/solver/solver.ts, `search`) of this position, whose next
   * card completes a trick that ends at the search's horizon, from after its table
   * probe on: the legal cards (`searchMoves`) in the solver's order (`ttMove` first),
   * each valued as the search values the trick boundary after it (its yes/no answers,
   * the bounds of the window, else `greedyPlayout`'s estimate), fail-soft alpha-beta in
   * (`alpha`, `beta`), a cut-off added to `history` as the search adds it. Nodes counted
   * as the search counts them; it stops as the search stops once more than `room` are
   * counted. `out[0]` the value, `out[1]` the best move, `out[2]` the nodes, `out[3]` 1
   * if stopped (then the rest means nothing). Optional, with `greedyPlayout`: the same
   * values, moves, nodes and history as the solver's own search (a game's tests check).
   */
  horizonCard?(
    inSide: Uint8Array,
    maximizer: Uint8Array,
    history: Int32Array,
    ttMove: number,
    alpha: number,
    beta: number,
    room: number,
    out: Int32Array,
  ): void;
}

/**
 * The solver's transposition table as `State.endgame` sees it: bounds on the measure
 * still to come at trick boundaries, by key words (`State.searchKey`'s). `slotOf`
 * picks the key's slot (its entry's, else where to keep one of `weight`, the work it
 * stands for: tricks left) and sets `hit` when the slot has this key's entry; `keep`
 * writes one from what a fail-soft search in (alpha, beta) found, the value having been
 * known to lie in [lo, hi] before (bounds, and the move to try first), replacing what
 * was there.
 * `hints` (`BOUND_TABLE_HINTS` words, -1 when cleared) is for the search's own move
 * hints from one call to the next; it is cleared with the entries, so that what the
 * search does depends only on the searches since (node counts, and with them budgeted
 * play, stay a function of the deal).
 */
export interface BoundTable {
  readonly hints: Int32Array;
  slotOf(key: Int32Array, off: number, words: number, weight: number): number;
  /** Whether the last `slotOf` found its key's entry. */
  readonly hit: boolean;
  lower(slot: number): number;
  upper(slot: number): number;
  move(slot: number): number;
  keep(
    slot: number,
    key: Int32Array,
    off: number,
    words: number,
    value: number,
    alpha: number,
    beta: number,
    lo: number,
    hi: number,
    move: number,
    weight: number,
  ): void;
}

/** Words of `BoundTable.hints`. */
export const BOUND_TABLE_HINTS = 64;

/** The most words a `State.searchKey` writes. */
export const SEARCH_KEY_WORDS = 32;

/**
 * What exact card-play search optimises for a seat, per game: its side's `taken`
 * measure, more of it being better (`more`) or less. The side is the seat's team
 * (`Game.teams`), or the seat alone.
 */
export interface SearchGoal {
  readonly measure: 'points' | 'tricks';
  readonly more: boolean;
  /**
   * The lane of the trumps (cards that beat every other lane), or -1. The solver tries
   * leads from it first, highest first: drawing trumps is what a card player usually
   * does early, and with it the first search of a full Viersche deal visits less than
   * half the nodes.
   */
  readonly trumpLane: number;
  /** One line for documentation and `tafel bots`: why this measure stands for the game's aim. */
  readonly note: string;
}

/**
 * What a deal's result turns on besides the sum of the search measure (optional, see
 * `Game.dealAims`): per seat, the measure it must take for a **march**, the outcome
 * that overturns the normal scoring (a Hindersche march, H-4/H-6; all the tricks in
 * Hindersi-Jass, J-5). Search bots test "can this seat force it" with
 * `Solver.reaches(state, seat, target, true)` (at least `target`; paranoid: everyone else
 * against the seat, which is what the others really want when a march hurts them all)
 * and value the deal by `Game.outlook`.
 */
export interface DealAims {
  /**
   * By seat: the `taken` measure at or above which the seat marches, Infinity when it
   * cannot (out of the deal, or an all-tricks aim after another seat kept a trick).
   * An all-tricks march is given as every point still to take, which is necessary for
   * it but not sufficient (a trick worth nothing may still go elsewhere): the game
   * says so where it does.
   */
  readonly target: Float64Array;
}

/**
 * A deal given in advance (a board, docs/boards.md): who deals and the cards each seat
 * holds at the start of play, by their RECORD.md names (the dealer's turn-up included
 * in his hand), and the card turned for trump where the game turns one. Plain data, as
 * the harness reads it from a board file; `Game.checkBoard` says whether it is a deal
 * of a table, and `Match.startBoard` deals it.
 */
export interface BoardDeal {
  readonly dealer: number;
  /** By seat. */
  readonly hands: readonly (readonly string[])[];
  /** The turn-up, or null in a game that turns none (Vier-Anderle). */
  readonly turnup: string | null;
}

/** A trick as the deal record writes it (RECORD.md `tricks`): cards by name, in playing order from the leader. */
export interface TrickRecord {
  readonly leader: number;
  readonly cards: readonly string[];
  /** The seat whose card won the trick by the rules. */
  readonly winner: number;
  /** The seat that kept it (the winner, except after a Hindersche schleipfe). */
  readonly taker: number;
  readonly points: number;
  /** Viersche: forehand led the first trick face down (V-4). */
  readonly facedown?: true;
}

/**
 * The fields of a RECORD.md deal record that every game's `Match.record` writes (the
 * run's fields, `v` to `bots`, are the harness's), with the game's scoring state
 * (`before`, `after`) and events. Each game's record type adds its own fields
 * (a Viersche record's `targets` and `claims`...) in its record.ts; trick/record.ts
 * builds the common part.
 */
export interface DealRecord<Score = unknown, Event = unknown, Point extends number | null = number | null> {
  readonly dealer: number;
  /** The seats taking part, in playing order, forehand first. */
  readonly players: readonly number[];
  readonly kind: 'normal' | 'playoff';
  /** By seat: the cards held at the start of play; `[]` for a seat not taking part. */
  readonly hands: readonly (readonly string[])[];
  readonly turnup: string | null;
  readonly trump: string | null;
  readonly tricks: readonly TrickRecord[];
  /** By seat: what the seat took (card points; tricks in Vier-Anderle), null for a seat not taking part. */
  readonly points: readonly Point[];
  /** The scoring state before the deal; null only from a match that was not `recording`. */
  readonly before: Score | null;
  readonly after: Score;
  readonly events: readonly Event[];
}

/** The scoring that runs across the deals of one match; `R` is the game's deal record. */
export interface Match<S extends State = State, R extends DealRecord = DealRecord> {
  /** Whether the match has ended (no further deal). */
  readonly over: boolean;
  /**
   * Start again as a fresh match with run index `index` (reusing every buffer, so
   * that a million single-deal matches allocate nothing).
   */
  reset(index: number): void;
  /** Index of the next deal within the match (0 for the first). */
  readonly dealIndex: number;
  /**
   * Set by the harness before the first deal when it writes deal records: the match
   * then keeps the score before each deal and the events it caused, for `record`.
   * Off, scoring builds no objects.
   */
  recording: boolean;
  /**
   * Set `state` up for the next deal and deal its cards with `cards` (a stream that
   * depends only on the master seed and the deal's identity, never on the bots).
   */
  startDeal(state: S, cards: Rng): void;
  /**
   * Like `startDeal` for the first deal of a fresh match, with the dealer and the cards
   * of `board` (which `Game.checkBoard` accepted for this table) instead of a shuffle;
   * everything else (targets, pot) as `startDeal` would set it. Allocates a little: a
   * board deal is not a hot path.
   */
  startBoard(state: S, board: BoardDeal): void;
  /** Score the terminal `state` of the deal that `startDeal` began. */
  finishDeal(state: S): void;
  /**
   * Per-seat values of the deal just finished: `out[seat * metrics + m]`; NaN for
   * every metric of a seat that took no part in the deal (a Hindersche player who is
   * out), which the harness then leaves out of that bot's means.
   */
  dealMetrics(state: S, out: Float64Array): void;
  /** Per-seat values of the whole match, once over: `out[seat * metrics + m]`. */
  matchMetrics(out: Float64Array): void;
  /**
   * With `Game.facts`: the facts of the deal just finished, `deal[f]` for
   * `Game.facts.deal[f]` and `seats[seat * k + f]` for `Game.facts.seat[f]` (k of them),
   * NaN where one does not apply. Called after `finishDeal`, only when the run writes a
   * database; allocation-free.
   */
  facts?(state: S, deal: Float64Array, seats: Float64Array): void;
  /**
   * The game's fields of the RECORD.md deal record of the deal just finished (the
   * common `DealRecord` and the game's own). Called after `finishDeal`. Allocates: only
   * when records are written.
   */
  record(state: S): R;
}

/** A JSON value, as the bot protocol (PROTOCOL.md) writes it. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/**
 * How a game shows a seat's observation to a bot program (PROTOCOL.md): the fields of
 * the protocol's `deal`, `move` and `result` messages, cards by their RECORD.md names
 * and the answers to yes/no decisions as `yes` and `no`. Built from the observation
 * alone, so it carries only what the seat may know.
 */
export interface GameProtocol<O extends Observation = Observation, S extends State = State> {
  /** Every field of the observation (allocates: one message per decision). */
  encode(obs: O): { [key: string]: Json };
  /** The name of move `move` in the observed deal: a card's RECORD.md name, `yes`, `no`, or `??` (HIDDEN). */
  moveName(obs: O, move: number): string;
  /**
   * The way back, for serving requests (harness/programs/server.ts): start `state` as the
   * deal of `table` dealt as `cards` says, any deal of a match, its match facts (who
   * plays, targets, slate, Partie totals, pot: what the match puts into the deal) read
   * from `fields`, a request's observation. `cards.hands` are as dealt, by seat: none
   * for a seat out of the deal, the turn-up in the dealer's hand when the whole pack is
   * dealt (C-4). Returns what no deal of the table can have, in a few words naming the
   * field (`targets [50,50]: ...`), or null. The fields that follow from the cards and
   * the moves are not read: the caller replays the history and compares the encoding.
   * Allocates: not a hot path.
   */
  start(table: TableConfig, state: S, cards: BoardDeal, fields: { readonly [key: string]: Json }): string | null;
  /**
   * The match facts `start` reads, taken from a deal record (RECORD.md: `before`,
   * `targets`, `kind`, `playoff`, `deal`...) of a table of `seats` where `players` play:
   * so that a recorded deal can be started again (the replay's analysis, src/serve).
   * Missing fields read as a match's first deal.
   */
  recordFields(record: RecordFields, seats: number, players: readonly number[]): { [key: string]: Json };
}

/** A deal record as parsed JSON, read field by field. */
export type RecordFields = { readonly [key: string]: unknown };

/**
 * What a search bot assumes of the other seats (bots/perfect-play.ts): a solver's model
 * (`paranoid`: one coalition against the bot; `maxn` and its variants: each for itself)
 * or `heuristic` (every other seat plays the game's heuristic).
 */
export type SearchModel = 'paranoid' | 'maxn' | 'maxn-late' | 'maxn-early' | 'heuristic';

/** Search defaults a game declares where its own measurements chose them (bots/NOTES.md). */
interface SearchDefaults {
  /** pimc's model when its `model` is `auto`; absent: paranoid with teams, heuristic without. */
  readonly pimcModel?: SearchModel;
}

/** The tuning experiment's start for a game's heuristic (experiments/tune.ts). */
export interface TunePreset {
  /** A deliberately bad start: the heuristic's parameters, `key=value:...`. */
  readonly bad: string;
  /** The parameters tuned, with steps (c_end) that make a measurable difference there. */
  readonly tune: string;
  /** Why the start is bad, in words for the report. */
  readonly why: string;
  /** The bot the variants play; absent: each other. */
  readonly against?: string;
}

/** What the built-in experiments need to know of a game (experiments/). */
interface ExperimentDefaults {
  /** The ladder's margin for "equal" in the headline deal metric: about 5% of the distance from random to the ceiling. */
  readonly ladder: { readonly margin: number };
  /** The tuning experiment's preset; absent: the game has none. */
  readonly tune?: TunePreset;
}

/**
 * A game's card names (RECORD.md) both ways, for bot authors and tools (card-names.ts):
 * in a deal whose trump suit is `trump` (0..3, C S H D; a game whose codes do not depend
 * on it ignores it).
 */
export interface CardNames {
  /** The RECORD.md name of card code `code`. */
  name(code: number, trump: number): string;
  /** The code of the card named `name`; -1 if the pack has no such card. */
  code(name: string, trump: number): number;
  /**
   * The names of every card of the pack `table` plays, in one order that no deal changes
   * (the learning environment's actions, docs/env.md).
   */
  pack(table: TableConfig): readonly string[];
}

/**
 * What the command line says of a game without its engine: the game's listing.ts, which
 * its `Game` spreads. `tafel games` and `--help` print it (and the bots' help its search
 * defaults); src/games/listings.ts loads the engine (rules, tables, bots) only when a
 * command plays the game.
 */
export type GameListing = Pick<
  Game,
  | 'name'
  | 'title'
  | 'minSeats'
  | 'maxSeats'
  | 'defaultSeats'
  | 'variants'
  | 'teams'
  | 'dealMetrics'
  | 'matchMetrics'
  | 'search'
>;

/** A game: the definition object that the harness looks up by name; `R` is its deal record. */
export interface Game<S extends State = State, O extends Observation = Observation, R extends DealRecord = DealRecord> {
  /** The name on the command line and in records: 'viersche'. */
  readonly name: string;
  /** One line for `tafel games`. */
  readonly title: string;
  readonly minSeats: number;
  readonly maxSeats: number;
  readonly defaultSeats: number;
  /** The rule variants of RULES.md with their defaults. */
  readonly variants: readonly ParamSpec[];
  /**
   * The seats that play as one side, by seat (`[0, 1, 0, 1]` in Viersche), or null
   * when every seat plays for itself. The harness rotates bots over the seats so
   * that each bot plays every position of a deal (duplicate play).
   */
  teams(seats: number): readonly number[] | null;
  /** What `Match.dealMetrics` reports; the first is the headline score. */
  readonly dealMetrics: readonly Metric[];
  /** What `Match.matchMetrics` reports; the first is the headline score. */
  readonly matchMetrics: readonly Metric[];
  /**
   * Optional: the public facts of each deal and seat that `Match.facts` writes, beyond
   * the metrics (trump, the turn-up, claims, marches, the pot; trumps and points in a
   * dealt hand), as columns of the run's database.
   */
  readonly facts?: DealFacts;
  /**
   * Check a table (seats, complete rules with defaults applied) and throw a TafelError
   * naming what is impossible (e.g. 11 Vier-Anderle players without pips).
   */
  checkTable(table: TableConfig): void;
  /**
   * What is wrong with `board` as a first deal at this table, in a few words without
   * location (`duplicate card 10H`, `seat 2 holds 8 cards, not 9`), or null when
   * `Match.startBoard` can deal it: the seats, the dealer, every card of the pack, no
   * card twice, each hand's size, the turn-up in the dealer's hand.
   */
  checkBoard(table: TableConfig, board: BoardDeal): string | null;
  /** A blank deal state for this table (allocates; reuse it). */
  newState(table: TableConfig): S;
  /**
   * A new match. `singleDeal` makes a match of one deal from a fresh score (the unit
   * of `--deals`); `index` is the match's index in the run, which some games use to
   * vary who deals first.
   */
  newMatch(table: TableConfig, opts: { singleDeal: boolean; index: number }): Match<S, R>;
  /**
   * Write into `out` a world drawn uniformly among those consistent with `obs` (see
   * "Search: determinization" above, and where a game approximates). Allocation-free
   * after warm-up. With a `watcher`, each move of the history is shown to it as the
   * world replays it.
   */
  sample(obs: O, rng: Rng, out: S, watcher?: HistoryWatcher<S>): void;
  /** What exact card-play search optimises (see "Search support"). */
  readonly searchGoal: SearchGoal;
  /** The observation as the bot protocol writes it (PROTOCOL.md). */
  readonly protocol: GameProtocol<O, S>;
  /** Its cards' RECORD.md names, both ways. */
  readonly cardNames: CardNames;
  /** The game's `heuristic` bot: the registry lists it, and search bots play and model with it. */
  readonly heuristic: BotSpec;
  /** What `tafel play` shows of the game (games/screen.ts). */
  readonly screen: GameScreen<O>;
  /** Search defaults the game declares; absent: the generic ones. */
  readonly search?: SearchDefaults;
  /** Defaults of the built-in experiments. */
  readonly experiments: ExperimentDefaults;
  /**
   * Optional, for games whose deal result is not a monotone function of the search
   * measure (bots/perfect-play.ts uses it when present). Fill `out.target` for the
   * deal in `state` (see `DealAims`). Allocation-free.
   */
  dealAims?(state: S, out: DealAims): void;
  /**
   * Optional, with `dealAims`: approximately what `returns()[seat]` will be when the
   * deal in `state` ends with `marcher` having marched (a seat; -1: nobody) and
   * otherwise `seat` having taken `own` of the measure in all, the other seats sharing
   * what is left as the game models it (documented by the game). Used to value card
   * play by the deal's real result rather than by the measure alone. Allocation-free.
   */
  outlook?(state: S, seat: number, own: number, marcher: number): number;
}
