/**
 * The one resume policy: `differenceOf` names the first field (in its table's order) on
 * which an old spec and something new differ, skipping what the new side does not say;
 * and `playRun` continues a journal only for its own run, whoever resumes it (a plan of
 * `tafel experiment`, a tuning's verification, `tafel run --resume`).
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGame } from '../src/games/index.js';
import { headerText, readJournal } from '../src/harness/run/journal.js';
import { playRun } from '../src/harness/run/run.js';
import { differenceOf, identityDifference, specOf, type Field } from '../src/harness/run/spec.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { tmpDir } from './cli-helpers.js';

interface Old {
  a: number;
  b: string;
}
interface New {
  a?: number;
  b?: string;
}
const FIELDS: Field<Old, New>[] = [
  { flag: '--a', old: (o) => o.a, new: (n) => n.a },
  { flag: '--b', old: (o) => o.b.toLowerCase(), new: (n) => n.b?.toLowerCase(), shown: { new: (n) => n.b } },
];

describe('differenceOf', () => {
  const old = { a: 1, b: 'x' };
  it('names the first field that differs, with the values as shown', () => {
    expect(differenceOf(old, { a: 2, b: 'Y' }, FIELDS)).toEqual({ flag: '--a', old: 1, new: 2 });
    expect(differenceOf(old, { b: 'Y' }, FIELDS)).toEqual({ flag: '--b', old: 'x', new: 'Y' });
  });
  it('compares only what the new side says, as the field reads it', () => {
    expect(differenceOf(old, {}, FIELDS)).toBeNull();
    expect(differenceOf(old, { a: 1, b: 'X' }, FIELDS)).toBeNull();
  });
});

describe('a journal continues only its own run', () => {
  it('playRun refuses the journal of another run, naming what differs', async () => {
    const game = findGame('viersche')!;
    const table = { seats: 4, rules: {} };
    const lineup = await resolveLineup('heuristic,random', game, 4);
    const dir = tmpDir();
    const make = (seed: string) =>
      specOf({ game, table, lineup, seed, unit: 'deal', groups: 4, files: { dir, journal: 'j.jsonl' } });
    writeFileSync(join(dir, 'j.jsonl'), headerText(make('a'), join(dir, 'j.jsonl')));
    const resume = readJournal(join(dir, 'j.jsonl'));
    expect(identityDifference(resume.spec, make('a'))).toBeNull();
    await expect(playRun(make('b'), { workers: 1, resume })).rejects.toThrow(
      'cannot resume: the journal j.jsonl is of another run (--seed differs)',
    );
  });
});
