/**
 * The transposition table of the solver: bounds on the measure still to be taken from
 * trick boundaries, keyed on `State.searchKey` (the hands and who leads). Because the
 * stored value is what remains to be taken, not the score so far, one entry serves
 * every order of play that leads to the same hands.
 *
 * Two rows a bucket: a key is kept in either. A new key takes a stale row, else the
 * first unless that one holds more work (tricks left) than the new entry, else the
 * second: the first row keeps the dear entries of the upper tricks against the flood
 * of cheap ones from the last tricks, the second always takes the newest (the most
 * likely to be probed again by the next zero-window pass). On Viersche's whole deals
 * that is 7% fewer nodes than one row a slot. Full keys are stored and compared, so a
 * hit is exact, never a hash collision. Entries carry a stamp; bumping it clears the
 * table in O(1). An entry is one row of one array, stamp, bounds, move and key side by
 * side, so that a probe touches few cache lines: the table is far larger than the
 * caches, and with the parts in separate arrays probes cost a fifth of the search.
 * Rows are padded to half a cache line (8 words: Viersche's, Hindersche's and
 * Hindersi-Jass's keys are 5 words) or a whole one, so that a bucket of small rows
 * fills one line.
 *
 * Most searches store a few thousand entries, and probes spread over a table of
 * millions miss the caches every time. So the table starts in a small region of its
 * rows and doubles the region whenever the stores since the
 * region was set exceed half its size, up to the whole table. `reset` returns to the
 * small region, so a search from a reset table costs the same whatever ran before.
 * Growing moves the entries over (`grow`), so nothing is lost.
 */
import { BOUND_TABLE_HINTS } from '../../src/games/game.js';

/** Row layout: [stamp, lower | upper << 10 | move << 20 | weight << 27, key words...]. */
const HEAD = 2;
/** Words of a cache line: rows that fit are padded to half of one, or to one. */
const LINE = 16;
const BOUND_BITS = 10;
const BOUND_MASK = (1 << BOUND_BITS) - 1;
const MOVE_MASK = 127;
const WEIGHT_SHIFT = 27;
/** Rows per bucket: a key may sit in either. */
const WAYS = 2;
/** log2 of the rows in use right after `reset`. */
const START_BITS = 14;

export class Transposition {
  private readonly size: number;
  private readonly startBits: number;
  /** log2 of the rows in use, and what slotOf needs of it (to pick a bucket). */
  private bits: number;
  private shift: number;
  private mask: number;
  /** Stores since the region was set; the region doubles past half its rows. */
  private stores = 0;
  private growAt: number;
  /** Key words per row, and words per row (padded). */
  private words = -1;
  private stride = HEAD;
  private rows: Int32Array = new Int32Array(0);
  private stamp = 1;
  /** Whether the last `slotOf` found its key (`BoundTable.hit`). */
  hit = false;
  /** `BoundTable.hints`: a game's own search keeps move hints here between calls. */
  readonly hints = new Int32Array(BOUND_TABLE_HINTS).fill(-1);

  constructor(private readonly maxBits: number) {
    this.size = 1 << maxBits;
    this.startBits = Math.min(START_BITS, maxBits);
    this.bits = this.shift = this.mask = this.growAt = 0;
    this.useRegion(this.startBits);
  }

  /** Forget every entry and return to the small region. */
  reset(): void {
    this.useRegion(this.startBits);
    this.clear();
  }

  /** Forget every entry. */
  clear(): void {
    this.stamp = nextStamp(this.stamp, this.rows);
    this.hints.fill(-1);
  }

  /**
   * The slot of `key[off .. off + words)`: the row of its bucket that holds it (`hit`
   * is then set), else the row to store it in: a stale one, else the first unless that
   * holds an entry of more `weight` (work: tricks left) than this one, else the second.
   */
  slotOf(key: Int32Array, off: number, words: number, weight: number): number {
    if (words !== this.words) this.resize(words);
    const first = ((keyHash(key, off, words) >>> this.shift) & this.mask) * this.stride * WAYS;
    const second = first + this.stride;
    this.hit = true;
    if (this.holds(first, key, off, words)) return first;
    if (this.holds(second, key, off, words)) return second;
    this.hit = false;
    const rows = this.rows;
    if (rows[first] !== this.stamp) return first;
    if (rows[second] !== this.stamp) return second;
    return weight >= rows[first + 1] >>> WEIGHT_SHIFT ? first : second;
  }

