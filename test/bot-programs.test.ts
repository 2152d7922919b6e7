/**
 * tafel's own bots entered as programs (`tafel bot` behind `--program`) play exactly as
 * the same bots in process: in every game, the records, the per-deal CSV and the
 * journal's group lines are byte-identical, and so is the summary CSV once each
 * program's name is mapped to the bot it serves (the summary's bot_spec and
 * opponent_spec columns name the bot's source: `hp:aggression=...` for the program,
 * `heuristic:aggression=...` in process; the parameters after it are the same).
 * Labels are the same in both runs, so the records' bot names match. In one game the
 * programs serve the bots' defaults and `--bots` sets parameters, which the referee
 * sends them as options.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, read, tafel, tmpDir } from './cli-helpers.js';

const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const PIMC = 'pimc:worlds=2:budget=2000';

interface Case {
  game: string;
  table: string[]; // --players and --rules, passed to the run and to `tafel bot` alike
  unit: string[]; // --deals or --matches
  workers: number;
  /** Parameters set in `--bots` (so sent to the programs as options), or none: the programs' defaults. */
  params?: { heuristic: string; pimc: string };
}

const CASES: readonly Case[] = [
  { game: 'viersche', table: [], unit: ['--matches', '1'], workers: 1 },
  {
    game: 'hindersche',
    table: ['--rules', 'schleipfen=true'],
    unit: ['--deals', '2'],
    workers: 1,
    params: { heuristic: ':dump=1.2:guard=40', pimc: ':worlds=2:budget=2000' },
  },
  { game: 'hindersi-jass', table: [], unit: ['--deals', '2'], workers: 2 },
  { game: 'vier-anderle', table: ['--players', '5', '--rules', 'pot=0'], unit: ['--matches', '1'], workers: 1 },
];

function run(c: Case, bots: string[]) {
  const dir = tmpDir();
  const r = tafel(
    [
      'run',
      '--game',
      c.game,
      ...c.table,
      ...c.unit,
      ...bots,
      '--seed',
      '33',
      '--workers',
      String(c.workers),
      '--out',
      's.csv',
      '--records',
      'r.jsonl',
      '--deal-csv',
      'd.csv',
    ],
    dir,
  );
  expect(r.status, r.stderr).toBe(0);
  return (f: string) => read(join(dir, f));
}

/** The journal without its header line (which holds the run's spec, programs and all). */
const groupLines = (journal: string) => journal.slice(journal.indexOf('\n') + 1);

describe('tafel bots as programs', () => {
  it.each(CASES)('$game $table $unit: the same bytes as the bots in process', (c) => {
    const served = (bot: string) => `node ${CLI} bot --game ${c.game} ${c.table.join(' ')} --bot ${bot}`;
    // Served with their defaults and given the parameters as options, or served as wanted.
    const [h, p] = c.params ? [c.params.heuristic, c.params.pimc] : ['', ''];
    const inProcess = run(c, ['--bots', `a=heuristic${h},b=${c.params ? 'pimc' + p : PIMC}`]);
    const asPrograms = run(c, [
      '--program',
      `hp=${served('heuristic')}`,
      '--program',
      `pp=${served(c.params ? 'pimc' : PIMC)}`,
      '--bots',
      `a=hp${h},b=pp${p}`,
    ]);
    expect(asPrograms('r.jsonl')).toBe(inProcess('r.jsonl'));
    expect(asPrograms('d.csv')).toBe(inProcess('d.csv'));
    expect(groupLines(asPrograms('s.journal.jsonl'))).toBe(groupLines(inProcess('s.journal.jsonl')));
    // Not vacuous: groups were played and recorded.
    expect(groupLines(inProcess('s.journal.jsonl'))).toMatch(/\S/);
    expect(inProcess('r.jsonl').split('\n').length).toBeGreaterThan(4);
    const sources = asPrograms('s.csv').replaceAll(',hp:', ',heuristic:').replaceAll(',pp:', ',pimc:');
    expect(sources).toBe(inProcess('s.csv'));
  });
});
