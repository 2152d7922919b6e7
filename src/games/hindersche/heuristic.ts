/**
 * `heuristic` for Hindersche (RULES.md H): rules of thumb for the reverse game, fast
 * enough for playouts, reasoning only on its observation (its hand, the cards played,
 * hence the unseen cards, the voids shown, the turn-up, hand sizes).
 *
 * **Avoiding points** (the normal aim). Every legal card is valued by what it costs:
 *
 *     cost(c) = pTake(c) * T(c)  +  LEAD_COST * pTake(c)  -  dump * risk(c)
 *
 * pTake is the chance that we end up with the trick if we play c: 0 if c does not beat
 * the card winning so far; otherwise the chance that no later player is *forced* over
 * it (in a reverse game nobody beats a card by choice: a later player beats it only
 * when every card he may play is higher, i.e. he holds the suit led only above it; a
 * void player throws anything else). T is what the trick will then hold: the points
 * seen, c's own, and what the players still to come will smear onto it. risk(c) is
 * what keeping c costs later: the chance that c wins a later trick (1 for a card no
 * unseen card beats, falling with each unseen card above it; trumps win more surely
 * than plain cards) times an average trick plus c's own points. So the bot
 * - ducks: plays the highest card that still loses (it sheds risk for nothing),
 * - smears: void in the suit led, throws its most dangerous point card (an ace, a ten)
 *   onto a trick another player takes,
 * - keeps low cards (their risk is small) to escape with later,
 * - when it must take a trick anyway, takes it with its most dangerous card (the Alt
 *   wins whenever it is played, so it goes on a trick that is lost anyway),
 * - leads the card least likely to win (a low card of a suit the others hold).
 * `dump` weighs future risk against points now. Smearing stops (`guard`) when the
 * seat winning the trick would reach `guard` points with it: he may be marching.
 *
 * **Marches** (H-4, H-6). With a hand whose estimated trick count reaches `marchTricks`
 * it plays for a march instead: draw trumps with the top trump, cash masters, win
 * tricks as cheaply as is safe, and throw nothing of value when it cannot win. It
 * gives up (back to avoiding points) once a march is out of reach: when 100 points can
 * no longer be reached and (in Butzen) another player has kept a trick. The trick
 * estimate counts each trump by rank (0.35 for a low one to 1 for the Alt), each plain
 * ace 0.7 and a king beside its ace 0.4; the default threshold 3 was the best reply to
 * fields of heuristics with thresholds 3, 4 and never, on marks over duplicate deals
 * (marching more costs points but saves marks, the real aim).
 *
 * **Schleipfen** (H-2). It offers to take a trick only while playing for a march. It
 * objects when the offerer could be going for a march: he would then hold `objectAt`
 * points or more, or (in Butzen) he has kept every trick so far; and as the winner it
 * objects while itself marching. Otherwise it lets the offerer take the points.
 */
import { bitsAbove, highestBit, lowestBit, popcount } from '../../core/bits.js';
import { setFirst } from '../../core/cardset.js';
import { Decision, NO, YES, type Observation, type ParamSpec } from '../game.js';
import { CARD_LANES, PACK, POINTS, STRENGTH, TRUMP_LANE } from './cards.js';
import type { HinderscheView } from './view.js';
import type { Bot, BotContext, BotSpec } from '../bot.js';
import { DecisionMemo, drawProduct, drawTable, drawn, inDrawTable, type DrawTable } from '../trick/chances.js';

/** Points of the cards of a lane mask, by a lookup (cards.ts). */
const LANE_POINTS = PACK.lanePoints;

const PARAMS: readonly ParamSpec[] = [
  {
    key: 'dump',
    type: 'number',
    default: 0.6,
    min: 0,
    max: 3,
    description:
      "weight of a card's risk of winning a later trick against the points of the trick now (higher sheds high cards sooner)",
  },
  {
    key: 'marchTricks',
    type: 'number',
    default: 3,
    min: 0,
    max: 10,
    description: 'estimated tricks of the dealt hand from which it plays for a march (above 9: never)',
  },
  {
    key: 'guard',
    type: 'int',
    default: 60,
    min: 0,
    max: 141,
    description: 'no smearing onto a trick whose winner would then hold at least this many points (he may march)',
  },
  {
    key: 'objectAt',
    type: 'int',
    default: 60,
    min: 0,
    max: 141,
    description:
      'object to a schleipfe when the offerer would then hold at least this many points (or, in Butzen, every trick so far)',
  },
];

