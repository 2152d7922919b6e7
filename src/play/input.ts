/**
 * What the person typed, as one answer: a move (a card by its RECORD.md name, any
 * case, `T` for a French 10 allowed; or its number in the list of legal moves; `y` or
 * `n` to a yes/no question), a command, or a one-line explanation of what is wrong
 * with it. A pure function of the line and the menu of choices.
 */

/** A legal move or a card held, with its name as shown. */
export interface Choice {
  readonly move: number;
  readonly name: string;
}

export interface Menu {
  /** A yes/no question (the legal moves are YES then NO) rather than a card to play. */
  readonly yesNo: boolean;
  /** The legal moves in the order shown, numbered from 1. */
  readonly legal: readonly Choice[];
  /** The cards the person holds. */
  readonly held: readonly Choice[];
  /** Whether an upper-case name is a card of the game's pack. */
  isCard(name: string): boolean;
}

export type Answer =
  | { readonly kind: 'move'; readonly move: number }
  /** A card the person holds that is not legal now: the game says why. */
  | { readonly kind: 'illegal'; readonly move: number; readonly name: string }
  | { readonly kind: 'help' }
  /** `h` (the default hint bot) or `h pimc:worlds=80`. */
  | { readonly kind: 'hint'; readonly bot: string | null }
  | { readonly kind: 'last' }
  | { readonly kind: 'undo' }
  | { readonly kind: 'quit' }
  | { readonly kind: 'wrong'; readonly message: string };

/** The commands, as the help and the completions show them. */
export const COMMANDS = ['?', 'h', 'l', 'u', 'q'] as const;
export const COMMAND_HELP = '? help · h [bot] hint · l last trick · u undo · q quit';

const WORDS: Readonly<Record<string, Answer>> = {
  '?': { kind: 'help' },
  help: { kind: 'help' },
  l: { kind: 'last' },
  last: { kind: 'last' },
  u: { kind: 'undo' },
  undo: { kind: 'undo' },
  q: { kind: 'quit' },
  quit: { kind: 'quit' },
  exit: { kind: 'quit' },
};

const YES_WORDS = new Set(['y', 'yes']);
const NO_WORDS = new Set(['n', 'no']);

/** What a move is asked for, for the messages: `1-5`, `y or n`. */
function expected(menu: Menu): string {
  if (menu.yesNo) return 'y or n';
  const n = menu.legal.length;
  return n === 1 ? `${menu.legal[0].name} or 1` : `a card such as ${menu.legal[0].name}, or its number 1-${n}`;
}

export function parseAnswer(line: string, menu: Menu): Answer {
  const text = line.trim();
  const lower = text.toLowerCase();
  const word = WORDS[lower];
  if (word) return word;
  const hint = /^(?:h|hint)(?:\s+(\S+))?$/.exec(lower);
  if (hint) return { kind: 'hint', bot: hint[1] === undefined ? null : text.split(/\s+/)[1] };
  if (text === '') return { kind: 'wrong', message: `type ${expected(menu)} (? for help)` };

  if (/^\d+$/.test(text)) {
    const k = Number(text);
    if (k >= 1 && k <= menu.legal.length) return { kind: 'move', move: menu.legal[k - 1].move };
    const what = menu.yesNo ? 'answers (1 yes, 2 no)' : menu.legal.length === 1 ? 'legal card' : 'legal cards';
    return {
      kind: 'wrong',
      message: `${text}: there ${menu.legal.length === 1 ? 'is' : 'are'} ${menu.legal.length} ${what}; type ${expected(menu)}`,
    };
  }
  if (menu.yesNo) {
    if (YES_WORDS.has(lower)) return { kind: 'move', move: menu.legal[0].move };
    if (NO_WORDS.has(lower)) return { kind: 'move', move: menu.legal[1].move };
  } else if (YES_WORDS.has(lower) || NO_WORDS.has(lower)) {
    return { kind: 'wrong', message: `there is no yes/no question now: play ${expected(menu)}` };
  }

  // A card: `10h`, `jS`, `t21`; `TH` for a French ten; spaces ignored.
  const name = text
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/^T([CSHD])$/, '10$1');
  if (menu.isCard(name)) {
    if (menu.yesNo) return { kind: 'wrong', message: 'this is a yes/no question: answer y or n' };
    const legal = menu.legal.find((c) => c.name === name);
    if (legal) return { kind: 'move', move: legal.move };
    const held = menu.held.find((c) => c.name === name);
    return held ? { kind: 'illegal', move: held.move, name } : { kind: 'wrong', message: `you do not hold ${name}` };
  }
  return { kind: 'wrong', message: `'${text}' is neither a card nor a command: type ${expected(menu)} (? for help)` };
}
