/**
 * Uniform constrained deals: the heart of determinization.
 *
 * A search bot knows how many cards each other holder has and in which lanes (suits)
 * some of them have shown a void; it needs worlds drawn uniformly among the deals
 * consistent with that. `HandSampler` deals a pool of cards that way, exactly
 * uniformly, allocating nothing per call (it runs thousands of times per move).
 *
 * Two exactly uniform methods are mixed, and a mixture of uniform draws is uniform:
 *
 * 1. Rejection: shuffle the pool, cut it into hands, retry while some holder got a
 *    lane it is void in. Cheap, and accepted at once when nobody is void.
 * 2. Counting, when rejection keeps failing (consistent deals are then rare). Only how
 *    many cards of each lane a holder gets matters to the constraints, and the deals
 *    with a given lane-by-holder count matrix number a product of multinomials. A
 *    dynamic program over the lanes, on the vector of hand capacities filled so far,
 *    sums these; each lane's split among the holders is then drawn, last lane first,
 *    in proportion to the deals it leaves, and the cards are dealt uniformly given the
 *    splits. Three reductions keep the table small: holders with the same voids are
 *    merged (every split of their joint hand is consistent, so it is split uniformly
 *    afterwards), lanes that admit the same holders likewise, and the largest merged
 *    holder gets no table dimension (its count is what the others leave). The table
 *    depends only on sizes, voids and lane counts, so it is kept while they repeat, as
 *    they do across the samples of one search; a repeated draw then costs a few sweeps.
 *
 * Limit: when even the reduced table does not fit its preallocated size (only with
 * many holders that differ in their voids), the sampler keeps rejecting up to
 * `rejectionCap` attempts and then returns false although a deal exists. Constraints
 * that no deal satisfies are always recognized (by counting, or by Hall's condition
 * when the table does not fit) and return false at once.
 */
import { popcount } from '../../core/bits.js';
import { LANES } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';

export interface HandSamplerOptions {
  /** Rejection attempts before counting (default 32). 0 counts at once whenever someone is void. */
  rejectionTries?: number;
  /** Rejection attempts in all when the counting table does not fit (default 100000). */
  rejectionCap?: number;
  /** Most doubles the counting table may take, over all lanes (default 2^20 = 8 MiB). */
  maxTableEntries?: number;
}

const MAX_CARDS = 128; // keeps every factorial and count far inside double range

export class HandSampler {
  private readonly maxHolders: number;
  private readonly maxCards: number;
  private readonly rejectionTries: number;
  private readonly rejectionCap: number;

  private readonly cards: Uint8Array;
  private readonly bucket: Uint8Array;
  private readonly invFact: Float64Array;
  /** What the last `sweep` summed. */
  private readonly swept = new Float64Array(1);

  // Classes: holders with equal voids (within the pool's lanes).
  private classes = 0;
  private readonly holderClass: Int32Array;
  private readonly classVoid: Int32Array;
  private readonly classCap: Int32Array;
  private readonly classFill: Int32Array;

  // Groups: lanes that admit the same classes.
  private groups = 0;
  private readonly laneGroup = new Int32Array(LANES);
  private readonly groupAllowed = new Int32Array(LANES);
  private readonly groupCards = new Int32Array(LANES);
  /** Per group, the table dimensions of the classes it admits. */
  private readonly groupDims: Int32Array;
  private readonly groupDimN = new Int32Array(LANES);
  private readonly groupHasImplied = new Uint8Array(LANES);

