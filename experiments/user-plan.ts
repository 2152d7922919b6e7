/**
 * A user's plan (`tafel experiment PLAN.json`): runs and tables written as JSON, no
 * TypeScript. Its runs are played as a built-in experiment's are (plan.ts); each table
 * is its SQL over the runs' databases read together (`runs.name` names each run), and
 * the report is generic: the question, the command, the runtime, each table, the runs.
 * By itself (`tafel experiment plan`) it is the example, experiments/plans/example.json:
 * `--plan-only -` prints it as a start for one's own.
 */
import { join } from 'node:path';
import { csvText, type QueryResult } from '../src/harness/db/query.js';
import { TafelError } from '../src/core/errors.js';
import { PACKAGE_DIR } from '../src/harness/run/version.js';
import { writtenLine } from '../src/report/format.js';
import type { Experiment, Plan, PlannedRun } from './experiment.js';
import { readPlan } from './plan-file.js';
import { playPlan, queryPlan } from './plan.js';

/** The example plan, beside the sources. */
const EXAMPLE = join(PACKAGE_DIR, 'experiments', 'plans', 'example.json');

/** A value as a Markdown table cell. */
function cell(v: string | number | boolean | null | object): string {
  if (v === null) return '';
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function markdownTable(
  columns: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | object)[])[],
): string[] {
  return [
    `| ${columns.map(cell).join(' | ')} |`,
    `|${columns.map(() => '---|').join('')}`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
}

function runRow(r: PlannedRun): (string | number)[] {
  const rules = Object.entries(r.rules ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return [r.name, r.game, r.players ?? 'default', rules || 'default', r.bots, `${r.groups} ${r.unit} groups`, r.seed];
}

/** The generic report of a plan's tables. */
export function planReport(plan: Plan, results: readonly QueryResult[], seconds: number, workers: number): string {
  return (
    [
      `# ${plan.question}`,
      '',
      `Produced by \`${plan.command}\` in ${seconds.toFixed(0)} s on ${workers} worker thread${workers === 1 ? '' : 's'}; regenerate it with that command rather than editing it.`,
      writtenLine(new Date()),
      ...plan.tables.flatMap((t, i) => ['', `## ${t.name}`, '', ...markdownTable(results[i].columns, results[i].rows)]),
      '',
      '## Runs',
      '',
      ...markdownTable(['run', 'game', 'players', 'rules', 'bots', 'groups', 'seed'], plan.runs.map(runRow)),
    ].join('\n') + '\n'
  );
}

export const userPlan: Experiment = {
  name: 'plan',
  question: "A user's plan of runs and SQL tables (tafel experiment PLAN.json); by itself, the example plan",
  flags: [],
  plan: () => ({ ...readPlan(EXAMPLE), command: 'tafel experiment plan' }),
  async run(plan, session) {
    // Every table is SQL: checked before any play.
    const missing = plan.tables.findIndex((t) => t.sql === undefined);
    if (missing >= 0)
      throw new TafelError('bad-input', `tables[${missing}].sql: a user's plan makes each table by its SQL`);
    await playPlan(plan.runs, session);
    if (session.shard) return null;
    const results: QueryResult[] = [];
    for (const [i, t] of plan.tables.entries())
      results.push(await queryPlan(plan.runs, session.workDir, t.sql!, `tables[${i}].sql`, session.workers));
    return {
      tables: Object.fromEntries(plan.tables.map((t, i) => [t.name, csvText(results[i])])),
      report: (seconds) => planReport(plan, results, seconds, session.workers),
    };
  },
};
