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
 * An output directory (an experiment's results) is checked the same way for the files
 * it will hold, and made only once everything has passed; the files a command reads
 * (merge's journals) are refused as outputs.
 *
 * The summary CSV (and any whole-file output) is written to a temporary file and
 * renamed into place; records, per-deal rows and journal lines are appended one whole
 * group at a time.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../../core/errors.js';

/** What an output holds, which fixes the extensions its name may end with. */
export type OutputKind = 'csv' | 'jsonl' | 'duckdb' | 'html' | 'parquet';

const EXTENSIONS: Readonly<Record<OutputKind, readonly string[]>> = {
  csv: ['.csv'],
  jsonl: ['.jsonl'],
  duckdb: ['.duckdb', '.db'],
  html: ['.html', '.htm'],
  parquet: ['.parquet'],
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
  parquet: 'a Parquet file',
};

/**
 * The files a spec names (`files.out`, ...: paths relative to `files.dir`, null for
 * none) as outputs to check, each with the flag and kind that `flags` gives its key.
 */
export function outputFiles<K extends string>(
  files: Readonly<Record<NoInfer<K>, string | null>> & { readonly dir: string },
  flags: Readonly<Record<K, readonly [flag: string, kind: OutputKind]>>,
): OutputFile[] {
  return (Object.keys(flags) as K[]).flatMap((key) => {
    const shown = files[key];
    return shown === null ? [] : [{ flag: flags[key][0], kind: flags[key][1], shown, path: resolve(files.dir, shown) }];
  });
}

/**
 * A directory of outputs (`--out-dir`, an experiment's `--work-dir`), made with its
 * parents once every output has passed; its files are refused as a file output is.
 */
interface OutputDir {
  /** The flag that names it, for messages (`--out-dir`). */
  readonly flag: string;
  /** As the user wrote it, for messages. */
  readonly shown: string;
  /** Absolute. */
  readonly path: string;
  /** The names of the files it will hold. */
  readonly files: readonly string[];
  /** Its earlier files are runs that `--resume` continues (else results that only `--force` replaces). */
  readonly resumable?: boolean;
}

/** Files a command reads, which no output may be: `who: FILE is what`. */
interface InputFiles {
  /** The command, for messages (`merge`). */
  readonly who: string;
  /** What these inputs are (`one of the journals being merged`). */
  readonly what: string;
  /** Absolute. */
  readonly paths: readonly string[];
}

export interface OutputCheck {
  /** What to do with a file that exists: refuse it, replace it (`--force`), or continue it (a resume). */
  readonly existing: 'refuse' | 'replace' | 'continue';
  /** The journal that would continue the run, named when an existing file is refused (if it exists). */
  readonly journal?: OutputFile | null;
  /** Directories of outputs; a file output may go in one that is still to be made. */
  readonly dirs?: readonly OutputDir[];
  readonly inputs?: readonly InputFiles[];
}

/**
 * Every output checked before anything is made, in one pass: the files (and those of
 * the directories) refused or accepted by what exists, then the directories made, then
 * each place written to once by a probe. A refusal leaves nothing behind.
 */
export function checkOutputs(files: readonly OutputFile[], o: OutputCheck): void {
  const seen = new Map<string, OutputFile>();
  for (const f of files) {
    const other = seen.get(f.path);
    if (other) throw new TafelError('bad-output', `${other.flag} and ${f.flag} name the same file, ${f.shown}`);
    seen.set(f.path, f);
  }
  for (const input of o.inputs ?? [])
    for (const f of files)
      if (input.paths.includes(f.path)) throw new TafelError('bad-output', `${input.who}: ${f.shown} is ${input.what}`);
  const made = new Set((o.dirs ?? []).map((d) => d.path));
  for (const f of files) checkFile(f, o, made);
  for (const d of o.dirs ?? []) checkDir(d, o);
  for (const d of o.dirs ?? []) {
    try {
      mkdirSync(d.path, { recursive: true });
    } catch (e) {
      throw new TafelError('unwritable', `${d.flag} ${d.shown}: cannot write (${errorCode(e)})`);
    }
    probe(d.path, (why) => `${d.flag} ${d.shown}: cannot write (${why})`);
  }
  for (const f of files) {
    const bad = (why: string) => `${f.flag} ${f.shown}: ${why}`;
    if (existsSync(f.path)) {
      try {
        closeSync(openSync(f.path, 'r+'));
      } catch (e) {
        throw new TafelError('unwritable', bad(`cannot write (${errorCode(e)})`));
      }
    }
    probe(dirname(f.path), (why) => bad(`cannot write in its directory (${why})`));
  }
}

/** What refuses output file `f` before anything is made (`made`: the directories that will be). */
function checkFile(f: OutputFile, o: OutputCheck, made: ReadonlySet<string>): void {
  const bad = (why: string): never => {
    throw new TafelError('unwritable', `${f.flag} ${f.shown}: ${why}`);
  };
  const dir = dirname(f.path);
  if (!made.has(dir) && (!existsSync(dir) || !statSync(dir).isDirectory()))
    bad(`cannot write: there is no directory ${dirname(f.shown)}`);
  const isDirectory = existsSync(f.path) && statSync(f.path).isDirectory();
  if (isDirectory) bad('is a directory; give a file name');
  const endings = EXTENSIONS[f.kind];
  if (o.existing !== 'continue' && !endings.some((e) => f.path.toLowerCase().endsWith(e)))
    bad(`the name must end ${endings.join(' or ')} (the file is ${KIND_NAMES[f.kind]})`);
  if (existsSync(f.path) && o.existing === 'refuse') {
    const journal = o.journal && existsSync(o.journal.path) ? o.journal : null;
    const ways = journal
      ? `continue that run with --resume ${journal.shown}, or replace its files with --force`
      : 'replace it with --force, or choose another name';
    throw new TafelError('bad-output', `${f.flag} ${f.shown}: the file exists (an earlier run's?); ${ways}`);
  }
}

/** What refuses the files of output directory `d` before anything is made. */
function checkDir(d: OutputDir, o: OutputCheck): void {
  for (const name of d.files) {
    const path = resolve(d.path, name);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory())
      throw new TafelError('unwritable', `${d.flag} ${d.shown}: ${name} is a directory`);
    if (o.existing !== 'refuse') continue;
    throw new TafelError(
      'bad-output',
      d.resumable
        ? `${d.flag} ${d.shown}: ${name} exists (an earlier run's); continue with --resume, or replace with --force`
        : `${d.flag} ${d.shown}: ${name} exists (earlier results); replace them with --force, or choose another ${d.flag}`,
    );
  }
}

/** A file of our own in `dir`, made and removed at once: the directory takes new files. */
function probe(dir: string, message: (why: string) => string): void {
  const path = resolve(dir, `.tafel-probe-${process.pid}`);
  try {
    writeFileSync(path, '');
    rmSync(path);
  } catch (e) {
    throw new TafelError('unwritable', message(errorCode(e)));
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
