/**
 * A plan as a file (`<name>.plan.json`): read and checked field by field, so that a
 * user's hand-written plan, or one saved by `--plan-only` and edited, is refused before
 * any play with one line that names the field (`runs[2].groups: ...`). The games, rules
 * and bots of its runs are checked when the plan is played (plan.ts), still before any
 * play.
 */
import { readFileSync } from 'node:fs';
import { TafelError } from '../src/core/errors.js';
import { SEED, SEED_RULE } from '../src/harness/run/flag-rules.js';
import { checkFigure } from '../src/report/declared.js';
import { PLAN_VERSION, type Plan, type PlannedRun, type PlannedTable } from './experiment.js';

type Json = Record<string, unknown>;

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/;
const FILE_STEM = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** The plan as its file holds it: two-space JSON and a final newline. */
export function planText(plan: Plan): string {
  return JSON.stringify(plan, null, 2) + '\n';
}

/** The plan in `path`, checked; `command` defaults to running that file again. */
export function readPlan(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TafelError('unreadable', `${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new TafelError('bad-input', `${path}: not JSON (${(e as Error).message})`);
  }
  return checkPlan(value, path, `tafel experiment ${path}`);
}

/** `value` as a plan, or a `bad-input` error naming `file` and the field. */
export function checkPlan(value: unknown, file: string, command: string): Plan {
  const bad = (field: string, why: string): never => {
    throw new TafelError('bad-input', `${file}: ${field}: ${why}`);
  };
  const o = object(value, 'the plan', bad);
  known(o, '', ['plan', 'name', 'experiment', 'question', 'command', 'options', 'runs', 'tables', 'figures'], bad);
  if (typeof o.plan !== 'number' || !Number.isInteger(o.plan) || o.plan < 1)
    bad('plan', `the plan format's version, a whole number (this tafel writes ${PLAN_VERSION})`);
  if ((o.plan as number) > PLAN_VERSION)
    bad('plan', `version ${String(o.plan)} is newer than this tafel reads (${PLAN_VERSION}): update tafel`);
  const name = text(o.name, 'name', bad, FILE_STEM, 'letters, digits, _ . - (the results are <name>.csv and .md)');
  const runs = array(o.runs, 'runs', bad).map((r, i) => checkRun(r, `runs[${i}]`, bad));
  if (runs.length === 0) bad('runs', 'at least one run');
  const twice = runs.find((r, i) => runs.findIndex((s) => s.name === r.name) < i);
  if (twice) bad('runs', `two runs named ${twice.name}`);
  const tables = array(o.tables, 'tables', bad).map((t, i) => checkTable(t, `tables[${i}]`, bad));
  if (tables.length === 0) bad('tables', 'at least one table');
  const dup = tables.find((t, i) => tables.findIndex((s) => s.name === t.name) < i);
  if (dup) bad('tables', `two tables named ${dup.name}`);
  const options = o.options === undefined ? {} : object(o.options, 'options', bad);
  for (const [k, v] of Object.entries(options)) {
    const scalar = (x: unknown) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
    if (!(scalar(v) || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))))
      bad(`options.${k}`, 'a string, number or boolean, or a list of strings or numbers');
  }
  const figures = o.figures === undefined ? [] : array(o.figures, 'figures', bad);
  return {
    plan: PLAN_VERSION,
    name,
    experiment: o.experiment === undefined ? 'plan' : text(o.experiment, 'experiment', bad),
    question: o.question === undefined ? name : text(o.question, 'question', bad),
    command: o.command === undefined ? command : text(o.command, 'command', bad),
    options: options as Plan['options'],
    runs,
    tables,
    figures: figures.map((f, i) => checkFigure(f, `figures[${i}]`, bad)),
  };
}

type Bad = (field: string, why: string) => never;

function checkRun(value: unknown, at: string, bad: Bad): PlannedRun {
  const r = object(value, at, bad);
  known(r, at, ['name', 'game', 'players', 'rules', 'bots', 'unit', 'groups', 'seed', 'timeMoves'], bad);
  const rules = r.rules === undefined ? undefined : object(r.rules, `${at}.rules`, bad);
  for (const [k, v] of Object.entries(rules ?? {}))
    if (typeof v !== 'string') bad(`${at}.rules.${k}`, 'a value as text, as --rules takes it');
  if (r.unit !== 'deal' && r.unit !== 'match') bad(`${at}.unit`, "'deal' or 'match'");
  if (r.timeMoves !== undefined && typeof r.timeMoves !== 'boolean') bad(`${at}.timeMoves`, 'true or false');
  return {
    name: text(r.name, `${at}.name`, bad, RUN_NAME, 'letters, digits and - (its files in the work directory)'),
    game: text(r.game, `${at}.game`, bad),
    ...(r.players === undefined ? {} : { players: whole(r.players, `${at}.players`, bad) }),
    ...(rules === undefined ? {} : { rules: rules as Record<string, string> }),
    bots: text(r.bots, `${at}.bots`, bad),
    unit: r.unit,
    groups: whole(r.groups, `${at}.groups`, bad),
    seed: text(r.seed, `${at}.seed`, bad, SEED, SEED_RULE),
    ...(r.timeMoves === undefined ? {} : { timeMoves: r.timeMoves }),
  };
}

function checkTable(value: unknown, at: string, bad: Bad): PlannedTable {
  const t = object(value, at, bad);
  known(t, at, ['name', 'sql'], bad);
  const name = text(t.name, `${at}.name`, bad, /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, _ and -');
  return t.sql === undefined ? { name } : { name, sql: text(t.sql, `${at}.sql`, bad) };
}

function object(v: unknown, at: string, bad: Bad): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(at, 'an object ({...})');
  return v as Json;
}

function array(v: unknown, at: string, bad: Bad): unknown[] {
  if (!Array.isArray(v)) bad(at, 'a list ([...])');
  return v as unknown[];
}

function text(v: unknown, at: string, bad: Bad, shape?: RegExp, what?: string): string {
  if (typeof v !== 'string' || v === '') bad(at, 'a text, not empty');
  if (shape && !shape.test(v)) bad(at, `'${String(v)}': ${what}`);
  return v;
}

function whole(v: unknown, at: string, bad: Bad): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) bad(at, 'a whole number from 1');
  return v;
}

function known(o: Json, at: string, keys: readonly string[], bad: Bad): void {
  for (const k of Object.keys(o))
    if (!keys.includes(k)) bad(at ? `${at}.${k}` : k, `not a field of a plan (known: ${keys.join(', ')})`);
}