/** Points of a march (H-4, H-6), and in the pack. */
const MARCH_POINTS = 100;
const PACK_POINTS = 140;
/** What an average trick is worth to the taker, in card points (140 over 9 tricks). */
const AVG_TRICK = 15.5;
/** A trick taken makes us lead the next: a small cost in points. */
const LEAD_COST = 2;
/** Players still to come smear this multiple of the average unseen card's points. */
const SMEAR = 1.6;
/** Chance that a plain card wins a later trick, by unseen cards above it: 1 / (1 + PLAIN_FALL * n). */
const PLAIN_FALL = 2;
/** The same for a trump: trumps win more surely. */
const TRUMP_FALL = 1;
/** Estimated tricks of a trump in the dealt hand, trump lane bits 6 7 8 9 10 Q K A Kloei Alt. */
const TRUMP_TRICKS = [0.35, 0.35, 0.35, 0.35, 0.45, 0.55, 0.65, 0.8, 0.95, 1];
/** Estimated tricks of plain aces and kings (a king with its ace). */
const ACE_TRICKS = 0.7;
const KING_TRICKS = 0.4;

const CODES = CARD_LANES << 5;

/** FULL[trump * CARD_LANES + lane]: every card of the pack as codes under that trump (cards.ts). */
const FULL = PACK.full;

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

class HinderscheHeuristic implements Bot {
  private readonly dump: number;
  private readonly marchTricks: number;
  private readonly objectAt: number;
  private readonly guard: number;

  private readonly hand = new Int32Array(CARD_LANES);
  /** Cards no seat's view places: in other hands or the stack (never the turn-up). */
  private readonly unseen = new Int32Array(CARD_LANES);
  /** `pForced`'s answers in this decision, by seat, led lane and strength (or bit) + 1. */
  private readonly forced = new DecisionMemo(4 * 4 * 64);
  private unseenCount = 0;
  private avgPoints = 0;
  /** The turn-up while another player (the dealer) is known to hold it, else -1. */
  private knownTurnup = -1;
  private v!: HinderscheView;
  private me = 0;

  constructor(ctx: BotContext) {
    NONE_DRAWN ??= drawTable(noneFactor);
    this.dump = Number(ctx.params.dump);
    this.marchTricks = Number(ctx.params.marchTricks);
    this.objectAt = Number(ctx.params.objectAt);
    this.guard = Number(ctx.params.guard);
  }

  act(obs: Observation, legal: Int32Array, count: number): number {
    // The spec is registered for hindersche only, so the window is Hindersche's.
    if (count === 1) return setFirst(legal, 0);
    const v = obs as HinderscheView;
    this.v = v;
    this.me = v.seat;
    this.forced.next();
    this.survey(v);
    const marching = this.marching();
    if (v.decision === Decision.Schleipfe) return marching ? YES : NO;
    if (v.decision === Decision.Object) return this.object(marching) ? YES : NO;
    if (marching) return v.trickCards === 0 ? this.marchLead(legal) : this.marchFollow(legal);
    return v.trickCards === 0 ? this.lead(legal) : this.follow(legal);
  }

  /** Fill hand, played, unseen and the averages from the window. */
  private survey(v: HinderscheView): void {
    const { unseen, hand } = this;
    const base = v.trump * CARD_LANES;
    const t = v.turnup;
    for (let l = 0; l < CARD_LANES; l++) {
      hand[l] = v.handLane(l);
      unseen[l] = FULL[base + l] & ~hand[l] & ~v.playedLane(l);
    }
    unseen[t >>> 5] &= ~(1 << (t & 31)); // public: the dealer's, or out of play
    this.knownTurnup = v.turnupHolder >= 0 && v.turnupHolder !== v.seat && v.turnupHeld ? t : -1;
    let count = 0;
    let points = 0;
    for (let l = 0; l < CARD_LANES; l++) {
      count += popcount(unseen[l]);
      points += LANE_POINTS[(l << 10) | unseen[l]];
    }
    this.unseenCount = count;
    this.avgPoints = count > 0 ? points / count : 0;
  }

  // ---- risk and taking ------------------------------------------------------

