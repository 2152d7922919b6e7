/**
 * Seeded random numbers.
 *
 * A run has a master seed (any string). `seedrandom` turns it into a 128-bit key once
 * per run (its ARC4 key schedule mixes arbitrary strings well). Every unit of work
 * then derives its own stream from (key, coordinates) — e.g. (deal index, purpose) —
 * so any deal is reproducible alone, whatever the number of workers or shards.
 *
 * The stream generator is xoshiro128** (the one in ../shared/bench-ref): 16 bytes of
 * state that we reseed in place per deal. seedrandom's own generators are closures
 * created per seed; creating one per deal would allocate millions of objects a run
 * (and measurably trigger GC), and their `int32()` is no faster than this one (see
 * bench/micro.bench.ts for the comparison). seedrandom stays the one place where a
 * user's seed text becomes numbers.
 */
import seedrandom from 'seedrandom';

/** Four 32-bit words derived from a master seed string. */
export type SeedKey = readonly [number, number, number, number];

export function seedKey(masterSeed: string): SeedKey {
  const arc4 = seedrandom(`tafel:${masterSeed}`);
  return [arc4.int32(), arc4.int32(), arc4.int32(), arc4.int32()];
}

export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const GOLDEN = 0x9e3779b9 | 0;

/** What a stream's seed takes from its first coordinate x (`Rng.reseedAt`). */
export function streamPrefix(x: number): number {
  return fmix32((x | 0) ^ GOLDEN) ^ (Math.floor(x / 4294967296) | 0);
}

export class Rng {
  // The state lives in a typed array: as plain fields, words beyond V8's 31-bit small
  // integers would be boxed numbers and every step would cost several times more.
  private readonly s = new Int32Array(4);

  constructor(key?: SeedKey, x = 0, y = 0, z = 0) {
    this.s[0] = 1;
    if (key) this.reseed(key, x, y, z);
  }

  /**
   * Restart this generator on the stream named by (key, x, y, z): e.g. x = deal
   * index, y = purpose (cards, a seat's bot), z = rotation. Allocation-free.
   * Coordinates are non-negative integers below 2^53.
   */
  reseed(key: SeedKey, x: number, y = 0, z = 0): void {
    this.reseedAt(key, streamPrefix(x), y, z);
  }

  /**
   * `reseed(key, x, y, z)` with `prefix = streamPrefix(x)` computed once by the caller:
   * the streams of one deal (its cards, each seat's bot) share x.
   */
  reseedAt(key: SeedKey, prefix: number, y: number, z: number): void {
    const s = this.s;
    let h = fmix32(prefix ^ Math.imul(y + 1, 0x85ebca6b));
    h = fmix32(h ^ Math.imul(z + 1, 0xc2b2ae35));
    s[0] = fmix32(key[0] ^ h);
    s[1] = fmix32(key[1] ^ (h + GOLDEN));
    s[2] = fmix32(key[2] ^ (h + 2 * GOLDEN));
    s[3] = fmix32(key[3] ^ (h + 3 * GOLDEN));
    if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  }

  /** Copy another generator's position (for search that must not disturb a stream). */
  copyFrom(o: Rng): void {
    this.s.set(o.s);
  }

  /**
   * The generator's position as 32 hex digits (its four state words, each big-endian),
   * which `setHex` restores: how the bot protocol hands a bot program its stream.
   */
  hex(): string {
    let out = '';
    for (let i = 0; i < 4; i++) out += (this.s[i] >>> 0).toString(16).padStart(8, '0');
    return out;
  }

  /** Continue from a position written by `hex`; false (and unchanged) unless `hex` is 32 hex digits, not all zero. */
  setHex(hex: string): boolean {
    if (!/^[0-9a-f]{32}$/.test(hex) || /^0+$/.test(hex)) return false;
    for (let i = 0; i < 4; i++) this.s[i] = parseInt(hex.slice(8 * i, 8 * i + 8), 16) | 0;
    return true;
  }

  /** Next 32 random bits as a signed 32-bit integer. */
  next(): number {
    // xoshiro128**, written out so that its bytecode is short (it is inlined into every
    // play loop and counts against V8's inlining budget there): a product of an int32
    // and a small constant is exact in doubles, so `(x * k) | 0` is Math.imul(x, k).
    const s = this.s;
    const b = s[1];
    const x = (b * 5) | 0;
    const r = (((x << 7) | (x >>> 25)) * 9) | 0;
    const c = s[2] ^ s[0];
    const d = s[3] ^ b;
    s[1] = b ^ c;
    s[0] ^= d;
    s[2] = c ^ (b << 9);
    s[3] = (d << 11) | (d >>> 21);
    return r;
  }

  /**
   * A uniform integer in [0, n), n < 2^24: the top 24 bits scaled, exactly as the C
   * yardstick does (bias below n / 2^24).
   */
  below(n: number): number {
    const top = this.next() >>> 8;
    // For n <= 256 the product stays below 2^32 and the shift is the exact floor, an
    // integer that V8 never boxes; Math.floor's double could cost an allocation. The
    // rare wide case is a call, so that `below` takes little of a caller's inlining budget.
    return n <= 256 ? (top * n) >>> 24 : wideBelow(top, n);
  }

  /**
   * Fisher-Yates shuffle of the first n entries of `a`, in place, from the top: for i
   * from n - 1 down to 1, swap a[i] with a[below(i + 1)]. The same draws as that loop,
   * with the generator's state kept in locals (it is the whole cost of dealing a pack).
   */
  shuffle(a: Uint8Array, n: number): void {
    const s = this.s;
    let s0 = s[0];
    let s1 = s[1];
    let s2 = s[2];
    let s3 = s[3];
    for (let i = n - 1; i > 0; i--) {
      const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
      const top = r >>> 8;
      const m = i + 1;
      const j = m <= 256 ? (top * m) >>> 24 : Math.floor((top * m) / 16777216);
      const x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }

  /**
   * `shuffle(a, n)` for a caller that reads only `a[0 .. keep - 1]` afterwards (a deal of
   * part of a pack): the same draws and the same first `keep` entries, while above
   * `keep` a swap only moves the entry at i down (the entry it would receive is never
   * read). The rest of `a` is left scrambled.
   */
  shuffleFirst(a: Uint8Array, n: number, keep: number): void {
    const s = this.s;
    let s0 = s[0];
    let s1 = s[1];
    let s2 = s[2];
    let s3 = s[3];
    for (let i = n - 1; i > 0; i--) {
      const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
      const top = r >>> 8;
      const m = i + 1;
      const j = m <= 256 ? (top * m) >>> 24 : Math.floor((top * m) / 16777216);
      const x = a[i];
      if (i < keep) a[i] = a[j];
      a[j] = x;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }

  /** A uniform double in [0, 1). */
  uniform(): number {
    return (this.next() >>> 0) / 4294967296;
  }
}

/** `below` for n > 256: the floor of top * n / 2^24, exact in doubles (top * n < 2^48). */
function wideBelow(top: number, n: number): number {
  return Math.floor((top * n) / 16777216);
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Fisher-Yates shuffle of the first n entries of `a`, in place (`rng.shuffle`). */
export function shuffle(a: Uint8Array, n: number, rng: Rng): void {
  rng.shuffle(a, n);
}
