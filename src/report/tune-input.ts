/**
 * Reading a tuning: its journal holds it whole (the tune spec, then every iteration's
 * paired differences, replayed on paper here exactly as `tafel tune --resume` does) and
 * names the verification's journal, read for the check of the tuned bot and the SPRT's
 * walk. The iteration CSV (`--out`) is read through the journal beside it when that is
 * there; alone, it still holds every iteration, the start and the verification's
 * interval, but not the bounds, the schedule or the command (the notes say so).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { TafelError } from '../core/errors.js';
import { findGame } from '../games/index.js';
import { identityDifference, pathOf } from '../harness/run/spec.js';
import type { Estimate } from '../harness/stats/stats.js';
import { replay, verifySpec } from '../harness/tune/tune.js';
import { readTuneJournal } from '../harness/tune/journal.js';
import { headline } from '../harness/tune/spec.js';
import { finalValue } from '../harness/tune/spsa.js';
import type { TuneData } from './data.js';
import { stamp, whole } from './format.js';
import { journalRunData, readJournals } from './journal-input.js';
import { tuneData, verdictOf, type TuneVerification } from './tune-data.js';

/** The first line of a tuning journal, as `tafel tune` writes it. */
export function isTuneJournalLine(line: string): boolean {
  return line.startsWith('{"tafel":"tune-journal"');
}

const CSV_HEAD = 'game,rules,seed,start,against,metric,row,iteration,groups,deals,diff,result,';
const CSV_TAIL = ',ci95_low,ci95_high,verdict';

/** A tuning's iteration CSV, by its header. */
export function isTuneCsvHeader(columns: readonly string[]): boolean {
  const header = columns.join(',');
  return header.startsWith(CSV_HEAD) && header.endsWith(CSV_TAIL);
}

/** The path of a tuning journal's iteration CSV, or null. */
export function tuneCsvOf(journal: string): string | null {
  return pathOf(readTuneJournal(journal, 'report:').spec, 'out');
}

export function tuneJournalData(path: string, also: readonly string[] = []): TuneData {
  const where = `report: ${path}`;
  const { spec, lines } = readTuneJournal(path, 'report:');
  const iterations = replay(spec, lines, where);
  const notes: string[] = [];
  const sources = [path, ...also];
  let verification: TuneVerification | null = null;
  const journal = pathOf(spec, 'verifyJournal');
  if (spec.verify && lines.length === spec.iterations) {
    if (!journal) notes.push('The verification was played without --out: its results are on the tuning’s stdout.');
    else if (!existsSync(journal)) notes.push(`The verification’s journal ${journal} is not there.`);
    else {
      const run = readJournals([journal])[0];
      const values = spec.tune.map((p, i) => finalValue(p, lines[lines.length - 1].theta[i]));
      const differs = identityDifference(run.spec, verifySpec(spec, values));
      if (differs) notes.push(`${journal} is not this tuning’s verification (${differs} differs).`);
      else {
        const data = journalRunData(run);
        const metric = headline(findGame(spec.game)!, spec.unit);
        const section = data.sections.find((s) => s.unit === spec.unit)!;
        const e = section.pairs.find((p) => p.bot === 'tuned' && p.opponent === 'start' && p.metric === metric.key)!;
        const estimate = metric.higherIsBetter
          ? e.estimate
          : { ...e.estimate, mean: -e.estimate.mean, low: -e.estimate.high, high: -e.estimate.low };
        const finished = run.groups >= run.spec.groups || data.sprt?.decision != null;
        verification = { estimate, verdict: verdictOf(estimate, data.sprt, finished), sprt: data.sprt };
        sources.push(relative(process.cwd(), journal));
      }
    }
  }
  return tuneData(spec, iterations, verification, {
    when: `journal last written ${stamp(statSync(path).mtime)}`,
    sources,
    notes,
  });
}

/** A tuning from its iteration CSV: through its journal when it lies beside it, else from the CSV alone. */
export function tuneCsvData(path: string): TuneData {
  const journal = path.replace(/\.csv$/i, '') + '.journal.jsonl';
  if (existsSync(journal) && tuneCsvOf(journal) === resolve(path)) return tuneJournalData(journal, [path]);
  return tuneCsvAlone(path);
}

