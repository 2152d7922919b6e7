/**
 * `tafel report`'s inputs: each file is recognised by what it holds, not by its name,
 * and read by the reader of its kind; an experiment's CSV, whose columns are the
 * experiment's own, by the plan beside it, which says how to draw it. Journals of one run's shards make one run; a
 * summary CSV or per-deal CSV of a run whose journal is also given adds nothing to it
 * but the per-deal values, nor does a tuning's CSV whose journal is given; an
 * experiment's CSV is drawn from its plan beside it (declared-input.ts), the tables of
 * one plan one part; a run database is a run of its own (db-input.ts); anything else is a
 * part of its own, in the order given.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import { isDealRecord } from '../harness/run/journal.js';
import { pathOf, shellWord } from '../harness/run/spec.js';
import type { ReportPart } from './data.js';
import { dealCsvHead, dealCsvRunData, isDealCsvHeader } from './deal-input.js';
import { declaredData, planOf } from './declared-input.js';
import { journalRunData, readJournals, type JournalRun } from './journal-input.js';
import { isSummaryHeader, summaryRunData } from './summary-input.js';
import { isTuneCsvHeader, isTuneJournalLine, tuneCsvData, tuneCsvOf, tuneJournalData } from './tune-input.js';

type Kind = 'database' | 'journal' | 'summary' | 'deals' | 'tune-journal' | 'tune-csv' | 'experiment';

/** `databases`: the run databases among `paths`, read already (DuckDB answers only asynchronously: see databaseInputs). */
export function readInputs(
  paths: readonly string[],
  databases: ReadonlyMap<string, ReportPart> = new Map(),
): ReportPart[] {
  if (paths.length === 0) throw new TafelError('missing-input', 'report: give the files to report on');
  const kinds = paths.map((path) => ({ path, kind: databases.has(path) ? ('database' as const) : kindOf(path) }));
  const runs = readJournals(kinds.filter((k) => k.kind === 'journal').map((k) => k.path));
  const given = (run: JournalRun) => new Set(run.parts.map((p) => resolve(p.path)));
  const extra = new Map<JournalRun, string[]>();
  const parts: { at: number; part: () => ReportPart }[] = [];
  const at = (path: string) => paths.indexOf(path);
  const plans = new Set<string>();
  const tuneCsvs = new Set(kinds.filter((k) => k.kind === 'tune-journal').map((k) => tuneCsvOf(k.path)));
  for (const { path, kind } of kinds) {
    if (kind === 'journal') continue;
    if (kind === 'database') {
      parts.push({ at: at(path), part: () => databases.get(path)! });
      continue;
    }
    if (kind === 'tune-journal') {
      parts.push({ at: at(path), part: () => tuneJournalData(path) });
    } else if (kind === 'tune-csv') {
      if (!tuneCsvs.has(resolve(path))) parts.push({ at: at(path), part: () => tuneCsvData(path) });
    } else if (kind === 'summary') {
      const of = runs.find((r) => r.parts.some((p) => pathOf(p.contents.spec, 'out') === resolve(path)));
      if (!of) parts.push({ at: at(path), part: () => summaryRunData(path, readFileSync(path, 'utf8')) });
    } else if (kind === 'deals') {
      const head = dealCsvHead(path, path);
      const labels = [...head.labels].sort().join('\n');
      const of = runs.find(
        (r) =>
          r.parts.some((p) => pathOf(p.contents.spec, 'dealCsv') === resolve(path)) ||
          (r.spec.game === head.game &&
            r.spec.seed === head.seed &&
            r.spec.entrants
              .map((e) => e.label)
              .sort()
              .join('\n') === labels),
      );
      if (of) extra.set(of, [...(extra.get(of) ?? []), path]);
      else parts.push({ at: at(path), part: () => dealCsvRunData(path) });
    } else {
      // The tables of one plan given together make one part, where the first of them is.
      const plan = planOf(path)!;
      if (!plans.has(resolve(plan))) parts.push({ at: at(path), part: () => declaredData(plan) });
      plans.add(resolve(plan));
    }
  }
  for (const run of runs) {
    const first = Math.min(...[...given(run)].map((p) => paths.findIndex((q) => resolve(q) === p)));
    parts.push({ at: first, part: () => journalRunData(run, extra.get(run) ?? []) });
  }
  return parts.sort((a, b) => a.at - b.at).map((p) => p.part());
}

/** What a file is, from its first bytes. */
function kindOf(path: string): Kind {
  if (!existsSync(path)) throw new TafelError('unreadable', `report: ${path}: no such file`);
  if (statSync(path).isDirectory()) throw new TafelError('unreadable', `report: ${path} is a directory; give files`);
  const head = firstBytes(path, 1 << 16);
  if (isDatabase(head)) throw new TafelError('bad-input', `report: ${path} is a DuckDB database not read first`);
  const text = head.toString('utf8');
  const line = text.slice(0, text.includes('\n') ? text.indexOf('\n') : text.length).replace(/\r$/, '');
  if (isTuneJournalLine(line)) return 'tune-journal';
  if (line.startsWith('{')) {
    if (isDealRecord(firstJson(line)))
      throw new TafelError(
        'bad-input',
        `report: ${path} is a file of deal records (RECORD.md), which a report does not draw: give the run's journal or per-deal CSV, or show a deal of it with tafel replay --records ${shellWord(path)} --match M`,
      );
    return 'journal';
  }
  let columns: string[] = [];
  try {
    columns = parse(line)[0] ?? [];
  } catch {
    // Not CSV either: said below.
  }
  if (isSummaryHeader(columns)) return 'summary';
  if (isDealCsvHeader(columns)) return 'deals';
  if (isTuneCsvHeader(columns)) return 'tune-csv';
  if (planOf(path)) return 'experiment';
  throw new TafelError(
    'bad-input',
    `report: ${path} is none of what a report reads: a run's journal, summary CSV or per-deal CSV, a tuning's journal or CSV, or an experiment's results CSV with its plan beside it` +
      (columns.length > 1 && /\.csv$/i.test(path)
        ? ` (${path.replace(/\.csv$/i, '.plan.json')} is missing: tafel experiment NAME --plan-only writes it)`
        : ''),
  );
}

/** Whether a file starts as a DuckDB database does ("DUCK" at byte 8). */
function isDatabase(head: Buffer): boolean {
  return head.subarray(8, 12).toString('latin1') === 'DUCK';
}

/** The run databases among `paths`, each read as the run it holds (see readInputs). */
export async function databaseInputs(paths: readonly string[]): Promise<Map<string, ReportPart>> {
  const databases = new Map<string, ReportPart>();
  for (const path of paths) {
    if (!existsSync(path) || statSync(path).isDirectory() || !isDatabase(firstBytes(path, 12))) continue;
    const { dbRunData } = await import('./db-input.js');
    databases.set(path, await dbRunData(path));
  }
  return databases;
}

/** The value of a JSON line, or null (a line cut off at the bytes read, or not JSON). */
function firstJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

function firstBytes(path: string, n: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new TafelError('unreadable', `report: ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? ''})`);
  }
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}
