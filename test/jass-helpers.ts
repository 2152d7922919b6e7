/**
 * Helpers shared by the jass-*.test.ts files: positions from card names, moves by
 * name, random playouts. Nothing here decides a rule; the tests and
 * src/games/hindersi-jass/reference.ts do.
 */
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { cardName, parseCard, SUITS } from '../src/core/french.js';
import type { Rng } from '../src/core/rng.js';
import { toCode, toPhysical } from '../src/games/hindersi-jass/cards.js';
import { JassState, type DealContext } from '../src/games/hindersi-jass/state.js';

export function ctxFor(dealer: number, seats = 4): DealContext {
  return { dealer, partieDeal: 0, partieDeals: seats, totals: [0, 0, 0, 0] };
}

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
function handSets(trump: number, hands: readonly string[]): Int32Array {
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
 * A position from names: `hands[seat]` is that seat's hand (3 or 4 seats). The turn-up
 * defaults to the 6 of trump; rule tests that do not look at it may leave it anywhere.
 */
export function position(
  trumpLetter: string,
  hands: readonly string[],
  opts: { dealer?: number; turnup?: string } = {},
): JassState {
  const trump = suitIndex(trumpLetter);
  const s = new JassState(hands.length);
  s.begin(
    ctxFor(opts.dealer ?? 0, hands.length),
    trump,
    toCode(trump, physicalOf(opts.turnup ?? '6' + trumpLetter)),
    handSets(trump, hands),
  );
  return s;
}

const scratch = newSets();

export function nameOf(s: JassState, move: number): string {
  return cardName(toPhysical(s.trump, move));
}

function codeOfName(s: JassState, name: string): number {
  return toCode(s.trump, physicalOf(name));
}

/** The legal moves by name, sorted. */
export function legalNames(s: JassState): string[] {
  s.legal(scratch, 0);
  return setToCodes(scratch, 0)
    .map((m) => nameOf(s, m))
    .sort();
}

/** Play moves by name, each checked against `legal` first. */
export function play(s: JassState, ...names: string[]): JassState {
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
export function handNames(s: JassState, seat: number, from: Int32Array = s.hands): string[] {
  return setToCodes(from, seat * LANES)
    .map((m) => nameOf(s, m))
    .sort();
}

/** Play random legal cards to the end. */
export function randomPlayout(s: JassState, rng: Rng): void {
  while (!s.isTerminal()) {
    const n = s.legal(scratch, 0);
    s.apply(setSelect(scratch, 0, rng.below(n)));
  }
}

/** One random legal move. */
export function randomMove(s: JassState, rng: Rng, buf: Int32Array = scratch): number {
  const n = s.legal(buf, 0);
  return setSelect(buf, 0, rng.below(n));
}

/**
 * The move of a playout in which `strong` plays its strongest legal card (any trump
 * above any plain card, then by rank) and every other seat its weakest: such playouts
 * make deals where one seat takes every trick (J-5) common enough to test.
 */
export function slamMove(s: JassState, strong: number, buf: Int32Array = scratch): number {
  const key = (c: number) => (c >>> 5 === 0 ? 100 : 0) + (c & 31);
  s.legal(buf, 0);
  const codes = setToCodes(buf, 0).sort((a, b) => key(a) - key(b));
  return s.toMove === strong ? codes[codes.length - 1] : codes[0];
}

/** The strongest cards for a sweep, in order: every trump from the Puur down, then the plain aces and kings. */
const TOP_CARDS = [8, 7, 6, 5, 4, 3, 2, 1, 0, 32 + 8, 64 + 8, 96 + 8, 32 + 7, 64 + 7, 96 + 7];

/**
 * Stack a freshly dealt deal for J-5 tests: `strong` gets the first `m` of TOP_CARDS
 * (except the turn-up when another seat deals: it stays the dealer's, C-4), each
 * swapped with a random card of his that is not one of them. Play restarts from the
 * new hands.
 */
export function rig(s: JassState, strong: number, m: number, rng: Rng): void {
  const d = Int32Array.from(s.dealt);
  const h = strong * LANES;
  const top = TOP_CARDS.slice(0, m);
  for (const code of top) {
    const lane = code >>> 5;
    const t = 1 << (code & 31);
    if ((d[h + lane] & t) !== 0 || (code === s.turnup && strong !== s.dealer)) continue;
    const owner = [0, 1, 2, 3].find((q) => q < s.seats && (d[q * LANES + lane] & t) !== 0);
    if (owner === undefined) continue;
    // A card of strong's that is neither a top card nor the turn-up, given in exchange.
    const mine = setToCodes(d, h).filter((c) => !top.includes(c) && !(c === s.turnup && strong === s.dealer));
    if (mine.length === 0) continue;
    const give = mine[rng.below(mine.length)];
    d[owner * LANES + lane] &= ~t;
    d[h + lane] |= t;
    d[h + (give >>> 5)] &= ~(1 << (give & 31));
    d[owner * LANES + (give >>> 5)] |= 1 << (give & 31);
  }
  s.begin(ctxFor(s.dealer, s.seats), s.trump, s.turnup, d);
}
