/**
 * The last tricks of a Viersche deal searched on bare hand masks: what
 * `VierscheState.endgame` (game.ts, "Search support") gives the solver. Most of an
 * exact search's positions lie in its last tricks; played through copies of the state,
 * each costs a copy, the full move generation, ordering and a table probe. Here a card
 * is played and taken back by clearing and setting one bit, with the same rules as
 * `legal` (V-5, after the first trick) and the same strengths as `apply`: fail-soft
 * alpha-beta, one card of each run of interchangeable ones (as `searchMoves`), the
 * follows ordered as the solver's `order` does. At its trick boundaries with three
 * tricks or more left (its top included), the sure run of top trumps and the solver's
 * table (keyed as `searchKey` keys them, so its entries and the solver's are one) bound
 * the value first; the table's lead is tried first, then the lead that last cut off
 * at the same depth (a killer move, kept in the table's hints). From two cards a hand
 * the two tricks left are enumerated on card lists instead (at most 16 lines: each
 * seat chooses in the first, the second is forced). Module scratch, no allocation.
 */
import { LANES, setCodesInto } from '../../core/cardset.js';
import { highestBit, popcount } from '../../core/bits.js';
import { insertByScore } from '../../core/scored.js';
import type { BoundTable } from '../game.js';
import { relativeKey, sureTopRun, valueKeys } from '../trick/interchangeable.js';
import { POINTS, STRENGTH, TRUMP_LANE } from './cards.js';

const SEATS = 4;
/** The hands being searched (LANES masks per seat) and the cards of the current trick, by lane. */
const HANDS = new Int32Array(SEATS * LANES);
const TRICK = new Int32Array(LANES);
/** The last two tricks: each seat's cards in code order, two slots a seat (the first alone in the last trick), and the slot each has played. */
const CARD = new Int32Array(2 * SEATS);
const PLAYED = new Int32Array(SEATS);
/** 1 where a seat's two cards are interchangeable (see `lead`). */
const TWIN = new Uint8Array(SEATS);

let inSide: Uint8Array;
let maximizer: Uint8Array;
/** The solver's table, or null; its hints hold, by depth, the lead that last cut off there (-1: none). */
let table: BoundTable | null = null;
let visits = 0;
/** Per level of the search (one card each, a whole deal at most): the cards to try in order, and their scores. */
const MAX_CARDS = 9;
const LIST = new Int32Array(MAX_CARDS * SEATS * MAX_CARDS);
const SCORE = new Int32Array(MAX_CARDS * SEATS * MAX_CARDS);
let depth = 0;
/** Above every value: a minimiser's start. */
const NONE = 1 << 20;
/** Cards in each hand at the top of the search: `depth / 4` tricks later, that many fewer. */
let topSize = 0;
/** The lead that `play` found best at its last trick boundary (the table's move). */
let bestLead = 0;
/** Value sequences of the cards for `relativeKey`. */
const VALUE_KEYS = valueKeys(POINTS);
/** Table keys by level (`searchKey`'s words), and `sureTopRun`'s answer. */
const KEY_WORDS = LANES + 1;
const KEYS = new Int32Array(MAX_CARDS * SEATS * KEY_WORDS);
const SURE = new Int32Array(2);

/**
 * `VierscheState.searchKey`'s words for `hands` (LANES masks per seat) with `seat` to
 * act and `flags` (the decision and the first trick, in bits 3 and up): the cards left
 * by relative strength (`relativeKey`), then who acts and the flags.
 */
export function boundaryKey(hands: Int32Array, seat: number, flags: number, out: Int32Array, off: number): number {
  const n = relativeKey(hands, SEATS, LANES, VALUE_KEYS, out, off);
  out[off + n] = (seat & 7) | flags;
  return n + 1;
}

/**
 * From a trick boundary after the first trick, with `leader` to lead from `hands`
 * (LANES masks per seat, every hand the same size) worth `left` points in all: the
 * card points still to be taken by the seats with `side[seat] === 1` when the seats
 * with `max[seat] === 1` maximise them and the others minimise them, searched
 * fail-soft in the window (`alpha`, `beta`): `out[0]` gets the value when it lies
 * inside, else a bound beyond the edge that the value lies beyond; `out[1]` the
 * positions visited (for node counts). `bounds`: the solver's table, or null for none.
 */
