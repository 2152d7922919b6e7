/**
 * Exact sums of doubles, so that a statistic is the same number whatever the order its
 * values were added in, or the parts (shards, sessions of a resumed run) it was summed
 * in. A sum is kept as Shewchuk's non-overlapping partials (the algorithm of Python's
 * `math.fsum`): their total is the exact real sum, and `value()` rounds it correctly,
 * so it depends on that real number only. A square or product is added exactly as the
 * two doubles of Dekker's product. Adding costs a few flops per partial, and the
 * partials of a run's values (multiples of a few units, or one value's square) stay a
 * handful: no allocation once the array has grown to them.
 *
 * A mean is then the rounded sum over n, and a second moment n·Σx² − (Σx)² is summed
 * exactly before it is rounded, so a sample without spread gives exactly 0.
 */

/** Veltkamp's split constant for doubles: 2^27 + 1. */
const SPLIT = 134217729;

/** Scratch of `twoProduct` (module-level: the hot path allocates nothing). */
let productLow = 0;

/** a·b rounded; its rounding error (exact: a·b = result + error) is left in `productLow`. */
function twoProduct(a: number, b: number): number {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  productLow = al * bl - (p - ah * bh - al * bh - ah * bl);
  return p;
}

export class ExactSum {
  private p: Float64Array;
  private size = 0;
  /** Infinite and NaN values, which have no partials: their plain sum. */
  private special = 0;

  constructor(capacity = 4) {
    this.p = new Float64Array(capacity);
  }

  add(x: number): void {
    if (!Number.isFinite(x)) {
      this.special += x;
      return;
    }
    const p = this.p;
    let i = 0;
    for (let j = 0; j < this.size; j++) {
      let y = p[j];
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    if (i === this.p.length) this.grow();
    this.p[i++] = x;
    this.size = i;
  }

  /** Add a·b exactly. */
  addProduct(a: number, b: number): void {
    const hi = twoProduct(a, b);
    const lo = productLow;
    this.add(hi);
    if (lo !== 0) this.add(lo);
  }

  /** Add every value `o` holds. */
  merge(o: ExactSum): void {
    for (let j = 0; j < o.size; j++) this.add(o.p[j]);
    if (o.special !== 0 || Number.isNaN(o.special)) this.special += o.special;
  }

  /** The sum, correctly rounded (math.fsum's last step). */
  value(): number {
    if (this.special !== 0 || Number.isNaN(this.special)) return this.special;
    const p = this.p;
    let n = this.size;
    if (n === 0) return 0;
    let hi = p[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // Half-way between two doubles: the partials below say which way the exact sum lies.
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }

  /**
   * The sum as doubles whose total it is exactly, largest first, each the rounded rest
   * of the sum: one list for one real number, however its partials were arrived at
   * (so two journals of one run state it alike). Exact in JSON, whose numbers are
   * shortest round trips. A non-finite part, when there is one, is kept beside it.
   */
  toJSON(): number[] | { partials: number[]; special: number | string } {
    const partials: number[] = [];
    const rest = new ExactSum(this.size + 1);
    for (let j = 0; j < this.size; j++) rest.add(this.p[j]);
    for (let v = rest.value(); v !== 0; v = rest.value()) {
      partials.push(v);
      rest.add(-v);
    }
    if (this.special === 0) return partials;
    return { partials, special: Number.isNaN(this.special) ? 'NaN' : this.special > 0 ? 'Infinity' : '-Infinity' };
  }

  static fromJSON(v: unknown): ExactSum {
    const s = new ExactSum();
    const parts = Array.isArray(v) ? v : isObject(v) && Array.isArray(v.partials) ? v.partials : null;
    if (!parts || !parts.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new RangeError('not an exact sum');
    for (const x of parts as number[]) s.add(x);
    if (!Array.isArray(v)) {
      const special = Number((v as { special: unknown }).special);
      if (Number.isFinite(special) || typeof (v as { special: unknown }).special !== 'string')
        throw new RangeError('not an exact sum');
      s.special = special;
    }
    return s;
  }

  private grow(): void {
    const p = new Float64Array(this.p.length * 2);
    p.set(this.p);
    this.p = p;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * n·s2 − a·b, summed exactly and then rounded: the co-moment n² · cov of a sample of
 * n whose sums are a and b and the sum of products s2 (a = b: n² times the variance).
 * Not on a hot path: it allocates its scratch sum.
 */
export function exactComoment(n: number, s2: ExactSum, a: ExactSum, b: ExactSum): number {
  const t = new ExactSum(16);
  const [pa, pb, p2] = [a.toJSON(), b.toJSON(), s2.toJSON()].map(finitePartials);
  if (pa === null || pb === null || p2 === null) return NaN;
  for (const x of p2) t.addProduct(n, x);
  for (const x of pa) for (const y of pb) t.addProduct(-x, y);
  return t.value();
}

function finitePartials(j: ReturnType<ExactSum['toJSON']>): number[] | null {
  return Array.isArray(j) ? j : null;
}
