/** `random`: a uniformly random legal move, for every decision of every game. */
import * as cardset from '../src/core/cardset.js';
import type { Rng } from '../src/core/rng.js';
import type { Bot, BotSpec } from '../src/games/bot.js';

// A module-local copy: V8 loads an imported binding from its module's cell at every use.
const { setSelect } = cardset;

/** One class for every seat, so that the play loop's call to `act` has one target and is inlined. */
class RandomBot implements Bot {
  constructor(private readonly rng: Rng) {}

  act(_obs: unknown, legal: Int32Array, count: number): number {
    return setSelect(legal, 0, this.rng.below(count));
  }
}

export const random: BotSpec = {
  name: 'random',
  description: 'plays a uniformly random legal move (cards, claims and declarations alike)',
  params: [],
  create: ({ rng }) => new RandomBot(rng),
};