export function searchEndgame(
  hands: Int32Array,
  leader: number,
  left: number,
  side: Uint8Array,
  max: Uint8Array,
  alpha: number,
  beta: number,
  out: Int32Array,
  bounds: BoundTable | null = null,
): void {
  for (let i = 0; i < SEATS * LANES; i++) HANDS[i] = hands[i];
  for (let lane = 0; lane < LANES; lane++) TRICK[lane] = 0;
  inSide = side;
  maximizer = max;
  table = bounds;
  visits = 0;
  depth = 0;
  const h = leader * LANES;
  topSize = popcount(hands[h]) + popcount(hands[h + 1]) + popcount(hands[h + 2]) + popcount(hands[h + 3]);
  out[0] = lead(leader, left, alpha, beta);
  out[1] = visits;
}

/** A trick boundary, `left` points still in the hands: `seat` leads (or the deal is over). */
function lead(seat: number, left: number, alpha: number, beta: number): number {
  if (left <= alpha) return left;
  if (beta <= 0) return 0;
  const size = topSize - (depth >> 2);
  if (size > 2)
    return table !== null
      ? leadKept(seat, size, left, alpha, beta)
      : play(0, seat, 0, 0, -1, seat, left, alpha, beta, -1);
  if (size === 0) return 0;
  // The last two tricks: at most 16 lines, enumerated on card lists.
  for (let s = 0; s < SEATS; s++) setCodesInto(HANDS, s * LANES, CARD, s * 2);
  if (size === 1) return lastTrick(seat, 0);
  for (let s = 0; s < SEATS; s++) {
    // Two cards of one lane and worth, nothing live between them: either can be played first.
    const low = CARD[s * 2];
    const high = CARD[s * 2 + 1];
    const lane = low >>> 5;
    const live = HANDS[lane] | HANDS[LANES + lane] | HANDS[2 * LANES + lane] | HANDS[3 * LANES + lane];
    TWIN[s] =
      lane === high >>> 5 && POINTS[low] === POINTS[high] && (live & ((1 << (high & 31)) - (2 << (low & 31)))) === 0
        ? 1
        : 0;
  }
  return twoTricks(seat, alpha, beta);
}

/** `lead` with the table: sure points and the table's bounds first, what the search finds kept. */
function leadKept(seat: number, size: number, left: number, alpha: number, beta: number): number {
  sureTopRun(HANDS, SEATS, TRUMP_LANE, inSide, POINTS, SURE);
  let lo = SURE[0];
  let hi = left - SURE[1];
  if (hi <= alpha) return hi;
  if (lo >= beta) return lo;
  const bounds = table!;
  const off = depth * KEY_WORDS;
  const words = boundaryKey(HANDS, seat, 0, KEYS, off);
  const slot = bounds.slotOf(KEYS, off, words, size);
  let first = -1;
  if (bounds.hit) {
    lo = Math.max(lo, bounds.lower(slot));
    hi = Math.min(hi, bounds.upper(slot));
    if (lo >= beta || lo === hi) return lo;
    if (hi <= alpha) return hi;
    first = bounds.move(slot);
  }
  const v = play(0, seat, 0, 0, -1, seat, left, alpha, beta, first);
  bounds.keep(slot, KEYS, off, words, v, alpha, beta, lo, hi, bestLead, size);
  return v;
}

/**
 * The last two tricks from `leader`'s lead: each seat in turn chooses one of the cards
 * it may play to the first (nested loops, one a seat, in card order, alpha-beta), the
 * second is forced. Loops rather than a call a card: these lines are most of the
 * search's positions.
 */
