/**
 * What the heuristic bots compute over and over, made cheap without changing a single
 * answer: hypergeometric chances tabled once, and a memo of the chances of one
 * decision.
 *
 * A heuristic asks "how likely is it that an opponent's k unknown cards, drawn from u
 * unseen ones of which h are marked, include none of them" many times a move, and
 * again for each legal card it weighs. Computed in a loop and returned from a call V8
 * does not inline, every answer is also a boxed number (an allocation): most of what
 * those bots allocated. A table answers with one load, the same number.
 */

/** Bounds of the table: u and h below 40 (a pack has 36 cards), k below 16 (a hand holds at most 12). */
const U = 40;
const K = 16;

/** The chance of the i-th card drawn (from 0), given the ones before: `u` unseen cards, `h` of them marked. */
export type DrawFactor = (u: number, h: number, i: number) => number;

/** The product of `factor(u, h, i)` for i below k, left as it is once it is not above 0. */
export function drawProduct(factor: DrawFactor, u: number, h: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k && p > 0; i++) p *= factor(u, h, i);
  return p;
}

/**
 * `drawProduct(factor, u, h, k)` for every u, h below 40 and k below 16, as a table for
 * `drawn`. Each k's entry is the k-1's times one factor: the multiplications of
 * `drawProduct` in its order, so the same numbers, with an eighth of them. A row (u, h)
 * is computed when `drawn` first reads it: a bot reads few of the 1,600 rows in a
 * deal, and `tafel play` waits for its bots' first moves.
 */
export interface DrawTable {
  readonly factor: DrawFactor;
  /** By (u * 40 + h) * 16 + k; a row's first entry, the empty product, is 1 once the row is computed, 0 before. */
  readonly products: Float64Array;
}

export function drawTable(factor: DrawFactor): DrawTable {
  return { factor, products: new Float64Array(U * U * K) };
}

/** Whether (u, h, k) lies in a `drawTable`'s range. */
export function inDrawTable(u: number, h: number, k: number): boolean {
  return u >>> 0 < U && h >>> 0 < U && k >>> 0 < K;
}

/** The entry of (u, h, k) in a `drawTable` (check `inDrawTable` first). */
export function drawn(table: DrawTable, u: number, h: number, k: number): number {
  const t = table.products;
  const row = (u * U + h) * K;
  if (t[row] === 0) fillRow(table, u, h, row);
  return t[row + k];
}

/** Out of `drawn`, so that it stays small enough to inline. */
function fillRow(table: DrawTable, u: number, h: number, row: number): void {
  const t = table.products;
  let p = 1;
  t[row] = p;
  for (let k = 1; k < K; k++) {
    if (p > 0) p *= table.factor(u, h, k - 1);
    t[row + k] = p;
  }
}

/**
 * Numbers remembered for one decision, by a small integer key: `next` starts a new
 * decision and forgets them all at once (entries carry the decision's number, so
 * nothing is cleared).
 */
export class DecisionMemo {
  private readonly decisionOf: Int32Array;
  private readonly values: Float64Array;
  private decision = 0;

  constructor(keys: number) {
    this.decisionOf = new Int32Array(keys).fill(-1);
    this.values = new Float64Array(keys);
  }

  next(): void {
    this.decision = (this.decision + 1) | 0;
  }

  has(key: number): boolean {
    return this.decisionOf[key] === this.decision;
  }

  get(key: number): number {
    return this.values[key];
  }

  set(key: number, value: number): number {
    this.decisionOf[key] = this.decision;
    this.values[key] = value;
    return value;
  }
}
