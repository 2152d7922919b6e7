/**
 * One ArrayBuffer carved into the typed arrays of a state, so that copying a state is
 * a single `set` of its bytes instead of one call per array (search copies states at
 * every node). Carve every array in the constructor, then `seal`.
 */
export class Slab {
  private buffer = new ArrayBuffer(2048);
  private offset = 0;
  /** Every carved byte; valid after `seal`. */
  bytes = new Uint8Array(0);

  int32(n: number): Int32Array {
    return new Int32Array(this.buffer, this.take(n * 4, 4), n);
  }

  int16(n: number): Int16Array {
    return new Int16Array(this.buffer, this.take(n * 2, 2), n);
  }

  int8(n: number): Int8Array {
    return new Int8Array(this.buffer, this.take(n, 1), n);
  }

  seal(): void {
    this.bytes = new Uint8Array(this.buffer, 0, this.offset);
  }

  /** Copy another slab of the same layout into this one. */
  copyFrom(other: Slab): void {
    this.bytes.set(other.bytes);
  }

  private take(size: number, align: number): number {
    const at = Math.ceil(this.offset / align) * align;
    if (at + size > this.buffer.byteLength)
      throw new Error(`slab: ${at + size} bytes do not fit in ${this.buffer.byteLength}`);
    this.offset = at + size;
    return at;
  }
}
