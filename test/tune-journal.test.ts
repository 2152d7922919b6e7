/**
 * Tuning journals, read by the one journal reader and resumed by the one resume policy.
 * test/fixtures/tune-journal/tune.journal.jsonl is the first two of four iterations of a
 * journal written by tafel before issue 34 (`tafel tune --game viersche --bot heuristic
 * --tune aggression --iterations 4 --pairs 2 --seed t1 --verify 4 --out tune.csv`);
 * finished/ holds that tuning's own finished journal and CSV, which a resume must give
 * back byte for byte. Flags given with --resume must agree with the journal.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTuneJournal } from '../src/harness/tune/journal.js';
import { ROOT, expectUserError, read, tafel, tmpDir } from './cli-helpers.js';

const FIXTURE = join(ROOT, 'test/fixtures/tune-journal');

/** A copy of the old journal in a directory of its own (a resume writes beside it). */
function copied(): string {
  const dir = tmpDir();
  cpSync(join(FIXTURE, 'tune.journal.jsonl'), join(dir, 'tune.journal.jsonl'));
  return dir;
}

const FLAGS = ['--game', 'viersche', '--bot', 'heuristic', '--tune', 'aggression', '--iterations', '4'];

describe('an old tuning journal', () => {
  it('reads: its spec and its two iterations', () => {
    const { spec, lines, torn } = readTuneJournal(join(FIXTURE, 'tune.journal.jsonl'));
    expect(spec.game).toBe('viersche');
    expect(spec.tune.map((p) => p.key)).toEqual(['aggression']);
    expect(spec.files.dir).toBe(FIXTURE);
    expect(spec.programs).toEqual({});
    expect(lines.map((l) => l.i)).toEqual([1, 2]);
    expect(torn).toBe(false);
  });

  it('resumes to the bytes of the uninterrupted tuning', () => {
    const dir = copied();
    const r = tafel(['tune', '--resume', 'tune.journal.jsonl', '--workers', '1'], dir);
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['tune.journal.jsonl', 'tune.csv'])
      expect(read(join(dir, f))).toBe(read(join(FIXTURE, 'finished', f)));
  });

  it('resumes with flags that agree with it', () => {
    const dir = copied();
    const args = [
      ...FLAGS,
      '--pairs',
      '2',
      '--seed',
      't1',
      '--verify',
      '4',
      '--out',
      'tune.csv',
      '--tune',
      'aggression:c=0.05',
    ];
    const r = tafel(['tune', '--resume', 'tune.journal.jsonl', ...args], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(read(join(dir, 'tune.journal.jsonl'))).toBe(read(join(FIXTURE, 'finished', 'tune.journal.jsonl')));
  });

  it.each([
    [['--iterations', '5'], '--iterations differs \\(the journal has 4, the command line 5\\)'],
    [['--seed', 't2'], "--seed differs \\(the journal has 't1', the command line 't2'\\)"],
    [
      ['--tune', 'aggression:c=0.1'],
      "--tune differs \\(the journal has 'aggression:c=0.05:r=0.177:min=0:max=1', the command line 'aggression:c=0.1'\\)",
    ],
    [
      ['--bot', 'heuristic:cash=0.5'],
      "--bot differs \\(the journal has 'heuristic', the command line 'heuristic:cash=0.5'\\)",
    ],
    [['--out', 'other.csv'], "--out differs \\(the journal has 'tune.csv', the command line 'other.csv'\\)"],
  ])('refuses %j, naming the flag', (args, message) => {
    const dir = copied();
    const before = read(join(dir, 'tune.journal.jsonl'));
    const r = tafel(['tune', '--resume', 'tune.journal.jsonl', ...args], dir);
    expectUserError(r, new RegExp(`^tafel: resume file tune.journal.jsonl is from a different tuning: ${message}$`));
    expect(read(join(dir, 'tune.journal.jsonl'))).toBe(before);
  });

  it('with a malformed header is refused, the field named', () => {
    const dir = copied();
    const path = join(dir, 'tune.journal.jsonl');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"pairs":2', '"pairs":0'));
    const r = tafel(['tune', '--resume', 'tune.journal.jsonl'], dir);
    expectUserError(
      r,
      /^tafel: resume file tune.journal.jsonl: line 1: spec.pairs: expected a whole number from 1, got 0$/,
    );
  });
});
