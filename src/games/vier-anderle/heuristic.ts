/**
 * `heuristic` for Vier-Anderle: rules of thumb with named, tunable parameters.
 *
 * Declaring (A-6): the hand's strength is the sum of its cards' values, a tarock T_k
 * worth (k / 22) ^ `power` and a king `kingValue`; the seat declares in when the
 * strength reaches
 *
 *   threshold + perSpeaker x (seats still to speak after it) + perIn x (seats already in)
 *             + potWeight x log2(pot / 4)
 *
 * (each trick pays a quarter of the pot and failing pays all of it, so the pot scales
 * gains and losses alike: `potWeight` is a pure risk-aversion knob, 0 by default; more
 * rivals, declared or still to come, make a trick harder to win).
 *
 * Card play (among the legal cards; A-3 often leaves one):
 * - leading: a master tarock (higher than every unseen tarock) if held, else the
 *   lowest suit card (saving tarocks), else the lowest tarock;
 * - following: among the cards that head the trick, the lowest when the seat plays
 *   last, else the lowest master tarock (sure to win) if any, else (`greedy`) the highest, which wins
 *   most often; with no card that heads, the lowest card (a suit card before a tarock).
 */
import { highestBit, lowestBit } from '../../core/bits.js';
import { Decision, NO, YES, type Observation, type ParamSpec } from '../game.js';
import { ALL_TAROCKS, SUIT_MASK, packLane } from './cards.js';
import type { AnderleView } from './view.js';
import type { Bot, BotContext, BotSpec } from '../bot.js';

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'threshold',
    description: 'strength needed to declare in, before the adjustments',
    type: 'number',
    default: 0.9,
    min: -10,
    max: 10,
  },
  {
    key: 'perSpeaker',
    description: 'threshold added per seat still to declare after this one',
    type: 'number',
    default: 0.08,
    min: -5,
    max: 5,
  },
  {
    key: 'perIn',
    description: 'threshold added per seat already declared in',
    type: 'number',
    default: 0.15,
    min: -5,
    max: 5,
  },
  {
    key: 'potWeight',
    description: 'threshold added per doubling of the pot (risk aversion)',
    type: 'number',
    default: 0,
    min: -5,
    max: 5,
  },
  {
    key: 'power',
    description: 'tarock value exponent: T_k is worth (k/22)^power',
    type: 'number',
    default: 3,
    min: 0.1,
    max: 20,
  },
  { key: 'kingValue', description: 'strength of a king', type: 'number', default: 0.15, min: 0, max: 5 },
  {
    key: 'greedy',
    description: 'when heading without a sure winner, head with the highest card',
    type: 'boolean',
    default: true,
  },
];

class AnderleHeuristic implements Bot {
  private readonly p: {
    threshold: number;
    perSpeaker: number;
    perIn: number;
    potWeight: number;
    power: number;
    kingValue: number;
    greedy: boolean;
  };
  /** `tarockValue[k]`: what T_(k+1) adds to the strength, (k + 1) / 22 to the `power`, computed once. */
  private readonly tarockValue = new Float64Array(32);

  constructor(ctx: BotContext) {
    const q = ctx.params;
    this.p = {
      threshold: Number(q.threshold),
      perSpeaker: Number(q.perSpeaker),
      perIn: Number(q.perIn),
      potWeight: Number(q.potWeight),
      power: Number(q.power),
      kingValue: Number(q.kingValue),
      greedy: q.greedy === true,
    };
    for (let k = 0; k < 32; k++) this.tarockValue[k] = Math.pow((k + 1) / 22, this.p.power);
  }

  /** Hand strength (see the module doc). */
  strength(tarocks: number, suits: number): number {
    let v = 0;
    for (let m = tarocks; m !== 0; m &= m - 1) v += this.tarockValue[lowestBit(m)];
    for (let s = 0; s < 4; s++) if ((suits >>> (s * 8 + 7)) & 1) v += this.p.kingValue;
    return v;
  }

  /** The threshold for `obs.seat` now. */
  threshold(obs: AnderleView): number {
    let already = 0;
    for (let s = 0; s < obs.seats; s++) if (obs.declared(s) === 1) already++;
    const toSpeak = (obs.dealer - obs.seat + obs.seats) % obs.seats;
    return (
      this.p.threshold +
      this.p.perSpeaker * toSpeak +
      this.p.perIn * already +
      this.p.potWeight * Math.log2(obs.pot / 4)
    );
  }

  act(o: Observation, legal: Int32Array): number {
    const obs = o as AnderleView;
    if (obs.decision === Decision.Declare) {
      return this.strength(obs.handLane(0), obs.handLane(1)) >= this.threshold(obs) ? YES : NO;
    }
    // Unseen tarocks: not ours, not played.
    const unseen = packLane(obs.pips, 0) & ~obs.handLane(0) & ~obs.playedLane(0);
    const topUnseen = unseen === 0 ? -1 : highestBit(unseen);
    const l0 = legal[0] & ALL_TAROCKS;
    const l1 = legal[1];
    if (obs.trickCards === 0) {
      if (l0 !== 0 && highestBit(l0) > topUnseen) return highestBit(l0);
      if (l1 !== 0) return 32 | this.lowestSuitCard(l1);
      return lowestBit(l0);
    }
    const best = obs.winningStrength;
    const led = obs.ledSuit;
    // The cards that head: tarocks above the best tarock, or cards of the suit led above the best.
    const h0 = best >= 64 ? l0 & ~((2 << (best - 64)) - 1) : l0;
    const h1 = best >= 64 || led < 0 ? 0 : l1 & SUIT_MASK[led] & ~((2 << best) - 1);
    if ((h0 | h1) !== 0) {
      const last = obs.trickCards === obs.players - 1;
      if (last) return h1 !== 0 ? 32 | lowestBit(h1) : lowestBit(h0);
      const masters = topUnseen < 0 ? h0 : h0 & ~((2 << topUnseen) - 1);
      if (masters !== 0) return lowestBit(masters);
      if (this.p.greedy) return h0 !== 0 ? highestBit(h0) : 32 | highestBit(h1);
      return h1 !== 0 ? 32 | lowestBit(h1) : lowestBit(h0);
    }
    if (l1 !== 0) return 32 | this.lowestSuitCard(l1);
    return lowestBit(l0);
  }

  /** The lane-1 bit of the weakest suit card (lowest rank over the suits). */
  private lowestSuitCard(m: number): number {
    let best = -1;
    for (let s = 0; s < 4; s++) {
      const x = (m >>> (s * 8)) & 0xff;
      if (x === 0) continue;
      const b = s * 8 + lowestBit(x);
      if (best < 0 || (b & 7) < (best & 7)) best = b;
    }
    return best;
  }
}

export const heuristicAnderle: BotSpec = {
  name: 'heuristic',
  description:
    'Vier-Anderle rules of thumb: declare on tarock strength against a threshold set by rivals and pot, head cheaply, lead masters',
  params: PARAMS,
  games: ['vier-anderle'],
  create: (ctx) => new AnderleHeuristic(ctx),
};
