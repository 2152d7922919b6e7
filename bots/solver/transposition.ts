/**
 * The transposition table of the solver: bounds on the measure still to be taken from
 * trick boundaries, keyed on `State.searchKey` (the hands and who leads). Because the
 * stored value is what remains to be taken, not the score so far, one entry serves
 * every order of play that leads to the same hands.
 *
 * Direct-mapped and always-replace (the newest entry is the most likely to be probed
 * again by MTD(f)'s next pass). Full keys are stored and compared, so a hit is exact,
 * never a hash collision. Entries carry a stamp; bumping it clears the table in O(1).
 */
export class Transposition {
  private readonly mask: number;
  private readonly shift: number;
  private stride = 0;
  private keys: Int32Array = new Int32Array(0);
  private readonly stamps: Uint32Array;
  private readonly lowers: Int16Array;
  private readonly uppers: Int16Array;
  private readonly moves: Uint8Array;
  private stamp = 1;

  constructor(bits: number) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.shift = 32 - bits;
    this.stamps = new Uint32Array(size);
    this.lowers = new Int16Array(size);
    this.uppers = new Int16Array(size);
    this.moves = new Uint8Array(size);
  }

  /** Forget every entry. */
  clear(): void {
    this.stamp++;
  }

  /** The slot of `key[off .. off + words)`. */
  slotOf(key: Int32Array, off: number, words: number): number {
    if (words !== this.stride) this.resize(words);
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < words; i++) h = Math.imul(h ^ key[off + i], 0x01000193) ^ (h >>> 15);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return (h >>> this.shift) & this.mask;
  }

  /** Whether `slot` holds the entry of this key. */
  holds(slot: number, key: Int32Array, off: number, words: number): boolean {
    if (this.stamps[slot] !== this.stamp) return false;
    const keys = this.keys;
    const base = slot * words;
    for (let i = 0; i < words; i++) if (keys[base + i] !== key[off + i]) return false;
    return true;
  }

  lower(slot: number): number {
    return this.lowers[slot];
  }

  upper(slot: number): number {
    return this.uppers[slot];
  }

  move(slot: number): number {
    return this.moves[slot];
  }

  store(slot: number, key: Int32Array, off: number, words: number, lower: number, upper: number, move: number): void {
    const keys = this.keys;
    const base = slot * words;
    for (let i = 0; i < words; i++) keys[base + i] = key[off + i];
    this.stamps[slot] = this.stamp;
    this.lowers[slot] = lower;
    this.uppers[slot] = upper;
    this.moves[slot] = move;
  }

  private resize(words: number): void {
    // One table serves one game and table size, whose keys all have the same length.
    this.stride = words;
    this.keys = new Int32Array(this.stamps.length * words);
    this.stamp++;
  }
}
