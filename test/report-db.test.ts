/**
 * `tafel report RUN.duckdb`: the page of a run drawn from its database is the one its
 * journal draws (with the per-deal CSV that gives the journal the same distributions):
 * every figure and number, all but the time and the source named. For a run of deals
 * and one of matches (whose match section comes from the matches table).
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tafel, tmpDir } from './cli-helpers.js';
import { databaseInputs, readInputs } from '../src/report/inputs.js';
import type { ReportPart, SectionData } from '../src/report/data.js';

/** The part without what names where and when it was read. */
function drawn(part: ReportPart): unknown {
  const { identity, ...rest } = part;
  return {
    ...rest,
    facts: identity.facts.filter(([k]) => k !== 'time'),
    title: identity.title,
    command: identity.command,
  };
}

async function pages(run: readonly string[]): Promise<{ fromDb: ReportPart; fromJournal: ReportPart; d: string }> {
  const d = tmpDir();
  const r = tafel([...run, '--out', 'x.csv', '--deal-csv', 'x.deals.csv', '--db', 'x.duckdb'], d);
  expect(r.status, r.stderr).toBe(0);
  const db = join(d, 'x.duckdb');
  const [fromDb] = readInputs([db], await databaseInputs([db]));
  const [fromJournal] = readInputs([join(d, 'x.journal.jsonl')]);
  return { fromDb, fromJournal, d };
}

describe('a report of a run database', () => {
  it('draws the page of the run of deals that its journal draws', async () => {
    const { fromDb, fromJournal, d } = await pages([
      'run',
      '--game',
      'hindersche',
      '--bots',
      'heuristic,random',
      '--deals',
      '40',
      '--seed',
      'rdb',
    ]);
    expect(fromDb.kind).toBe('run');
    expect(drawn(fromDb)).toEqual(drawn(fromJournal));
    expect(fromDb.identity.sources).toEqual([join(d, 'x.duckdb')]);
    const r = tafel(['report', 'x.duckdb', '--out', 'db.html'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(d, 'db.html'))).toBe(true);
  });

  it('draws the page of a run of matches, its match section from the matches table', async () => {
    const { fromDb, fromJournal } = await pages([
      'run',
      '--game',
      'viersche',
      '--bots',
      'heuristic,random',
      '--matches',
      '6',
      '--seed',
      'rdbm',
    ]);
    expect(fromDb.kind === 'run' && fromDb.sections.map((s) => s.unit)).toEqual(['deal', 'match']);
    // The journal (format 3) of a run of matches keeps the run's state at checkpoints (its
    // per-deal CSV has no match metrics to give the groups back): its running means have a
    // point per checkpoint, ending where the database's do, and no match distributions.
    const coarse = (p: ReportPart) => {
      const d = drawn(p) as { sections: SectionData[]; notes: string[] };
      return {
        ...d,
        notes: [],
        sections: d.sections.map((s) => ({
          ...s,
          running: s.running?.map((r) => ({ ...r, points: r.points.slice(-1) })) ?? null,
          distributions: s.unit === 'match' ? null : s.distributions,
        })),
      };
    };
    expect(coarse(fromDb)).toEqual(coarse(fromJournal));
  });

  it("draws the page of a merge of shards' databases that the shards' journals draw", async () => {
    const d = tmpDir();
    const shard = (i: number) =>
      tafel(
        [
          'run',
          '--game',
          'viersche',
          '--bots',
          'heuristic,random',
          '--deals',
          '20',
          '--seed',
          'rdbs',
          '--shard',
          `${i}/2`,
          '--out',
          `s${i}.csv`,
          '--deal-csv',
          `s${i}.deals.csv`,
          '--db',
          `s${i}.duckdb`,
        ],
        d,
      );
    for (const i of [0, 1]) expect(shard(i).status).toBe(0);
    const merged = tafel(['merge', 's0.journal.jsonl', 's1.journal.jsonl', '--db', 'all.duckdb'], d);
    expect(merged.status, merged.stderr).toBe(0);
    const db = join(d, 'all.duckdb');
    const [fromDb] = readInputs([db], await databaseInputs([db]));
    const [fromJournals] = readInputs([join(d, 's0.journal.jsonl'), join(d, 's1.journal.jsonl')]);
    expect(drawn(fromDb)).toEqual(drawn(fromJournals));
  });
});
