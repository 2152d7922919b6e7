/**
 * `heuristic`: a rule-of-thumb Viersche player (RULES.md V), fast enough for playouts
 * and strong enough to be the baseline that search bots must beat.
 *
 * It reasons only on its observation: its hand, the cards played (hence the cards
 * still unseen), the voids shown, who holds the turn-up, and hand sizes. From these
 * it estimates, for any card, the chance that no opponent still to play this trick
 * can beat it: an opponent can beat a card with a higher card of the suit led or with
 * any trump, and since V-5 lets a player trump even when he can follow, a plain ace is
 * safe only once the opponents are out of trumps. The chance is hypergeometric: the
 * opponent's unknown cards drawn from the unseen cards of the lanes he is not void in.
 *
 * **Following** (second, third and fourth hand). Each legal card is valued as
 *
 *     (2 p - 1) * T  -  keep(card)
 *
 * where p is the chance that our team takes the trick if we play it, T the points the
 * trick will hold (seen points, the card's own points, and an estimate for the cards
 * still to come), and keep(card) what the card is worth for later tricks: its power
 * (trumps by rank, a plain card that is the highest still out, little for low plain
 * cards) times keepWeight, plus the points it would bring later (all of a top trump's,
 * which wins whenever it is played; minus half of a plain card's that a card still out
 * beats, which is likely lost). The trick's points move between the teams, hence the
 * factor 2p - 1. This one formula
 * gives the familiar rules: win cheaply when the trick has points or an opponent is
 * winning (the cheapest card whose p is high), keep trumps for tricks with points
 * (their keep outweighs an empty trick), discard the lowest card when the trick is
 * lost (p = 0: minimise points plus keep), and *smear*, i.e. throw a ten or an ace
 * onto a trick the partner is sure to win (p = 1: maximise points minus keep). The
 * partner's card counts as sure when the chance that no later opponent beats it is at
 * least `smear`: as last player behind a winning partner that chance is 1.
 * `aggression` trades tricks now against cards for later: keepWeight = 4 (1 - a).
 *
 * **Leading.** The first lead must be a trump if forehand holds one (V-4): the highest
 * trump still out if he holds it (it wins a trick everybody must trump to), else his
 * cheapest trump. Without a trump the lead is face down: it cannot win and its points
 * go to the winner, so it is the cheapest card. Later leads, in order: draw trumps
 * while an opponent may still hold one (`trumpLead`: with the highest trump out, and
 * under `draw` also the cheapest trump when holding `trumpLength` trumps), since
 * drawn trumps make our aces safe; then cash a plain card that is highest in its
 * suit when it is likely enough to survive (p >= `cash`); otherwise lead
 * the cheapest card, never a ten or an honour when a low card will do, preferring a
 * suit the partner has shown void in while he still may trump.
 *
 * **Claims** (V-8): `claim=asap` claims as soon as the claim is correct (the default
 * of the rules). `claim=slam` plays on while the team has won every trick, for the
 * second rung of a nine-trick game (V-9), when playing on cannot lose the game: in a
 * first deal the other team cannot reach 100 any more; in a second deal only if it
 * cannot reach its own target.
 */
import { bitsAbove, highestBit, lowestBit, popcount } from '../../core/bits.js';
import { setFirst } from '../../core/cardset.js';
import { Decision, HIDDEN, NO, YES, type Observation, type ParamSpec } from '../game.js';
import { CARD_LANES, PACK, POINTS, STRENGTH, TRUMP_LANE } from './cards.js';
import { PACK_POINTS } from './state.js';
import type { VierscheView } from './view.js';
import type { Bot, BotContext, BotSpec } from '../bot.js';
import { DecisionMemo, drawProduct, drawTable, drawn, inDrawTable, type DrawTable } from '../trick/chances.js';

/** Points of the cards of a lane mask, by a lookup (cards.ts). */
const LANE_POINTS = PACK.lanePoints;

const CLAIM_POLICIES = ['asap', 'slam'] as const;
const TRUMP_LEADS = ['draw', 'top', 'never'] as const;
type ClaimPolicy = (typeof CLAIM_POLICIES)[number];
type TrumpLead = (typeof TRUMP_LEADS)[number];

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'aggression',
    type: 'number',
    default: 0.3,
    min: 0,
    max: 1,
    description: 'readiness to spend trumps and high cards on uncertain tricks (0 hoards, 1 grabs every trick)',
  },
  {
    key: 'trumpLead',
    type: TRUMP_LEADS,
    default: 'draw',
    description: 'leading trumps: draw (the top trump, or the cheapest with length), top (only the top trump), never',
  },
  {
    key: 'trumpLength',
    type: 'int',
    default: 4,
    min: 1,
    max: 10,
    description: 'trumps held that count as length: with trumpLead=draw, lead trumps even without the top one',
  },
  {
    key: 'cash',
    type: 'number',
    default: 0.75,
    min: 0,
    max: 1,
    description: 'lead a plain card that is highest in its suit when no opponent beats it with at least this chance',
  },
  {
    key: 'smear',
    type: 'number',
    default: 0.8,
    min: 0,
    max: 1,
    description: "smear points onto the partner's winning card when it holds the trick with at least this chance",
  },
  {
    key: 'claim',
    type: CLAIM_POLICIES,
    default: 'asap',
    description: 'asap: claim as soon as correct; slam: play on for all nine tricks while that cannot lose the game',
  },
];

