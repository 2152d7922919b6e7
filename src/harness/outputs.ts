/**
 * Output files that are never left half-written: the summary CSV is written to a
 * temporary file and renamed into place; deal records are appended one whole group
 * at a time. Every path is opened (or probed) before the first deal is played, so an
 * unwritable path fails at once and not after an hour of play.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { TafelError } from '../core/errors.js';

export function probeWritable(path: string, what: string): void {
  const tmp = `${path}.tmp`;
  try {
    writeFileSync(tmp, '');
    rmSync(tmp);
  } catch (e) {
    throw new TafelError(
      'unwritable',
      `${what} ${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

/** Write `rows` as CSV with a header, atomically. */
export function writeCsv(path: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, stringify(rows as Record<string, unknown>[], { header: true, columns: [...columns] }));
  renameSync(tmp, path);
}

/** A text file written in whole pieces (each piece a group's lines), for records and per-deal CSV. */
export class TextFile {
  private fd: number;

  constructor(
    readonly path: string,
    what: string,
    append = false,
  ) {
    try {
      this.fd = openSync(path, append ? 'a' : 'w');
    } catch (e) {
      throw new TafelError(
        'unwritable',
        `${what} ${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }

  write(text: string | Uint8Array): void {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    // A write may be short (a full disk says so only then): go on until all is written.
    for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
