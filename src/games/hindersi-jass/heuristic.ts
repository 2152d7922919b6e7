/**
 * `heuristic` for Hindersi-Jass (RULES.md J): rules of thumb for the game's real aim,
 * taking few points. Fast enough for playouts; the baseline search bots must beat.
 *
 * It reasons only on its observation: its hand, the cards played (hence the cards
 * still unseen), what play has shown (`voids`), who holds the turn-up, hand sizes and
 * the tricks taken.
 *
 * **One cost for every card.** Each legal card is valued in expected card points
 * (lower is better):
 *
 *     cost(c) = p(c) * (T + points(c))  -  (1 - p(c)) * smear * points(c)  -  danger * risk(c)
 *
 * - p(c): the chance that c takes the trick. A card that does not beat the best card so
 *   far cannot; otherwise every player still to play who holds the suit led must beat
 *   it if all his cards of that suit are higher (an opponent who can duck is assumed to
 *   duck, and a void opponent to discard rather than over-trump): per player
 *   P(no lower card of the suit) - P(no card of the suit at all), hypergeometric over
 *   the cards he may hold.
 * - T: what the trick brings besides c: the points already in it, the cards still to
 *   come (the others smear their points onto a trick they do not take, so more than an
 *   average card), and the last trick's 5.
 * - smear: shedding points onto a trick somebody else takes is worth a share of them
 *   (they can no longer fall to us later).
 * - risk(c): what keeping c would cost later: the chance that it takes a trick then
 *   (1 for a card no unseen card of its suit beats, falling with the square of the
 *   number of unseen cards above it) times its points and a trick's worth. Playing c
 *   saves that, so high cards leave the hand first and low cards, the exits, stay:
 *   "keep low cards".
 *
 * The formula gives the usual play: duck under the winning card with the highest card
 * that still ducks; when void, throw the most dangerous card or the most points onto
 * another's trick; when forced to take a trick, take it with the highest card; lead
 * low in suits where others hold higher cards.
 *
 * **All the tricks** (J-5) is the big swing. When another player has taken every trick
 * so far and at most `breakSlam` tricks remain, taking a trick is worth the 157 that a
 * sweep would charge us, so the bot spends a card to break it. With `shoot`, when this
 * seat has taken every trick so far and every card it holds is a master (no unseen
 * card beats it and, for a plain card, nobody may trump), it leads its masters, trumps
 * first, for the sweep.
 */
import { bitsAbove, highestBit, lowestBit, popcount } from '../../core/bits.js';
import { setFirst } from '../../core/cardset.js';
import { Decision, type Observation, type ParamSpec } from '../game.js';
import { CARD_LANES, FULL, LAST_TRICK, PACK, PACK_POINTS, POINTS, PUUR, STRENGTH, TRUMP_LANE } from './cards.js';
import type { JassView } from './view.js';
import type { Bot, BotContext, BotSpec } from '../bot.js';
import { DecisionMemo, drawProduct, drawTable, drawn, inDrawTable, type DrawTable } from '../trick/chances.js';

/** Points of the cards of a lane mask, by a lookup (cards.ts). */
const LANE_POINTS = PACK.lanePoints;

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'danger',
    type: 'number',
    default: 0.6,
    min: 0,
    max: 4,
    description: 'weight of what a kept card may cost later (0: only the current trick counts)',
  },
  {
    key: 'smear',
    type: 'number',
    default: 0.5,
    min: 0,
    max: 2,
    description: "value of each point shed onto another player's trick, per point",
  },
  {
    key: 'breakSlam',
    type: 'int',
    default: 3,
    min: 0,
    max: 12,
    description:
      'when another player has every trick so far and at most this many remain, take a trick to stop the sweep',
  },
  {
    key: 'shoot',
    type: 'boolean',
    default: true,
    description: 'with every trick so far and only masters in hand, play for all the tricks',
  },
];

/** Points the cards still to come add, per card, relative to the average unseen card (they smear). */
const REST_SHARE = 1.3;

/** Chance that k cards drawn from u, of which h are marked, include none of the marked (tabled: trick/chances.ts). */
function noneDrawn(u: number, h: number, k: number): number {
  return inDrawTable(u, h, k) ? drawn(NONE_DRAWN!, u, h, k) : drawProduct(noneFactor, u, h, k);
}

