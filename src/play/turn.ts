/**
 * One turn of the person's: the moves they may make, in the order shown and numbered
 * from 1 (`menuOf`), the screen of the turn (`turnLines`), and the help (`helpText`).
 */
import { Decision, NO, YES, type Observation } from '../games/game.js';
import { COMMANDS, COMMAND_HELP, type Choice, type Menu } from './input.js';
import { displayOrder, handText, labelled, ownHand, trickCards, trickText } from './screen.js';
import { cardText, type GameScreen, type ScreenContext } from '../games/screen.js';

/** The legal moves (`legal`, `n` of them, as `State.legal` wrote them) in display order, and the hand. */
export function menuOf(screen: GameScreen, obs: Observation, legal: Int32Array, n: number): Menu {
  const yesNo = obs.decision !== Decision.Card;
  const named = (move: number): Choice => ({ move, name: screen.cardName(obs, move) });
  const moves = yesNo
    ? [
        { move: YES, name: 'yes' },
        { move: NO, name: 'no' },
      ]
    : displayOrder(screen, legal).map(named);
  if (moves.length !== n) throw new Error(`a menu of ${moves.length} moves for ${n} legal ones`);
  return {
    yesNo,
    legal: moves,
    held: displayOrder(screen, ownHand(obs)).map(named),
    isCard: (name) => screen.isCard(name),
  };
}

/** The answers worth completing at a terminal. */
export function completions(menu: Menu): string[] {
  return [...(menu.yesNo ? ['y', 'n'] : menu.legal.map((c) => c.name)), ...COMMANDS];
}

/**
 * The screen of a turn: the score (from the last deal's `after`), the deal, what is
 * taken, the trick under way, the other hands when they are open (`others`: their
 * seats' observations), the person's hand, and the cards to choose from or the question.
 */
export function turnLines(
  screen: GameScreen,
  obs: Observation,
  menu: Menu,
  after: unknown,
  ctx: ScreenContext,
  others: readonly Observation[],
): string[] {
  const { paint, seats } = ctx;
  const lines = [
    ...labelled('score', screen.scoreLines(obs, after, ctx), paint),
    ...labelled('deal', screen.dealLines(obs, ctx), paint),
    ...labelled('taken', screen.takenLines(obs, ctx), paint),
  ];
  const t = screen.tricksDone(obs);
  const current = trickCards(screen, obs, t);
  if (current.length)
    lines.push(...labelled(`trick ${t + 1}`, [trickText(screen, obs, current, screen.winning(obs), ctx)], paint));
  const hands = others.map((o) => `${seats.short(o.seat)}: ${handText(screen, o, ownHand(o), paint)}`);
  lines.push(...labelled('hands', hands, paint));
  lines.push(...labelled('hand', [handText(screen, obs, ownHand(obs), paint)], paint));
  if (menu.yesNo) lines.push(...labelled('question', [screen.question(obs, ctx)], paint));
  else {
    const choices = menu.legal.map((c, i) => `${i + 1} ${cardText(screen, obs, c.move, paint)}`).join('  ');
    lines.push(...labelled('your card', [choices], paint));
  }
  lines.push(...labelled('', [paint.dim(COMMAND_HELP)], paint));
  return lines;
}

/** `?`: the legal moves and every command. */
export function helpText(menu: Menu, hintBot: string): string {
  const moves = menu.yesNo ? 'y (or 1) yes, n (or 2) no' : menu.legal.map((c, i) => `${i + 1} ${c.name}`).join('  ');
  return [
    `legal: ${moves}`,
    'a card by name (10H, JS, T21: any case) or by its number in the list; y or n to a question',
    `h: what the hint bot (${hintBot}) would play; h BOT: what BOT would play (e.g. h heuristic)`,
    'l: the last trick · u: take back your last move in this deal · q: quit (finished deals are kept)',
  ].join('\n');
}
