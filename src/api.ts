/**
 * What a bot module may import from `tafel` (package.json `exports`): the bot contract,
 * the observations, the random stream, move sets and card names. docs/bots.md explains
 * each; anything not exported here is internal and may change.
 */
export type { Bot, BotContext, BotSpec } from './games/bot.js';
export type {
  DecisionKind,
  Game,
  Observation,
  ParamSpec,
  ParamValue,
  Params,
  State,
  TableConfig,
} from './games/game.js';
export { DECISION_NAMES, Decision, HIDDEN, NO, YES } from './games/game.js';
export type { Rng } from './core/rng.js';
export type { TrickView as TrickObservation } from './games/trick/view.js';
export type { VierscheView as VierscheObservation } from './games/viersche/view.js';
export type { HinderscheView as HinderscheObservation } from './games/hindersche/view.js';
export type { JassView as JassObservation } from './games/hindersi-jass/view.js';
export type { AnderleView as AnderleObservation } from './games/vier-anderle/view.js';
export {
  CODE_LIMIT,
  LANES,
  codeOf,
  setCodesInto,
  setFirst,
  setHas,
  setSelect,
  setSize,
  setToCodes,
} from './core/cardset.js';
export { highestBit, lowestBit, popcount } from './core/bits.js';
export { SUITS, cardName, parseCard, rankOf, suitOf } from './core/french.js';
export { cardCode, codeName } from './games/card-names.js';
