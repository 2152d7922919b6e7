/**
 * Boards (`--boards`, docs/boards.md): chosen deals played by `run` in every seat
 * rotation with the board's cards, a deal record file taken as boards (the round trip
 * deals and plays the very same deals), one line naming the file, line and board for
 * each kind of bad board, results independent of the workers, the run database's
 * `boards` table, `replay --board`, `play --boards` and tune's verification.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runQuery } from '../src/harness/db/query.js';
import { expectUserError, read, results, ROOT, tafel, tmpDir } from './cli-helpers.js';

type Rec = Record<string, unknown> & { hands: string[][]; dealer: number; turnup: string | null; rotation: number };
interface BoardLine {
  id: string;
  game: string;
  dealer: number;
  turnup?: string;
  hands: string[][];
}

const EXAMPLES = join(ROOT, 'examples', 'boards');
const GAMES = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'] as const;

function lines<T>(path: string): T[] {
  return read(path)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

const sorted = (hands: string[][]) => hands.map((h) => [...h].sort());

describe('run --boards', () => {
  it.each(GAMES)('%s: every board is one group, each rotation dealt the board (hands, dealer, turn-up)', (game) => {
    const d = tmpDir();
    const file = join(EXAMPLES, `${game}.jsonl`);
    const boards = lines<BoardLine>(file);
    const r = tafel(['run', '--game', game, '--bots', 'random,heuristic', '--boards', file, '--records', 'r.jsonl'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${game}: ${boards.length} deals x 2 seat rotations`));
    expect(r.stdout).toContain(`--boards ${file}`);
    const recs = lines<Rec>(join(d, 'r.jsonl'));
    expect(recs).toHaveLength(2 * boards.length);
    recs.forEach((rec, i) => {
      const b = boards[Math.floor(i / 2)];
      expect(rec.rotation).toBe(i % 2);
      expect(rec.board).toBe(b.id);
      expect(rec.dealer).toBe(b.dealer);
      expect(rec.turnup).toBe(b.turnup ?? null);
      expect(sorted(rec.hands)).toEqual(sorted(b.hands));
    });
    // The bots really swap seats between the rotations of one board.
    expect(recs[0].bots).not.toEqual(recs[1].bots);
  });

  it.each(GAMES)('%s: a record file is a board file, and the round trip plays the very same deals', (game) => {
    const d = tmpDir();
    const base = ['run', '--game', game, '--bots', 'random,heuristic', '--seed', 'trip'];
    expect(tafel([...base, '--deals', '4', '--records', 'a.jsonl'], d).status).toBe(0);
    const r = tafel([...base, '--boards', 'a.jsonl', '--records', 'b.jsonl'], d);
    expect(r.status, r.stderr).toBe(0);
    // Group g has the dealer and cards of deal g, and the bots draw the same streams: the
    // records differ only by the board each deal came from (its number in the file).
    const again = read(join(d, 'b.jsonl')).replace(/"board":"\d+",/g, '');
    expect(again).toBe(read(join(d, 'a.jsonl')));
  });

  it('plays the same whatever the workers: outputs byte for byte', () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'hindersche.jsonl');
    const run = (w: string) =>
      tafel(
        ['run', '--game', 'hindersche', '--bots', 'pimc:worlds=4,heuristic', '--boards', file, '--workers', w].concat([
          '--records',
          `r${w}.jsonl`,
          '--deal-csv',
          `d${w}.csv`,
          '--out',
          `s${w}.csv`,
        ]),
        d,
      );
    const one = run('1');
    const two = run('2');
    expect(one.status, one.stderr).toBe(0);
    expect(results(two)).toBe(results(one));
    for (const [a, b] of [
      ['r1.jsonl', 'r2.jsonl'],
      ['d1.csv', 'd2.csv'],
    ])
      expect(read(join(d, b))).toBe(read(join(d, a)));
  });

  it('with --deals n plays the first n boards, and refuses more than the file holds', () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'viersche.jsonl');
    const r = tafel(['run', '--game', 'viersche', '--bots', 'random', '--boards', file, '--deals', '2'], d);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^viersche: 2 deals/);
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'random', '--boards', file, '--deals', '9'], d),
      /^tafel: --boards .*viersche\.jsonl holds 3 boards, fewer than the 9 asked for/,
    );
  });

  it('with --matches each board is the first deal of a match, the later deals from the seed', () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'hindersi-jass.jsonl');
    const boards = lines<BoardLine>(file);
    const r = tafel(
      [
        'run',
        '--game',
        'hindersi-jass',
        '--bots',
        'random',
        '--boards',
        file,
        '--matches',
        '2',
        '--records',
        'r.jsonl',
      ],
      d,
    );
    expect(r.status, r.stderr).toBe(0);
    const recs = lines<Rec & { match: number; deal: number }>(join(d, 'r.jsonl'));
    for (const m of [0, 1]) {
      const first = recs.filter((x) => x.match === m);
      expect(first.length).toBeGreaterThan(1);
      expect(sorted(first[0].hands)).toEqual(sorted(boards[m].hands));
      expect(first[0].board).toBe(boards[m].id);
      expect(first[1].board).toBeUndefined();
      expect(sorted(first[1].hands)).not.toEqual(sorted(boards[m].hands));
    }
  });

  it('is resumed from its journal with its boards', () => {
    const d = tmpDir();
    copyFileSync(join(EXAMPLES, 'viersche.jsonl'), join(d, 'b.jsonl'));
    const base = ['run', '--game', 'viersche', '--bots', 'random,heuristic', '--boards', 'b.jsonl'];
    const whole = tafel([...base, '--out', 'w.csv'], d);
    expect(whole.status, whole.stderr).toBe(0);
    // The journal keeps the deals themselves: a changed file does not change the resumed run.
    writeFileSync(join(d, 'b.jsonl'), '');
    const again = tafel(['run', '--resume', 'w.journal.jsonl'], d);
    expect(again.status, again.stderr).toBe(0);
    expect(read(join(d, 'w.journal.jsonl'))).toContain('"boards":{"file":"b.jsonl"');
  });
});

describe('bad boards: one line naming the file, the line and the board', () => {
  const hands = (): string[][] => {
    const suits = ['C', 'S', 'H', 'D'];
    const ranks = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
    return suits.map((s) => ranks.map((r) => r + s));
  };
  const good = { dealer: 0, turnup: '6C', hands: hands() };
  const cases: [string, object, RegExp][] = [
    [
      'a card not of the pack',
      { ...good, hands: [['T5', ...hands()[0].slice(1)], ...hands().slice(1)] },
      /T5 is not a card of the viersche pack/,
    ],
    [
      'a duplicate card',
      { ...good, hands: [hands()[0], ['6C', ...hands()[1].slice(1)], ...hands().slice(2)] },
      /duplicate card 6C/,
    ],
    [
      'a wrong hand size',
      { ...good, turnup: '7C', hands: [hands()[0].slice(1), ...hands().slice(1)] },
      /seat 0 holds 8 cards, not 9/,
    ],
    ['a board of another game', { ...good, game: 'hindersche' }, /a board of hindersche, not viersche/],
    ["a turn-up not in the dealer's hand", { ...good, dealer: 1 }, /turnup 6C is not in the dealer's hand \(seat 1\)/],
    ['no turn-up', { dealer: 0, hands: hands() }, /no turnup/],
    ['too few hands', { ...good, hands: hands().slice(0, 3) }, /3 hands for a table of 4 seats/],
    ['hands that are no lists of names', { ...good, hands: 'all' }, /"hands" must be a list of hands/],
  ];
  it.each(cases)('%s', (_, bad, message) => {
    const d = tmpDir();
    const text = [JSON.stringify({ id: 'ok', ...good }), '', JSON.stringify({ id: 'x7', ...bad })].join('\n');
    writeFileSync(join(d, 'b.jsonl'), text + '\n');
    const r = tafel(['run', '--game', 'viersche', '--bots', 'random', '--boards', 'b.jsonl', '--out', 'o.csv'], d);
    expectUserError(r, new RegExp(`^tafel: b\\.jsonl:3 \\(board x7\\): ${message.source}`));
    // Nothing was played or written.
    expect(r.stdout).toBe('');
    expect(spawnSync('ls', [d], { encoding: 'utf8' }).stdout.trim()).toBe('b.jsonl');
  });

  it('a line that is not JSON, and boards numbered from 1 when they have no id', () => {
    const d = tmpDir();
    writeFileSync(join(d, 'b.jsonl'), `${JSON.stringify(good)}\n{"hands": [\n`);
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'random', '--boards', 'b.jsonl'], d),
      /^tafel: b\.jsonl:2: not JSON/,
    );
    writeFileSync(join(d, 'b.jsonl'), `${JSON.stringify(good)}\n${JSON.stringify({ ...good, dealer: 2 })}\n`);
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', 'random', '--boards', 'b.jsonl'], d),
      /^tafel: b\.jsonl:2 \(board 2\): turnup 6C is not in the dealer's hand \(seat 2\)$/,
    );
  });

  it('a dealer who is no seat, and an id used twice', () => {
    const d = tmpDir();
    const run = ['run', '--game', 'viersche', '--bots', 'random', '--boards', 'b.jsonl'];
    writeFileSync(join(d, 'b.jsonl'), JSON.stringify({ ...good, dealer: 4 }) + '\n');
    expectUserError(tafel(run, d), /^tafel: b\.jsonl:1 \(board 1\): dealer 4 is not a seat \(0 to 3\)$/);
    writeFileSync(join(d, 'b.jsonl'), [1, 2].map(() => JSON.stringify({ id: 'w', ...good })).join('\n') + '\n');
    expectUserError(tafel(run, d), /^tafel: b\.jsonl:2 \(board w\): board id w is also on line 1$/);
  });

  it('Vier-Anderle: a pip card without the pips, and a turn-up where none is turned', () => {
    const d = tmpDir();
    const va = {
      dealer: 0,
      hands: [
        ['T1', 'T2', 'T3', 'T4'],
        ['T5', 'T6', 'T7', 'T8'],
        ['T9', 'T10', 'T11', 'T12'],
        ['T13', 'T14', 'T15', '10C'],
      ],
    };
    writeFileSync(join(d, 'b.jsonl'), JSON.stringify(va) + '\n');
    const run = ['run', '--game', 'vier-anderle', '--bots', 'random', '--boards', 'b.jsonl'];
    expectUserError(tafel(run, d), /^tafel: b\.jsonl:1 \(board 1\): 10C is not a card of the vier-anderle pack$/);
    expect(tafel([...run, '--rules', 'pips=always'], d).status).toBe(0);
    writeFileSync(
      join(d, 'b.jsonl'),
      JSON.stringify({ ...va, turnup: 'T1', hands: [...va.hands.slice(0, 3), ['T13', 'T14', 'T15', 'T16']] }) + '\n',
    );
    expectUserError(tafel(run, d), /^tafel: b\.jsonl:1 \(board 1\): vier-anderle turns no card up \(turnup T1\)$/);
  });
});

describe('boards elsewhere', () => {
  it('the run database has a boards table keyed like the deals', async () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'vier-anderle.jsonl');
    const r = tafel(
      ['run', '--game', 'vier-anderle', '--bots', 'random,heuristic', '--boards', file, '--db', 'x.duckdb'],
      d,
    );
    expect(r.status, r.stderr).toBe(0);
    const q = await runQuery(
      [join(d, 'x.duckdb')],
      'SELECT b.board, b.line, count(*) AS deals FROM boards b JOIN deals USING (run, grp) GROUP BY ALL ORDER BY b.line',
    );
    expect(q.rows).toEqual(lines<BoardLine>(file).map((b, i) => [b.id, i + 1, 2]));
  });

  it('shards of a run of boards each hold the boards of their groups, once', async () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'viersche.jsonl');
    for (const i of [0, 1]) {
      const r = tafel(
        [
          'run',
          '--game',
          'viersche',
          '--bots',
          'random',
          '--boards',
          file,
          '--shard',
          `${i}/2`,
          '--db',
          `p${i}.duckdb`,
        ],
        d,
      );
      expect(r.status, r.stderr).toBe(0);
    }
    const q = await runQuery(
      [join(d, 'p0.duckdb'), join(d, 'p1.duckdb')],
      'SELECT grp, board, count(DISTINCT run) FROM boards GROUP BY ALL ORDER BY grp',
    );
    expect(q.rows).toEqual(lines<BoardLine>(file).map((b, g) => [g, b.id, 1]));
  });

  it('replay --board plays a board again: the record the run wrote', () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'viersche.jsonl');
    const bots = ['--game', 'viersche', '--bots', 'random,heuristic', '--seed', '5'];
    expect(tafel(['run', ...bots, '--boards', file, '--records', 'r.jsonl'], d).status).toBe(0);
    const recs = lines<Rec & { match: number }>(join(d, 'r.jsonl'));
    const r = tafel(['replay', ...bots, '--boards', file, '--board', 'viersche-2'], d);
    expect(r.status, r.stderr).toBe(0);
    const want = recs.find((x) => x.board === 'viersche-2' && x.rotation === 0)!;
    expect(r.stdout).toMatch(new RegExp(`match ${want.match}  deal 0  rotation 0`));
    for (const hand of want.hands) expect(r.stdout).toContain(hand.join(' '));
    const m = tafel(['replay', ...bots, '--boards', file, '--match', String(want.match + 1)], d);
    expect(m.stdout).toMatch(new RegExp(`match ${want.match + 1}  deal 0  rotation 1`));
    expectUserError(tafel(['replay', ...bots, '--boards', file, '--board', 'nine'], d), /has no board nine/);
  });

  it('play --boards plays the boards in order against the bots', () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'hindersi-jass.jsonl');
    const boards = lines<BoardLine>(file);
    const args = [
      'play',
      '--game',
      'hindersi-jass',
      '--bots',
      'random',
      '--boards',
      file,
      '--first',
      '1',
      '--records',
      'p.jsonl',
    ];
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
      input: '1\n'.repeat(40),
      encoding: 'utf8',
      cwd: d,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('deal 1 of 2 · board hindersi-jass-2');
    const recs = lines<Rec>(join(d, 'p.jsonl'));
    expect(recs.map((x) => x.board)).toEqual(['hindersi-jass-2', 'hindersi-jass-3']);
    recs.forEach((rec, i) => expect(sorted(rec.hands)).toEqual(sorted(boards[i + 1].hands)));
  });

  it("tune's verification plays the boards", () => {
    const d = tmpDir();
    const file = join(EXAMPLES, 'viersche.jsonl');
    const r = tafel(
      [
        'tune',
        '--game',
        'viersche',
        '--bot',
        'heuristic',
        '--tune',
        'aggression',
        '--iterations',
        '1',
        '--pairs',
        '1',
      ].concat(['--boards', file, '--verify', '2', '--out', 't.csv']),
      d,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`on 2 boards of ${file}`);
    expect(r.stdout).toContain(`--boards ${file}`);
    const journal = read(join(d, 't.verify.journal.jsonl'));
    expect(journal).toContain('"id":"viersche-2"');
    expect(journal).not.toContain('"id":"viersche-3"');
  });
});
