/**
 * Helpers shared by the viersche-*.test.ts files: positions from card names, moves by
 * name, random playouts. Nothing here decides a rule; the tests and
 * src/games/viersche/reference.ts do.
 */
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { cardName, parseCard, SUITS } from '../src/core/french.js';
import type { Rng } from '../src/core/rng.js';
import { Decision, NO, YES } from '../src/games/game.js';
import { toCode, toPhysical } from '../src/games/viersche/cards.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';

export function suitIndex(letter: string): number {
  const i = SUITS.indexOf(letter as (typeof SUITS)[number]);
  if (i < 0) throw new Error(`no suit ${letter}`);
  return i;
}

export function physicalOf(name: string): number {
  const p = parseCard(name);
  if (p < 0) throw new Error(`no card ${name}`);
  return p;
}

/** Hands given as space-separated names, by seat, as engine card sets under `trump`. */
export function handSets(trump: number, hands: readonly string[]): Int32Array {
  const out = newSets(4);
  hands.forEach((text, seat) => {
    for (const name of text.split(/\s+/).filter(Boolean)) {
      const code = toCode(trump, physicalOf(name));
      out[seat * LANES + (code >>> 5)] |= 1 << (code & 31);
    }
  });
  return out;
}

/**
 * A position from names: `hands[seat]` is that seat's hand. The turn-up defaults to
 * the 6 of trump; rule tests that do not look at it may leave it anywhere.
 */
export function position(
  trumpLetter: string,
  hands: readonly string[],
  opts: { dealer?: number; turnup?: string; targets?: [number, number]; secondDeal?: boolean } = {},
): VierscheState {
  const trump = suitIndex(trumpLetter);
  const s = new VierscheState();
  const ctx: DealContext = {
    dealer: opts.dealer ?? 0,
    targets: opts.targets ?? [100, 100],
    secondDeal: opts.secondDeal ?? opts.targets !== undefined,
  };
  s.begin(ctx, trump, toCode(trump, physicalOf(opts.turnup ?? '6' + trumpLetter)), handSets(trump, hands));
  return s;
}

const scratch = newSets();

export function nameOf(s: VierscheState, move: number): string {
  if (move === YES) return 'claim';
  if (move === NO) return 'pass';
  return cardName(toPhysical(s.trump, move));
}

export function codeOfName(s: VierscheState, name: string): number {
  if (name === 'claim') return YES;
  if (name === 'pass') return NO;
  return toCode(s.trump, physicalOf(name));
}

/** The legal moves by name, sorted. */
export function legalNames(s: VierscheState): string[] {
  s.legal(scratch, 0);
  return setToCodes(scratch, 0)
    .map((m) => nameOf(s, m))
    .sort();
}

/** Play moves by name, each checked against `legal` first. */
export function play(s: VierscheState, ...names: string[]): VierscheState {
  for (const name of names.flatMap((n) => n.split(/\s+/).filter(Boolean))) {
    const m = codeOfName(s, name);
    s.legal(scratch, 0);
    if (!setHas(scratch, 0, m))
      throw new Error(`${name} is not legal for seat ${s.toMove}: ${legalNames(s).join(' ')}`);
    s.apply(m);
  }
  return s;
}

/** A seat's current hand by name, sorted. */
export function handNames(s: VierscheState, seat: number, from: Int32Array = s.hands): string[] {
  return setToCodes(from, seat * LANES)
    .map((m) => nameOf(s, m))
    .sort();
}

export type ClaimPolicy = (s: VierscheState) => boolean;
export const alwaysClaim: ClaimPolicy = () => true;
export const neverClaim: ClaimPolicy = () => false;

/** Play random legal cards to the end; claim questions are answered by `claim`. */
export function randomPlayout(s: VierscheState, rng: Rng, claim: ClaimPolicy = () => rng.below(2) === 1): void {
  while (!s.isTerminal()) {
    if (s.decision === Decision.Claim) {
      s.apply(claim(s) ? YES : NO);
      continue;
    }
    const n = s.legal(scratch, 0);
    s.apply(setSelect(scratch, 0, rng.below(n)));
  }
}

/** One random legal move (a claim question answered at random). */
export function randomMove(s: VierscheState, rng: Rng, buf: Int32Array = scratch): number {
  const n = s.legal(buf, 0);
  return setSelect(buf, 0, rng.below(n));
}
