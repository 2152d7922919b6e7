/**
 * The solver's greedy playout (bots/solver/solver.ts, `playoutMove`) of a Viersche deal
 * on bare hand masks: what `VierscheState.greedyPlayout` (game.ts, "Search support")
 * gives the solver. Most of a horizon search's time (pimc's, the oracle's) goes to these
 * playouts, and played through the state each card costs `searchMoves`, the generic
 * scoring through the `State` interface and `apply`; here a card is one bit cleared.
 *
 * The same choices, move for move: the legal cards of `legal` (V-4's trump lead in the
 * first trick and its face-down lead, V-5), one card of each run of interchangeable
 * ones (the lowest, as `searchMoves`), scored as `playoutMove` scores them, the first
 * best in code order; claims answered NO, each counted as a move, as the solver's
 * playout applies and counts them. Module scratch, no allocation.
 *
 * `lastCard` (`VierscheState.horizonCard`) is the solver's search of the card that
 * completes the trick at its horizon, each card followed by the trick boundary's checks
 * and the playout: there the solver would copy the state for every card.
 */
import { LANES } from '../../core/cardset.js';
import {
  BEST,
  BEST_SEAT,
  DECISION,
  HANDS,
  HIST,
  LED,
  PLIES,
  POS,
  TAKEN,
  TO_MOVE,
  TRICK,
  TRICK_WORTH,
} from '../trick/layout.js';
import { Decision } from '../game.js';
import { insertByScore } from '../../core/scored.js';
import { POINTS, STRENGTH, TRUMP_LANE } from './cards.js';

const SEATS = 4;
const TRICKS = 9;
/** The points of the pack (V-3): none are ever out of play. */
const PACK_POINTS = 140;
/** Below every score: the start of the search for the best. */
const LOWEST = -(1 << 30);
/** Beyond every value: the start of a search's best (the solver's INF). */
const NO_VALUE = 1 << 20;
/** Cap of a lead's history score (so that history * 64 + bit stays a small integer), as `playoutMove`'s. */
const LEAD_HISTORY_CAP = (1 << 22) - 1;

const HAND = new Int32Array(SEATS * LANES);
/** By lane: every card still in a hand or in the current trick (what `searchMoves` calls live). */
const LIVE = new Int32Array(LANES);
/** Cards of the current trick, by lane: they leave `LIVE` with the trick. */
const TRICK_CARDS = new Int32Array(LANES);
const TAKEN_BY = new Int32Array(SEATS);

/** The position `load` read, from which every `run` starts: the arrays above, and the scalars. */
const HAND0 = new Int32Array(SEATS * LANES);
const LIVE0 = new Int32Array(LANES);
const TRICK0 = new Int32Array(LANES);
const TAKEN0 = new Int32Array(SEATS);
let seat0 = 0;
let trick0 = 0;
let pos0 = 0;
let led0 = 0;
let best0 = 0;
let bestSeat0 = 0;
let worth0 = 0;
let decision0 = 0;
let target0 = 0;
let target1 = 0;
/** `run`'s answer when `lastCard` calls it. */
const RUN = new Int32Array(3);
/** `lastCard`'s moves in the order to try them, and their scores. */
const LIST = new Int32Array(16);
const SCORES = new Int32Array(16);

