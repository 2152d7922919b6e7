/**
 * The bot protocol (PROTOCOL.md) and `tafel bot`: what a seat is shown carries nothing
 * it may not know; `tafel bot heuristic` fed a real deal's requests, of any deal of a
 * match, answers the moves the heuristic makes in process (same seeds, same draws);
 * bad input, and match facts that no match has, are refused in one line.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/core/rng.js';
import { setSelect } from '../src/core/cardset.js';
import type { Game, Json, ParamValue, State, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { ROOT } from './cli-helpers.js';
import { KEY, newState, points, tableOf } from './contract-helpers.js';
import { helloRequest } from '../src/harness/programs/requests.js';
import { playDeal, playMatch, tafelBot } from './protocol-driver.js';

const TABLES: Readonly<Record<string, readonly (readonly [number, Readonly<Record<string, ParamValue>>])[]>> = {
  viersche: [[4, {}]],
  hindersche: [
    [4, {}],
    [4, { schleipfen: true }],
  ],
  'hindersi-jass': [
    [4, {}],
    [3, {}],
  ],
  'vier-anderle': [
    [4, {}],
    [5, { pips: 'always', pot: 0 }],
  ],
};

/** `count` positions early in deals of random play (the first trick, where Viersche's face-down lead lies hidden). */
function firstTrick(game: Game, table: TableConfig, count: number): State[] {
  const out: State[] = [];
  const cards = new Rng();
  const legal = new Int32Array(4);
  for (let i = 0; i < count; i++) {
    const s = game.newState(table);
    cards.reseed(KEY, i, 77);
    game.newMatch(table, { singleDeal: true, index: i }).startDeal(s, cards);
    const stop = 1 + cards.below(table.seats);
    while (!s.isTerminal() && s.observe(0).plies < stop) s.apply(setSelect(legal, 0, cards.below(s.legal(legal, 0))));
    out.push(s);
  }
  return out;
}

function tableArgs(game: Game, table: TableConfig): string[] {
  const rules = Object.entries(table.rules).map(([k, v]) => `${k}=${String(v)}`);
  return ['--game', game.name, '--players', String(table.seats), ...(rules.length ? ['--rules', rules.join(',')] : [])];
}

describe.each(GAMES.map((g) => [g.name, g] as const))('%s', (_, game) => {
  for (const [seats, rules] of TABLES[game.name]) {
    const table = tableOf(game, seats, rules);
    const label = `${seats} seats ${JSON.stringify(rules)}`;

    it(`${label}: a seat's encoded observation is the same in every world it cannot tell from the real one`, () => {
      const world = newState(game, table);
      const rng = new Rng(KEY, 31);
      let compared = 0;
      let unseen = 0;
      for (const s of [...points(game, table, 60, 5), ...firstTrick(game, table, 300)]) {
        for (let seat = 0; seat < seats; seat++) {
          const obs = s.observe(seat);
          game.sample(obs, rng, world);
          // Hidden cards differ between the two deals, and nothing the seat is shown does.
          const shown = JSON.stringify(game.protocol.encode(obs));
          expect(JSON.stringify(game.protocol.encode(world.observe(seat)))).toBe(shown);
          compared++;
          if (shown.includes('"??"')) unseen++;
        }
      }
      expect(compared).toBeGreaterThan(1000);
      // Viersche's face-down lead, the one card a seat sees played but not its face.
      if (game.name === 'viersche') expect(unseen).toBeGreaterThan(5);
    });

    // The random bot and pimc draw from ctx.rng (pimc samples worlds from the observation
    // too): the same moves show that the seed and the rebuilt window are the real ones.
    it.each(['heuristic', 'random', 'pimc:worlds=4:budget=20000'])(
      `${label}: tafel bot %s answers every request of two deals with the move it makes in process`,
      async (bot) => {
        for (const group of [0, 1]) {
          const scripts = await playDeal(game, table, bot, 'proto', group);
          const input = [helloRequest(game, table), ...scripts.flatMap((s) => s.sent), '{"type":"quit"}'];
          const r = tafelBot([...tableArgs(game, table), '--bot', bot], input);
          expect(r.stderr).toBe('');
          expect(r.status).toBe(0);
          const [first, ...plays] = r.lines.map((l) => JSON.parse(l) as { type: string; move?: string });
          expect(first.type).toBe('bot');
          expect(plays.map((p) => p.move)).toEqual(scripts.flatMap((s) => s.played));
          expect(plays.length).toBeGreaterThan(seats);
        }
      },
    );
  }
});

