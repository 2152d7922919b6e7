/**
 * A Parquet file of plain columns, written straight from the typed arrays that hold them,
 * a row group at a time: a PLAIN, uncompressed data page per column and row group (an
 * int column that holds one value throughout a row group as a dictionary of it instead),
 * every column REQUIRED (INT32, DOUBLE, or UTF-8 text). The pages are the arrays' own
 * bytes, handed to the kernel with `writev`, so a worker writes its rows (rows.ts) for
 * little more than the system call: DuckDB's appender costs 3-4.5 µs a random Viersche deal and a general
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
const RLE_DICTIONARY = 8;
/** Page types. */
const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;
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

function physical(kind: PartColumn['kind']): number {
  return kind === 'int' ? INT32 : kind === 'double' ? DOUBLE : BYTE_ARRAY;
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

/** A column chunk's place in the file: where its pages begin, and their bytes; where its data page begins when it has a dictionary. */
interface Chunk {
  readonly offset: number;
  readonly size: number;
  readonly data: number | null;
}

/** Whether the first `rows` of `values` are all the same (and there are some). */
function allSame(values: Int32Array, rows: number): boolean {
  if (rows === 0) return false;
  const v = values[0];
  for (let i = 1; i < rows; i++) if (values[i] !== v) return false;
  return true;
}

/**
 * An int column whose rows all hold one value (the run, the rotation of a run of one
 * seating, ...): a dictionary of that value and a data page of its index in zero bits, one
 * run of `rows` (RLE_DICTIONARY): a few bytes instead of four a row.
 */
function samePages(value: number, rows: number): { dictionary: Uint8Array; data: Uint8Array } {
  const dictionary = new Uint8Array(4);
  new DataView(dictionary.buffer).setInt32(0, value, true);
  // The bit width (0), then an RLE run's header: its length, shifted left once.
  const data = [0];
  for (let n = rows * 2; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      data.push(n);
      break;
    }
    data.push((n % 128) | 0x80);
  }
  return { dictionary, data: Uint8Array.from(data) };
}

/**
 * A part written a row group at a time, under a temporary name, and renamed into place
 * by `finish`, so a reader never sees it half-written. A worker writes a row group of
 * a few thousand deals as soon as they are played: the columns it hands the kernel are
 * then still in the core's cache, and the buffers that hold them stay small and are
 * reused (fresh memory costs a page fault every 4 KB).
 */
export class PartWriter {
  private readonly tmp: string;
  private readonly fd: number;
  private offset = 4;
  /** The file's magic, written with the first row group. */
  private head: Uint8Array[] = [Buffer.from('PAR1')];
  private schema: readonly { readonly name: string; readonly kind: PartColumn['kind'] }[] | null = null;
  private readonly groups: { readonly rows: number; readonly chunks: readonly Chunk[]; readonly size: number }[] = [];

  constructor(private readonly path: string) {
    this.tmp = `${path}.tmp`;
    this.fd = openSync(this.tmp, 'w');
  }

  /** Row groups written so far. */
  get rowGroups(): number {
    return this.groups.length;
  }

  /** A row group of `columns` (`rows` values each; the same columns, in the same order, every time). */
  rowGroup(rows: number, columns: readonly PartColumn[]): void {
    this.schema ??= columns.map(({ name, kind }) => ({ name, kind }));
    const buffers = this.head;
    this.head = [];
    const chunks: Chunk[] = [];
    const first = this.offset;
    let offset = first;
    for (const c of columns) {
      const at = offset;
      let data: number | null = null;
      if (c.kind === 'int' && allSame(c.values, rows)) {
        const same = samePages(c.values[0], rows);
        const dictHeader = dictionaryHeader(same.dictionary.length);
        const header = pageHeader(rows, same.data.length, RLE_DICTIONARY);
        buffers.push(dictHeader, same.dictionary, header, same.data);
        data = at + dictHeader.length + same.dictionary.length;
        offset = data + header.length + same.data.length;
      } else {
        for (const [count, page] of pages(c, rows)) {
          const header = pageHeader(count, page.length, PLAIN);
          buffers.push(header, page);
          offset += header.length + page.length;
        }
      }
      chunks.push({ offset: at, size: offset - at, data });
    }
    this.write(buffers);
    this.offset = offset;
    this.groups.push({ rows, chunks, size: offset - first });
  }