  // The counting table: per group a layer over capacity vectors, mixed radix, without
  // the implied (largest) class, whose count is the rest. Kept while the classes and
  // groups repeat, as they do across the samples of one search.
  private readonly table: Float64Array;
  private size = 0;
  private dims = 0;
  private implied = 0;
  private readonly dimClass: Int32Array;
  private readonly dimCap: Int32Array;
  /** Per state, the sum of its explicit counts. */
  private readonly cellSum: Uint8Array;
  private readonly stride: Int32Array;
  private readonly digit: Int32Array;
  private readonly split: Int32Array;
  private readonly pick: Int32Array;
  private readonly take: Int32Array;
  private builtClasses = -1;
  private builtGroups = -1;
  private readonly builtCap: Int32Array;
  private readonly builtAllowed = new Int32Array(LANES);
  private readonly builtCards = new Int32Array(LANES);

  private readonly hallSupply = new Int32Array(1 << LANES);
  private readonly hallNeighbours = new Int32Array(1 << LANES);

  constructor(maxHolders: number, maxCards = 64, options: HandSamplerOptions = {}) {
    if (!(maxHolders >= 1 && maxHolders <= 30) || !(maxCards >= 1 && maxCards <= MAX_CARDS)) {
      throw new RangeError(`HandSampler: need 1..30 holders and 1..${MAX_CARDS} cards`);
    }
    this.maxHolders = maxHolders;
    this.maxCards = maxCards;
    this.rejectionTries = options.rejectionTries ?? 32;
    this.rejectionCap = options.rejectionCap ?? 100000;

    this.cards = new Uint8Array(maxCards);
    this.bucket = new Uint8Array(maxCards);
    this.invFact = new Float64Array(maxCards + 1);
    this.invFact[0] = 1;
    for (let i = 1; i <= maxCards; i++) this.invFact[i] = this.invFact[i - 1] / i;

    this.holderClass = new Int32Array(maxHolders);
    this.classVoid = new Int32Array(maxHolders);
    this.classCap = new Int32Array(maxHolders);
    this.classFill = new Int32Array(maxHolders);
    this.groupDims = new Int32Array(LANES * maxHolders);
    this.dimClass = new Int32Array(maxHolders);
    this.dimCap = new Int32Array(maxHolders);
    this.builtCap = new Int32Array(maxHolders);
    this.stride = new Int32Array(maxHolders);
    this.digit = new Int32Array(maxHolders);
    this.split = new Int32Array(maxHolders);
    this.pick = new Int32Array(maxHolders + 1);
    this.take = new Int32Array(LANES * maxHolders);

    // The implied class is the largest, so the k others share at most k/(k+1) of the
    // cards, and their table (product of capacity + 1) is at most (cards/(k+1) + 1)^k.
    const k = maxHolders - 1;
    const need = Math.ceil((maxCards / (k + 1) + 1) ** k) * (LANES + 1);
    this.table = new Float64Array(Math.min(need, options.maxTableEntries ?? 1 << 20));
    this.cellSum = new Uint8Array(this.table.length >> 1); // a layer is at most half the table
  }