describe('tafel bot: options and bot modules', () => {
  const game = GAMES[0];
  const table = tableOf(game, 4, {});

  // Moves that differ from the default heuristic's in these deals, so that options that
  // did not take effect would show.
  it('an options message sets the parameters as name:key=value does in process', async () => {
    for (const group of [0, 1, 2]) {
      const scripts = await playDeal(game, table, 'heuristic:aggression=1:trumpLead=never', 'proto', group);
      const options = '{"type":"options","values":{"aggression":1,"trumpLead":"never"}}';
      const input = [helloRequest(game, table), options, ...scripts.flatMap((s) => s.sent)];
      const r = tafelBot(['--game', game.name, '--bot', 'heuristic'], input);
      expect(r.stderr).toBe('');
      expect(r.lines.slice(1).map((l) => (JSON.parse(l) as { move: string }).move)).toEqual(
        scripts.flatMap((s) => s.played),
      );
    }
    const plain = await playDeal(game, table, 'heuristic', 'proto', 0);
    const tuned = await playDeal(game, table, 'heuristic:aggression=1:trumpLead=never', 'proto', 0);
    expect(tuned.flatMap((s) => s.played)).not.toEqual(plain.flatMap((s) => s.played));
  });

  it('ignores fields it does not know, as PROTOCOL.md says a receiver does', async () => {
    const scripts = await playDeal(game, table, 'heuristic', 'proto', 1);
    const later = (line: string) => JSON.stringify({ ...(JSON.parse(line) as object), later: [1, 'x'] });
    const r = tafelBot(
      ['--game', game.name, '--bot', 'heuristic'],
      [helloRequest(game, table), ...scripts.flatMap((s) => s.sent.map(later))],
    );
    expect(r.stderr).toBe('');
    expect(r.lines.slice(1).map((l) => (JSON.parse(l) as { move: string }).move)).toEqual(
      scripts.flatMap((s) => s.played),
    );
  });

  it('a bot module with its parameters on the command line plays as in process, and declares them', async () => {
    const bot = './bots/examples/lead-high.ts:noise=0.5';
    const scripts = await playDeal(game, table, bot, 'proto', 3);
    const r = tafelBot(
      ['--game', game.name, '--bot', bot],
      [helloRequest(game, table), ...scripts.flatMap((s) => s.sent)],
    );
    expect(r.stderr).toBe('');
    const [first, ...plays] = r.lines.map((l) => JSON.parse(l) as { options?: { default: number }[]; move?: string });
    expect(first.options!.map((o) => o.default)).toEqual([0.5]);
    expect(plays.map((p) => p.move)).toEqual(scripts.flatMap((s) => s.played));
  });
});

/**
 * Whole matches (`--matches`): every seat's every deal, fed to `tafel bot` with no deal
 * before it, answers as the bot plays in process. Each case's group is one whose match
 * reaches what the case is for (a second deal's targets, a Hindersche playoff or Butzen
 * with fewer players, Partie totals, money in the pot and seats declared out), and the
 * test checks that it does.
 */
