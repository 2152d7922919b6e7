/**
 * The Python client (clients/python/tafel_bot.py) and its example bots, driven as a
 * referee drives a bot program: the requests of real deals of every game, each answer
 * checked against the request's legal moves. Skipped, saying so, without python3.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParamValue } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { ROOT } from './cli-helpers.js';
import { tableOf } from './contract-helpers.js';
import { helloRequest } from '../src/harness/programs/requests.js';
import { playDeal, serve } from './protocol-driver.js';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0 && /Python 3\.(9|\d\d)/.test(python.stdout + python.stderr);
if (!hasPython) console.log('python client: skipped: no python3 3.9 or later (.ci/run installs it)');

const EXAMPLES = join(ROOT, 'clients', 'python', 'examples');
const TABLES: readonly (readonly [string, number, Readonly<Record<string, ParamValue>>])[] = [
  ['viersche', 4, {}],
  ['hindersche', 4, { schleipfen: true }],
  ['hindersi-jass', 3, {}],
  ['vier-anderle', 4, {}],
  ['vier-anderle', 5, { pot: 0 }],
];

describe.skipIf(!hasPython)('the Python client', () => {
  it.each(TABLES)(
    '%s, %i seats %j: the example bots answer every request of three deals with a legal move',
    async (name, seats, rules) => {
      const game = GAMES.find((g) => g.name === name)!;
      const table = tableOf(game, seats, rules);
      const input = [helloRequest(game, table)];
      const legal: string[][] = [];
      for (const group of [0, 1, 2]) {
        for (const script of await playDeal(game, table, 'random', 'python', group)) {
          input.push(...script.sent);
          for (const line of script.sent) {
            const m = JSON.parse(line) as { type: string; legal?: string[] };
            if (m.type === 'move') legal.push(m.legal!);
          }
        }
      }
      input.push('{"type":"quit"}');
      for (const [bot, options] of [
        ['random_bot.py', null],
        ['lowest_bot.py', '{"type":"options","values":{"play":"highest","answer":"yes"}}'],
      ] as const) {
        const lines = options ? [input[0], options, ...input.slice(1)] : input;
        const r = serve('python3', [join(EXAMPLES, bot)], lines);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        const [first, ...plays] = r.lines.map((l) => JSON.parse(l) as { type: string; move: string });
        expect(first.type).toBe('bot');
        expect(plays.map((p) => p.type)).toEqual(legal.map(() => 'play'));
        plays.forEach((p, i) => expect(legal[i], `answer ${i}`).toContain(p.move));
        // Seeded from the deals' seeds only: the same input, the same answers.
        expect(serve('python3', [join(EXAMPLES, bot)], lines).lines).toEqual(r.lines);
      }
    },
  );

  it('the lowest bot plays the lowest legal card, and the highest with play=highest', () => {
    const request = JSON.stringify({ type: 'move', decision: 'card', legal: ['QS', '7S', '10S'] });
    const answers = (options: string[]) =>
      serve(
        'python3',
        [join(EXAMPLES, 'lowest_bot.py')],
        [helloRequest(GAMES[0], tableOf(GAMES[0], 4, {})), ...options, request],
      )
        .lines.slice(1)
        .map((l) => (JSON.parse(l) as { move: string }).move);
    expect(answers([])).toEqual(['7S']);
    expect(answers(['{"type":"options","values":{"play":"highest"}}'])).toEqual(['QS']);
  });

  it('card and observation helpers', () => {
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(join(ROOT, 'clients', 'python'))})`,
      'import tafel_bot as t',
      'r = {"current": [[1, "10H"], [2, "7C"]], "history": [[0, "AS"], [1, "yes"], [1, "10H"], [2, "7C"], [3, "??"]]}',
      'cards = ["10H", "6S", "AS", "T22", "T1", "KH", "CS", "1D", "4D", "7C", "JD"]',
      'print(json.dumps([[t.suit(c), t.rank(c)] for c in cards]))',
      'print(json.dumps(sorted(cards, key=t.rank_value)))',
      'print(json.dumps([t.led(r), t.played(r), t.of_suit(cards, "D"), t.led({"current": [[1, "??"]]})]))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const [kinds, order, helpers] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(kinds).toEqual([
      ['H', '10'],
      ['S', '6'],
      ['S', 'A'],
      ['T', 22],
      ['T', 1],
      ['H', 'K'],
      ['S', 'C'],
      ['D', '1'],
      ['D', '4'],
      ['C', '7'],
      ['D', 'J'],
    ]);
    // Plain order: 6 < 7 < ... (red pips 4 < 1) ... J < C < Q < K < A, tarocks above all.
    expect(order).toEqual(['6S', '4D', '7C', '10H', '1D', 'JD', 'CS', 'KH', 'AS', 'T1', 'T22']);
    expect(helpers).toEqual(['10H', ['AS', '10H', '7C'], ['1D', '4D', 'JD'], null]);
  });

  it('declares its options, and refuses another protocol version or a bad option in one line, exit 2', () => {
    const bot = join(EXAMPLES, 'lowest_bot.py');
    const game = GAMES[0];
    const ok = serve('python3', [bot], [helloRequest(game, tableOf(game, 4, {}))]);
    const declared = JSON.parse(ok.lines[0]) as { name: string; options: { key: string; choices: string[] }[] };
    expect(declared.name).toBe('py-lowest');
    expect(declared.options.map((o) => [o.key, o.choices])).toEqual([
      ['play', ['lowest', 'highest']],
      ['answer', ['no', 'yes']],
    ]);
    const v2 = serve('python3', [bot], ['{"type":"tafel","protocol":2,"game":"viersche","players":4,"rules":{}}']);
    expect([v2.status, v2.stderr]).toEqual([2, 'py-lowest: line 1: protocol 2: this client speaks 1\n']);
    const bad = serve(
      'python3',
      [bot],
      [helloRequest(game, tableOf(game, 4, {})), '{"type":"options","values":{"play":"middle"}}'],
    );
    expect([bad.status, bad.stderr]).toEqual([2, "py-lowest: line 2: option play: 'middle' is not a valid choice\n"]);
  });
});