/** Read the state `m` (layout.ts) of a deal whose teams need `t0` and `t1` points. */
function load(m: Int32Array, t0: number, t1: number): void {
  for (let i = 0; i < SEATS * LANES; i++) HAND0[i] = m[HANDS + i];
  for (let s = 0; s < SEATS; s++) TAKEN0[s] = m[TAKEN + s];
  TRICK0[0] = TRICK0[1] = TRICK0[2] = TRICK0[3] = 0;
  const pos = m[POS];
  const plies = m[PLIES];
  for (let ply = plies - pos; ply < plies; ply++) {
    const c = m[HIST + ply] & 0xff;
    TRICK0[c >>> 5] |= 1 << (c & 31);
  }
  for (let lane = 0; lane < LANES; lane++)
    LIVE0[lane] = HAND0[lane] | HAND0[LANES + lane] | HAND0[2 * LANES + lane] | HAND0[3 * LANES + lane] | TRICK0[lane];
  seat0 = m[TO_MOVE];
  trick0 = m[TRICK];
  pos0 = pos;
  led0 = m[LED];
  best0 = m[BEST];
  bestSeat0 = m[BEST_SEAT];
  worth0 = m[TRICK_WORTH];
  decision0 = m[DECISION];
  target0 = t0;
  target1 = t1;
}

/** Seats as bits: those with `flags[seat] === 1`. */
function maskOf(flags: Uint8Array): number {
  let mask = 0;
  for (let s = 0; s < SEATS; s++) mask |= flags[s] << s;
  return mask;
}

/**
 * From a state `m` (layout.ts) of a Viersche deal whose teams need `t0` and `t1`
 * points: play the deal out, every seat taking the greedy playout's card (`inSide`,
 * `maximizer` and `history` as the solver holds them: seat * 128 + code). `out[0]`:
 * the points the seats with `inSide[seat] === 1` hold at the end; `out[1]`: the moves
 * made (cards and claim answers).
 */
export function greedyPlayout(
  m: Int32Array,
  t0: number,
  t1: number,
  inSide: Uint8Array,
  maximizer: Uint8Array,
  history: Int32Array,
  out: Int32Array,
): void {
  load(m, t0, t1);
  run(-1, 0, 0, maskOf(inSide), maskOf(maximizer), history, out);
}

/**
 * The solver's search (bots/solver/solver.ts, `search`) of the state `m`, whose next
 * card completes a trick at the search's horizon, after its table: the cards in the
 * solver's order (`ttMove` first, then as `order` scores a follow: with no seat still
 * to play there are no threats, so as the playout scores it), each valued as the
 * search values the trick boundary after it (its claim answer, the bounds of the window,
 * else the greedy playout), fail-soft alpha-beta in (`alpha`, `beta`), a cut-off
 * counted in `history` as the search counts it. Nodes are counted as the search counts
 * them, and it stops as the search does once more than `room` are counted. `out[0]`:
 * the value; `out[1]`: the best move; `out[2]`: the nodes; `out[3]`: 1 if stopped
 * (the rest then means nothing).
 */