type Deal = { [key: string]: Json };
const PIMC = 'pimc:worlds=2:budget=5000';
const count = (deals: Deal[], f: (d: Deal) => boolean) => deals.filter(f).length;
const declaredOut = (r: Deal) => (r.declared as number[]).includes(0);
const MATCHES: readonly (readonly [
  string,
  number,
  Readonly<Record<string, ParamValue>>,
  string,
  number,
  (deals: Deal[], results: Deal[]) => boolean,
])[] = [
  ['viersche', 4, {}, 'heuristic', 0, (ds) => count(ds, (d) => d.secondDeal === true) >= 3],
  ['viersche', 4, {}, PIMC, 0, (ds) => count(ds, (d) => d.secondDeal === true) >= 3],
  // Phase 1 with a playoff of two, then Butzen (H-6) with three and two players.
  [
    'hindersche',
    4,
    { games: 1 },
    'heuristic',
    15,
    (ds) =>
      count(ds, (d) => d.phase === 1 && d.kind === 1) === 1 &&
      count(ds, (d) => d.phase === 2 && d.players === 3) >= 1 &&
      count(ds, (d) => d.phase === 2 && d.players === 2) >= 1,
  ],
  // A playoff in Butzen, with schleipfen.
  [
    'hindersche',
    4,
    { games: 1, schleipfen: true },
    'heuristic',
    3,
    (ds) => count(ds, (d) => d.phase === 2 && d.kind === 1) === 1,
  ],
  ['hindersche', 4, { games: 1, schleipfen: true }, PIMC, 1, (ds) => count(ds, (d) => d.phase === 2) >= 3],
  ['hindersi-jass', 4, { partien: 1 }, 'heuristic', 0, (ds) => count(ds, (d) => d.partieDeal === 3) === 1],
  ['hindersi-jass', 3, { partien: 2 }, PIMC, 0, (ds) => count(ds, (d) => d.partieDeal === 2) === 2],
  ['vier-anderle', 4, { hands: 5 }, 'heuristic', 0, (ds) => count(ds, (d) => (d.potBefore as number) > 0) >= 2],
  [
    'vier-anderle',
    5,
    { hands: 4, untilEmpty: true, pips: 'always' },
    PIMC,
    0,
    (ds, rs) => count(ds, (d) => (d.potBefore as number) > 0) >= 2 && count(rs, (r) => declaredOut(r)) >= 1,
  ],
];

describe('tafel bot serves every deal of a match', () => {
  it.each(MATCHES)('%s, %i seats %j: %s, every deal of match %i', async (name, seats, rules, bot, group, reaches) => {
    const game = GAMES.find((g) => g.name === name)!;
    const table = tableOf(game, seats, rules);
    const scripts = await playMatch(game, table, bot, 'proto', group);
    const sent = scripts[0].sent.map((l) => JSON.parse(l) as Deal);
    expect(
      reaches(
        sent.filter((m) => m.type === 'deal'),
        sent.filter((m) => m.type === 'result'),
      ),
    ).toBe(true);
    const input = [helloRequest(game, table), ...scripts.flatMap((s) => s.sent), '{"type":"quit"}'];
    const r = tafelBot([...tableArgs(game, table), '--bot', bot], input);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const plays = r.lines.slice(1).map((l) => (JSON.parse(l) as { move: string }).move);
    expect(plays).toEqual(scripts.flatMap((s) => s.played));
  });
});