// Keep values (in card points): what a card is worth for later tricks.
/** A trump's keep: TRUMP_KEEP + TRUMP_STEP per rank (6 of trumps lowest, Alt highest). */
const TRUMP_KEEP = 4;
const TRUMP_STEP = 0.6;
/** A plain card that no unseen card of its suit beats: it may cash a trick later. */
const MASTER_KEEP = 3;
/** Other plain cards, per rank. */
const PLAIN_STEP = 0.25;
/**
 * A card's own points as part of its keep. A master trump wins whenever it is played,
 * so its points are ours anyway: spending it now gains only the rest of the trick. A
 * plain card below a card still out is likely lost later, so shedding it on a trick we
 * take saves (part of) its points.
 */
const MASTER_OWN = 1;
const LOSER_OWN = 0.5;
/** Share of the average unseen card's points expected from each card still to come. */
const REST_SHARE = 0.8;
/** Chance that a partner playing last who holds a card above ours takes the trick back. */
const PARTNER_COVER = 0.5;
/** Bonus for leading a suit the partner is void in while he may still trump. */
const RUFF_BONUS = 2;

/** Codes per STRENGTH row (cards.ts). */
const CODES = CARD_LANES << 5;

/** FULL[trump * CARD_LANES + lane]: every card of the pack as codes under that trump (cards.ts). */
const FULL = PACK.full;

/** Cards of `lane` whose strength for a trick led in `led` exceeds `strength` (cards.ts STRENGTH). */
function beaters(lane: number, led: number, strength: number): number {
  if (lane === TRUMP_LANE) return strength < 16 ? -1 : bitsAbove(strength - 16);
  if (lane !== led || strength >= 16) return 0;
  return strength < 0 ? -1 : bitsAbove(strength);
}

/** Chance that k cards drawn from u, of which h are marked, include none of the marked (tabled: trick/chances.ts). */
function noneDrawn(u: number, h: number, k: number): number {
  return inDrawTable(u, h, k) ? drawn(NONE_DRAWN!, u, h, k) : drawProduct(noneFactor, u, h, k);
}

/** The i-th card drawn is not marked, given that the ones before were not. */
function noneFactor(u: number, h: number, i: number): number {
  return Math.max(0, u - h - i) / (u - i);
}

/**
 * `noneDrawn`'s table, built by the first bot made rather than as the module loads:
 * every command loads the games, and most make no heuristic of this game.
 */
let NONE_DRAWN: DrawTable | null = null;

class HeuristicBot implements Bot {
  private readonly keepWeight: number;
  private readonly trumpLead: TrumpLead;
  private readonly trumpLength: number;
  private readonly smear: number;
  private readonly cash: number;
  private readonly claim: ClaimPolicy;

  // Per decision: the cards this seat cannot place (not its own, not seen played, not
  // the turn-up the dealer is known to hold), and what they are worth on average.
  private readonly unseen = new Int32Array(CARD_LANES);
  private readonly hand = new Int32Array(CARD_LANES);
  /** `pBeat`'s answers in this decision, by seat, led lane and strength + 1 (below 64). */
  private readonly beat = new DecisionMemo(4 * 4 * 64);
  /** The turn-up's code while another seat (the dealer) is known to hold it, else -1. */
  private knownTurnup = -1;
  private avgPoints = 0;
  private v!: VierscheView;
  private me = 0;

  constructor(ctx: BotContext) {
    NONE_DRAWN ??= drawTable(noneFactor);
    const p = ctx.params;
    this.keepWeight = 4 * (1 - Number(p.aggression));
    this.trumpLead = p.trumpLead as TrumpLead;
    this.trumpLength = Number(p.trumpLength);
    this.smear = Number(p.smear);
    this.cash = Number(p.cash);
    this.claim = p.claim as ClaimPolicy;
  }

  act(obs: Observation, legal: Int32Array): number {
    // The spec is registered for viersche only, so the window is Viersche's.
    const v = obs as VierscheView;
    if (v.decision === Decision.Claim) return this.answerClaim(v);
    if (v.decision !== Decision.Card) return setFirst(legal, 0);
    this.v = v;
    this.me = v.seat;
    this.beat.next();
    this.survey(v);
    return v.trickCards === 0 ? this.lead(legal) : this.follow(legal);
  }

