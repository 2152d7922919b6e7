/**
 * One table of the environment (docs/env.md): a deal state and its match, tafel's bots
 * at the opponents' seats, and the learning seats, whose decisions come from outside.
 * `advance` plays the opponents until a learning seat must decide or the episode (a deal,
 * or a match with `unit` 'match') ends; at its end the table starts its next episode at
 * once, so that a batch of tables never waits on one that finished.
 *
 * Seeding follows a run's (table/seeding.ts): table t's n-th episode since the last
 * reset is duplicate group n * K + t of the master seed (K tables), its cards and every
 * opponent's stream derived from (seed, group, deal, seat) in rotation 0. With one table,
 * episode g deals what deal g of `tafel run --seed S` deals.
 */
import { newSets, setSelect } from '../../core/cardset.js';
import { TafelError } from '../../core/errors.js';
import { Rng, type SeedKey } from '../../core/rng.js';
import type { Bot } from '../../games/bot.js';
import type { Game, Json, Match, State, TableConfig } from '../../games/game.js';
import type { Entrant } from '../table/lineup.js';
import { reseedBot, reseedCards } from '../table/seeding.js';
import type { Actions } from './actions.js';

/** What every table of a session shares. */
export interface EnvSpec {
  readonly game: Game;
  readonly table: TableConfig;
  /** By seat: the opponent that plays it, or null for a learning seat. */
  readonly opponents: readonly (Entrant | null)[];
  readonly unit: 'deal' | 'match';
  readonly tables: number;
  readonly actions: Actions;
}

type Obj = { [key: string]: Json };

export class EnvTable {
  private readonly state: State;
  private readonly match: Match;
  private readonly bots: (Bot | null)[];
  private readonly rngs: Rng[];
  private readonly cards = new Rng();
  private readonly legal = newSets();
  private readonly values: Float64Array;
  private readonly sign: number;
  private key: SeedKey = [0, 0, 0, 0];
  /** Episodes begun since the last reset. */
  private episodes = 0;
  private group = 0;

  constructor(
    private readonly spec: EnvSpec,
    private readonly index: number,
  ) {
    const { game, table } = spec;
    this.state = game.newState(table);
    this.match = game.newMatch(table, { singleDeal: spec.unit === 'deal', index });
    this.rngs = Array.from({ length: table.seats }, () => new Rng());
    this.bots = spec.opponents.map((e, seat) =>
      e === null
        ? null
        : e.spec.create({
            game,
            table,
            seat,
            rng: this.rngs[seat],
            params: e.params,
            ...(e.spec.cheats === true ? { state: this.state } : {}),
          }),
    );
    const metrics = spec.unit === 'deal' ? game.dealMetrics : game.matchMetrics;
    this.values = new Float64Array(table.seats * metrics.length);
    this.sign = metrics[0].higherIsBetter ? 1 : -1;
  }

  /** Start afresh on the streams of `key`: the next episode is the table's first. */
  reset(key: SeedKey): Obj {
    this.key = key;
    this.episodes = 0;
    this.begin();
    return this.advance();
  }

  /** Give up the episode under way and begin the next one. */
  restart(): Obj {
    this.begin();
    return this.advance();
  }

  /** The learning seat to move plays action `action` (an index of `Actions`); the next entry. */
  step(action: unknown): Obj {
    const { state, spec } = this;
    const obs = state.observe(state.toMove);
    const n = state.legal(this.legal, 0);
    const want = typeof action === 'number' && Number.isInteger(action) ? spec.actions.names[action] : undefined;
    let move = -1;
    const names: string[] = [];
    for (let k = 0; k < n; k++) {
      const code = setSelect(this.legal, 0, k);
      const name = spec.game.protocol.moveName(obs, code);
      names.push(name);
      if (name === want) move = code;
    }
    if (move < 0) {
      const what = want === undefined ? JSON.stringify(action) : `${String(action)} (${want})`;
      throw new TafelError(
        'protocol',
        `table ${this.index}: action ${what} is not legal for seat ${state.toMove} (legal: ${names.join(' ')})`,
      );
    }
    state.apply(move);
    return this.advance();
  }

  private begin(): void {
    this.group = this.episodes * this.spec.tables + this.index;
    this.episodes++;
    this.match.reset(this.group);
    this.startDeal();
  }

  private startDeal(): void {
    const k = this.match.dealIndex;
    reseedCards(this.cards, this.key, this.group, k);
    for (let seat = 0; seat < this.rngs.length; seat++) reseedBot(this.rngs[seat], this.key, this.group, k, seat, 0);
    this.match.startDeal(this.state, this.cards);
  }

  /**
   * Play the opponents until a learning seat is to move: its entry (`seat`, `obs` with
   * `legal`). When the episode ends on the way, the entry also says so (`done`, `rewards`,
   * `metrics`, `group`, the learning seats' `final` observations) and holds the first
   * decision of the next episode.
   */
  private advance(): Obj {
    const { state, match, spec } = this;
    let end: Obj | null = null;
    for (;;) {
      if (state.isTerminal()) {
        match.finishDeal(state);
        if (!match.over && spec.unit === 'match') {
          this.startDeal();
          continue;
        }
        if (end !== null) throw new Error('env: an episode without a decision of a learning seat');
        end = this.finish();
        this.begin();
        continue;
      }
      const seat = state.toMove;
      const bot = this.bots[seat];
      if (bot === null) {
        const out = this.request(seat);
        return end === null ? out : { ...end, ...out };
      }
      const n = state.legal(this.legal, 0);
      const move = bot.act(state.observe(seat), this.legal, n);
      state.apply(move);
    }
  }

  /** The entry's fields for the episode just ended. */
  private finish(): Obj {
    const { state, match, spec } = this;
    const seats = spec.table.seats;
    const metrics = spec.unit === 'deal' ? spec.game.dealMetrics : spec.game.matchMetrics;
    if (spec.unit === 'deal') match.dealMetrics(state, this.values);
    else match.matchMetrics(this.values);
    const m = metrics.length;
    const rewards: Json[] = [];
    const values: Json[] = [];
    for (let s = 0; s < seats; s++) {
      const v = this.values[s * m];
      // A seat out of the deal (NaN: a Hindersche player out) gets no reward.
      rewards.push(Number.isNaN(v) ? null : v === 0 ? 0 : this.sign * v);
      values.push(Number.isNaN(v) ? null : v);
    }
    const final: Json[] = [];
    for (let s = 0; s < seats; s++)
      if (spec.opponents[s] === null) final.push([s, spec.game.protocol.encode(state.observe(s))]);
    return { done: true, group: this.group, rewards, metric: values, final };
  }

  private request(seat: number): Obj {
    const { state, spec } = this;
    const obs = state.observe(seat);
    const out = spec.game.protocol.encode(obs);
    const n = state.legal(this.legal, 0);
    const legal: string[] = [];
    for (let k = 0; k < n; k++) legal.push(spec.game.protocol.moveName(obs, setSelect(this.legal, 0, k)));
    out.legal = legal;
    return { seat, obs: out };
  }
}
