/**
 * `tafel play`'s session (src/play/session.ts) in the test process: whole games in
 * every game with yes/no decisions and refused cards, deals and bot streams that
 * match a run of the same seed, undo, hints, and a screen that shows the person's
 * seat only what it may know.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tafel, tmpDir, read } from './cli-helpers.js';
import { heuristicPolicy, play, type Driver, type Game } from './play-helpers.js';
import { findGame } from '../src/games/index.js';
import type { DealRecord } from '../src/games/screen.js';

/** Every game once, with the rule or table that brings its yes/no decisions. */
const GAMES: (Game & { question: RegExp | null; rule: RegExp })[] = [
  {
    game: 'viersche',
    seat: 0,
    bots: 'random,heuristic',
    unit: 'match',
    question: /claim the game now/,
    rule: /\(V-[45]/,
  },
  {
    game: 'hindersche',
    seat: 1,
    bots: 'heuristic',
    rules: 'schleipfen=true',
    question: /offer to take it|object \(y\)/,
    rule: /\(H-1, V-5\)/,
  },
  { game: 'hindersi-jass', seat: 2, bots: 'heuristic', players: 3, question: null, rule: /\(J-4\)/ },
  {
    game: 'vier-anderle',
    seat: 3,
    bots: 'heuristic',
    unit: 'match',
    players: 5,
    question: /declare in/,
    rule: /\(A-3\)/,
  },
];

/** Play the heuristic's moves, but first, once, a card held that is not legal; answer questions y and n in turn. */
function probing(): (d: Driver) => string {
  let probed = false;
  let answers = 0;
  return (d) => {
    if (d.question) return answers++ % 2 === 0 ? 'y' : 'n';
    const refused = d.hand.find((c) => !d.legal.includes(c));
    if (!probed && refused && !d.question) {
      probed = true;
      return refused.toLowerCase();
    }
    return heuristicPolicy(d);
  };
}

describe('a session', () => {
  it.each(GAMES)('plays $game to the end: yes/no answered, a refused card explained, records labelled', async (g) => {
    const { result, text, records } = await play(g, probing());
    expect(result.end).toBe('finished');
    expect(records.length).toBe(result.deals);
    expect(text).toMatch(new RegExp(`is not legal here: .*${g.rule.source}`));
    if (g.question) {
      expect(text).toMatch(g.question);
      expect(text).toMatch(/\n {2}you: \S/); // an answer of the person's, as told
    }
    for (const [i, r] of records.entries()) {
      expect(r.bots).toHaveLength(r.seats as number);
      expect((r.bots as string[])[g.seat]).toBe('human');
      if (i > 0 && r.match === records[i - 1].match) expect(r.before).toEqual(records[i - 1].after);
    }
    expect(text).toMatch(/\nresult: .* finished/);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^result: your mean per/);
  });

  /** The records of `tafel run --bots heuristic,random --seed same` in its first rotation. */
  function ran(g: Game, unit: '--deals' | '--matches', count: number): DealRecord[] {
    const dir = tmpDir();
    const r = tafel([
      'run',
      '--game',
      g.game,
      '--bots',
      'heuristic,random',
      unit,
      String(count),
      '--seed',
      'same',
      '--records',
      join(dir, 'run.jsonl'),
      '--workers',
      '1',
      ...(g.rules ? ['--rules', g.rules] : []),
      ...(g.players ? ['--players', String(g.players)] : []),
    ]);
    expect(r.status, r.stderr).toBe(0);
    return read(join(dir, 'run.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DealRecord)
      .filter((x) => x.rotation === 0);
  }

  /** The bots of that run's first rotation at every seat but 0: random at odd seats, heuristic at even. */
  function othersOf(seats: number): string {
    return Array.from({ length: seats - 1 }, (_, i) => ((i + 1) % 2 === 0 ? 'heuristic' : 'random')).join(',');
  }

  /** A record without what differs between a run and a session: match index, rotation, bots. */
  function dealt(x: DealRecord) {
    const { match: _m, rotation: _r, bots: _b, ...rest } = x;
    return rest;
  }

  it.each(GAMES)(
    '$game: a person who plays as the bot would gets the deals a run of the same seed played',
    async (g) => {
      const run = ran(g, '--deals', 3);
      // Deals 1 and 2 (--first 1), the person at seat 0 playing the heuristic's hints.
      const seats = run[0].seats as number;
      const { records } = await play(
        { ...g, seat: 0, bots: othersOf(seats), seed: 'same', unit: 'deal', first: 1, count: 2 },
        heuristicPolicy,
      );
      expect(records.map((x) => x.match)).toEqual([1, 2]);
      expect(records.map(dealt)).toEqual(run.slice(1).map(dealt));
    },
  );

  it('and a whole match, its pot carried from hand to hand', async () => {
    const g: Game = { game: 'vier-anderle', seat: 0, bots: othersOf(4), rules: 'hands=5', seed: 'same' };
    const run = ran(g, '--matches', 1);
    const { records } = await play({ ...g, unit: 'match' }, heuristicPolicy);
    expect(records.length).toBe(5);
    expect(records.map(dealt)).toEqual(run.map(dealt));
  });

  it('undo goes back to before the last move, and the bots then answer as to that line played straight', async () => {
    const g: Game = { game: 'viersche', seat: 1, bots: 'random', seed: 'undo' };
    const straight = await play(g, heuristicPolicy);
    // The same, but at the person's second lead first another card than the heuristic's, taken back.
    let leads = 0;
    let phase: 'before' | 'hinted' | 'wrong' | 'after' = 'before';
    const { records, text } = await play(g, (d) => {
      if (phase === 'wrong') {
        phase = 'after';
        return 'u';
      }
      const hint = /^hint from heuristic: (\S+)/.exec(d.last);
      if (phase === 'hinted' && hint) {
        phase = 'wrong';
        return d.legal.find((c) => c !== hint[1])!;
      }
      if (phase === 'before' && d.fresh && d.leading && !d.question && d.legal.length > 1 && ++leads === 2) {
        phase = 'hinted';
        return 'h heuristic';
      }
      return heuristicPolicy(d);
    });
    expect(phase).toBe('after');
    expect(text).toMatch(/\nundone: your \S+ and the/);
    expect(records[0].undos).toBe(1);
    const { undos: _u, ...rest } = records[0];
    expect(rest).toEqual(straight.records[0]);
  });
});

describe('what the person sees', () => {
  /** The text of each deal up to the person's first turn, and the cards played before it. */
  function firstTurns(text: string): { seen: string; narrated: number }[] {
    return text
      .split(/\n=== /)
      .slice(1)
      .map((deal) => {
        const end = deal.indexOf('\n> ');
        const seen = end < 0 ? '' : deal.slice(0, end);
        const narrated = seen
          .split('\n')
          .filter((l) => /^ {2}(you|seat \d+ \(.*?\)) (leads|plays|lead|play) /.test(l)).length;
        return { seen, narrated };
      });
  }

  function cardsIn(text: string, game: string): Set<string> {
    const screen = findGame(game)!.screen;
    return new Set(text.split(/[\s·|*(),:]+/).filter((t) => screen.isCard(t)));
  }

  it.each(GAMES)(
    '$game: up to its first turn, a seat sees its hand, the turn-up and the cards played, nothing else',
    async (g) => {
      const { text, records } = await play({ ...g, showHands: false }, heuristicPolicy);
      const turns = firstTurns(text);
      let checked = 0;
      records.forEach((r, i) => {
        const { seen, narrated } = turns[i];
        if (!seen) return; // the person had no choice in this deal
        const tricks = r.tricks;
        const allowed = new Set([
          ...r.hands[g.seat],
          ...(r.turnup ? [r.turnup] : []),
          ...tricks.flatMap((t) => t.cards).slice(0, narrated),
        ]);
        // A card led face down by another seat stays hidden until its trick is complete (V-4).
        const players = r.players;
        if (tricks[0]?.facedown && players[0] !== g.seat && narrated < players.length)
          allowed.delete(tricks[0].cards[0]);
        expect(
          [...cardsIn(seen, g.game)].filter((c) => !allowed.has(c)),
          seen,
        ).toEqual([]);
        checked++;
      });
      expect(checked).toBeGreaterThan(0);
    },
  );

  it('--show-hands opens every hand, and the records say so', async () => {
    const g: Game = { game: 'hindersche', seat: 0, bots: 'heuristic', showHands: true };
    const { text, records } = await play(g, heuristicPolicy);
    const hands = records[0].hands as string[][];
    const first = firstTurns(text)[0].seen;
    for (const s of [1, 2, 3]) expect(first).toMatch(new RegExp(`\n(hands {5}| {10})seat ${s}: `));
    const shown = cardsIn(first, 'hindersche');
    expect(hands.flat().filter((c) => !shown.has(c)).length).toBeLessThan(4); // all but the cards already played
    expect(records[0].showHands).toBe(true);
  });

  it("hints: the named bot at the person's seat, the same for the same position; none from a cheat or an unknown bot", async () => {
    const asked = ['h random', 'h random', 'h', 'h oracle', 'h nobot', 'h pimc:nokey=1', '?', 'l', 'q'];
    let i = 0;
    const { text, result } = await play({ game: 'viersche', seat: 0, bots: 'random', seed: 'hint' }, () => asked[i++]);
    expect(result.end).toBe('quit');
    const hints = [...text.matchAll(/\nhint from random: (\S+) \((\d)\)/g)].map((m) => m[1]);
    expect(hints).toHaveLength(2);
    expect(hints[1]).toBe(hints[0]);
    expect(text).toMatch(/\nhint from heuristic: \S+ \(\d\) · \d+ ms\n/);
    expect(text).toMatch(/\nno hint: oracle sees every hand/);
    expect(text).toMatch(/\nno hint: unknown bot 'nobot'/);
    expect(text).toMatch(/\nno hint: bot pimc: unknown parameter 'nokey'/);
    expect(text).toMatch(/\nlegal: 1 \S+/);
    expect(text).toMatch(/\nno trick has been played yet in this deal\n/);
    expect(text).toMatch(/\nresult: you quit before the end; the deal under way is not counted\n/);
  });
});