  /** Unseen cards (and a held turn-up) above `code` in its own lane. */
  private above(code: number): number {
    const lane = code >>> 5;
    let n = popcount(this.unseen[lane] & bitsAbove(code & 31));
    const t = this.knownTurnup;
    if (t >= 0 && t >>> 5 === lane && (t & 31) > (code & 31)) n++;
    return n;
  }

  /** What keeping `code` costs later: chance it wins a trick, times that trick with its own points. */
  private risk(code: number): number {
    const n = this.above(code);
    const fall = code >>> 5 === TRUMP_LANE ? TRUMP_FALL : PLAIN_FALL;
    return (AVG_TRICK + POINTS[code]) / (1 + fall * n);
  }

  /**
   * Chance that `seat` is forced to beat a card of strength `strength` in a trick led in
   * `led`: he holds the suit led (trumps, for a trump lead) only above it. A trump on
   * a plain lead is never forced over (a void player throws a plain card instead).
   */
  private pForced(seat: number, led: number, strength: number): number {
    // Remembered for the rest of the decision: asked again for each legal card weighed.
    const key = (((seat << 2) | led) << 6) | (strength + 1);
    return this.forced.has(key) ? this.forced.get(key) : this.forced.set(key, this.pForcedOf(seat, led, strength));
  }

  private pForcedOf(seat: number, led: number, strength: number): number {
    const v = this.v;
    if ((v.voids(seat) >>> led) & 1) return 0;
    if (strength >= 16 && led !== TRUMP_LANE) return 0;
    const bit = led === TRUMP_LANE ? strength - 16 : strength;
    let k = v.handSize(seat);
    const lane = this.unseen[led];
    let hi = popcount(lane & bitsAbove(bit));
    const lo = popcount(lane & ((1 << bit) - 1));
    const t = this.knownTurnup;
    if (t >= 0 && seat === v.dealer) {
      k--;
      if (t >>> 5 === led) {
        if ((t & 31) < bit) return 0; // he can duck with the turn-up
        hi = -1; // he surely holds a card above
      }
    }
    if (k <= 0) return hi < 0 ? 1 : 0;
    const u = this.unseenCount;
    const pHigh = hi < 0 ? 1 : 1 - noneDrawn(u, hi, k);
    return pHigh * noneDrawn(u, lo, k);
  }

  /** Chance that a card of strength `s` (beating everything so far) keeps the trick. */
  private pHolds(led: number, s: number): number {
    const v = this.v;
    let p = 1;
    let seat = v.nextPlayer(this.me);
    for (let i = v.trickCards + 1; i < v.players; i++) {
      p *= 1 - this.pForced(seat, led, s);
      seat = v.nextPlayer(seat);
    }
    return p;
  }

  /** Points the `cards` players still to come are expected to throw onto our trick. */
  private smeared(cards: number): number {
    return cards * this.avgPoints * SMEAR;
  }

  // ---- avoiding points ------------------------------------------------------

