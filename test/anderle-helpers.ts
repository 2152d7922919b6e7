/** Helpers for the anderle-*.test.ts files: positions and moves by card name. */
import { LANES, newSets, setHas, setToCodes } from '../src/core/cardset.js';
import { NO, YES } from '../src/games/game.js';
import { parseCard } from '../src/games/vier-anderle/cards.js';
import { AnderleState } from '../src/games/vier-anderle/state.js';

function code(name: string): number {
  const c = parseCard(name);
  if (c < 0) throw new Error(`no card ${name}`);
  return c;
}

function handSets(hands: readonly string[]): Int32Array {
  const out = newSets(13);
  hands.forEach((text, seat) => {
    for (const name of text.split(/\s+/).filter(Boolean)) {
      const c = code(name);
      out[seat * LANES + (c >>> 5)] |= 1 << (c & 31);
    }
  });
  return out;
}

export function position(
  hands: readonly string[],
  opts: { dealer?: number; potBefore?: number; pips?: boolean } = {},
): AnderleState {
  const s = new AnderleState(hands.length, opts.pips ?? hands.length > 9);
  s.begin({ dealer: opts.dealer ?? hands.length - 1, potBefore: opts.potBefore ?? 0 }, handSets(hands));
  return s;
}

const scratch = newSets();

export function legalNames(s: AnderleState): string[] {
  s.legal(scratch, 0);
  return setToCodes(scratch, 0)
    .map((m) => s.moveName(m))
    .sort();
}

/** Play moves by name ('in', 'out' or cards), each checked against `legal`. */
export function play(s: AnderleState, ...names: string[]): AnderleState {
  for (const name of names.flatMap((n) => n.split(/\s+/).filter(Boolean))) {
    const m = name === 'in' ? YES : name === 'out' ? NO : code(name);
    s.legal(scratch, 0);
    if (!setHas(scratch, 0, m))
      throw new Error(`${name} is not legal for seat ${s.toMove}: ${legalNames(s).join(' ')}`);
    s.apply(m);
  }
  return s;
}
