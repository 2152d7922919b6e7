/** `random`: a uniformly random legal move, for every decision of every game. */
import { setSelect } from '../src/core/cardset.js';
import type { BotSpec } from './bot.js';

export const random: BotSpec = {
  name: 'random',
  description: 'plays a uniformly random legal move (cards, claims and declarations alike)',
  params: [],
  create({ rng }) {
    return {
      act: (_obs, legal, count) => setSelect(legal, 0, rng.below(count)),
    };
  },
};
