/**
 * Replay's files: the record files given to `tafel serve --records` (RECORD.md lines),
 * named to the page by their index alone, so no request can name another path. A file
 * is read again at each request, line by line, so a file that grows (a run under way)
 * shows its new deals; the page draws a deal from its record's fields alone.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
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

  /** Each record of file `index` with its line number (from 1), until `visit` says stop. */
  private async scan(index: number, visit: (r: Record<string, unknown>, line: number) => boolean): Promise<void> {
    const path = this.path(index);
    const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let n = 0;
    try {
      for await (const text of rl) {
        n++;
        if (text.trim() === '') continue;
        let r: unknown;
        try {
          r = JSON.parse(text);
        } catch {
          throw new TafelError('bad-record', `${basename(path)} line ${n}: not a JSON record`);
        }
        if (typeof r !== 'object' || r === null || Array.isArray(r))
          throw new TafelError('bad-record', `${basename(path)} line ${n}: not a JSON object`);
        if (visit(r as Record<string, unknown>, n)) break;
      }
    } finally {
      rl.close();
    }
  }

  /** The deals of file `index` that pass `filter`: the first LIST_MAX, and how many passed. */
  async deals(index: number, filter: DealFilter): Promise<{ deals: DealEntry[]; matched: number }> {
    const deals: DealEntry[] = [];
    let matched = 0;
    await this.scan(index, (r, line) => {
      if (filter.seed !== undefined && String(r.seed) !== filter.seed) return false;
      if (filter.match !== undefined && r.match !== filter.match) return false;
      if (filter.deal !== undefined && r.deal !== filter.deal) return false;
      if (filter.rotation !== undefined && r.rotation !== filter.rotation) return false;
      matched++;
      if (deals.length < LIST_MAX)
        deals.push({
          line,
          game: r.game,
          seed: r.seed,
          match: r.match,
          deal: r.deal,
          rotation: r.rotation,
          bots: r.bots,
        });
      return false;
    });
    return { deals, matched };
  }

  /** The record on line `line` of file `index`. */
  async record(index: number, line: number): Promise<Record<string, unknown>> {
    let found: Record<string, unknown> | null = null;
    await this.scan(index, (r, n) => {
      if (n !== line) return false;
      found = r;
      return true;
    });
    if (!found) throw new TafelError('bad-option', `${basename(this.path(index))} has no record on line ${line}`);
    return found;
  }
}