  /**
   * Deal the cards of the set `pool` (at pool[poolOff .. poolOff+LANES)) to `holders`
   * holders: holder h gets exactly sizes[h] cards, none of them in a lane whose bit is
   * set in forbidden[h], written as a card set at out[outOff[h] .. +LANES) (cleared
   * first). Every such deal is equally likely. Returns false when no deal satisfies
   * the constraints (out is then unspecified), when sum(sizes) != size(pool), or in
   * the rare case described in the module doc. Throws a RangeError beyond the
   * constructor's maxHolders or maxCards.
   */
  deal(
    pool: Int32Array,
    poolOff: number,
    holders: number,
    sizes: ArrayLike<number>,
    forbidden: ArrayLike<number>,
    out: Int32Array,
    outOff: ArrayLike<number>,
    rng: Rng,
  ): boolean {
    if (holders > this.maxHolders) throw new RangeError(`HandSampler: ${holders} holders > ${this.maxHolders}`);
    // Read the pool before clearing the hands, in case the caller's arrays overlap.
    const cards = this.cards;
    let n = 0;
    let laneMask = 0;
    for (let l = 0; l < LANES; l++) {
      const m = pool[poolOff + l];
      if (m === 0) continue;
      laneMask |= 1 << l;
      if (n + popcount(m) > this.maxCards) throw new RangeError(`HandSampler: pool > ${this.maxCards} cards`);
      for (let b = m; b !== 0; b &= b - 1) cards[n++] = (l << 5) | (31 - Math.clz32(b & -b));
    }
    let total = 0;
    let constrained = false;
    for (let h = 0; h < holders; h++) {
      const s = sizes[h];
      if (s < 0) return false;
      total += s;
      if (s > 0 && (forbidden[h] & laneMask) !== 0) constrained = true;
    }
    if (total !== n) return false;
    // Loops, not fill(): a builtin call costs more than four stores.
    for (let h = 0; h < holders; h++) for (let l = 0, o = outOff[h]; l < LANES; l++) out[o + l] = 0;

    const tries = constrained ? this.rejectionTries : 1;
    if (this.reject(n, holders, sizes, forbidden, laneMask, tries, rng)) {
      this.writeCut(holders, sizes, out, outOff);
      return true;
    }
    const counted = this.count(holders, sizes, forbidden, laneMask, pool, poolOff, out, outOff, rng);
    if (counted >= 0) return counted === 1;
    if (!this.hallFeasible()) return false;
    if (this.reject(n, holders, sizes, forbidden, laneMask, this.rejectionCap - tries, rng)) {
      this.writeCut(holders, sizes, out, outOff);
      return true;
    }
    return false;
  }

  /** Shuffle-and-cut attempts; on success the hands are consecutive runs of `cards`. */
  private reject(
    n: number,
    holders: number,
    sizes: ArrayLike<number>,
    forbidden: ArrayLike<number>,
    laneMask: number,
    tries: number,
    rng: Rng,
  ): boolean {
    const cards = this.cards;
    attempts: for (let t = 0; t < tries; t++) {
      // Forward Fisher-Yates fixes position i at step i, so a bad card ends the attempt
      // early without biasing accepted ones, and whatever order it leaves is as good a
      // start for the next attempt as any.
      let i = 0;
      for (let h = 0; h < holders; h++) {
        const bad = forbidden[h] & laneMask;
        const end = i + sizes[h];
        const last = end === n; // the last hand is what remains: no draws
        for (; i < end; i++) {
          if (!last) {
            const j = i + rng.below(n - i);
            const c = cards[j];
            cards[j] = cards[i];
            cards[i] = c;
          }
          if ((bad >>> (cards[i] >>> 5)) & 1) continue attempts;
        }
      }
      return true;
    }
    return false;
  }

  private writeCut(holders: number, sizes: ArrayLike<number>, out: Int32Array, outOff: ArrayLike<number>): void {
    const cards = this.cards;
    let i = 0;
    for (let h = 0; h < holders; h++) {
      const o = outOff[h];
      for (const end = i + sizes[h]; i < end; i++) out[o + (cards[i] >>> 5)] |= 1 << (cards[i] & 31);
    }
  }

