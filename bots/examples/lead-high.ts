// An example bot module in TypeScript, written against tafel's public API (docs/bots.md
// walks through it):
//   tafel run --game viersche --bots ./bots/examples/lead-high.ts,random --deals 100
// A Viersche player: it leads its strongest card, follows with its weakest, and claims
// (V-8) once its team's points reach the team's target. With `noise=p` it plays a
// uniformly random legal move instead, with chance p (drawn from ctx.rng, so a run
// stays reproducible).
import { Decision, NO, YES, highestBit, lowestBit, setSelect } from 'tafel';
import type { Bot, BotContext, BotSpec, Observation, Rng, VierscheObservation } from 'tafel';

/** Viersche's lanes: 0 holds the trumps, 1-3 the plain suits; a higher bit is a stronger card. */
const TRUMPS = 0;
const LANES = 4;

class LeadHigh implements Bot {
  private readonly rng: Rng;
  private readonly team: number;
  private readonly noise: number;

  constructor(ctx: BotContext) {
    this.rng = ctx.rng;
    this.team = ctx.game.teams(ctx.table.seats)?.[ctx.seat] ?? 0;
    this.noise = ctx.params.noise as number;
  }

  act(observation: Observation, legal: Int32Array, count: number): number {
    if (this.noise > 0 && this.rng.uniform() < this.noise) return setSelect(legal, 0, this.rng.below(count));
    // The spec plays Viersche only, so the observation is Viersche's window.
    const obs = observation as VierscheObservation;
    if (obs.decision === Decision.Claim) return obs.teamPoints(this.team) >= obs.target(this.team) ? YES : NO;
    return obs.trickCards === 0 ? strongest(legal) : weakest(legal);
  }
}

/** The strongest legal card: the highest trump, else the highest plain card (an ace before a king). */
function strongest(legal: Int32Array): number {
  if (legal[TRUMPS] !== 0) return (TRUMPS << 5) | highestBit(legal[TRUMPS]);
  let best = -1;
  for (let lane = 1; lane < LANES; lane++) {
    if (legal[lane] === 0) continue;
    const code = (lane << 5) | highestBit(legal[lane]);
    if (best < 0 || (code & 31) > (best & 31)) best = code;
  }
  return best;
}

/** The weakest legal card: the lowest plain card (a six before a seven), else the lowest trump. */
function weakest(legal: Int32Array): number {
  let best = -1;
  for (let lane = 1; lane < LANES; lane++) {
    if (legal[lane] === 0) continue;
    const code = (lane << 5) | lowestBit(legal[lane]);
    if (best < 0 || (code & 31) < (best & 31)) best = code;
  }
  return best >= 0 ? best : (TRUMPS << 5) | lowestBit(legal[TRUMPS]);
}

const leadHigh: BotSpec = {
  name: 'lead-high',
  description: 'leads its strongest card, follows with its weakest, claims when correct (an example bot in TypeScript)',
  games: ['viersche'],
  params: [
    {
      key: 'noise',
      description: 'chance of a uniformly random legal move instead',
      type: 'number',
      default: 0,
      min: 0,
      max: 1,
    },
  ],
  create: (ctx) => new LeadHigh(ctx),
};

export default leadHigh;