/** The i-th card drawn is not marked, given that the ones before were not. */
function noneFactor(u: number, h: number, i: number): number {
  return u - i > 0 ? Math.max(0, u - h - i) / (u - i) : 0;
}

/**
 * `noneDrawn`'s table, built by the first bot made rather than as the module loads:
 * every command loads the games, and most make no heuristic of this game.
 */
let NONE_DRAWN: DrawTable | null = null;

class JassHeuristicBot implements Bot {
  private readonly dangerWeight: number;
  private readonly smear: number;
  private readonly breakSlam: number;
  private readonly shoot: boolean;

  // Per decision: what this seat cannot place (not its own, not seen played, not the
  // turn-up the dealer is known to hold) and what those cards are worth on average.
  private readonly unseen = new Int32Array(CARD_LANES);
  /** `pForced`'s answers in this decision, by seat, led lane and strength (or bit) + 1. */
  private readonly forced = new DecisionMemo(4 * 4 * 64);
  private readonly hand = new Int32Array(CARD_LANES);
  private knownTurnup = -1;
  private avgPoints = 0;
  private v!: JassView;
  private me = 0;
  private n = 4;

  constructor(ctx: BotContext) {
    NONE_DRAWN ??= drawTable(noneFactor);
    const p = ctx.params;
    this.dangerWeight = Number(p.danger);
    this.smear = Number(p.smear);
    this.breakSlam = Number(p.breakSlam);
    this.shoot = p.shoot === true;
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    if (obs.decision !== Decision.Card || count === 1) return setFirst(legal, 0);
    // The spec is registered for hindersi-jass only, so the window is its.
    const v = obs as JassView;
    this.v = v;
    this.me = v.seat;
    this.n = v.seats;
    this.forced.next();
    this.survey(v);
    if (v.trickCards === 0) {
      const sweep = this.sweepLead();
      if (sweep >= 0) return sweep;
    }
    return this.cheapest(legal);
  }

  /** Fill hand, unseen, knownTurnup and avgPoints from the window. */
  private survey(v: JassView): void {
    const { unseen, hand } = this;
    const base = v.trump * CARD_LANES;
    for (let l = 0; l < CARD_LANES; l++) {
      hand[l] = v.handLane(l);
      unseen[l] = FULL[base + l] & ~hand[l] & ~v.playedLane(l);
    }
    let count = 0;
    let points = 0;
    for (let l = 0; l < CARD_LANES; l++) {
      count += popcount(unseen[l]);
      points += LANE_POINTS[(l << 10) | unseen[l]];
    }
    this.avgPoints = count > 0 ? points / count : 0;
    this.knownTurnup = v.turnupHeld && v.dealer !== v.seat ? v.turnup : -1;
    if (this.knownTurnup >= 0) unseen[TRUMP_LANE] &= ~(1 << (this.knownTurnup & 31));
  }

  /**
   * Chance that `seat`, to play after us in a trick led in lane `led`, must beat a card
   * of that lane at bit `bit`: he holds a higher card of it and no lower one.
   */
  private pForced(seat: number, led: number, bit: number): number {
    // Remembered for the rest of the decision: asked again for each legal card weighed.
    const key = (((seat << 2) | led) << 6) | (bit + 1);
    return this.forced.has(key) ? this.forced.get(key) : this.forced.set(key, this.pForcedOf(seat, led, bit));
  }

  private pForcedOf(seat: number, led: number, bit: number): number {
    const v = this.v;
    let k = v.handSize(seat);
    if (k <= 0) return 0;
    const voids = v.voids(seat);
    if ((voids >>> led) & 1) return 0;
    const laneCards = this.unseen[led];
    const lo = popcount(laneCards & ~bitsAbove(bit) & ~(1 << bit));
    const hi = popcount(laneCards & bitsAbove(bit));
    const t = this.knownTurnup;
    if (t >= 0 && seat === v.dealer) {
      if (t >>> 5 === led) {
        if ((t & 31) < bit) return 0; // he can duck with the turn-up
        k--;
        return noneDrawn(this.pool(voids, k), lo, k); // he holds a higher card: forced unless he has a lower one
      }
      k--;
    }
    if (hi === 0 || k <= 0) return 0;
    const u = this.pool(voids, k);
    return noneDrawn(u, lo, k) - noneDrawn(u, lo + hi, k);
  }