  /** The exact method: 1 dealt, 0 no consistent deal, -1 the table does not fit. */
  private count(
    holders: number,
    sizes: ArrayLike<number>,
    forbidden: ArrayLike<number>,
    laneMask: number,
    pool: Int32Array,
    poolOff: number,
    out: Int32Array,
    outOff: ArrayLike<number>,
    rng: Rng,
  ): number {
    const { holderClass, classVoid, classCap, groupAllowed, groupCards, laneGroup } = this;
    let P = 0;
    for (let h = 0; h < holders; h++) {
      if (sizes[h] === 0) {
        holderClass[h] = -1;
        continue;
      }
      const v = forbidden[h] & laneMask;
      let p = 0;
      while (p < P && classVoid[p] !== v) p++;
      if (p === P) {
        classVoid[P] = v;
        classCap[P++] = 0;
      }
      classCap[p] += sizes[h];
      holderClass[h] = p;
    }
    let G = 0;
    for (let l = 0; l < LANES; l++) {
      if (((laneMask >>> l) & 1) === 0) continue;
      let allowed = 0;
      for (let p = 0; p < P; p++) if (((classVoid[p] >>> l) & 1) === 0) allowed |= 1 << p;
      if (allowed === 0) return 0;
      let g = 0;
      while (g < G && groupAllowed[g] !== allowed) g++;
      if (g === G) {
        groupAllowed[G] = allowed;
        groupCards[G++] = 0;
      }
      groupCards[g] += popcount(pool[poolOff + l]);
      laneGroup[l] = g;
    }
    this.classes = P;
    this.groups = G;
    if (!this.isBuilt(P, G) && !this.build(P, G)) return -1;

    // Draw each group's split among the classes, last group first, in proportion to
    // the deals of the earlier groups that it leaves.
    const { digit, dimCap, dimClass, stride, groupDims, groupDimN, take, pick } = this;
    const H = this.maxHolders;
    const k = this.dims;
    const d = this.implied;
    let idx = 0;
    for (let q = 0; q < k; q++) {
      digit[q] = dimCap[q];
      idx += digit[q] * stride[q];
    }
    let rd = classCap[d];
    for (let g = G - 1; g >= 0; g--) {
      const at = g * this.size + idx;
      this.sweep(g, at, rd, -1);
      const total = this.swept[0];
      if (!(total > 0)) return 0;
      this.sweep(g, at, rd, rng.uniform() * total);
      const row = g * H;
      take.fill(0, row, row + P);
      const m = groupDimN[g] - (this.groupHasImplied[g] ? 0 : 1);
      for (let j = 0; j < m; j++) {
        const q = groupDims[row + j];
        take[row + dimClass[q]] = pick[j];
        digit[q] -= pick[j];
        idx -= pick[j] * stride[q];
      }
      const rest = pick[m];
      if (this.groupHasImplied[g]) {
        take[row + d] = rest;
        rd -= rest;
      } else {
        const q = groupDims[row + m];
        take[row + dimClass[q]] = rest;
        digit[q] -= rest;
        idx -= rest * stride[q];
      }
    }

    this.dealCounts(holders, sizes, pool, poolOff, out, outOff, rng);
    return 1;
  }

  /** Whether the table holds the layers for these classes and groups (search repeats them). */
  private isBuilt(P: number, G: number): boolean {
    if (P !== this.builtClasses || G !== this.builtGroups) return false;
    for (let p = 0; p < P; p++) if (this.classCap[p] !== this.builtCap[p]) return false;
    for (let g = 0; g < G; g++) {
      if (this.groupAllowed[g] !== this.builtAllowed[g] || this.groupCards[g] !== this.builtCards[g]) return false;
    }
    return true;
  }

