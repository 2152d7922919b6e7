/**
 * Resuming a run: the journal says which groups are done: a format-3 journal's last
 * checkpoint, or every group line of a format-2 one. The records and per-deal CSV are
 * cut back to a checkpoint by the group column of their lines: a checkpoint's groups
 * must be there with as many lines as its deals say (a file behind it, after a crash of
 * the machine, falls back to an earlier checkpoint, or to the start). For a format-2
 * journal (below): the records and per-deal
 * CSV files are cut back to exactly those groups (an interrupted run may have written
 * a little past its last journal line, or, after a crash of the machine, a little
 * less). Each group has a known number of lines in each file (a record per deal, a
 * CSV row per seat and deal), so the cut points follow from the journal's deal
 * counts; the last kept line is checked to belong to the last kept group.
 */
import { existsSync, statSync, truncateSync } from 'node:fs';
import { TafelError } from '../../core/errors.js';
import { forEachLine } from './journal-file.js';
import type { Checkpoint, GroupLine, JournalContents } from './journal.js';

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
export function cutBack(c: JournalContents & { version: 2 }, f: ResumeFiles): GroupLine[] {
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
function fileEnds(
  c: JournalContents & { version: 2 },
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

/** Where a record's or a per-deal row's group is read, and how many lines a deal has. */
function fileKind(kind: 'records' | 'dealCsv', f: Pick<ResumeFiles, 'dealHeader' | 'seats' | 'rotations'>) {
  return kind === 'records'
    ? { what: '--records', header: null, perDeal: 1, groupOf: (text: string) => recordGroup(text, f.rotations) }
    : { what: '--deal-csv', header: f.dealHeader, perDeal: f.seats, groupOf: csvGroup };
}

/**
 * For each of the ascending group numbers `at`: the lines of `path` (after its header)
 * whose group is below it, and the byte offset after them. One pass, stopping once past
 * the last; lines are in group order (a line out of order is a corrupt file).
 */
function linesBefore(
  path: string,
  kind: ReturnType<typeof fileKind>,
  at: readonly number[],
): { lines: number[]; ends: number[]; start: number } | null {
  if (!existsSync(path)) return null;
  const lines: number[] = [];
  const ends: number[] = [];
  let count = 0;
  let last = 0;
  let start = 0;
  let lineNo = 0;
  let previous = -1;
  forEachLine(path, kind.what, (text, end, complete) => {
    if (!complete) return false;
    lineNo++;
    if (kind.header && lineNo === 1) {
      if (text + '\n' !== kind.header)
        throw new TafelError(
          'bad-resume',
          `cannot resume: ${kind.what} ${path} has other columns than this run writes`,
        );
      start = last = end;
      return true;
    }
    const g = kind.groupOf(text);
    if (g < 0 || g < previous)
      throw new TafelError(
        'bad-resume',
        `cannot resume: ${kind.what} ${path} line ${lineNo} is ${g < 0 ? 'not one of this run' : 'of a group out of order'} (a corrupt file)`,
      );
    previous = g;
    while (lines.length < at.length && g >= at[lines.length]) {
      lines.push(count);
      ends.push(last);
    }
    if (lines.length === at.length) return false;
    count++;
    last = end;
    return true;
  });
  while (lines.length < at.length) {
    lines.push(count);
    ends.push(last);
  }
  return { lines, ends, start };
}

/**
 * Cut the journal (format 3), records and per-deal CSV back to the latest checkpoint
 * that every file holds completely, and return it (null: back to the start, where the
 * journal keeps its header only).
 */
export function cutBackToCheckpoint(
  c: JournalContents & { version: 3 },
  headerEnd: number,
  from: number,
  f: ResumeFiles,
): Checkpoint | null {
  const cps = c.checkpoints;
  const at = cps.map((cp) => from + cp.groups);
  let usable = cps.length;
  const cuts: [string, number[], number][] = [];
  for (const [path, k] of [
    [f.records, 'records'],
    [f.dealCsv, 'dealCsv'],
  ] as const) {
    if (!path) continue;
    const kind = fileKind(k, f);
    const found = linesBefore(path, kind, at);
    const last = cps.at(-1);
    if (!found) {
      if (last && last.deals > 0)
        throw new TafelError(
          'bad-resume',
          `cannot resume: ${kind.what} ${path} is missing, but the journal has ${last.groups} groups`,
        );
      continue;
    }
    for (let i = 0; i < cps.length; i++) {
      const want = cps[i].deals * kind.perDeal;
      if (found.lines[i] > want)
        throw new TafelError(
          'bad-resume',
          `cannot resume: ${kind.what} ${path} holds ${found.lines[i]} lines of the first ${cps[i].groups} groups, the journal says ${want} (a corrupt file)`,
        );
      // Behind this checkpoint (the machine crashed before the file was on disk): an earlier one.
      if (found.lines[i] < want) usable = Math.min(usable, i);
    }
    cuts.push([path, found.ends, found.start]);
  }
  const cp = usable > 0 ? cps[usable - 1] : null;
  for (const [path, ends, start] of cuts) cut(path, cp ? ends[usable - 1] : start);
  cut(f.journal, cp ? cp.end : headerEnd);
  return cp;
}

/**
 * The byte range of a finished shard's records or per-deal rows (after the header, to
 * the end of its last group): checked to hold as many lines as its deals say.
 */
export function shardFileRange(
  kind: 'records' | 'dealCsv',
  path: string,
  to: number,
  deals: number,
  f: Pick<ResumeFiles, 'dealHeader' | 'seats' | 'rotations'>,
): { start: number; end: number; lines: number; want: number } {
  const k = fileKind(kind, f);
  const found = linesBefore(path, k, [to]) ?? { lines: [0], ends: [0], start: 0 };
  return { start: found.start, end: found.ends[0], lines: found.lines[0], want: deals * k.perDeal };
}