type Row = Record<string, string>;

function tuneCsvAlone(path: string): TuneData {
  const rows = parse<Row>(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true });
  const bad = (why: string): never => {
    throw new TafelError('bad-input', `report: tuning CSV ${path}: ${why}`);
  };
  if (rows.length === 0) bad('no rows');
  const first = rows[0];
  const game = findGame(first.game) ?? bad(`unknown game '${first.game}'`);
  const keys = Object.keys(first)
    .filter((c) => c.startsWith('theta_'))
    .map((c) => c.slice('theta_'.length));
  const num = (r: Row, c: string, line: number): number => {
    const x = Number(r[c]);
    if (r[c] === undefined || r[c] === '' || !Number.isFinite(x)) bad(`line ${line}: ${c} is not a number`);
    return x;
  };
  const startOf = (key: string): number => {
    const given = first.start.split(':').find((a) => a.startsWith(`${key}=`));
    const x = Number(given?.slice(key.length + 1));
    return given && Number.isFinite(x) ? x : bad(`the start '${first.start}' has no number for ${key}`);
  };
  const start = keys.map(startOf);
  const its = rows.filter((r) => r.row === 'iteration');
  const after = its.map((r, n) => keys.map((k) => num(r, `theta_${k}`, n + 2)));
  const iterations = its.map((r, n) => ({
    iteration: num(r, 'iteration', n + 2),
    theta: n === 0 ? start : after[n - 1],
    c: keys.map((k) => num(r, `c_${k}`, n + 2)),
    flips: keys.map((k) => num(r, `flip_${k}`, n + 2)),
    groups: num(r, 'groups', n + 2),
    result: num(r, 'result', n + 2),
  }));
  const v = rows.find((r) => r.row === 'verify');
  const per = game.matchMetrics.some((m) => m.key === first.metric) ? 'match' : 'deal';
  const estimate = (r: Row): Estimate => ({
    n: Number(r.groups),
    mean: Number(r.diff),
    sd: NaN,
    low: r.ci95_low === '' ? NaN : Number(r.ci95_low),
    high: r.ci95_high === '' ? NaN : Number(r.ci95_high),
  });
  const tunedValues = v ? keys.map((k) => num(v, `theta_${k}`, rows.length + 1)) : after.at(-1);
  const deals = its.reduce((a, r) => a + Number(r.deals), 0);
  const identity = {
    title: `Tuning ${first.start.split(':')[0]} in ${first.game}: ${keys.join(', ')}, seed ${first.seed}`,
    facts: [
      ['game', `${first.game}: ${game.title}`],
      ['rules', first.rules === '' || first.rules === '-' ? 'none (no variants)' : first.rules.replace(/;/g, ', ')],
      ['start', first.start],
      ['against', first.against || 'none: theta+ against theta-'],
      ['seed', first.seed],
      ['size', `${whole(its.length)} iterations, ${whole(deals)} deals played`],
      ['tuned', tunedValues ? keys.map((k, i) => `${k}=${tunedValues[i]}`).join(', ') : 'not yet'],
      ['time', `CSV last written ${stamp(statSync(path).mtime)}`],
    ] as [string, string][],
    command: null,
    sources: [path],
  };
  return {
    kind: 'tune',
    identity,
    params: keys.map((name, i) => ({ name, min: null, max: null, start: start[i], tuned: tunedValues?.[i] ?? null })),
    iterations,
    resultLabel: `θ+ minus θ− in ${first.metric} per ${per}, over the groups’ root mean square`,
    tuned: tunedValues ? keys.map((k, i) => `${k}=${tunedValues[i]}`).join(':') : '',
    verification: v
      ? { metric: `${first.metric} per ${per}`, estimate: estimate(v), verdict: v.verdict, sprt: null }
      : null,
    notes: [
      `The tuning’s journal (${path.replace(/\.csv$/i, '')}.journal.jsonl) holds the bounds, the schedule, the command that tunes again and, through the verification’s journal, the SPRT’s walk; give it to see them.`,
    ],
  };
}
