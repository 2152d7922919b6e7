/**
 * Helpers shared by the hindersche-*.test.ts files: positions from card names, moves by
 * name, random playouts, and a match driven by chosen deal results. Nothing here
 * decides a rule; the tests and src/games/hindersche/reference.ts do.
 */
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { cardName } from '../src/core/french.js';
import type { Rng } from '../src/core/rng.js';
import { NO, YES } from '../src/games/game.js';
import { toCode, toPhysical } from '../src/games/hindersche/cards.js';
import { Kind, TieFor } from '../src/games/hindersche/score.js';
import { HinderscheState, type DealContext } from '../src/games/hindersche/state.js';
import type { HinderscheMatch } from '../src/games/hindersche/match.js';
import type { HinderscheRecord } from '../src/games/hindersche/record.js';
import { physicalOf, suitIndex } from './viersche-helpers.js';

export interface PositionOpts {
  dealer?: number;
  /** Seats taking part (default: those with a non-empty hand). */
  mask?: number;
  phase?: number;
  kind?: number;
  slate?: number[];
  playoffFor?: number;
  playoffPlaces?: number;
  schleipfen?: boolean;
  /** The turn-up's name (default: the 6 of trump). */
  turnup?: string;
  /** Cards out of play, by name (the turn-up is added when fewer than four play). */
  stack?: string;
}

/** A context for `state.deal` / `begin`, with phase-1 defaults. */
export function context(opts: Omit<PositionOpts, 'turnup' | 'stack'> & { mask?: number } = {}): DealContext {
  return {
    dealer: opts.dealer ?? 0,
    mask: opts.mask ?? 15,
    phase: opts.phase ?? 1,
    kind: opts.kind ?? Kind.Normal,
    slate: opts.slate ?? [0, 0, 0, 0],
    playoffFor: opts.playoffFor ?? TieFor.None,
    playoffPlaces: opts.playoffPlaces ?? 0,
    schleipfen: opts.schleipfen ?? false,
  };
}

/** Card names as a set under `trump`, written at `out[off..]`. */
function addNames(out: Int32Array, off: number, trump: number, text: string): void {
  for (const name of text.split(/\s+/).filter(Boolean)) {
    const code = toCode(trump, physicalOf(name));
    out[off + (code >>> 5)] |= 1 << (code & 31);
  }
}

/**
 * A position from names: `hands[seat]` is that seat's hand ('' for a seat not taking
 * part). With four players the turn-up must be in the dealer's hand; with fewer it is
 * put in the stack.
 */
export function position(trumpLetter: string, hands: readonly string[], opts: PositionOpts = {}): HinderscheState {
  const trump = suitIndex(trumpLetter);
  const mask = opts.mask ?? hands.reduce((m, h, seat) => (h.trim() ? m | (1 << seat) : m), 0);
  const sets = newSets(4);
  hands.forEach((text, seat) => addNames(sets, seat * LANES, trump, text));
  const stack = newSets(1);
  const turnup = opts.turnup ?? '6' + trumpLetter;
  addNames(stack, 0, trump, opts.stack ?? '');
  if (mask !== 15) addNames(stack, 0, trump, turnup);
  const s = new HinderscheState();
  s.begin(context({ ...opts, mask }), trump, toCode(trump, physicalOf(turnup)), sets, stack);
  return s;
}

const scratch = newSets();

export function nameOf(s: HinderscheState, move: number): string {
  if (move === YES) return 'yes';
  if (move === NO) return 'no';
  return cardName(toPhysical(s.trump, move));
}

export function codeOfName(s: HinderscheState, name: string): number {
  if (name === 'yes') return YES;
  if (name === 'no') return NO;
  return toCode(s.trump, physicalOf(name));
}

/** The legal moves by name, sorted. */
export function legalNames(s: HinderscheState): string[] {
  s.legal(scratch, 0);
  return setToCodes(scratch, 0)
    .map((m) => nameOf(s, m))
    .sort();
}

/** Play moves by name ('yes'/'no' for H-2 answers), each checked against `legal` first. */
export function play(s: HinderscheState, ...names: string[]): HinderscheState {
  for (const name of names.flatMap((n) => n.split(/\s+/).filter(Boolean))) {
    const m = codeOfName(s, name);
    s.legal(scratch, 0);
    if (!setHas(scratch, 0, m))
      throw new Error(`${name} is not legal for seat ${s.toMove}: ${legalNames(s).join(' ')}`);
    s.apply(m);
  }
  return s;
}

/** Cards of a set by name, sorted by pack order. */
export function setNames(s: HinderscheState, from: Int32Array, off: number): string[] {
  return setToCodes(from, off)
    .map((m) => toPhysical(s.trump, m))
    .sort((a, b) => a - b)
    .map(cardName);
}

/** A seat's hand by name. */
export function handNames(s: HinderscheState, seat: number, from: Int32Array = s.hands): string[] {
  return setNames(s, from, seat * LANES);
}

/** Play random legal moves (cards and H-2 answers) to the end. */
export function randomPlayout(s: HinderscheState, rng: Rng): void {
  while (!s.isTerminal()) s.apply(setSelect(scratch, 0, rng.below(s.legal(scratch, 0))));
}

/**
 * Drive one deal of `m` to a chosen result: `startDeal` (cards from `rng`), then,
 * without play, the seats' card points and tricks kept are set to `points` and
 * `kept` (seats not in the deal ignored) and the deal is finished. Returns the
 * deal's record (recording must be on). For tests of the slate rules only: the
 * record's tricks are empty.
 */
export function drive(
  m: HinderscheMatch,
  s: HinderscheState,
  rng: Rng,
  points: readonly number[],
  kept: readonly number[] = [0, 0, 0, 0],
): HinderscheRecord {
  m.startDeal(s, rng);
  for (let seat = 0; seat < 4; seat++) {
    s.seatPoints[seat] = s.plays(seat) ? points[seat] : 0;
    s.tricksKept[seat] = s.plays(seat) ? kept[seat] : 0;
  }
  m.finishDeal(s);
  return m.record(s);
}
