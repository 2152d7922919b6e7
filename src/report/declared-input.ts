/**
 * Reading an experiment's results through its plan (`NAME.plan.json` beside `NAME.csv`):
 * the plan says the question, the command, its tables and the figures to draw from them
 * (declared.ts), so the report knows no experiment. Each figure's rows are its table's,
 * kept as written; every column a figure names is checked here, before anything is drawn.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import type { DeclaredData } from './data.js';
import { checkFigure, columnsOf, matches, type DeclaredFigure } from './declared.js';
import { writtenIn } from './format.js';

/** A plan as the report reads it: what it uses of the plan format (experiments/experiment.ts). */
interface PlanView {
  readonly name: string;
  readonly question: string;
  readonly command: string;
  readonly tables: readonly string[];
  readonly figures: readonly DeclaredFigure[];
}

/**
 * The plan a CSV is a table of, or null: `NAME.plan.json` beside `NAME.csv` (the first
 * table), or beside `NAME-TABLE.csv` when that plan has a table TABLE.
 */
export function planOf(csv: string): string | null {
  const stem = basename(csv).replace(/\.csv$/i, '');
  const beside = (name: string) => join(dirname(csv), `${name}.plan.json`);
  if (existsSync(beside(stem))) return beside(stem);
  for (let i = stem.lastIndexOf('-'); i > 0; i = stem.lastIndexOf('-', i - 1)) {
    const path = beside(stem.slice(0, i));
    if (
      existsSync(path) &&
      readPlanView(path)
        .tables.slice(1)
        .includes(stem.slice(i + 1))
    )
      return path;
  }
  return null;
}

/** The page part of the plan at `path`: its identity and each figure's rows. */
export function declaredData(path: string): DeclaredData {
  const plan = readPlanView(path);
  const dir = dirname(path);
  const file = (table: string) =>
    join(dir, table === plan.tables[0] ? `${plan.name}.csv` : `${plan.name}-${table}.csv`);
  const read = new Map<string, { columns: string[]; rows: Record<string, string>[] }>();
  const tableOf = (table: string) => {
    if (!read.has(table)) read.set(table, readTable(file(table)));
    return read.get(table)!;
  };
  // A plan that declares no figure (a user's, at first) shows its first table as it is.
  const declared: readonly DeclaredFigure[] = plan.figures.length
    ? plan.figures
    : [{ kind: 'table', title: `The table ${plan.tables[0]}`, columns: tableOf(plan.tables[0]).columns }];
  const figures = declared.map((figure) => {
    const table = figure.table ?? plan.tables[0];
    if (!plan.tables.includes(table))
      throw new TafelError(
        'bad-input',
        `report: ${path}: figure '${figure.title}': no table '${table}' in the plan (${plan.tables.join(', ')})`,
      );
    const { columns, rows } = tableOf(table);
    const has = (c: string) => columns.includes(c);
    const missing = columnsOf(figure, has).find((c) => !has(c));
    if (missing !== undefined)
      throw new TafelError(
        'bad-input',
        `report: ${path}: figure '${figure.title}': no column '${missing}' in ${file(table)} (${columns.join(', ')})`,
      );
    const where = Object.entries(figure.where ?? {});
    return { figure, rows: rows.filter((r) => where.every(([c, v]) => matches(r[c], v))) };
  });
  // One plan serves many results (a ladder of each game): a figure with no rows here is said, not drawn empty.
  const empty = figures.filter((f) => f.rows.length === 0).map((f) => `'${f.figure.title}'`);
  const md = join(dir, `${plan.name}.md`);
  const markdown = existsSync(md) ? readFileSync(md, 'utf8') : '';
  const when = writtenIn(markdown);
  return {
    kind: 'declared',
    identity: {
      title: plan.question,
      facts: [
        ['results', plan.tables.map((t) => basename(file(t))).join(', ')],
        ['time', when ? `results written ${when}` : 'not recorded with the results'],
      ],
      command: plan.command,
      sources: [path, ...[...read.keys()].map(file), ...(markdown ? [md] : [])],
    },
    figures: figures.filter((f) => f.rows.length > 0),
    notes: empty.length ? [`No rows in these results for ${empty.join(', ')}.`] : [],
  };
}

function readPlanView(path: string): PlanView {
  const bad = (field: string, why: string): never => {
    throw new TafelError('bad-input', `report: ${path}: ${field}: ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new TafelError('bad-input', `report: ${path}: not a plan (${(e as Error).message})`);
  }
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const text = (k: string, fallback?: string): string => {
    const v = o[k] ?? fallback;
    return typeof v === 'string' && v !== '' ? v : bad(k, 'a non-empty string');
  };
  const tables = Array.isArray(o.tables) ? o.tables.map((t: { name?: unknown }) => t?.name) : [];
  if (tables.length === 0 || !tables.every((t): t is string => typeof t === 'string'))
    bad('tables', 'a non-empty list of tables with names');
  const figures = o.figures === undefined ? [] : Array.isArray(o.figures) ? o.figures : bad('figures', 'a list');
  const name = text('name');
  return {
    name,
    question: text('question', name),
    command: text('command', `tafel experiment ${path}`),
    tables: tables as string[],
    figures: figures.map((f, i) => checkFigure(f, `figures[${i}]`, bad)),
  };
}

function readTable(path: string): { columns: string[]; rows: Record<string, string>[] } {
  if (!existsSync(path)) throw new TafelError('unreadable', `report: ${path}: no such file (a table of the plan)`);
  let columns: string[] = [];
  const rows = parse<Record<string, string>>(readFileSync(path, 'utf8'), {
    columns: (head: string[]) => (columns = head),
    skip_empty_lines: true,
  });
  return { columns, rows };
}