  /**
   * Unseen cards a seat with these voids may hold, `k` of them unknown: those of the
   * lanes it is not void in, and the Puur while unseen even when it showed no trump (it
   * may hold it alone, J-4).
   */
  private pool(voids: number, k: number): number {
    let u = 0;
    for (let l = 0; l < CARD_LANES; l++) if (((voids >>> l) & 1) === 0) u += popcount(this.unseen[l]);
    if ((voids & (1 << TRUMP_LANE)) !== 0 && (this.unseen[TRUMP_LANE] & (1 << PUUR)) !== 0) u++;
    return Math.max(u, k);
  }

  /** Chance that `code`, led or played now and beating everything so far, takes the trick. */
  private pHolds(code: number, led: number): number {
    const lane = code >>> 5;
    // A trump on a plain lead: nobody after us wants to over-trump it.
    if (lane !== led) return 1;
    let p = 1;
    const after = this.n - 1 - this.v.trickCards;
    for (let i = 1; i <= after; i++) p *= 1 - this.pForced((this.me + i) % this.n, led, code & 31);
    return p;
  }

  /** What keeping `code` may cost later: the chance it takes a trick, times its points and a trick's worth. */
  private risk(code: number): number {
    const lane = code >>> 5;
    let above = popcount(this.unseen[lane] & bitsAbove(code & 31));
    const t = this.knownTurnup;
    if (t >= 0 && t >>> 5 === lane && (t & 31) > (code & 31)) above++;
    const q = 1 / ((1 + above) * (1 + above));
    return q * (POINTS[code] + (this.n - 1) * this.avgPoints * REST_SHARE);
  }

  /** The legal card of least cost (module doc). */
  private cheapest(legal: Int32Array): number {
    const v = this.v;
    const leading = v.trickCards === 0;
    const best = leading ? -1 : v.winningStrength;
    const later = this.n - 1 - v.trickCards;
    let base = (leading ? 0 : v.trickPointsSeen) + later * this.avgPoints * REST_SHARE;
    if (v.trick === v.tricks - 1) base += LAST_TRICK;
    base -= this.slamRelief();
    let choice = -1;
    let low = Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const led = leading ? l : v.ledLane;
        const s = STRENGTH[led * 128 + code];
        const p = s > best ? this.pHolds(code, led) : 0;
        const pts = POINTS[code];
        const cost = p * (base + pts) - (1 - p) * this.smear * pts - this.dangerWeight * this.risk(code);
        if (cost < low) {
          low = cost;
          choice = code;
        }
      }
    }
    return choice;
  }

  /** 157 while another seat has taken every trick so far and at most `breakSlam` tricks remain. */
  private slamRelief(): number {
    const v = this.v;
    if (v.trick === 0 || v.tricks - v.trick > this.breakSlam) return 0;
    for (let seat = 0; seat < this.n; seat++) {
      if (seat !== this.me && v.seatTricks(seat) === v.trick) return PACK_POINTS;
    }
    return 0;
  }

  /** With `shoot`, every trick so far and only masters: the lead for the sweep; else -1. */
  private sweepLead(): number {
    const v = this.v;
    if (!this.shoot || v.trick === 0 || v.seatTricks(this.me) !== v.trick) return -1;
    const t = this.knownTurnup;
    const trumpsOut = this.unseen[TRUMP_LANE] !== 0 || t >= 0;
    for (let l = 0; l < CARD_LANES; l++) {
      const m = this.hand[l];
      if (m === 0) continue;
      // Every card of the lane must beat every unseen card of it; plain ones only once no trump is out.
      const top = this.unseen[l] | (t >= 0 && t >>> 5 === l ? 1 << (t & 31) : 0);
      if (top !== 0 && lowestBit(m) < highestBit(top)) return -1;
      if (l !== TRUMP_LANE && trumpsOut) return -1;
    }
    // Trumps first (they draw the trumps out), else any master.
    for (let l = 0; l < CARD_LANES; l++) if (this.hand[l] !== 0) return (l << 5) | highestBit(this.hand[l]);
    return -1;
  }
}

export const heuristic: BotSpec = {
  name: 'heuristic',
  description:
    'Hindersi-Jass rules of thumb: duck, smear points onto others, shed dangerous cards, keep low exits, stop sweeps',
  params: PARAMS,
  games: ['hindersi-jass'],
  create: (ctx) => new JassHeuristicBot(ctx),
};
