/**
 * Output files, checked before the first deal and never left half-written.
 *
 * `checkOutputs` runs before anything is created or truncated: every path must be a
 * file in an existing, writable directory, no two outputs may be one file, and a file
 * that exists is refused (it may hold a finished run's results) unless the caller
 * continues that run or was told to replace it (`--force`). A new file's name must end
 * as its kind does (`--db x.csv --force` would otherwise replace a CSV by a database);
 * a resume keeps the names its journal holds. So a mistyped path fails at once rather
 * than after an hour of play, and a repeated command never destroys what the first one
 * made.
 *
 * The summary CSV (and any whole-file output) is written to a temporary file and
 * renamed into place; records, per-deal rows and journal lines are appended one whole
 * group at a time.
 */
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../../core/errors.js';

/** What an output holds, which fixes the extensions its name may end with. */
export type OutputKind = 'csv' | 'jsonl' | 'duckdb' | 'html';

const EXTENSIONS: Readonly<Record<OutputKind, readonly string[]>> = {
  csv: ['.csv'],
  jsonl: ['.jsonl'],
  duckdb: ['.duckdb', '.db'],
  html: ['.html', '.htm'],
};

export interface OutputFile {
  /** The flag that names it, for messages (`--out`). */
  readonly flag: string;
  readonly kind: OutputKind;
  /** As the user wrote it, for messages. */
  readonly shown: string;
  /** Absolute. */
  readonly path: string;
}

const KIND_NAMES: Readonly<Record<OutputKind, string>> = {
  csv: 'a CSV',
  jsonl: 'JSON lines',
  duckdb: 'a DuckDB database',
  html: 'an HTML page',
};

export interface OutputCheck {
  /** What to do with a file that exists: refuse it, replace it (`--force`), or continue it (a resume). */
  readonly existing: 'refuse' | 'replace' | 'continue';
  /** The journal that would continue the run, named when an existing file is refused (if it exists). */
  readonly journal?: OutputFile | null;
}

export function checkOutputs(files: readonly OutputFile[], o: OutputCheck): void {
  const seen = new Map<string, OutputFile>();
  for (const f of files) {
    const other = seen.get(f.path);
    if (other) throw new TafelError('bad-output', `${other.flag} and ${f.flag} name the same file, ${f.shown}`);
    seen.set(f.path, f);
  }
  for (const f of files) checkOne(f, o);
}

function checkOne(f: OutputFile, o: OutputCheck): void {
  const bad = (why: string): never => {
    throw new TafelError('unwritable', `${f.flag} ${f.shown}: ${why}`);
  };
  const dir = dirname(f.path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) bad(`cannot write: there is no directory ${dirname(f.shown)}`);
  const isDirectory = existsSync(f.path) && statSync(f.path).isDirectory();
  if (isDirectory) bad('is a directory; give a file name');
  const endings = EXTENSIONS[f.kind];
  if (o.existing !== 'continue' && !endings.some((e) => f.path.toLowerCase().endsWith(e)))
    bad(`the name must end ${endings.join(' or ')} (the file is ${KIND_NAMES[f.kind]})`);
  if (existsSync(f.path)) {
    if (o.existing === 'refuse') {
      const journal = o.journal && existsSync(o.journal.path) ? o.journal : null;
      const ways = journal
        ? `continue that run with --resume ${journal.shown}, or replace its files with --force`
        : 'replace it with --force, or choose another name';
      throw new TafelError('bad-output', `${f.flag} ${f.shown}: the file exists (an earlier run's?); ${ways}`);
    }
    try {
      closeSync(openSync(f.path, 'r+'));
    } catch (e) {
      bad(`cannot write (${errorCode(e)})`);
    }
  }
  // A file of our own in the directory, made and removed at once: the directory takes new files.
  const probe = resolve(dir, `.tafel-probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    bad(`cannot write in its directory (${errorCode(e)})`);
  }
}

/** Write `text` whole to `path`: through a temporary file renamed into place, which is removed if anything fails. */
export function writeWhole(path: string, text: string, what: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new TafelError('unwritable', `${what} ${path}: cannot write (${errorCode(e)})`);
  }
}

/** Write `rows` as CSV with a header, whole. */
export function writeCsv(
  path: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  what = 'summary',
): void {
  writeWhole(path, stringify(rows as Record<string, unknown>[], { header: true, columns: [...columns] }), what);
}

/** A text file written in whole pieces (each piece a group's lines), for journal, records and per-deal CSV. */
export class TextFile {
  private fd: number;

  constructor(
    readonly path: string,
    private readonly what: string,
    append = false,
  ) {
    try {
      this.fd = openSync(path, append ? 'a' : 'w');
    } catch (e) {
      throw new TafelError('unwritable', `${what} ${path}: cannot write (${errorCode(e)})`);
    }
  }

  write(text: string | Uint8Array): void {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    try {
      // A write may be short (a full disk says so only then): go on until all is written.
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    } catch (e) {
      throw new TafelError('unwritable', `${this.what} ${this.path}: cannot write (${errorCode(e)})`);
    }
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}