  /**
   * Fill layer g (at g*size) with P_g(e) = the number of ways to deal the cards of
   * groups 0..g-1 so that class p gets e_p of them, for every capacity vector e; false
   * if the table does not fit. P_g is the coefficient of z^e in the product over those
   * cards of (sum of z_p over the classes the card admits), so each layer follows from
   * the previous one by multiplying by a linear form once per card.
   */
  private build(P: number, G: number): boolean {
    const { classCap, groupAllowed, groupCards, dimClass, dimCap, stride, groupDims, groupDimN, table } = this;
    let d = 0;
    for (let p = 1; p < P; p++) if (classCap[p] > classCap[d]) d = p;
    let k = 0;
    let size = 1;
    for (let p = 0; p < P; p++) {
      if (p === d) continue;
      dimClass[k] = p;
      dimCap[k] = classCap[p];
      stride[k++] = size;
      size *= classCap[p] + 1;
    }
    if (size * (G + 1) > table.length) return false;
    this.builtClasses = -1;
    this.implied = d;
    this.dims = k;
    this.size = size;
    const H = this.maxHolders;
    for (let g = 0; g < G; g++) {
      let n = 0;
      for (let q = 0; q < k; q++) if ((groupAllowed[g] >>> dimClass[q]) & 1) groupDims[g * H + n++] = q;
      groupDimN[g] = n;
      this.groupHasImplied[g] = (groupAllowed[g] >>> d) & 1;
    }

    const { digit, cellSum } = this;
    digit.fill(0, 0, k);
    let sum = 0;
    for (let i = 0; i < size; i++) {
      cellSum[i] = sum;
      for (let q = 0; q < k; q++) {
        if (digit[q] < dimCap[q]) {
          digit[q]++;
          sum++;
          break;
        }
        sum -= digit[q];
        digit[q] = 0;
      }
    }
    table.fill(0, 0, size);
    table[0] = 1;
    // Alternate between layer g+1 and a scratch layer so that the last card lands in g+1.
    const scratch = G * size;
    let dealt = 0;
    for (let g = 0; g + 1 < G; g++) {
      const c = groupCards[g];
      let src = g * size;
      for (let i = 1; i <= c; i++) {
        const dst = (c - i) % 2 === 0 ? (g + 1) * size : scratch;
        this.step(g, src, dst, dealt + i);
        src = dst;
      }
      dealt += c;
    }

    this.builtClasses = P;
    this.builtGroups = G;
    // Loops, not set(subarray): a subarray is an object allocated at every call.
    for (let p = 0; p < P; p++) this.builtCap[p] = classCap[p];
    for (let g = 0; g < G; g++) {
      this.builtAllowed[g] = groupAllowed[g];
      this.builtCards[g] = groupCards[g];
    }
    return true;
  }

  /**
   * One card of group g: multiply the layer at src by its linear form into dst. A
   * state's implied count is what the explicit ones leave of `dealt`; the explicit
   * capacities are enforced by the array bounds, the implied one by `cellSum`.
   */
  private step(g: number, src: number, dst: number, dealt: number): void {
    const { table, cellSum, stride, dimCap, groupDims } = this;
    const size = this.size;
    if (this.groupHasImplied[g] === 0) {
      table.fill(0, dst, dst + size);
    } else {
      const lo = dealt - this.classCap[this.implied];
      if (lo <= 0) table.copyWithin(dst, src, src + size);
      else for (let i = 0; i < size; i++) table[dst + i] = cellSum[i] >= lo ? table[src + i] : 0;
    }
    const base = g * this.maxHolders;
    for (let j = 0; j < this.groupDimN[g]; j++) {
      const q = groupDims[base + j];
      const s = stride[q];
      const block = s * (dimCap[q] + 1);
      const back = src - dst - s;
      for (let b = 0; b < size; b += block) {
        for (let i = dst + b + s, end = dst + b + block; i < end; i++) table[i] += table[i + back];
      }
    }
  }

