/**
 * Resuming a run: the journal says which groups are done; the records and per-deal
 * CSV files are cut back to exactly those groups (an interrupted run may have written
 * a little past its last journal line, or, after a crash of the machine, a little
 * less). Each group has a known number of lines in each file (a record per deal, a
 * CSV row per seat and deal), so the cut points follow from the journal's deal
 * counts; the last kept line is checked to belong to the last kept group.
 */
import { existsSync, statSync, truncateSync } from 'node:fs';
import { TafelError } from '../../core/errors.js';
import { forEachLine } from './journal-file.js';
import type { GroupLine, JournalContents } from './journal.js';

export interface ResumeFiles {
  readonly journal: string;
  readonly records: string | null;
  readonly dealCsv: string | null;
  /** The per-deal CSV's header line (with its newline). */
  readonly dealHeader: string;
  readonly seats: number;
  readonly rotations: number;
}

/**
 * Cut the journal, records and per-deal CSV back to the longest prefix of groups that
 * all of them hold completely, and return that prefix's group lines.
 */
export function cutBack(c: JournalContents, f: ResumeFiles): GroupLine[] {
  let kept = c.lines.length;
  const cuts: [string, number[]][] = [];
  for (const [path, kind] of [
    [f.records, 'records'],
    [f.dealCsv, 'dealCsv'],
  ] as const) {
    if (!path) continue;
    const ends = fileEnds(c, kind, path, f);
    kept = Math.min(kept, ends.length - 1);
    cuts.push([path, ends]);
  }
  cuts.push([f.journal, c.ends]);
  for (const [path, ends] of cuts) cut(path, ends[kept]);
  return c.lines.slice(0, kept);
}

/**
 * Byte offsets in a run's records (`kind` 'records') or per-deal CSV ('dealCsv') after
 * the header (0 for records) and after each complete group of the journal, as far as
 * the file goes.
 */
export function fileEnds(
  c: JournalContents,
  kind: 'records' | 'dealCsv',
  path: string,
  f: Pick<ResumeFiles, 'dealHeader' | 'seats' | 'rotations'>,
): number[] {
  const dealsOf = (line: GroupLine) => ('skipped' in line ? 0 : line.deals);
  return kind === 'records'
    ? groupEnds(path, '--records', c.lines, null, dealsOf, (text, g) => recordGroup(text, f.rotations) === g)
    : groupEnds(
        path,
        '--deal-csv',
        c.lines,
        f.dealHeader,
        (line) => dealsOf(line) * f.seats,
        (text, g) => csvGroup(text) === g,
      );
}

/**
 * Byte offsets in `path` after its header (if any) and after each complete group, as
 * far as the file goes; `owns(text, g)` checks each group's last line.
 */
function groupEnds(
  path: string,
  what: string,
  lines: readonly GroupLine[],
  header: string | null,
  linesOf: (line: GroupLine) => number,
  owns: (text: string, g: number) => boolean,
): number[] {
  const n = lines.length;
  if (!existsSync(path)) {
    if (lines.every((l) => linesOf(l) === 0)) return new Array<number>(n + 1).fill(0);
    throw new TafelError('bad-resume', `cannot resume: ${what} ${path} is missing, but the journal has ${n} groups`);
  }
  const ends: number[] = [];
  let g = 0;
  let left = 0;
  // Called where group g begins: groups without lines (skipped ones) also end there.
  const begin = (at: number) => {
    while (g < n && (left = linesOf(lines[g])) === 0) {
      g++;
      ends.push(at);
    }
  };
  if (!header) {
    ends.push(0);
    begin(0);
  }
  let lineNo = 0;
  forEachLine(path, what, (text, end, complete) => {
    if (!complete || (g >= n && !(header && lineNo === 0))) return false;
    lineNo++;
    if (header && lineNo === 1) {
      if (text + '\n' !== header)
        throw new TafelError('bad-resume', `cannot resume: ${what} ${path} has other columns than this run writes`);
      ends.push(end);
      begin(end);
      return g < n;
    }
    if (--left === 0) {
      if (!owns(text, lines[g].g)) {
        throw new TafelError(
          'bad-resume',
          `cannot resume: ${what} ${path} line ${lineNo} does not belong to group ${lines[g].g}, as the journal says it should`,
        );
      }
      g++;
      ends.push(end);
      begin(end);
    }
    return g < n;
  });
  // A per-deal CSV cut off before its header line: start it again.
  if (ends.length === 0) ends.push(0);
  return ends;
}

function recordGroup(text: string, rotations: number): number {
  try {
    const r = JSON.parse(text) as { match?: unknown };
    return typeof r.match === 'number' ? Math.floor(r.match / rotations) : -1;
  } catch {
    return -1;
  }
}

/** The group column of a per-deal CSV row: game and seed, before it, never need quoting. */
function csvGroup(text: string): number {
  const cols = text.split(',', 3);
  return cols.length === 3 && /^\d+$/.test(cols[2]) ? Number(cols[2]) : -1;
}

function cut(path: string, size: number): void {
  try {
    if (existsSync(path) && statSync(path).size !== size) truncateSync(path, size);
  } catch (e) {
    throw new TafelError(
      'unwritable',
      `cannot resume: ${path}: cannot truncate (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}