  /** The footer (at least one row group written), then the part under its own name. */
  finish(): void {
    const columns = this.schema!;
    const groups = this.groups;
    const rows = groups.reduce((n, g) => n + g.rows, 0);
    const meta = new Compact();
    meta
      .i32(1, 1)
      .structs(2, [null, ...columns], (s, c) => {
        if (c === null) s.text(4, 'schema').i32(5, columns.length);
        else {
          s.i32(1, physical(c.kind)).i32(3, 0).text(4, c.name);
          if (c.kind === 'text') s.i32(6, UTF8);
        }
      })
      .i64(3, rows)
      .structs(4, groups, (g, group) => {
        g.structs(1, columns, (cc, c) => {
          const { offset: at, size, data } = group.chunks[columns.indexOf(c)];
          cc.i64(2, at).struct(3, (m) => {
            m.i32(1, physical(c.kind))
              .i32s(2, data === null ? [PLAIN, RLE] : [PLAIN, RLE_DICTIONARY, RLE])
              .texts(3, [c.name])
              .i32(4, 0) // UNCOMPRESSED
              .i64(5, group.rows)
              .i64(6, size)
              .i64(7, size)
              .i64(9, data ?? at);
            if (data !== null) m.i64(11, at);
          });
        });
        g.i64(2, group.size).i64(3, group.rows);
      })
      .text(6, 'tafel');
    const footer = Buffer.concat([meta.bytes(), Buffer.of(0)]);
    const tail = Buffer.alloc(8);
    tail.writeUInt32LE(footer.length, 0);
    tail.write('PAR1', 4, 'latin1');
    this.write([...this.head, footer, tail]);
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }

  /** Give the part up: its temporary file is deleted. */
  abort(): void {
    closeSync(this.fd);
    rmSync(this.tmp, { force: true });
  }

  private write(buffers: Uint8Array[]): void {
    try {
      const left = buffers;
      // writev may write less than asked (and takes at most IOV_MAX buffers): go on from where it stopped.
      while (left.length) {
        let n = writevSync(this.fd, left.slice(0, 512));
        while (left.length && n >= left[0].length) n -= left.shift()!.length;
        if (left.length && n > 0) left[0] = left[0].subarray(n);
      }
    } catch (e) {
      this.abort();
      throw e;
    }
  }
}

/** Page headers made, by values and bytes: a row group's pages mostly have the same few. */
const headers = new Map<string, Buffer>();

/** A data page's header: `count` values in `size` bytes, in `encoding`. */
function pageHeader(count: number, size: number, encoding: number): Buffer {
  const key = `${count} ${size} ${encoding}`;
  let header = headers.get(key);
  if (header) return header;
  const head = new Compact()
    .i32(1, DATA_PAGE)
    .i32(2, size)
    .i32(3, size)
    .struct(5, (d) => d.i32(1, count).i32(2, encoding).i32(3, RLE).i32(4, RLE))
    .bytes();
  // A struct written alone ends with its stop byte.
  header = Buffer.concat([head, Buffer.of(0)]);
  if (headers.size > 1000) headers.clear();
  headers.set(key, header);
  return header;
}

/** A dictionary page's header: one value PLAIN in `size` bytes. */
function dictionaryHeader(size: number): Buffer {
  const head = new Compact()
    .i32(1, DICTIONARY_PAGE)
    .i32(2, size)
    .i32(3, size)
    .struct(7, (d) => d.i32(1, 1).i32(2, PLAIN))
    .bytes();
  return Buffer.concat([head, Buffer.of(0)]);
}

/** Write `columns` (`rows` values each) to `path` whole, as one row group. */
export function writePart(path: string, rows: number, columns: readonly PartColumn[]): void {
  const part = new PartWriter(path);
  part.rowGroup(rows, columns);
  part.finish();
}
