/**
 * A model of how the other players play: the game's heuristic bot (`Game.heuristic`)
 * in every seat, asked on the seat's own observation of whatever state it is shown.
 * Search bots use it to weigh sampled worlds by the others' past moves (inference.ts)
 * and to play the others' future moves (policy-search.ts).
 *
 * The model bots have random streams of their own, reseeded by `reseed` before each
 * decision from the caller's stream, so what the model does is a function of the deal.
 */
import { Rng } from '../src/core/rng.js';
import type { Game, State, TableConfig } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import type { Bot } from '../src/games/bot.js';

export class PolicyModel {
  private readonly bots: Bot[];
  private readonly rngs: Rng[];
  private readonly key: [number, number, number, number] = [0, 0, 0, 0];

  private constructor(bots: Bot[], rngs: Rng[]) {
    this.bots = bots;
    this.rngs = rngs;
  }

  /** The game's heuristic in every seat. */
  static heuristic(game: Game, table: TableConfig): PolicyModel {
    const spec = game.heuristic;
    const params = resolveParams(spec.params, {}, `bot ${spec.name}`);
    const rngs: Rng[] = [];
    const bots: Bot[] = [];
    for (let seat = 0; seat < table.seats; seat++) {
      const rng = new Rng();
      rngs.push(rng);
      bots.push(spec.create({ game, table, seat, rng, params }));
    }
    return new PolicyModel(bots, rngs);
  }

  /** Reseed the model's streams from `rng` (before each decision of the bot that uses it). */
  reseed(rng: Rng): void {
    const key = this.key;
    for (let i = 0; i < 4; i++) key[i] = rng.next();
    for (let s = 0; s < this.rngs.length; s++) this.rngs[s].reseed(key, s);
  }

  /** The model's move for the seat to act in `state`, among its `n` (> 1) legal moves in `legal`. */
  move(state: State, legal: Int32Array, n: number): number {
    const seat = state.toMove;
    return this.bots[seat].act(state.observe(seat), legal, n);
  }
}
