/**
 * Replay's files: the record files given to `tafel serve --records` (RECORD.md lines),
 * named to the page by their index alone, so no request can name another path. Each
 * file is read once into an index (where each record starts and what deal it is); a
 * request reads only the record it asks for. A file that changed since (a run under way
 * appending to it) is indexed again from where the index ended, or from the start if
 * it shrank; the page draws a deal from its record's fields alone.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { TafelError } from '../core/errors.js';

/** A deal in a file's list: where it is and what it is. */
interface DealEntry {
  readonly line: number;
  readonly game: unknown;
  readonly seed: unknown;
  readonly match: unknown;
  readonly deal: unknown;
  readonly rotation: unknown;
  readonly bots: unknown;
}

export interface DealFilter {
  readonly seed?: string;
  readonly match?: number;
  readonly deal?: number;
  readonly rotation?: number;
}

/** At most this many deals in one list (the filter picks among the rest). */
const LIST_MAX = 200;
const CHUNK = 1 << 20;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A file's records so far: where each starts, its byte length and what deal it is. */
interface FileIndex {
  /** Bytes indexed: up to the end of the last whole line. */
  end: number;
  lines: number;
  readonly entries: (DealEntry & { readonly offset: number; readonly length: number })[];
}

export class RecordFiles {
  constructor(private readonly paths: readonly string[]) {
    for (const p of paths) {
      let file: boolean;
      try {
        file = statSync(p).isFile();
      } catch {
        throw new TafelError('missing-input', `--records ${p}: no such file`);
      }
      if (!file) throw new TafelError('bad-input', `--records ${p}: not a file`);
    }
  }

  /** The files as the page names them: index and base name. */
  list(): { index: number; name: string }[] {
    return this.paths.map((p, index) => ({ index, name: basename(p) }));
  }

  private path(index: number): string {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.paths.length)
      throw new TafelError('bad-option', `no records file ${index} (there are ${this.paths.length})`);
    return this.paths[index];
  }

  private readonly indexes = new Map<number, FileIndex>();

  /** The index of file `index`, brought up to date with the file. */
  private indexOf(index: number): FileIndex {
    const path = this.path(index);
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      throw new TafelError('unreadable', `${basename(path)}: cannot read it any more`);
    }
    let ix = this.indexes.get(index);
    if (!ix || size < ix.end) ix = { end: 0, lines: 0, entries: [] };
    if (size > ix.end) this.extend(path, ix, size);
    this.indexes.set(index, ix);
    return ix;
  }

  /** Index the whole lines of `path` from `ix.end` to `size`. */
  private extend(path: string, ix: FileIndex, size: number): void {
    const fd = openSync(path, 'r');
    try {
      let buf = Buffer.allocUnsafe(CHUNK);
      let held = 0;
      let at = ix.end;
      for (;;) {
        if (held === buf.length) {
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, held);
          buf = bigger;
        }
        const n = readSync(fd, buf, held, Math.min(buf.length - held, size - (at + held)), at + held);
        if (n <= 0) break;
        const end = held + n;
        let start = 0;
        for (let nl = buf.indexOf(0x0a, 0); nl >= 0 && nl < end; nl = buf.indexOf(0x0a, start)) {
          this.entry(path, ix, buf.toString('utf8', start, nl), at + start, nl - start);
          start = nl + 1;
        }
        buf.copy(buf, 0, start, end);
        held = end - start;
        at += start;
      }
      // A last line without its newline: a record if it parses (a run still writing it: not yet).
      if (held > 0 && at + held === size) {
        const text = buf.toString('utf8', 0, held);
        if (isJson(text)) {
          this.entry(path, ix, text, at, held);
          at += held;
        }
      }
      ix.end = at;
    } finally {
      closeSync(fd);
    }
  }

  private entry(path: string, ix: FileIndex, text: string, offset: number, length: number): void {
    const n = ++ix.lines;
    if (offset === 0 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      offset += 3;
      length -= 3;
    }
    if (text.trim() === '') return;
    let r: unknown;
    try {
      r = JSON.parse(text);
    } catch {
      throw new TafelError('bad-record', `${basename(path)} line ${n}: not a JSON record`);
    }
    if (typeof r !== 'object' || r === null || Array.isArray(r))
      throw new TafelError('bad-record', `${basename(path)} line ${n}: not a JSON object`);
    const d = r as Record<string, unknown>;
    ix.entries.push({
      line: n,
      offset,
      length,
      game: d.game,
      seed: d.seed,
      match: d.match,
      deal: d.deal,
      rotation: d.rotation,
      bots: d.bots,
    });
  }

  /** The deals of file `index` that pass `filter`: the first LIST_MAX, and how many passed. */
  deals(index: number, filter: DealFilter): { deals: DealEntry[]; matched: number } {
    const pass = this.indexOf(index).entries.filter(
      (r) =>
        (filter.seed === undefined || String(r.seed) === filter.seed) &&
        (filter.match === undefined || r.match === filter.match) &&
        (filter.deal === undefined || r.deal === filter.deal) &&
        (filter.rotation === undefined || r.rotation === filter.rotation),
    );
    return {
      deals: pass.slice(0, LIST_MAX).map(({ line, game, seed, match, deal, rotation, bots }) => ({
        line,
        game,
        seed,
        match,
        deal,
        rotation,
        bots,
      })),
      matched: pass.length,
    };
  }

  /** The record on line `line` of file `index`. */
  record(index: number, line: number): Record<string, unknown> {
    const e = this.indexOf(index).entries.find((x) => x.line === line);
    if (!e) throw new TafelError('bad-option', `${basename(this.path(index))} has no record on line ${line}`);
    const fd = openSync(this.path(index), 'r');
    try {
      const buf = Buffer.allocUnsafe(e.length);
      readSync(fd, buf, 0, e.length, e.offset);
      return JSON.parse(buf.toString('utf8')) as Record<string, unknown>;
    } finally {
      closeSync(fd);
    }
  }
}
