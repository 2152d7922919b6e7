/** The answer parser of `tafel play` (src/play/input.ts): every kind of line, each explained when wrong. */
import { describe, expect, it } from 'vitest';
import { parseAnswer, type Menu } from '../src/play/input.js';
import { NO, YES } from '../src/games/game.js';

const cards: Menu = {
  yesNo: false,
  legal: [
    { move: 10, name: 'KS' },
    { move: 11, name: '10S' },
  ],
  held: [
    { move: 10, name: 'KS' },
    { move: 11, name: '10S' },
    { move: 40, name: 'AH' },
  ],
  isCard: (name) => /^(6|7|8|9|10|J|Q|K|A)[CSHD]$/.test(name),
};
const question: Menu = {
  ...cards,
  yesNo: true,
  legal: [
    { move: YES, name: 'yes' },
    { move: NO, name: 'no' },
  ],
};

describe('parseAnswer', () => {
  it('takes a card by name in any case, spaced or with T for ten, or by its number', () => {
    for (const line of ['KS', 'ks', ' kS ', '1']) expect(parseAnswer(line, cards)).toEqual({ kind: 'move', move: 10 });
    for (const line of ['10s', 'TS', '10 S', '2']) expect(parseAnswer(line, cards)).toEqual({ kind: 'move', move: 11 });
  });

  it('answers a yes/no question with y, yes, n, no or 1 and 2', () => {
    for (const [line, move] of [
      ['y', YES],
      ['YES', YES],
      ['1', YES],
      ['n', NO],
      ['No', NO],
      ['2', NO],
    ] as const)
      expect(parseAnswer(line, question)).toEqual({ kind: 'move', move });
  });

  it('knows the commands', () => {
    expect(parseAnswer('?', cards)).toEqual({ kind: 'help' });
    expect(parseAnswer('h', cards)).toEqual({ kind: 'hint', bot: null });
    expect(parseAnswer('h pimc:worlds=80', cards)).toEqual({ kind: 'hint', bot: 'pimc:worlds=80' });
    expect(parseAnswer('hint ./My-Bot.js', cards)).toEqual({ kind: 'hint', bot: './My-Bot.js' });
    expect(parseAnswer('L', cards)).toEqual({ kind: 'last' });
    expect(parseAnswer('u', cards)).toEqual({ kind: 'undo' });
    expect(parseAnswer('q', question)).toEqual({ kind: 'quit' });
  });

  it('tells a card held but not legal from one not held and from no card at all', () => {
    expect(parseAnswer('ah', cards)).toEqual({ kind: 'illegal', move: 40, name: 'AH' });
    expect(parseAnswer('QD', cards)).toEqual({ kind: 'wrong', message: 'you do not hold QD' });
    const wrong = (line: string, menu: Menu) => {
      const a = parseAnswer(line, menu);
      return a.kind === 'wrong' ? a.message : `not wrong: ${a.kind}`;
    };
    expect(wrong('zz', cards)).toBe(
      `'zz' is neither a card nor a command: type a card such as KS, or its number 1-2 (? for help)`,
    );
    expect(wrong('3', cards)).toBe('3: there are 2 legal cards; type a card such as KS, or its number 1-2');
    expect(wrong('0', question)).toMatch(/^0: there are 2 answers \(1 yes, 2 no\); type y or n$/);
    expect(wrong('', cards)).toMatch(/^type a card such as KS/);
    expect(wrong('y', cards)).toMatch(/^there is no yes\/no question now/);
    expect(wrong('KS', question)).toBe('this is a yes/no question: answer y or n');
  });
});