  private follow(legal: Int32Array): number {
    const v = this.v;
    const led = v.ledLane;
    const best = v.winningStrength;
    const later = v.players - v.trickCards - 1;
    const base = v.trickPointsSeen + this.smeared(later);
    // Guard against a march: points thrown onto a trick that takes its winner near 100 count against us.
    const w = v.winningSeat;
    const guarded = v.seatPoints(w) + v.trickPointsSeen >= this.guard;
    let choice = -1;
    let low = Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const s = STRENGTH[led * CODES + code];
        const p = s > best ? this.pHolds(led, s) : 0;
        let cost = p * (base + POINTS[code] + LEAD_COST) - this.dump * this.risk(code);
        if (guarded && p === 0) cost += POINTS[code];
        if (cost < low) {
          low = cost;
          choice = code;
        }
      }
    }
    return choice;
  }

  private lead(legal: Int32Array): number {
    const v = this.v;
    const rest = this.smeared(v.players - 1);
    let choice = -1;
    let low = Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const p = this.pHolds(l, STRENGTH[l * CODES + code]);
        const cost = p * (rest + POINTS[code] + LEAD_COST) - this.dump * this.risk(code);
        if (cost < low) {
          low = cost;
          choice = code;
        }
      }
    }
    return choice;
  }

  // ---- marches -------------------------------------------------------------

  /** Whether to play for a march now: a strong dealt hand, and a march still in reach. */
  private marching(): boolean {
    const v = this.v;
    if (this.marchTricks > 9) return false;
    // The dealt hand: the hand now and the cards this seat has played.
    let tricks = 0;
    for (let l = 0; l < CARD_LANES; l++) {
      const mine = v.dealtLane(l);
      if (l === TRUMP_LANE) {
        for (let b = mine; b !== 0; b &= b - 1) tricks += TRUMP_TRICKS[lowestBit(b)];
      } else if (mine !== 0) {
        const top = highestBit(mine);
        if (top === 8) tricks += ACE_TRICKS + ((mine >>> 7) & 1 ? KING_TRICKS : 0);
      }
    }
    if (tricks < this.marchTricks) return false;
    // Still in reach: 100 points, or (Butzen) every trick.
    let othersPoints = 0;
    let othersTricks = 0;
    for (let s = 0; s < 4; s++) {
      if (s === this.me || !v.plays(s)) continue;
      othersPoints += v.seatPoints(s);
      othersTricks += v.tricksKept(s);
    }
    // What lies out of play: the turn-up (if nobody holds it) and unknown cards at the average.
    const outOfPlay = v.turnupHolder < 0 ? POINTS[v.turnup] + this.avgPoints * (v.stackSize - 1) : 0;
    const byPoints = PACK_POINTS - outOfPlay - othersPoints >= MARCH_POINTS;
    const byTricks = v.phase === 2 && othersTricks === 0;
    return byPoints || byTricks;
  }

  private marchLead(legal: Int32Array): number {
    const trumps = this.hand[TRUMP_LANE];
    // Draw trumps with the top trump while any is out.
    if (trumps !== 0 && (this.unseen[TRUMP_LANE] !== 0 || this.knownTurnup >= 0)) {
      const top = highestBit(trumps);
      if (this.above(top) === 0) return top;
    }
    // Cash a master.
    for (let l = 1; l < CARD_LANES; l++) {
      const m = this.hand[l];
      if (m === 0) continue;
      const code = (l << 5) | highestBit(m);
      if (this.above(code) === 0) return code;
    }
    // Else the strongest card: the highest trump, or the highest plain card.
    if (trumps !== 0) return highestBit(trumps);
    let choice = setFirst(legal, 0);
    for (let l = 1; l < CARD_LANES; l++) {
      const m = this.hand[l];
      if (m !== 0 && highestBit(m) > (choice & 31)) choice = (l << 5) | highestBit(m);
    }
    return choice;
  }

  private marchFollow(legal: Int32Array): number {
    const v = this.v;
    const led = v.ledLane;
    const best = v.winningStrength;
    const last = v.trickCards === v.players - 1;
    let win = -1;
    let winKey = Infinity;
    let lose = -1;
    let loseKey = Infinity;
    for (let l = 0; l < CARD_LANES; l++) {
      for (let m = legal[l]; m !== 0; m &= m - 1) {
        const code = (l << 5) | lowestBit(m);
        const s = STRENGTH[led * CODES + code];
        if (s > best) {
          // Last: the cheapest winner. Earlier: the surest (highest), then cheapest.
          const key = last ? s : -s * 100 + POINTS[code];
          if (key < winKey) {
            winKey = key;
            win = code;
          }
        } else {
          // Cannot win: give the others as little as possible, keep strength.
          const key = POINTS[code] * 100 + (s < 0 ? code & 31 : 50 + s);
          if (key < loseKey) {
            loseKey = key;
            lose = code;
          }
        }
      }
    }
    return win >= 0 ? win : lose;
  }

  // ---- schleipfen ----------------------------------------------------------------

  private object(marching: boolean): boolean {
    const v = this.v;
    const t = v.trick;
    const offerer = v.offerer;
    if (offerer < 0) return false;
    const winner = v.trickWinner(t);
    if (winner === this.me) return marching;
    if (v.seatPoints(offerer) + v.trickValue(t) >= this.objectAt) return true;
    return v.phase === 2 && v.tricksKept(offerer) === t && t >= 2;
  }
}

export const heuristicHindersche: BotSpec = {
  name: 'heuristic',
  description:
    'Hindersche rules of thumb: duck, smear points onto others, keep low cards, march with a very strong hand',
  params: PARAMS,
  games: ['hindersche'],
  create: (ctx) => new HinderscheHeuristic(ctx),
};