export function lastCard(
  m: Int32Array,
  t0: number,
  t1: number,
  inSide: Uint8Array,
  maximizer: Uint8Array,
  history: Int32Array,
  ttMove: number,
  alpha: number,
  beta: number,
  room: number,
  out: Int32Array,
): void {
  load(m, t0, t1);
  const sides = maskOf(inSide);
  const maxima = maskOf(maximizer);
  const seat = seat0;
  const h = seat * LANES;
  const led = led0;
  const best = best0;
  const hoff = seat * 128;
  const max = (maxima >>> seat) & 1;
  const goodNow = best >= 0 && ((sides >>> bestSeat0) & 1) === max;
  const selfGood = ((sides >>> seat) & 1) === max;
  // `searchMoves` (V-5: follow suit or trump; to trumps a trump), scored as `order` scores them.
  const lanes = HAND0[h + led] !== 0 ? (1 << led) | 1 : 15;
  let n = 0;
  for (let rest = lanes; rest !== 0; rest &= rest - 1) {
    const lane = 31 - Math.clz32(rest & -rest);
    const mine = HAND0[h + lane];
    const live = LIVE0[lane];
    const base = lane << 5;
    let prev = -1;
    let prevPts = -1;
    for (let cards = mine; cards !== 0; cards &= cards - 1) {
      const bit = 31 - Math.clz32(cards & -cards);
      const code = base | bit;
      const pts = POINTS[code];
      const same = pts === prevPts && (live & ((1 << bit) - (2 << prev))) === 0;
      prev = bit;
      prevPts = pts;
      if (same) continue;
      let score: number;
      if (code === ttMove) score = 1 << 30;
      else {
        const heads = STRENGTH[(led << 7) | code] > best;
        if (goodNow) score = heads ? 1000 + pts : 4000 + pts * 8;
        else if (heads) score = selfGood ? 4000 + pts * 4 - bit : 1000 - pts;
        else score = selfGood ? 2000 - pts * 8 : 3000 + pts * 8;
        score = score * 1024 + Math.min(1023, history[hoff + code]);
      }
      n = insertByScore(LIST, SCORES, 0, n, code, score);
    }
  }
  const maximize = max === 1;
  const left = TRICKS - trick0;
  let value = maximize ? -NO_VALUE : NO_VALUE;
  let bestMove = 0;
  let a = alpha;
  let b = beta;
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    const code = LIST[i];
    // The trick boundary after the card, and its claim answer: nodes the search checks against its limit.
    if (++nodes > room) {
      out[2] = nodes;
      out[3] = 1;
      return;
    }
    run(code, a, b, sides, maxima, history, RUN);
    for (let k = 0; k < RUN[2]; k++) {
      if (++nodes > room) {
        out[2] = nodes;
        out[3] = 1;
        return;
      }
    }
    nodes += RUN[1];
    const v = RUN[0];
    if (maximize) {
      if (v > value) {
        value = v;
        bestMove = code;
        if (v > a) a = v;
      }
    } else if (v < value) {
      value = v;
      bestMove = code;
      if (v < b) b = v;
    }
    if (a >= b) {
      history[hoff + code] += left * left;
      break;
    }
  }
  out[0] = value;
  out[1] = bestMove;
  out[2] = nodes;
  out[3] = 0;
}

/**
 * Play out from the position `load` read (with `after`, a card completing its trick,
 * first: see `VierscheState.greedyPlayout`), the sides and maximisers as seat bits.
 */