describe('tafel bot refuses, in one line naming the field, match facts that no match has', () => {
  it.each([
    [
      'viersche',
      4,
      { secondDeal: true, targets: [50, 50] },
      "targets [50,50]: a second deal's are 100 - x for the leading team and x - 40 for the other, x from 70 to 99 (V-7)",
    ],
    ['viersche', 4, { targets: [30, 30] }, "targets [30,30]: a first deal's are [100,100] (V-7)"],
    [
      'hindersche',
      4,
      { plays: [true, true, true, false] },
      'plays [true,true,true,false]: all four play a deal of phase 1 (H-4)',
    ],
    [
      'hindersche',
      4,
      { phase: 2, slate: [1, 1, 0, 1] },
      'plays [true,true,true,true]: only players with marks play in phase 2 (H-6)',
    ],
    ['hindersche', 4, { slate: [2, 1, 1, 0] }, 'slate [2,1,1,0]: phase 1 ends once the slate holds 4 marks (H-4)'],
    [
      'hindersche',
      4,
      { kind: 1, playoffFor: 1, playoffPlaces: 1 },
      'plays [true,true,true,true]: a playoff is never among all four (H-4, H-6)',
    ],
    [
      'hindersi-jass',
      4,
      { partieDeal: 1, partieTotals: [100, 0, 0, 0] },
      'partieTotals [100,0,0,0]: each deal before this one charged 157 in all, or 157 to every seat but one that took every trick (J-5)',
    ],
    ['hindersi-jass', 3, { partieDeals: 4 }, 'partieDeals 4: a Partie of 3 players has 3 deals (J-6)'],
    ['vier-anderle', 4, { potBefore: 6 }, 'potBefore 6: the pot is always a multiple of 4 (A-6)'],
  ] as const)('%s, %i seats: %j', async (name, seats, change, why) => {
    const game = GAMES.find((g) => g.name === name)!;
    const table = tableOf(game, seats, {});
    const [seat0] = await playDeal(game, table, 'random', 'proto', 0);
    const deal = { ...(JSON.parse(seat0.sent[0]) as object), ...change };
    const r = tafelBot(
      [...tableArgs(game, table), '--bot', 'random'],
      [helloRequest(game, table), JSON.stringify(deal)],
    );
    expect([r.status, r.stderr]).toEqual([2, `tafel: line 2: deal: not a deal of this table (${why})\n`]);
  });
});

describe('tafel bot on bad input: one line on stderr, exit 2', () => {
  const game = GAMES[0];
  const table = tableOf(game, 4, {});
  const args = ['--game', game.name, '--bot', 'random'];

  it.each([
    ['a line that is not JSON', ['{"type":'], /^tafel: line 2: not a JSON object$/],
    ['a JSON value that is not an object', ['[1,2]'], /^tafel: line 2: not a JSON object$/],
    ['an unknown message type', ['{"type":"hello"}'], /^tafel: line 2: unknown message type "hello"$/],
    ['a move outside a deal', ['{"type":"move"}'], /^tafel: line 2: move outside a deal$/],
    [
      'an option the bot does not have',
      ['{"type":"options","values":{"depth":3}}'],
      /^tafel: line 2: options: unknown option 'depth'$/,
    ],
  ])('%s', (_, lines, pattern) => {
    const r = tafelBot(args, [helloRequest(game, table), ...lines]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(pattern);
  });

  it('a request before the handshake, or a handshake for another game', () => {
    const early = tafelBot(args, ['{"type":"quit"}', '{"type":"deal"}']);
    expect(early.status).toBe(0);
    const r = tafelBot(args, ['{"type":"deal","seat":0}']);
    expect([r.status, r.stderr.trim()]).toEqual([2, `tafel: line 1: expected the 'tafel' handshake first, got "deal"`]);
    const other = tafelBot(args, [helloRequest(GAMES[1], tableOf(GAMES[1], 4, {}))]);
    expect([other.status, other.stderr.trim()]).toEqual([
      2,
      'tafel: line 1: game "hindersche": this bot was started for viersche',
    ]);
  });

  it('a request that no deal of the seat could show: a card it never held, a wrong legal list', async () => {
    const [seat0] = await playDeal(game, table, 'random', 'proto', 0);
    const deal = seat0.sent[0];
    const move = JSON.parse(seat0.sent[1]) as { hand: string[]; legal: string[] };
    const forged = { ...move, legal: [...move.legal, 'XX'] };
    const r = tafelBot(args, [helloRequest(game, table), deal, JSON.stringify(forged)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^tafel: line 3: move: legal is \[.*"XX"\]; the deal rebuilt from the request allows \[.*\]\n$/,
    );
    const stolen = { ...move, hand: [...move.hand.slice(1), 'AH'] };
    const s = tafelBot(args, [helloRequest(game, table), deal, JSON.stringify(stolen)]);
    expect(s.status).toBe(2);
    expect(s.stderr.trim().split('\n')).toHaveLength(1);
    expect(s.stderr).toMatch(/^tafel: line 3: move: /);
  });

  it('a deal whose seed is not 32 hex digits', async () => {
    const [seat0] = await playDeal(game, table, 'random', 'proto', 0);
    const deal = { ...(JSON.parse(seat0.sent[0]) as object), seed: '12' };
    const r = tafelBot(args, [helloRequest(game, table), JSON.stringify(deal)]);
    expect([r.status, r.stderr]).toEqual([
      2,
      'tafel: line 2: deal: seed must be 32 lower-case hex digits, not all zero\n',
    ]);
  });

  it('a bot that throws or plays an illegal move: exit 3, one line', async () => {
    const [seat0] = await playDeal(game, table, 'random', 'proto', 0);
    const input = [helloRequest(game, table), ...seat0.sent];
    const thrower = tafelBot(['--game', game.name, '--bot', './test/fixtures/throwing-bot.js'], input);
    expect([thrower.status, thrower.stderr]).toEqual([
      3,
      'tafel: line 5: bot ./test/fixtures/throwing-bot.js threw boom\n',
    ]);
    expect(thrower.lines).toHaveLength(3);
    const cheater = tafelBot(['--game', game.name, '--bot', './test/fixtures/illegal-bot.js'], input);
    expect(cheater.status).toBe(3);
    expect(cheater.stderr).toMatch(
      /^tafel: line 3: bot \.\/test\/fixtures\/illegal-bot\.js played an illegal move \(\d+\)\n$/,
    );
  });

  it('quit ends the program at once, though its input stays open', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'cli', 'main.js'), 'bot', ...args]);
    child.stdin.write(helloRequest(game, table) + '\n{"type":"quit"}\n');
    const status = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(-1), 5000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    child.kill();
    expect(status).toBe(0);
  });
});

