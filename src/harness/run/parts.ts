/**
 * A run's parts from what a user wrote: its game by name, its table (players and rules,
 * table-for.ts), its chosen boards (`--boards`), its files (the journal beside `--out`);
 * the rules for whole numbers and seeds are flag-rules.ts. Below the CLI so that the commands (src/cli/) and the
 * experiments' plans (experiments/plan.ts) resolve a run one way, with one set of
 * messages; each error names the flag or plan field it comes from (`where`).
 */
import { TafelError } from '../../core/errors.js';
import { findGame } from '../../games/index.js';
import { listingNamed } from '../../games/listings.js';
import type { Game, TableConfig } from '../../games/game.js';
import { readBoards, type BoardSet } from '../table/boards.js';
import { outputFiles, type OutputFile, type OutputKind } from './outputs.js';
import type { RunFiles } from './spec.js';

export { playersRange, tableFor } from './table-for.js';

/** The game of this name, or an `unknown-game` error naming `where` (a flag, a plan's run) when given. */
export function gameNamed(name: string, where?: string): Game {
  return findGame(listingNamed(name, where).name)!;
}

/** `X.csv` -> `X.journal.jsonl`: where a run with `--out X.csv` keeps its journal. */
export function defaultJournal(out: string): string {
  return out.replace(/\.csv$/i, '') + '.journal.jsonl';
}

/** A run's files as its flags name them (`--out`, `--journal`, ...; absent: none). */
export type FileFlags = { readonly [K in Exclude<keyof RunFiles, 'dir'>]?: string };

/**
 * A run's files from its flags, paths relative to `dir` (where the command runs): the
 * journal beside `--out` unless `--journal` names one, so that a run with a summary can
 * be resumed.
 */
export function runFilesFor(o: FileFlags, dir: string): RunFiles {
  const journal = o.journal ?? (o.out ? defaultJournal(o.out) : undefined);
  return {
    dir,
    out: o.out ?? null,
    journal: journal ?? null,
    records: o.records ?? null,
    dealCsv: o.dealCsv ?? null,
    db: o.db ?? null,
    report: o.report ?? null,
  };
}

/** The flag and kind of each of a run's files. */
const FILE_FLAGS: Readonly<Record<Exclude<keyof RunFiles, 'dir'>, readonly [string, OutputKind]>> = {
  out: ['--out', 'csv'],
  journal: ['--journal', 'jsonl'],
  records: ['--records', 'jsonl'],
  dealCsv: ['--deal-csv', 'csv'],
  db: ['--db', 'duckdb'],
  report: ['--report', 'html'],
};

/** The files a run writes, for `checkOutputs`. */
export function runOutputs(files: RunFiles): OutputFile[] {
  return outputFiles(files, FILE_FLAGS);
}

/**
 * The boards of `--boards FILE` for this table (every one checked), the first `count`
 * of them when `--deals`/`--matches` gives a count.
 */
export function boardSetFor(file: string, game: Game, table: TableConfig, count: number | undefined): BoardSet {
  const boards = readBoards(file, file, game, table);
  if (count !== undefined && count > boards.length) {
    throw new TafelError(
      'bad-board',
      `--boards ${file} holds ${boards.length} boards, fewer than the ${count} asked for (leave out the count to play them all)`,
    );
  }
  return { file, boards: boards.slice(0, count ?? boards.length) };
}

/** The group of board `id` (its id, else its number from 1) in a run of `set`. */
export function boardGroup(set: BoardSet, id: string): number {
  const byId = set.boards.findIndex((b) => b.id === id);
  if (byId >= 0) return byId;
  const n = Number(id);
  if (Number.isSafeInteger(n) && n >= 1 && n <= set.boards.length) return n - 1;
  throw new TafelError('no-deal', `--boards ${set.file} has no board ${id} (ids or numbers 1 to ${set.boards.length})`);
}
