/**
 * The bot contract. A bot sits at one seat, receives that seat's observation and the
 * legal moves, and answers with one of them. It sees nothing else of the game: no
 * state, no other hands (the one exception, the `oracle`, is marked `cheats` and
 * flagged as such in every table).
 *
 * Randomness: `ctx.rng` is the bot's only source of randomness. The harness reseeds it
 * before every deal from (master seed, deal, rotation, seat), so a bot's play depends
 * on nothing but the deal: not on worker count, shard or order. A bot must not carry
 * anything that changes its play from one deal to the next.
 *
 * The contract sits beside the game's (game.ts) so that a game's folder can hold its own
 * heuristic bot (`Game.heuristic`) without importing from bots/.
 *
 * Speed: `act` is called for every move of millions of deals. Allocate buffers in
 * `create`, not in `act`.
 */
import type { Rng } from '../core/rng.js';
import type { Game, Observation, ParamSpec, Params, State, TableConfig } from './game.js';

export interface BotContext {
  readonly game: Game;
  readonly table: TableConfig;
  readonly seat: number;
  /**
   * The bot's random stream, reseeded by the harness before every deal. `next()` is a
   * signed 32-bit integer (not a fraction); `below(n)` is an integer in [0, n) and
   * `uniform()` a double in [0, 1). docs/bots.md has the rest.
   */
  readonly rng: Rng;
  /** Parameters with defaults applied and values checked against `BotSpec.params`. */
  readonly params: Params;
  /**
   * The live deal state, given only to bots whose spec says `cheats: true` (the
   * `oracle`); undefined for every other bot. It is the table's own state: read it,
   * never change it.
   */
  readonly state?: State;
}

/** Which deal of a run a seat is in: deal `deal` of duplicate group `group`, in seat rotation `rotation`. */
export interface DealSite {
  readonly group: number;
  readonly rotation: number;
  readonly deal: number;
}

/**
 * A bot's own values of the moves of one decision (`Bot.explain`), for people: the move
 * it chooses and, per legal move, what its search made of it.
 */
export interface MoveValues {
  /** The move `act` would play from the same observation and random stream. */
  readonly chosen: number;
  /** What `value` is, in a few words (`mean returns() over 40 worlds`). */
  readonly meaning: string;
  /** Per legal move, in code order: its value (NaN: none, a forced move), and its visits where the search counts them. */
  readonly moves: readonly { readonly move: number; readonly value: number; readonly visits?: number }[];
}

export interface Bot {
  /**
   * Choose a move for `obs.decision`. `legal` holds the `count` legal moves as a move
   * set (lanes of bits, see src/core/cardset.ts): `setSelect(legal, 0, k)` is the k-th.
   * Returning anything else is reported as an illegal move.
   */
  act(obs: Observation, legal: Int32Array, count: number): number;
  /**
   * Optional: `act` itself (same play, same draws from `ctx.rng`), with the values its
   * search gave each legal move, for analysis (`tafel serve`). Never called in play.
   */
  explain?(obs: Observation, legal: Int32Array, count: number): MoveValues;
  /**
   * Optional, for a bot that speaks to something outside (a bot program, PROTOCOL.md):
   * the seat's deal begins (`obs` as dealt, after `ctx.rng` was reseeded), is over
   * (`obs` at the end), or was abandoned midway because another seat's bot failed.
   * Bots that play from the observation alone leave them out.
   */
  startDeal?(obs: Observation, at: DealSite): void;
  finishDeal?(obs: Observation): void;
  abandonDeal?(): void;
}

export interface BotSpec {
  /** The name used on the command line. */
  readonly name: string;
  /** One line for `tafel bots`. */
  readonly description: string;
  readonly params: readonly ParamSpec[];
  /** The games the bot can play; absent means every game. */
  readonly games?: readonly string[];
  /** Sees hidden information: allowed only as a measuring ceiling, flagged in output. */
  readonly cheats?: boolean;
  create(ctx: BotContext): Bot;
}