/**
 * PROTOCOL.md's example sessions: each is seat 0's part of deal 0 of a run with seed
 * `example`, what tafel sends (`>`) and what `tafel bot heuristic` answers (`<`). The
 * test rebuilds each from a deal played in process and `tafel bot`'s answers, and
 * checks PROTOCOL.md holds exactly that; `UPDATE_PROTOCOL=1` rewrites the blocks.
 */
describe('PROTOCOL.md example sessions', () => {
  // Vier-Anderle with an empty pot: everyone plays, so the session shows card play.
  const EXAMPLES: readonly (readonly [string, number, Readonly<Record<string, ParamValue>>])[] = [
    ['viersche', 4, {}],
    ['hindersche', 4, { schleipfen: true }],
    ['hindersi-jass', 4, {}],
    ['vier-anderle', 4, { pot: 0 }],
  ];
  const file = join(ROOT, 'PROTOCOL.md');

  it.each(EXAMPLES)('%s: the session in PROTOCOL.md is what tafel bot heuristic says', async (name, seats, rules) => {
    const game = GAMES.find((g) => g.name === name)!;
    const table = tableOf(game, seats, rules);
    const [seat0] = await playDeal(game, table, 'heuristic', 'example', 0);
    const sent = [helloRequest(game, table), ...seat0.sent, '{"type":"quit"}'];
    const r = tafelBot([...tableArgs(game, table), '--bot', 'heuristic'], sent);
    expect(r.stderr).toBe('');
    // The answers in order: the `bot` line after the handshake, a `play` after each `move`.
    const answers = [...r.lines];
    const session: string[] = [];
    for (const line of sent) {
      session.push(`> ${line}`);
      const type = (JSON.parse(line) as { type: string }).type;
      if (type === 'tafel' || type === 'move') session.push(`< ${answers.shift()!}`);
    }
    expect(answers).toEqual([]);
    const block = ['```text', ...session, '```'].join('\n');
    const open = `<!-- example ${name} -->`;
    const close = `<!-- end of example ${name} -->`;
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(open);
    const end = text.indexOf(close);
    expect(at, `${open} in PROTOCOL.md`).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(at);
    const current = text.slice(at + open.length, end).trim();
    if (process.env.UPDATE_PROTOCOL === '1' && current !== block) {
      writeFileSync(file, text.slice(0, at + open.length) + '\n\n' + block + '\n\n' + text.slice(end));
      return;
    }
    expect(current).toBe(block);
  });
});