  private answerClaim(v: VierscheView): number {
    if (this.claim === 'asap') return YES;
    const us = v.seat & 1;
    const them = 1 - us;
    const unbeaten = v.teamTricks(them) === 0;
    const safe = !v.secondDeal || v.target(them) > PACK_POINTS - v.teamPoints(us);
    return unbeaten && safe ? NO : YES;
  }

  /** Fill hand, unseen, knownTurnup and avgPoints from the window. */
  private survey(v: VierscheView): void {
    const { unseen, hand } = this;
    const base = v.trump * CARD_LANES;
    for (let l = 0; l < CARD_LANES; l++) {
      hand[l] = v.handLane(l);
      unseen[l] = FULL[base + l] & ~hand[l] & ~v.playedLane(l);
    }
    this.knownTurnup = v.turnupHeld && v.dealer !== v.seat ? v.turnup : -1;
    let count = 0;
    let points = 0;
    for (let l = 0; l < CARD_LANES; l++) {
      count += popcount(unseen[l]);
      points += LANE_POINTS[(l << 10) | unseen[l]];
    }
    if (this.knownTurnup >= 0) unseen[TRUMP_LANE] &= ~(1 << (this.knownTurnup & 31));
    this.avgPoints = count > 0 ? points / count : 0;
  }

  /**
   * Chance that `seat` holds a card beating `strength` in a trick led in lane `led`.
   * Remembered for the rest of the decision (`act` asks it again and again for the
   * same seats and strengths while it weighs each legal card).
   */
  private pBeat(seat: number, led: number, strength: number): number {
    const key = (((seat << 2) | led) << 6) | (strength + 1);
    return this.beat.has(key) ? this.beat.get(key) : this.beat.set(key, this.pBeatOf(seat, led, strength));
  }

  private pBeatOf(seat: number, led: number, strength: number): number {
    const v = this.v;
    let k = v.handSize(seat);
    const t = this.knownTurnup;
    if (t >= 0 && seat === v.dealer) {
      if (STRENGTH[led * CODES + t] > strength) return 1;
      k--;
    }
    const voids = v.voids(seat);
    let u = 0;
    let h = 0;
    for (let l = 0; l < CARD_LANES; l++) {
      if ((voids >>> l) & 1) continue;
      const m = this.unseen[l];
      u += popcount(m);
      h += popcount(m & beaters(l, led, strength));
    }
    if (h === 0 || k <= 0) return 0;
    return 1 - noneDrawn(u, h, k);
  }

  /** Chance that no opponent still to play after us in this trick beats `strength`. */
  private pHolds(led: number, strength: number): number {
    const v = this.v;
    let p = 1;
    for (let i = 1; i < 4 - v.trickCards; i++) {
      const seat = (this.me + i) & 3;
      if ((i & 1) === 1) p *= 1 - this.pBeat(seat, led, strength);
    }
    // Second hand: the partner plays last and may still take the trick back.
    if (v.trickCards === 1) p += (1 - p) * PARTNER_COVER * this.pBeat(this.me ^ 2, led, strength);
    return p;
  }

  /**
   * What a card is worth for later tricks, in card points: its power to win a trick
   * (weighted by keepWeight), and the share of its own points we expect from it later.
   */
  private keep(code: number): number {
    const lane = code >>> 5;
    const bit = code & 31;
    const master = this.isMaster(code);
    if (lane === TRUMP_LANE)
      return this.keepWeight * (TRUMP_KEEP + TRUMP_STEP * bit) + (master ? MASTER_OWN * POINTS[code] : 0);
    return master ? this.keepWeight * MASTER_KEEP : this.keepWeight * PLAIN_STEP * bit - LOSER_OWN * POINTS[code];
  }

  /** Whether no card an opponent may hold beats `code` in its own lane. */
  private isMaster(code: number): boolean {
    const lane = code >>> 5;
    const bit = code & 31;
    if ((this.unseen[lane] & bitsAbove(bit)) !== 0) return false;
    const t = this.knownTurnup;
    return t < 0 || t >>> 5 !== lane || (t & 31) < bit || ((this.v.dealer ^ this.me) & 1) === 0;
  }

  /** Points the `cards` cards still to come are expected to add to the trick. */
  private rest(cards: number): number {
    return cards * this.avgPoints * REST_SHARE;
  }

  // ---- following -------------------------------------------------------------