  /**
   * Sum, over the splits x of group g's cards among the classes that fit the state in
   * `digit` (and `rd` for the implied class), of the multinomial weight prod 1/x! times
   * layer g at the state minus x (`at` is the state's entry), into `swept[0]` (a
   * number returned from a call that is not inlined is boxed: an allocation). With
   * target >= 0, stop once the sum exceeds target and leave that split in `pick` (the
   * enumerated dimensions, then what the last admitted class takes).
   */
  private sweep(g: number, at: number, rd: number, target: number): void {
    const { digit, stride, split, pick, invFact, table, groupDims } = this;
    const base = g * this.maxHolders;
    const toImplied = this.groupHasImplied[g] === 1;
    // The implied class, or else the last admitted dimension, takes what the others leave.
    const m = this.groupDimN[g] - (toImplied ? 0 : 1);
    const rq = toImplied ? -1 : groupDims[base + m];
    const restCap = rq < 0 ? rd : digit[rq];
    const restStride = rq < 0 ? 0 : stride[rq];
    const c = this.groupCards[g];
    split.fill(0, 0, m);
    let s = 0;
    let acc = 0;
    for (;;) {
      const rest = c - s;
      if (rest <= restCap) {
        let w = invFact[rest];
        for (let j = 0; j < m; j++) w *= invFact[split[j]];
        const v = w * table[at - rest * restStride];
        acc += v;
        if (target >= 0 && v > 0) {
          // Keep the last positive split: rounding may leave acc <= target at the end.
          for (let j = 0; j < m; j++) pick[j] = split[j];
          pick[m] = rest;
          if (acc > target) {
            this.swept[0] = acc;
            return;
          }
        }
      }
      let j = 0;
      for (; j < m; j++) {
        const q = groupDims[base + j];
        if (s < c && split[j] < digit[q]) {
          split[j]++;
          s++;
          at -= stride[q];
          break;
        }
        s -= split[j];
        at += split[j] * stride[q];
        split[j] = 0;
      }
      if (j === m) {
        this.swept[0] = acc;
        return;
      }
    }
  }

  /** Given how many cards of each group each class gets, deal the cards uniformly. */
  private dealCounts(
    holders: number,
    sizes: ArrayLike<number>,
    pool: Int32Array,
    poolOff: number,
    out: Int32Array,
    outOff: ArrayLike<number>,
    rng: Rng,
  ): void {
    const { cards, bucket, classFill, classCap, holderClass, take, laneGroup } = this;
    const P = this.classes;
    const H = this.maxHolders;
    let start = 0;
    for (let p = 0; p < P; p++) {
      classFill[p] = start;
      start += classCap[p];
    }
    for (let g = 0; g < this.groups; g++) {
      let n = 0;
      for (let l = 0; l < LANES; l++) {
        const m = pool[poolOff + l];
        if (m === 0 || laneGroup[l] !== g) continue;
        for (let b = m; b !== 0; b &= b - 1) cards[n++] = (l << 5) | (31 - Math.clz32(b & -b));
      }
      let i = 0;
      for (let p = 0; p < P; p++) {
        for (let t = take[g * H + p]; t > 0; t--, i++) {
          const j = i + rng.below(n - i);
          const c = cards[j];
          cards[j] = cards[i];
          cards[i] = c;
          bucket[classFill[p]++] = c;
        }
      }
    }
    // Each class's joint hand now fills bucket[classFill[p] - classCap[p] ..); split it.
    for (let p = 0; p < P; p++) {
      let i = classFill[p] - classCap[p];
      const end = classFill[p];
      for (let h = 0; h < holders; h++) {
        if (holderClass[h] !== p) continue;
        const o = outOff[h];
        const last = i + sizes[h] === end;
        for (let t = sizes[h]; t > 0; t--, i++) {
          if (!last) {
            const j = i + rng.below(end - i);
            const c = bucket[j];
            bucket[j] = bucket[i];
            bucket[i] = c;
          }
          out[o + (bucket[i] >>> 5)] |= 1 << (bucket[i] & 31);
        }
      }
    }
  }

  /**
   * Hall's condition on the groups and classes of the last `count` call: a deal exists
   * iff every set of groups has no more cards than the classes that may take them hold.
   */
  private hallFeasible(): boolean {
    const { hallSupply, hallNeighbours, groupCards, groupAllowed, classCap } = this;
    for (let S = 1; S < 1 << this.groups; S++) {
      const g = 31 - Math.clz32(S & -S);
      const rest = S & (S - 1);
      hallSupply[S] = hallSupply[rest] + groupCards[g];
      hallNeighbours[S] = hallNeighbours[rest] | groupAllowed[g];
      let demand = 0;
      for (let m = hallNeighbours[S]; m !== 0; m &= m - 1) demand += classCap[31 - Math.clz32(m & -m)];
      if (hallSupply[S] > demand) return false;
    }
    return true;
  }
}