function twoTricks(leader: number, alpha: number, beta: number): number {
  const s1 = (leader + 1) & 3;
  const s2 = (leader + 2) & 3;
  const s3 = (leader + 3) & 3;
  const max0 = maximizer[leader] === 1;
  const max1 = maximizer[s1] === 1;
  const max2 = maximizer[s2] === 1;
  const max3 = maximizer[s3] === 1;
  let v0 = max0 ? -1 : NONE;
  let a0 = alpha;
  let b0 = beta;
  for (let i0 = 0; i0 < 2 - TWIN[leader]; i0++) {
    const c0 = CARD[leader * 2 + i0];
    visits++;
    PLAYED[leader] = i0;
    const led = c0 >>> 5;
    const t0 = STRENGTH[led * 128 + c0];
    const p0 = POINTS[c0];
    // What each follower may play depends on the lane led alone.
    const allowed1 = allowedTo(s1, led);
    const allowed2 = allowedTo(s2, led);
    const allowed3 = allowedTo(s3, led);
    let v1 = max1 ? -1 : NONE;
    let a1 = a0;
    let b1 = b0;
    for (let i1 = 0; i1 < 2; i1++) {
      if (((allowed1 >>> i1) & 1) === 0) continue;
      const c1 = CARD[s1 * 2 + i1];
      visits++;
      PLAYED[s1] = i1;
      const g1 = STRENGTH[led * 128 + c1];
      const t1 = g1 > t0 ? g1 : t0;
      const w1 = g1 > t0 ? s1 : leader;
      const p1 = p0 + POINTS[c1];
      let v2 = max2 ? -1 : NONE;
      let a2 = a1;
      let b2 = b1;
      for (let i2 = 0; i2 < 2; i2++) {
        if (((allowed2 >>> i2) & 1) === 0) continue;
        const c2 = CARD[s2 * 2 + i2];
        visits++;
        PLAYED[s2] = i2;
        const g2 = STRENGTH[led * 128 + c2];
        const t2 = g2 > t1 ? g2 : t1;
        const w2 = g2 > t1 ? s2 : w1;
        const p2 = p1 + POINTS[c2];
        let v3 = max3 ? -1 : NONE;
        let a3 = a2;
        let b3 = b2;
        for (let i3 = 0; i3 < 2; i3++) {
          if (((allowed3 >>> i3) & 1) === 0) continue;
          const c3 = CARD[s3 * 2 + i3];
          visits++;
          PLAYED[s3] = i3;
          const w3 = STRENGTH[led * 128 + c3] > t2 ? s3 : w2;
          const p3 = p2 + POINTS[c3];
          const v = (inSide[w3] === 1 ? p3 : 0) + lastTrick(w3, 1);
          if (max3) {
            if (v > v3) v3 = v;
            if (v > a3) a3 = v;
          } else {
            if (v < v3) v3 = v;
            if (v < b3) b3 = v;
          }
          if (a3 >= b3) break;
        }
        if (max2) {
          if (v3 > v2) v2 = v3;
          if (v3 > a2) a2 = v3;
        } else {
          if (v3 < v2) v2 = v3;
          if (v3 < b2) b2 = v3;
        }
        if (a2 >= b2) break;
      }
      if (max1) {
        if (v2 > v1) v1 = v2;
        if (v2 > a1) a1 = v2;
      } else {
        if (v2 < v1) v1 = v2;
        if (v2 < b1) b1 = v2;
      }
      if (a1 >= b1) break;
    }
    if (max0) {
      if (v1 > v0) v0 = v1;
      if (v1 > a0) a0 = v1;
    } else {
      if (v1 < v0) v0 = v1;
      if (v1 < b0) b0 = v1;
    }
    if (a0 >= b0) break;
  }
  return v0;
}

/**
 * Which of its two cards (bit 0: the first, bit 1: the second) `seat` may play to a
 * trick led in lane `led`; only the first of twins. V-5: follow suit or trump; to a
 * trump lead, a trump if any.
 */
function allowedTo(seat: number, led: number): number {
  const allowed = TWIN[seat] === 1 ? 1 : 3;
  const la = CARD[seat * 2] >>> 5;
  const lb = CARD[seat * 2 + 1] >>> 5;
  if (la !== led && lb !== led) return allowed;
  if (led === TRUMP_LANE) return allowed & ((la === led ? 1 : 0) | (lb === led ? 2 : 0));
  return allowed & ((la === led || la === TRUMP_LANE ? 1 : 0) | (lb === led || lb === TRUMP_LANE ? 2 : 0));
}

/**
 * The last trick led by `leader`: with `rest` 0 every seat plays its only card (slot
 * 0); with `rest` 1, the card it did not play to the trick before (`PLAYED`).
 */
function lastTrick(leader: number, rest: number): number {
  let card = CARD[leader * 2 + (rest & (PLAYED[leader] ^ 1))];
  const led = card >>> 5;
  let best = STRENGTH[led * 128 + card];
  let winner = leader;
  let pts = POINTS[card];
  for (let k = 1, seat = (leader + 1) & 3; k < SEATS; k++, seat = (seat + 1) & 3) {
    card = CARD[seat * 2 + (rest & (PLAYED[seat] ^ 1))];
    pts += POINTS[card];
    const strength = STRENGTH[led * 128 + card];
    if (strength > best) {
      best = strength;
      winner = seat;
    }
  }
  visits++;
  return inSide[winner] === 1 ? pts : 0;
}

