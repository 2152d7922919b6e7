/**
 * Determinization for Hindersi-Jass: a full deal consistent with one seat's view,
 * drawn uniformly among all such deals.
 *
 * The unseen cards (not in the observer's hand, not played, not the turn-up while the
 * dealer still holds it) go to the other seats, each getting as many as it holds now.
 * What play has shown (state.ts, `voids`) constrains them:
 * - a plain-suit void (a discard, or an undertrump, on that suit's lead) forbids that
 *   lane, exactly as in Viersche;
 * - a non-trump on a trump lead shows *no trump except possibly the Puur* (J-4: nobody
 *   is forced to play the Puur). That is not a lane constraint when the Puur is still
 *   unseen, so it is resolved by cases: in every consistent deal the Puur is with
 *   exactly one holder, and given that holder the rest is a plain lane-constrained
 *   deal (every flagged seat void in trumps). The holder is drawn in proportion to the
 *   number of deals of each case (an exact count, `countDeals`), then the rest is dealt
 *   by the uniform `HandSampler`. A mixture of uniform draws weighted by the case sizes
 *   is uniform over the union.
 *
 * The deal is then rebuilt from the start and the public history replayed, so every
 * derived quantity (points, voids, trick winners) is recomputed by the same rules.
 */
import { popcount } from '../../core/bits.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import type { HistoryWatcher } from '../game.js';
import { LaneSampler } from '../trick/sample.js';
import { CARD_LANES, FULL, PUUR_BIT, TRUMP_LANE } from './cards.js';
import { MAX_PLAYERS, type DealContext, type JassState } from './state.js';
import type { JassView } from './view.js';

const HOLDERS = MAX_PLAYERS - 1;
/** Largest hand (12, with 3 players) + 1: the side of the counting table. */
const CAP = 13;

/**
 * Number of ways (up to the common factor prod over lanes of lanes[l]!) to deal cards
 * in `lanes[l]` per lane to `holders` (at most 3) holders of sizes `caps`, holder h
 * getting nothing of a lane set in `forbidden[h]`: the sum over the lane-by-holder
 * count matrices of prod 1 / x! (the multinomials without their common numerators).
 * A dynamic program over the lanes on the counts of the first two holders; the third
 * holder's count is what remains, written to `out[at]` (a number returned from a call
 * that is not inlined would be boxed: an allocation). The tables are passed in.
 */
function countDeals(
  lanes: Int32Array,
  holders: number,
  caps: Int32Array,
  forbidden: Int32Array,
  invFact: Float64Array,
  cur: Float64Array,
  next: Float64Array,
  out: Float64Array,
  at: number,
): void {
  const c0 = caps[0];
  const c1 = holders > 1 ? caps[1] : 0;
  const c2 = holders > 2 ? caps[2] : 0;
  const f0 = forbidden[0];
  const f1 = holders > 1 ? forbidden[1] : -1;
  const f2 = holders > 2 ? forbidden[2] : -1;
  cur.fill(0);
  cur[0] = 1;
  let dealt = 0;
  for (let l = 0; l < CARD_LANES; l++) {
    const n = lanes[l];
    if (n === 0) continue;
    const ok0 = ((f0 >>> l) & 1) === 0;
    const ok1 = ((f1 >>> l) & 1) === 0;
    const ok2 = ((f2 >>> l) & 1) === 0;
    next.fill(0);
    for (let a = 0; a <= c0; a++) {
      for (let b = 0; b <= c1; b++) {
        const v = cur[a * CAP + b];
        if (v === 0) continue;
        const third = dealt - a - b;
        for (let x0 = 0; x0 <= (ok0 ? Math.min(n, c0 - a) : 0); x0++) {
          for (let x1 = 0; x1 <= (ok1 ? Math.min(n - x0, c1 - b) : 0); x1++) {
            const x2 = n - x0 - x1;
            if (x2 > 0 && (!ok2 || third + x2 > c2)) continue;
            next[(a + x0) * CAP + b + x1] += v * invFact[x0] * invFact[x1] * invFact[x2];
          }
        }
      }
    }
    cur.set(next);
    dealt += n;
  }
  out[at] = cur[c0 * CAP + c1];
}

export class JassSampler extends LaneSampler {
  private readonly ctx: DealContext & { totals: Int32Array } = {
    dealer: 0,
    partieDeal: 0,
    partieDeals: 4,
    totals: new Int32Array(MAX_PLAYERS),
  };