  /** Whether `slot` holds the entry of this key. */
  holds(slot: number, key: Int32Array, off: number, words: number): boolean {
    const rows = this.rows;
    if (rows[slot] !== this.stamp) return false;
    const base = slot + HEAD;
    for (let i = 0; i < words; i++) if (rows[base + i] !== key[off + i]) return false;
    return true;
  }

  lower(slot: number): number {
    return this.rows[slot + 1] & BOUND_MASK;
  }

  upper(slot: number): number {
    return (this.rows[slot + 1] >>> BOUND_BITS) & BOUND_MASK;
  }

  move(slot: number): number {
    return (this.rows[slot + 1] >>> (2 * BOUND_BITS)) & MOVE_MASK;
  }

  /** Bounds are on the measure still to come: 0 to 1023. Moves are codes below 128, weights below 32. */
  store(
    slot: number,
    key: Int32Array,
    off: number,
    words: number,
    lower: number,
    upper: number,
    move: number,
    weight: number,
  ): void {
    const rows = this.rows;
    rows[slot] = this.stamp;
    rows[slot + 1] = lower | (upper << BOUND_BITS) | (move << (2 * BOUND_BITS)) | (weight << WEIGHT_SHIFT);
    const base = slot + HEAD;
    for (let i = 0; i < words; i++) rows[base + i] = key[off + i];
    // Slots handed out before a change of region stay inside the rows and hold full
    // keys, so a late store there is merely wasted: it can never be misread.
    if (++this.stores > this.growAt && this.bits < this.maxBits) this.grow();
  }

  /**
   * Keep what a fail-soft search in (`alpha`, `beta`) found, `value`, for the key of
   * `slot`, whose value was known to lie in [`lo`, `hi`] before it: a value at or below
   * alpha is an upper bound, at or above beta a lower one, inside the window exact.
   */
  keep(
    slot: number,
    key: Int32Array,
    off: number,
    words: number,
    value: number,
    alpha: number,
    beta: number,
    lo: number,
    hi: number,
    move: number,
    weight: number,
  ): void {
    this.store(
      slot,
      key,
      off,
      words,
      value > alpha ? Math.max(value, lo) : lo,
      value < beta ? Math.min(value, hi) : hi,
      move,
      weight,
    );
  }

  /**
   * Double the region, keeping every entry. A bucket is the top bits of its keys'
   * hash, so one more bit sends bucket b to 2b or 2b + 1 (each row to the same row of
   * it): moving rows from the top down never overwrites a row still to be moved.
   */
  private grow(): void {
    const rows = this.rows;
    const stride = this.stride;
    const words = this.words;
    const top = 1 << this.bits;
    this.useRegion(this.bits + 1);
    for (let i = top - 1; i >= 0; i--) {
      const from = i * stride;
      if (rows[from] !== this.stamp) continue;
      // The same row of the new bucket.
      const to = ((keyHash(rows, from + HEAD, words) >>> this.shift) & this.mask) * stride * WAYS + (i % WAYS) * stride;
      if (to === from) continue;
      for (let k = 0; k < stride; k++) rows[to + k] = rows[from + k];
      rows[from] = 0;
    }
  }

  /** Use 2^`bits` rows: 2^`bits` / WAYS buckets, picked by the top bits of a key's hash. */
  private useRegion(bits: number): void {
    this.bits = bits;
    this.mask = (1 << bits) / WAYS - 1;
    this.shift = 32 - (bits - Math.log2(WAYS));
    this.stores = 0;
    this.growAt = 1 << (bits - 1);
  }

  private resize(words: number): void {
    this.useRegion(this.startBits);
    // One table serves one game and table size, whose keys all have the same length.
    this.words = words;
    const row = words + HEAD;
    this.stride = row <= LINE / 2 ? LINE / 2 : row <= LINE ? LINE : row;
    this.rows = new Int32Array(this.size * this.stride);
    this.stamp = 1;
  }
}

/**
 * The stamp after `stamp` for a table whose rows start with their stamp: clearing in
 * O(1). After 2^32 clears a stamp comes round again: then `rows` is wiped.
 */
export function nextStamp(stamp: number, rows: Int32Array): number {
  const next = (stamp + 1) | 0;
  if (next !== 0) return next;
  rows.fill(0);
  return 1;
}

/** A 32-bit hash of `key[off .. off + words)` for picking a slot (its top bits). */
export function keyHash(key: Int32Array, off: number, words: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < words; i++) h = Math.imul(h ^ key[off + i], 0x01000193) ^ (h >>> 15);
  return Math.imul(h ^ (h >>> 16), 0x85ebca6b);
}
