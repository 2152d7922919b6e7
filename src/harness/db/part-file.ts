/**
 * A Parquet file of plain columns, written straight from the typed arrays that hold them:
 * one row group, one PLAIN, uncompressed data page per column, every column REQUIRED
 * (INT32, DOUBLE, or UTF-8 text). The pages are the arrays' own bytes, handed to the
 * kernel with `writev`, so a worker writes its rows (db-parts.ts) for the cost of the
 * system call: DuckDB's appender costs 3-4.5 µs a random Viersche deal and a general
 * JavaScript Parquet writer 2-6 µs (bench/README.md, "Run database"), more than playing
 * the deal. Narrow types, NULLs and labels are applied by the views that read the parts.
 *
 * The footer is Thrift's compact protocol, of which this writes only what the format asks.
 */
import { closeSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';

/** A column's values: 32-bit ints, doubles, or UTF-8 text as `plainText` makes it. */
export type PartColumn =
  | { readonly name: string; readonly kind: 'int'; readonly values: Int32Array }
  | { readonly name: string; readonly kind: 'double'; readonly values: Float64Array }
  | { readonly name: string; readonly kind: 'text'; readonly values: Uint8Array };

/** Parquet's physical types and encodings used here. */
const INT32 = 1;
const DOUBLE = 5;
const BYTE_ARRAY = 6;
const PLAIN = 0;
const RLE = 3;
const UTF8 = 0;

/** Thrift compact protocol's field types. */
const T_I32 = 5;
const T_I64 = 6;
const T_BINARY = 8;
const T_LIST = 9;
const T_STRUCT = 12;

class Compact {
  private readonly out: number[] = [];
  private readonly last: number[] = [0];

  bytes(): Buffer {
    return Buffer.from(this.out);
  }

  private varint(n: number): void {
    while (n > 0x7f) {
      this.out.push((n % 128) | 0x80);
      n = Math.floor(n / 128);
    }
    this.out.push(n);
  }

  private zigzag(n: number): void {
    this.varint(n >= 0 ? 2 * n : -2 * n - 1);
  }

  private field(id: number, type: number): void {
    const delta = id - this.last[this.last.length - 1];
    if (delta > 0 && delta <= 15) this.out.push((delta << 4) | type);
    else {
      this.out.push(type);
      this.zigzag(id);
    }
    this.last[this.last.length - 1] = id;
  }

  i32(id: number, v: number): this {
    this.field(id, T_I32);
    this.zigzag(v);
    return this;
  }

  i64(id: number, v: number): this {
    this.field(id, T_I64);
    this.zigzag(v);
    return this;
  }

  text(id: number, s: string): this {
    this.field(id, T_BINARY);
    const b = Buffer.from(s);
    this.varint(b.length);
    for (const x of b) this.out.push(x);
    return this;
  }

  struct(id: number, body: (c: this) => void): this {
    this.field(id, T_STRUCT);
    this.inner(body);
    return this;
  }

  /** A list of structs (each written by `body`), of i32s, or of strings. */
  structs<X>(id: number, items: readonly X[], body: (c: this, x: X) => void): this {
    this.listHead(id, items.length, T_STRUCT);
    for (const x of items) this.inner((c) => body(c, x));
    return this;
  }

  i32s(id: number, items: readonly number[]): this {
    this.listHead(id, items.length, T_I32);
    for (const x of items) this.zigzag(x);
    return this;
  }

  texts(id: number, items: readonly string[]): this {
    this.listHead(id, items.length, T_BINARY);
    for (const s of items) {
      const b = Buffer.from(s);
      this.varint(b.length);
      for (const x of b) this.out.push(x);
    }
    return this;
  }

  private listHead(id: number, size: number, type: number): void {
    this.field(id, T_LIST);
    if (size < 15) this.out.push((size << 4) | type);
    else {
      this.out.push(0xf0 | type);
      this.varint(size);
    }
  }

  /** A struct's fields, then its stop byte. */
  inner(body: (c: this) => void): void {
    this.last.push(0);
    body(this);
    this.out.push(0);
    this.last.pop();
  }
}

/** Text values (UTF-8 `bytes`, one value per '\n'-ended line) as PLAIN BYTE_ARRAY: each a 4-byte length, then its bytes. */
export function plainText(bytes: Uint8Array, rows: number): Uint8Array {
  const out = new Uint8Array(bytes.length - rows + 4 * rows);
  const view = new DataView(out.buffer);
  let from = 0;
  let at = 0;
  for (let r = 0; r < rows; r++) {
    let end = bytes.indexOf(10, from);
    if (end < 0) end = bytes.length;
    view.setUint32(at, end - from, true);
    out.set(bytes.subarray(from, end), at + 4);
    at += 4 + end - from;
    from = end + 1;
  }
  if (at !== out.length) throw new Error(`plainText: ${rows} lines expected`);
  return out;
}

function physical(c: PartColumn): number {
  return c.kind === 'int' ? INT32 : c.kind === 'double' ? DOUBLE : BYTE_ARRAY;
}

/** Rows a data page holds, so that a reader needs no buffer of a whole column of a large batch. */
const PAGE_ROWS = 65536;

/** A column's pages: rows, and their bytes (views of the values: nothing is copied). */
function pages(c: PartColumn, rows: number): [number, Uint8Array][] {
  // Text in one page: its values have no fixed width to cut it at.
  if (c.kind === 'text') return [[rows, c.values]];
  const size = c.kind === 'int' ? 4 : 8;
  const out: [number, Uint8Array][] = [];
  for (let first = 0; first === 0 || first < rows; first += PAGE_ROWS) {
    const count = Math.min(PAGE_ROWS, rows - first);
    out.push([count, new Uint8Array(c.values.buffer, c.values.byteOffset + first * size, count * size)]);
  }
  return out;
}

/**
 * Write `columns` (`rows` values each) to `path` whole: under a temporary name, renamed
 * into place once written, so a reader never sees a part half-written.
 */
export function writePart(path: string, rows: number, columns: readonly PartColumn[]): void {
  const buffers: Uint8Array[] = [Buffer.from('PAR1')];
  let offset = 4;
  const chunks: { offset: number; size: number }[] = [];
  for (const c of columns) {
    const at = offset;
    for (const [count, data] of pages(c, rows)) {
      const head = new Compact()
        .i32(1, 0) // DATA_PAGE
        .i32(2, data.length)
        .i32(3, data.length)
        .struct(5, (d) => d.i32(1, count).i32(2, PLAIN).i32(3, RLE).i32(4, RLE))
        .bytes();
      // A struct written alone ends with its stop byte.
      const header = Buffer.concat([head, Buffer.of(0)]);
      buffers.push(header, data);
      offset += header.length + data.length;
    }
    chunks.push({ offset: at, size: offset - at });
  }
  const meta = new Compact();
  meta
    .i32(1, 1)
    .structs(2, [null, ...columns], (s, c) => {
      if (c === null) s.text(4, 'schema').i32(5, columns.length);
      else {
        s.i32(1, physical(c)).i32(3, 0).text(4, c.name);
        if (c.kind === 'text') s.i32(6, UTF8);
      }
    })
    .i64(3, rows)
    .structs(4, [columns], (g) => {
      g.structs(1, columns, (cc, c) => {
        const { offset: at, size } = chunks[columns.indexOf(c)];
        cc.i64(2, at).struct(3, (m) =>
          m
            .i32(1, physical(c))
            .i32s(2, [PLAIN, RLE])
            .texts(3, [c.name])
            .i32(4, 0) // UNCOMPRESSED
            .i64(5, rows)
            .i64(6, size)
            .i64(7, size)
            .i64(9, at),
        );
      });
      g.i64(2, offset - 4).i64(3, rows);
    })
    .text(6, 'tafel');
  const footer = Buffer.concat([meta.bytes(), Buffer.of(0)]);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4, 'latin1');
  buffers.push(footer, tail);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const left = buffers;
    // writev may write less than asked (and takes at most IOV_MAX buffers): go on from where it stopped.
    while (left.length) {
      let n = writevSync(fd, left.slice(0, 512));
      while (left.length && n >= left[0].length) n -= left.shift()!.length;
      if (left.length && n > 0) left[0] = left[0].subarray(n);
    }
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}