/**
 * `k` cards in the current trick (of lane `led`, `pts` points, the strongest `best`
 * played by `bestSeat`), `seat` to play, `left` points in the hands before the trick:
 * the value of the best legal card for `seat` (as maximiser or minimiser). A lead
 * tries `first` first; it sets `bestLead`.
 */
function play(
  k: number,
  seat: number,
  led: number,
  pts: number,
  best: number,
  bestSeat: number,
  left: number,
  alpha: number,
  beta: number,
  first: number,
): number {
  const h = seat * LANES;
  // V-5: follow suit or trump; to a trump lead, a trump if any.
  let lanes = 15;
  if (k > 0 && HANDS[h + led] !== 0) lanes = led === TRUMP_LANE ? 1 : (1 << led) | 1;
  const maximize = maximizer[seat] === 1;
  // The order to try the cards in: leads high cards first; follows as the solver's `order` (without threats).
  const goodNow = k > 0 && (inSide[bestSeat] === 1) === maximize;
  const selfGood = (inSide[seat] === 1) === maximize;
  const level = depth;
  const base = level * MAX_CARDS;
  const killer = k === 0 && table !== null ? table.hints[level] : -1;
  depth++;
  let n = 0;
  for (let lane = 0; lane < LANES; lane++) {
    if (((lanes >>> lane) & 1) === 0) continue;
    const mine = HANDS[h + lane];
    if (mine === 0) continue;
    const live = HANDS[lane] | HANDS[LANES + lane] | HANDS[2 * LANES + lane] | HANDS[3 * LANES + lane] | TRICK[lane];
    let prev = -1;
    for (let m = mine; m !== 0;) {
      const bit = highestBit(m);
      m ^= 1 << bit;
      const card = (lane << 5) | bit;
      const p = POINTS[card];
      // Interchangeable with the card above it: nothing live between, the same points.
      const same = prev >= 0 && (live & ((1 << prev) - (2 << bit))) === 0 && p === POINTS[(lane << 5) | prev];
      prev = bit;
      if (same) continue;
      let score: number;
      if (k === 0) score = card === first ? 1 << 20 : card === killer ? 1 << 19 : 64 - n;
      else {
        const heads = STRENGTH[led * 128 + card] > best;
        if (goodNow) score = heads ? 1000 + p : 4000 + p * 8;
        else if (heads) score = selfGood ? 4000 + p * 4 - bit : 1000 - p;
        else score = selfGood ? 2000 - p * 8 : 3000 + p * 8;
      }
      n = insertByScore(LIST, SCORE, base, n, card, score);
    }
  }
  let value = maximize ? -1 : NONE;
  let bestCard = 0;
  let a = alpha;
  let b = beta;
  const next = (seat + 1) & 3;
  for (let i = base; i < base + n; i++) {
    const card = LIST[i];
    const lane = card >>> 5;
    const bit = card & 31;
    visits++;
    const l = k === 0 ? lane : led;
    const strength = STRENGTH[l * 128 + card];
    const heads = k === 0 || strength > best;
    const winner = heads ? seat : bestSeat;
    const p = pts + POINTS[card];
    HANDS[h + lane] ^= 1 << bit;
    let v: number;
    if (k < SEATS - 1) {
      TRICK[lane] |= 1 << bit;
      v = play(k + 1, next, l, p, heads ? strength : best, winner, left, a, b, -1);
      TRICK[lane] ^= 1 << bit;
    } else {
      const gain = inSide[winner] === 1 ? p : 0;
      // The next trick starts empty.
      const t0 = TRICK[0];
      const t1 = TRICK[1];
      const t2 = TRICK[2];
      const t3 = TRICK[3];
      TRICK[0] = TRICK[1] = TRICK[2] = TRICK[3] = 0;
      v = gain + lead(winner, left - p, a - gain, b - gain);
      TRICK[0] = t0;
      TRICK[1] = t1;
      TRICK[2] = t2;
      TRICK[3] = t3;
    }
    HANDS[h + lane] |= 1 << bit;
    if (maximize) {
      if (v > value) {
        value = v;
        bestCard = card;
      }
      if (v > a) a = v;
    } else {
      if (v < value) {
        value = v;
        bestCard = card;
      }
      if (v < b) b = v;
    }
    if (a >= b) {
      if (k === 0 && table !== null) table.hints[level] = card;
      break;
    }
  }
  depth--;
  if (k === 0) bestLead = bestCard;
  return value;
}
