/**
 * Card names for bot authors and tools: a move code of a deal and the card's name in
 * RECORD.md (`10H`, `JD`; `T22`, `KC` in Vier-Anderle), both ways. A French game lays
 * its cards out by the deal's trump (lane 0 is the trump suit in order of strength), so
 * there a code names a card only together with the trump suit (0..3, C S H D: the
 * observation's `trump`); Vier-Anderle's codes are fixed.
 */
import { TafelError } from '../core/errors.js';
import { parseCard as parseFrench } from '../core/french.js';
import { HIDDEN, NO, YES } from './game.js';
import type { FrenchLayout } from './trick/french.js';
import * as hindersche from './hindersche/cards.js';
import * as jass from './hindersi-jass/cards.js';
import * as anderle from './vier-anderle/cards.js';
import * as viersche from './viersche/cards.js';

/** Each French game's layout (Viersche and Hindersche share the Alt-Kloei pack, H-1). */
const FRENCH: Readonly<Record<string, FrenchLayout>> = {
  viersche: viersche.PACK,
  hindersche: hindersche.PACK,
  'hindersi-jass': jass.PACK,
};

/**
 * The name of move `code` in a deal of `game` (a game's name, `ctx.game.name`) whose
 * trump suit is `trump`: a card's RECORD.md name, `yes` or `no` for the answers, `??`
 * for a card not seen (`HIDDEN`), `code N (no card)` for a number that is none of these.
 */
export function codeName(game: string, code: number, trump = 0): string {
  if (code === YES) return 'yes';
  if (code === NO) return 'no';
  if (code === HIDDEN) return '??';
  if (game === 'vier-anderle') return anderle.codeName(code);
  return frenchPack(game, trump).codeName(trump, code);
}

/** The move code of the card named `name` (RECORD.md) in a deal of `game` with trump suit `trump`; -1 if the pack has no such card. */
export function cardCode(game: string, name: string, trump = 0): number {
  if (game === 'vier-anderle') return anderle.parseCard(name.toUpperCase());
  const pack = frenchPack(game, trump);
  const physical = parseFrench(name);
  return physical < 0 ? -1 : pack.toCode(trump, physical);
}

function frenchPack(game: string, trump: number): FrenchLayout {
  const pack = FRENCH[game];
  if (!pack)
    throw new TafelError(
      'unknown-game',
      `unknown game '${game}' (known: ${[...Object.keys(FRENCH), 'vier-anderle'].join(', ')})`,
    );
  if (trump >>> 0 !== trump || trump > 3) throw new TafelError('bad-input', `trump suit ${trump}: not 0..3 (C S H D)`);
  return pack;
}
