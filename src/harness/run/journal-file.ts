/**
 * The one reader of tafel's journals, in JSON Lines: a header line that holds a spec
 * (`{"tafel":TAG,"v":VERSION,"spec":{...}}`), then body lines numbered in order. A run's
 * journal (journal.ts) and a tuning's (tune/journal.ts) are two kinds of it, each
 * saying what its header is called, how its spec and body lines are read, and which
 * numbers its body lines run through. An unfinished last line (a write cut off) is left
 * out, its unit of work to be played again.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { TafelError } from '../../core/errors.js';
import { isObject, specForJournal, type Files } from './spec.js';

/** One kind of journal: a spec of type S, body lines of type L. */
export interface JournalKind<S, L> {
  /** The header's `tafel` value. */
  readonly tag: string;
  /** The header's `v` this tafel writes and reads. */
  readonly version: number;
  /** What the journal is called in messages: `journal`, `tuning journal`. */
  readonly noun: string;
  /** What a body line is called in messages: `group`, `iteration`. */
  readonly line: string;
  /** Why a header of another format version is refused. */
  readonly otherVersion: (v: unknown) => string;
  /** What a JSON Lines file with another first line is (another kind, deal records), or null. */
  readonly otherFile: (first: unknown, path: string) => string | null;
  /** Refuse a header whose line lacks its newline (with this message), rather than read it. */
  readonly cutHeader?: string;
  /** The spec the header holds, or the first problem with it, naming the field. */
  readonly spec: (value: unknown, path: string) => S | string;
  /** A body line read, or null when it is not one. */
  readonly body: (value: unknown, spec: S) => L | null;
  /** The numbers body lines run through, [from, to), and a line's own. */
  readonly range: (spec: S) => { readonly from: number; readonly to: number };
  readonly index: (line: L) => number;
  /**
   * Why `line` cannot follow `before` (null when it can), for body lines that are not
   * numbered consecutively (a run journal's skipped and checkpoint lines); in place of `index`.
   */
  readonly follows?: (
    line: L,
    before: readonly L[],
    range: { readonly from: number; readonly to: number },
  ) => string | null;
}

export interface JournalOf<S, L> {
  /** The spec, as the header holds it (its directory made absolute). */
  readonly spec: S;
  /** The body lines, in order from the range's first. */
  readonly lines: L[];
  /** Byte offset of the end of the header and of each body line. */
  readonly ends: number[];
  /** Whether an unfinished last line (a write cut off) was left out. */
  readonly torn: boolean;
}

/** The header line of a journal of `kind` at `path`: the spec, its directory relative to the journal's. */
export function headerTextOf<S extends { readonly files: Files<string> }>(
  kind: Pick<JournalKind<S, never>, 'tag' | 'version'>,
  spec: S,
  path: string,
): string {
  return JSON.stringify({ tafel: kind.tag, v: kind.version, spec: specForJournal(spec, path) }) + '\n';
}

/**
 * Read and check a journal of `kind`: one header, then body lines numbered
 * consecutively through the range. `what` names the file in messages (`resume file`).
 */
export function readJournalOf<S, L>(path: string, what: string, kind: JournalKind<S, L>): JournalOf<S, L> {
  const bad = (why: string): never => {
    throw new TafelError('bad-journal', `${what} ${path}: ${why}`);
  };
  const notJournal = `not a tafel ${kind.noun} (its first line is not a ${kind.noun} header)`;
  let spec: S | null = null;
  const lines: L[] = [];
  const ends: number[] = [];
  let torn = false;
  let lineNo = 0;
  let from = 0;
  let to = 0;
  forEachLine(path, what, (text, end, complete) => {
    lineNo++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (lineNo === 1) return bad(notJournal);
      // A last line without its newline is a write cut short: drop it, its work is played again.
      if (!complete) {
        torn = true;
        return;
      }
      return bad(`line ${lineNo} is not JSON (a corrupt journal)`);
    }
    if (!complete && lineNo > 1) {
      torn = true;
      return;
    }
    if (lineNo === 1) {
      if (!complete && kind.cutHeader) return bad(kind.cutHeader);
      if (!isObject(value) || value.tafel !== kind.tag) return bad(kind.otherFile(value, path) ?? notJournal);
      if (value.v !== kind.version) return bad(kind.otherVersion(value.v));
      const read = kind.spec(value.spec, path);
      if (typeof read === 'string') return bad(`line 1: ${read}`);
      spec = read;
      ({ from, to } = kind.range(read));
    } else {
      const line =
        kind.body(value, spec!) ??
        bad(`line ${lineNo} is not a${/^[aeiou]/.test(kind.line) ? 'n' : ''} ${kind.line} line (a corrupt journal)`);
      if (kind.follows) {
        const why = kind.follows(line, lines, { from, to });
        if (why) return bad(`line ${lineNo} ${why} (a corrupt journal)`);
        lines.push(line);
        ends.push(end);
        return;
      }
      const expected = from + lines.length;
      const index = kind.index(line);
      if (index !== expected || index >= to)
        return bad(
          `line ${lineNo} is ${kind.line} ${index}, expected ${expected < to ? expected : 'the end'} (a corrupt journal)`,
        );
      lines.push(line);
    }
    ends.push(end);
  });
  if (!spec) return bad(`empty, not a tafel ${kind.noun}`);
  return { spec, lines, ends, torn };
}

/**
 * Calls `f` with each line of the file (without its newline), the byte offset after
 * it and whether it ended with a newline; `f` returns false to stop early.
 */
export function forEachLine(
  path: string,
  what: string,
  f: (text: string, end: number, complete: boolean) => boolean | void,
): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new TafelError(
      'unreadable',
      `${what} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  try {
    const buf = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let pendingBytes = 0;
    let offset = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw new TafelError(
          'unreadable',
          `${what} ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        );
      }
      if (n === 0) break;
      let start = 0;
      for (let i = buf.indexOf(10, 0); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) {
        const text = pending + decoder.write(buf.subarray(start, i));
        offset += pendingBytes + (i - start) + 1;
        pending = '';
        pendingBytes = 0;
        if (f(text, offset, true) === false) return;
        start = i + 1;
      }
      pending += decoder.write(buf.subarray(start, n));
      pendingBytes += n - start;
    }
    pending += decoder.end();
    if (pending !== '') f(pending, offset + pendingBytes, false);
  } finally {
    closeSync(fd);
  }
}