function run(
  after: number,
  alpha: number,
  beta: number,
  sides: number,
  maxima: number,
  history: Int32Array,
  out: Int32Array,
): void {
  HAND.set(HAND0);
  LIVE.set(LIVE0);
  TRICK_CARDS.set(TRICK0);
  TAKEN_BY.set(TAKEN0);
  let pos = pos0;
  let seat = seat0;
  let trick = trick0;
  let led = led0;
  let best = best0;
  let bestSeat = bestSeat0;
  let worth = worth0;
  let moves = 0;
  let first = after;
  if (decision0 === Decision.Claim) moves++;
  else if (decision0 === Decision.None) trick = TRICKS;
  const hand = HAND;
  const points = POINTS;
  const strength = STRENGTH;
  while (trick < TRICKS) {
    const h = seat * LANES;
    let card = first;
    if (card >= 0) {
      // The solver's move: see `after`.
    } else if (trick === TRICKS - 1) {
      // The last trick: one card a hand, nothing to choose.
      let lane = 0;
      while (hand[h + lane] === 0) lane++;
      card = (lane << 5) | (31 - Math.clz32(hand[h + lane]));
    } else {
      // `legal`, as lanes allowed: V-4's first lead a trump if any; V-5 follow suit or trump (to trumps a trump).
      let lanes = 15;
      if (pos === 0) {
        if (trick === 0 && hand[h] !== 0) lanes = 1;
      } else {
        const suit = hand[h + led];
        if (suit !== 0) {
          // One card of the suit led and no trump besides: the only legal card.
          if ((suit & (suit - 1)) === 0 && (led === TRUMP_LANE || hand[h] === 0))
            card = (led << 5) | (31 - Math.clz32(suit));
          lanes = (1 << led) | 1;
        }
      }
      const hoff = seat * 128;
      const max = (maxima >>> seat) & 1;
      // `playoutMove`'s scores: a trick going this seat's way, whether winning is good for it.
      const goodNow = pos > 0 && best >= 0 && ((sides >>> bestSeat) & 1) === max;
      const selfGood = ((sides >>> seat) & 1) === max;
      let top = LOWEST;
      for (let rest = card < 0 ? lanes : 0; rest !== 0; rest &= rest - 1) {
        const lane = 31 - Math.clz32(rest & -rest);
        const mine = hand[h + lane];
        if (mine === 0) continue;
        const live = LIVE[lane];
        const base = lane << 5;
        let prev = -1;
        let prevPts = -1;
        for (let cards = mine; cards !== 0; cards &= cards - 1) {
          const bit = 31 - Math.clz32(cards & -cards);
          const code = base | bit;
          const pts = points[code];
          // Interchangeable with the legal card below it (nothing live between, the same points): `searchMoves` keeps the lower.
          const same = pts === prevPts && (live & ((1 << bit) - (2 << prev))) === 0;
          prev = bit;
          prevPts = pts;
          if (same) continue;
          let score: number;
          if (pos === 0) score = Math.min(history[hoff + code], LEAD_HISTORY_CAP) * 64 + bit;
          else {
            const heads = strength[(led << 7) | code] > best;
            if (goodNow) score = heads ? 1000 + pts : 4000 + pts * 8;
            else if (heads) score = selfGood ? 4000 + pts * 4 - bit : 1000 - pts;
            else score = selfGood ? 2000 - pts * 8 : 3000 + pts * 8;
            score = score * 1024 + Math.min(1023, history[hoff + code]);
          }
          if (score > top) {
            top = score;
            card = code;
          }
        }
      }
    }
    const lane = card >>> 5;
    const bit = 1 << (card & 31);
    hand[h + lane] ^= bit;
    TRICK_CARDS[lane] |= bit;
    moves++;
    if (pos === 0) {
      // V-4: a first lead without a trump goes face down, counts as a trump lead and cannot win.
      const facedown = trick === 0 && lane !== TRUMP_LANE;
      led = facedown ? TRUMP_LANE : lane;
      best = facedown ? -1 : strength[(led << 7) | card];
      bestSeat = seat;
      worth = points[card];
    } else {
      worth += points[card];
      const bid = strength[(led << 7) | card];
      if (bid > best) {
        best = bid;
        bestSeat = seat;
      }
    }
    if (++pos < SEATS) {
      seat = (seat + 1) & 3;
      continue;
    }
    // The trick to its winner; a team that has reached its target before the last trick is asked to claim (NO).
    const team = bestSeat & 1;
    TAKEN_BY[bestSeat] += worth;
    if (trick + 1 < TRICKS && TAKEN_BY[team] + TAKEN_BY[team + 2] >= (team === 0 ? target0 : target1)) moves++;
    trick++;
    pos = 0;
    seat = bestSeat;
    for (let l = 0; l < LANES; l++) {
      LIVE[l] ^= TRICK_CARDS[l];
      TRICK_CARDS[l] = 0;
    }
    if (first >= 0) {
      // The trick boundary after `after`: its claim answer is the solver's node, and its bounds may decide.
      first = -1;
      out[2] = moves - 1;
      moves = 0;
      let base = 0;
      let taken = 0;
      for (let s = 0; s < SEATS; s++) {
        taken += TAKEN_BY[s];
        if (((sides >>> s) & 1) === 1) base += TAKEN_BY[s];
      }
      const top = base + PACK_POINTS - taken;
      if (trick === TRICKS || top <= alpha || base >= beta) {
        out[0] = trick === TRICKS ? base : top <= alpha ? top : base;
        out[1] = 0;
        return;
      }
    }
  }
  let sum = 0;
  for (let s = 0; s < SEATS; s++) if (((sides >>> s) & 1) === 1) sum += TAKEN_BY[s];
  out[0] = sum;
  out[1] = moves;
}