  // Counting the Puur's cases; the weights are kept while the inputs repeat (as they do
  // across the samples of one search decision).
  private readonly invFact = new Float64Array(40);
  private readonly tableA = new Float64Array(CAP * CAP);
  private readonly tableB = new Float64Array(CAP * CAP);
  private readonly laneCounts = new Int32Array(CARD_LANES);
  private readonly caseSizes = new Int32Array(HOLDERS);
  private readonly weights = new Float64Array(HOLDERS);
  private readonly keyNow = new Int32Array(CARD_LANES + 2 * HOLDERS + 1);
  private readonly keyKept = new Int32Array(CARD_LANES + 2 * HOLDERS + 1).fill(-1);

  constructor() {
    super(HOLDERS);
    this.invFact[0] = 1;
    for (let i = 1; i < this.invFact.length; i++) this.invFact[i] = this.invFact[i - 1] / i;
  }

  sample(obs: JassView, rng: Rng, out: JassState, watcher?: HistoryWatcher<JassState>): void {
    const me = obs.seat;
    const n = obs.seats;
    const trump = obs.trump;
    this.seen(obs, FULL, trump * CARD_LANES);
    this.placeTurnup(me, obs.turnup, obs.dealer, obs.turnupHeld);
    const dealerHoldsTurnup = obs.turnupHeld && obs.dealer !== me;
    let flagged = false;
    for (let seat = 0; seat < n; seat++) {
      if (seat === me) continue;
      let size = obs.handSize(seat);
      if (dealerHoldsTurnup && seat === obs.dealer) size--;
      const voids = obs.voids(seat) & ((1 << CARD_LANES) - 1);
      this.addHolder(seat, size, voids);
      if (size > 0 && (voids & (1 << TRUMP_LANE)) !== 0) flagged = true;
    }

    const puur = 1 << PUUR_BIT;
    let puurHolder = -1;
    if (flagged && (this.pool[TRUMP_LANE] & puur) !== 0) {
      // The Puur is unseen and some seat may hold it as its only trump: draw its holder.
      this.pool[TRUMP_LANE] &= ~puur;
      puurHolder = this.drawPuurHolder(this.holders, rng);
      this.sizes[puurHolder]--;
    }
    const ok = this.dealUnseen(rng);
    if (puurHolder >= 0) {
      this.sizes[puurHolder]++;
      this.unknown[puurHolder * LANES + TRUMP_LANE] |= puur;
    }
    if (!ok) throw new Error(`hindersi-jass sampler: no world is consistent with seat ${me}'s view`);
    this.merge();

    const ctx = this.ctx;
    ctx.dealer = obs.dealer;
    ctx.partieDeal = obs.partieDeal;
    ctx.partieDeals = obs.partieDeals;
    for (let seat = 0; seat < n; seat++) ctx.totals[seat] = obs.partieTotal(seat);
    out.begin(ctx, trump, obs.turnup, this.hands);
    this.replay(obs, out, watcher);
  }

  /**
   * The holder of the unseen Puur, in proportion to the deals of the rest (the pool
   * without the Puur) in which that holder has one card fewer. Every holder may hold
   * the Puur: the only trump constraint there is (state.ts) allows it.
   */
  private drawPuurHolder(holders: number, rng: Rng): number {
    const key = this.keyNow;
    for (let l = 0; l < CARD_LANES; l++) key[l] = this.laneCounts[l] = popcount(this.pool[l]);
    for (let h = 0; h < holders; h++) {
      key[CARD_LANES + 2 * h] = this.sizes[h];
      key[CARD_LANES + 2 * h + 1] = this.forbidden[h];
    }
    key[CARD_LANES + 2 * HOLDERS] = holders;
    let same = true;
    for (let i = 0; i < key.length; i++) if (key[i] !== this.keyKept[i]) same = false;
    if (!same) {
      this.keyKept.set(key);
      for (let h = 0; h < holders; h++) {
        if (this.sizes[h] === 0) {
          this.weights[h] = 0;
          continue;
        }
        for (let k = 0; k < holders; k++) this.caseSizes[k] = this.sizes[k] - (k === h ? 1 : 0);
        countDeals(
          this.laneCounts,
          holders,
          this.caseSizes,
          this.forbidden,
          this.invFact,
          this.tableA,
          this.tableB,
          this.weights,
          h,
        );
      }
    }
    let total = 0;
    for (let h = 0; h < holders; h++) total += this.weights[h];
    if (!(total > 0)) return 0; // no consistent deal: the sampler below reports it
    let x = rng.uniform() * total;
    let last = 0;
    for (let h = 0; h < holders; h++) {
      if (this.weights[h] <= 0) continue;
      last = h;
      x -= this.weights[h];
      if (x < 0) return h;
    }
    return last;
  }
}