  private follow(legal: Int32Array): number {
    const v = this.v;
    const led = v.ledLane;
    const best = v.winningStrength;
    let seen = v.trickPointsSeen;
    if (v.facedown && v.trick === 0 && v.move(0) === HIDDEN) seen += this.avgPoints;
    const base = seen + this.rest(3 - v.trickCards);
    const rescue = this.pRescue(led, best);
    let choice = -1;
    let top = -Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const s = STRENGTH[led * CODES + code];
        const p = s > best ? this.pHolds(led, s) : rescue;
        const value = (2 * p - 1) * (base + POINTS[code]) - this.keep(code);
        if (value > top) {
          top = value;
          choice = code;
        }
      }
    }
    return choice;
  }

  /** Chance that our team takes the trick when our card does not beat the best so far. */
  private pRescue(led: number, best: number): number {
    const v = this.v;
    const partner = this.me ^ 2;
    if (v.winningSeat === partner) {
      const p = this.pHolds(led, best);
      return p >= this.smear ? 1 : p;
    }
    // Second hand: the partner plays last and may still beat the opponent between us.
    if (v.trickCards === 1)
      return this.pBeat(partner, led, best) * (1 - PARTNER_COVER * this.pBeat((this.me + 1) & 3, led, best));
    return 0;
  }

  // ---- leading ---------------------------------------------------------------

  private lead(legal: Int32Array): number {
    const v = this.v;
    const trumps = this.hand[TRUMP_LANE];
    if (v.trick === 0) {
      if (trumps === 0) return this.cheapest(legal, false);
      // A trump's code is its bit: the trump lane is lane 0.
      return this.isTopTrump(trumps) ? highestBit(trumps) : this.cheapest(legal, false);
    }
    if (trumps !== 0 && this.trumpLead !== 'never' && this.opponentsMayTrump()) {
      if (this.isTopTrump(trumps)) return highestBit(trumps);
      if (this.trumpLead === 'draw' && popcount(trumps) >= this.trumpLength) return this.cheapestIn(TRUMP_LANE);
    }
    const cash = this.cashable();
    return cash >= 0 ? cash : this.cheapest(legal, true);
  }

  /** Whether the highest trump in `trumps` beats every trump the opponents may hold. */
  private isTopTrump(trumps: number): boolean {
    return this.isMaster(highestBit(trumps));
  }

  private opponentsMayTrump(): boolean {
    const v = this.v;
    for (let i = 1; i < 4; i += 2) {
      const seat = (this.me + i) & 3;
      if (this.knownTurnup >= 0 && seat === v.dealer) return true;
      if (this.unseen[TRUMP_LANE] !== 0 && ((v.voids(seat) >>> TRUMP_LANE) & 1) === 0) return true;
    }
    return false;
  }

  /** The best plain card that is highest in its suit and likely to hold as a lead; -1 if none. */
  private cashable(): number {
    const rest = this.rest(3);
    let choice = -1;
    let top = -Infinity;
    for (let l = 1; l < CARD_LANES; l++) {
      const m = this.hand[l];
      if (m === 0) continue;
      const bit = highestBit(m);
      if ((this.unseen[l] & bitsAbove(bit)) !== 0) continue;
      const code = (l << 5) | bit;
      const p = this.pHolds(l, STRENGTH[l * CODES + code]);
      if (p < this.cash) continue;
      const value = (2 * p - 1) * (rest + POINTS[code]);
      if (value > top) {
        top = value;
        choice = code;
      }
    }
    return choice;
  }

  /**
   * The legal card that costs least to give away: fewest points plus keep. As a real
   * lead (`preferRuff`), a suit the partner is void in while he may trump is preferred.
   */
  private cheapest(legal: Int32Array, preferRuff: boolean): number {
    const v = this.v;
    const partner = this.me ^ 2;
    const partnerVoids = v.voids(partner);
    const partnerTrumps = ((partnerVoids >>> TRUMP_LANE) & 1) === 0 && this.unseen[TRUMP_LANE] !== 0;
    let choice = -1;
    let low = Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      const ruff = preferRuff && l !== TRUMP_LANE && partnerTrumps && ((partnerVoids >>> l) & 1) === 1;
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const cost = POINTS[code] + this.keep(code) - (ruff ? RUFF_BONUS : 0);
        if (cost < low) {
          low = cost;
          choice = code;
        }
      }
    }
    return choice;
  }

  /** The cheapest card of our hand in `lane`. */
  private cheapestIn(lane: number): number {
    let choice = -1;
    let low = Infinity;
    for (let m = this.hand[lane]; m !== 0; m &= m - 1) {
      const code = (lane << 5) | lowestBit(m);
      const cost = POINTS[code] + this.keep(code);
      if (cost < low) {
        low = cost;
        choice = code;
      }
    }
    return choice;
  }
}

export const heuristic: BotSpec = {
  name: 'heuristic',
  description: 'Viersche rules of thumb: win cheaply, smear onto a sure partner, draw trumps, cash masters',
  params: PARAMS,
  games: ['viersche'],
  create: (ctx) => new HeuristicBot(ctx),
};
