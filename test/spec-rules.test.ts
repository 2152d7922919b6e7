/**
 * The rules of a valid run spec and tune spec beyond their shape (`checkSpec`,
 * `checkTuneSpec`): each is checked where a spec is made (specOf, tuneSpecOf, so
 * experiments too) with the error a user of the CLI sees, and where a spec is read
 * from a journal with that error after the field it is about.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TafelError } from '../src/core/errors.js';
import { findGame } from '../src/games/index.js';
import { resolveLineup } from '../src/harness/table/lineup.js';
import { checkSpec, specFromJournal, specOf, type RunSpec } from '../src/harness/run/spec.js';
import { tuneSpecFromJournal, type TuneSpec } from '../src/harness/tune/spec.js';
import { ROOT } from './cli-helpers.js';

const game = findGame('viersche')!;
const table = { seats: 4, rules: {} };

async function spec(bots: string, o: Partial<Parameters<typeof specOf>[0]> = {}): Promise<RunSpec> {
  const lineup = await resolveLineup(bots, game, 4);
  return specOf({ game, table, lineup, seed: 's', unit: 'deal', groups: 10, ...o });
}

/** The error `f` throws: its code and message. */
function thrown(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TafelError);
    return { code: (e as TafelError).code, message: (e as Error).message };
  }
  throw new Error('expected an error');
}

describe('the run spec rules', () => {
  const sprt = 'elo0=0 elo1=5 alpha=0.05 beta=0.05';
  const board = { id: '1', line: 1, dealer: 0, hands: [], turnup: null };
  const cases: [string, string, Partial<RunSpec>, string, string, string][] = [
    [
      'an SPRT of three bots',
      'heuristic,random,montecarlo',
      { sprt },
      'sprt',
      'bad-sprt',
      '--sprt compares two bots, but --bots names 3 different bots',
    ],
    [
      'an SPRT of one bot',
      'heuristic',
      { sprt },
      'sprt',
      'bad-sprt',
      '--sprt compares two bots, but --bots names one bot',
    ],
    [
      'an SPRT split into shards',
      'heuristic,random',
      { sprt, shard: { index: 0, count: 2 } },
      'shard',
      'bad-sprt',
      '--sprt stops a run as a whole, so it cannot be split with --shard',
    ],
    [
      'boards that are not one a group',
      'heuristic,random',
      { boards: { file: 'b.jsonl', boards: [board] } },
      'groups',
      'bad-spec',
      '--boards b.jsonl holds 1 boards, one a group, but the run has 10 groups',
    ],
  ];

  it.each(cases)("%s: refused by specOf with the CLI's error", async (_, bots, change, _field, code, message) => {
    const lineup = await resolveLineup(bots, game, 4);
    const parts = { game, table, lineup, seed: 's', unit: 'deal' as const, groups: 10, ...change };
    expect(thrown(() => specOf(parts as Parameters<typeof specOf>[0]))).toEqual({ code, message });
  });

  it.each(cases)('%s: refused in a journal header, the field named', async (_, bots, change, field, code, message) => {
    const valid = await spec(bots);
    const header = { ...valid, ...change };
    expect(thrown(() => checkSpec(header))).toEqual({ code, message });
    expect(specFromJournal(JSON.parse(JSON.stringify(header)), '/j/x.jsonl')).toBe(`spec.${field}: ${message}`);
  });

  it('a valid spec passes', async () => {
    const s = await spec('heuristic,random', { sprt });
    expect(checkSpec(s)).toBe(s);
  });
});

describe('the tune spec rules', () => {
  const first = readFileSync(join(ROOT, 'test/fixtures/tune-journal/tune.journal.jsonl'), 'utf8').split('\n')[0];
  const header = (JSON.parse(first) as { spec: TuneSpec }).spec;
  it.each([
    [{ alpha: 0 }, 'alpha', '--alpha 0: must be positive'],
    [{ gamma: -1 }, 'gamma', '--gamma -1: must not be negative'],
    [{ aRatio: -0.5 }, 'aRatio', '--a-ratio -0.5: must not be negative'],
    [
      { seed: 'x'.repeat(58) },
      'seed',
      `--seed '${'x'.repeat(58)}': at most 57 characters for a tuning (its verification plays the seed '${'x'.repeat(58)}:verify')`,
    ],
    [
      { verify: null, files: { ...header.files, verifyDb: 'v.duckdb' } },
      'files',
      '--db v.duckdb: the database holds the verification run; give --verify or --sprt',
    ],
  ])('%j: named by its field in a journal', (change, field, message) => {
    expect(tuneSpecFromJournal({ ...header, ...change }, '/j/t.jsonl')).toBe(`spec.${field}: ${message}`);
  });

  it('a malformed field is named with what is wrong', () => {
    expect(tuneSpecFromJournal({ ...header, tune: [] }, '/j/t.jsonl')).toMatch(/^spec\.tune: /);
    expect(tuneSpecFromJournal({ ...header, bot: { label: 'start' } }, '/j/t.jsonl')).toMatch(/^spec\.bot\.bot: /);
    expect(tuneSpecFromJournal({ ...header, iterations: 0 }, '/j/t.jsonl')).toBe(
      'spec.iterations: expected a whole number from 1, got 0',
    );
  });
});
