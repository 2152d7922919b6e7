/**
 * Perft and lock-step: the engine (src/games/hindersi-jass) against the naive
 * reference (src/games/hindersi-jass/reference.ts), two independent readings of RULES.md J-1 to
 * J-5. Perft counts the card sequences of exactly `depth` cards from a position.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setSelect, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { JassState } from '../src/games/hindersi-jass/state.js';
import { NaiveJass, naivePerft, rankName, suitLetter } from '../src/games/hindersi-jass/reference.js';
import { ctxFor, handNames, nameOf, position, randomMove, rig, slamMove } from './jass-helpers.js';

const PERFT_KEY = seedKey('jass-perft');
const deck = new Uint8Array(PACK_SIZE);

const stack = Array.from({ length: 16 }, () => [new JassState(3), new JassState(4)]);
const bufs = newSets(16);

/** Engine perft on copy-and-apply (bulk count at the last ply). */
function enginePerft(s: JassState, depth: number): number {
  if (depth === 0) return 1;
  const off = depth * LANES;
  const n = s.legal(bufs, off);
  if (depth === 1) return n;
  let total = 0;
  const child = stack[depth][s.seats - 3];
  for (let k = 0; k < n; k++) {
    child.copyFrom(s);
    child.apply(setSelect(bufs, off, k));
    total += enginePerft(child, depth - 1);
  }
  return total;
}

/** The naive twin of a freshly dealt engine state: same seats, dealer, trump and hands, by name. */
function naiveTwin(s: JassState): NaiveJass {
  const hands = Array.from({ length: s.seats }, (_, seat) => handNames(s, seat, s.dealt));
  return new NaiveJass(s.seats, s.dealer, SUITS[s.trump], hands);
}

interface Case {
  name: string;
  state: JassState;
  naive: NaiveJass;
}

/** Deal `i` of the 'jass-perft' seed at `seats` seats, then `pre` random cards (seeded by i) in both implementations. */
function perftCase(name: string, seats: number, i: number, dealer: number, pre = 0): Case {
  const state = new JassState(seats);
  state.deal(ctxFor(dealer, seats), new Rng(PERFT_KEY, i), deck);
  const naive = naiveTwin(state);
  const rng = new Rng(PERFT_KEY, i, 1);
  for (let k = 0; k < pre; k++) {
    const m = randomMove(state, rng);
    naive.play(nameOf(state, m));
    state.apply(m);
  }
  return { name, state, naive };
}

/** A designed position (hands by name) as a perft case. */
function designCase(name: string, trump: string, dealer: number, turnup: string, hands: string[]): Case {
  const state = position(trump, hands, { dealer, turnup });
  const naive = new NaiveJass(
    hands.length,
    dealer,
    trump,
    hands.map((h) => h.split(' ')),
  );
  return { name, state, naive };
}

/*
 * Perft table. Random rows are `state.deal(ctxFor(dealer, seats), new Rng(seedKey('jass-perft'), i))`,
 * then `pre` random legal cards from `new Rng(key, i, 1)`; the designed rows put the
 * Puur exception (J-4) at the root's second card. The numbers were produced by this
 * file's engine perft; the naive reference agrees with them at every depth listed
 * (checked every run).
 *
 *  case                                              d1   d2   d3    d4     d5     d6     d7     d8
 *  4 players, deal 0, dealer 0 (trump D)              9   27  108   690   5520  26466
 *  4 players, deal 1, dealer 1 (trump C)              9   34  212  1004   8032  33059
 *  4 players, deal 2, dealer 3, after 9 cards (S)     1    3    3    18     65    192    720   3600
 *  4 players, deal 3, dealer 2, after 22 cards (S)    1    4   12    20     57    153    306    504
 *  3 players, deal 4, dealer 0 (trump D)             12   55  268  2948  13406  63012
 *  3 players, deal 5, dealer 2 (trump C)             12   61  269  2959  14438  68062
 *  3 players, deal 6, dealer 1, after 10 cards (H)    2    6   48   182    535   3745  12767  42864
 *  3 players, deal 7, dealer 0, after 24 cards (H)    4    8   32    96    216    456    912   1824
 *  designed, 4 players, Puur alone (trump H)          9   44  232   754   6032  23652
 *  designed, 3 players, Puur alone (trump S)         12   78  441  4851  22857
 */
const EXPECTED: Record<string, readonly number[]> = {
  '4 players, deal 0, dealer 0': [9, 27, 108, 690, 5520, 26466],
  '4 players, deal 1, dealer 1': [9, 34, 212, 1004, 8032, 33059],
  '4 players, deal 2, dealer 3, after 9 cards': [1, 3, 3, 18, 65, 192, 720, 3600],
  '4 players, deal 3, dealer 2, after 22 cards': [1, 4, 12, 20, 57, 153, 306, 504],
  '3 players, deal 4, dealer 0': [12, 55, 268, 2948, 13406, 63012],
  '3 players, deal 5, dealer 2': [12, 61, 269, 2959, 14438, 68062],
  '3 players, deal 6, dealer 1, after 10 cards': [2, 6, 48, 182, 535, 3745, 12767, 42864],
  '3 players, deal 7, dealer 0, after 24 cards': [4, 8, 32, 96, 216, 456, 912, 1824],
  'designed, 4 players, Puur alone': [9, 44, 232, 754, 6032, 23652],
  'designed, 3 players, Puur alone': [12, 78, 441, 4851, 22857],
};

function cases(): Case[] {
  return [
    perftCase('4 players, deal 0, dealer 0', 4, 0, 0),
    perftCase('4 players, deal 1, dealer 1', 4, 1, 1),
    perftCase('4 players, deal 2, dealer 3, after 9 cards', 4, 2, 3, 9),
    perftCase('4 players, deal 3, dealer 2, after 22 cards', 4, 3, 2, 22),
    perftCase('3 players, deal 4, dealer 0', 3, 4, 0),
    perftCase('3 players, deal 5, dealer 2', 3, 5, 2),
    perftCase('3 players, deal 6, dealer 1, after 10 cards', 3, 6, 1, 10),
    perftCase('3 players, deal 7, dealer 0, after 24 cards', 3, 7, 0, 24),
    // Seat 2 holds the Puur as its only trump behind forehand's trumps.
    designCase('designed, 4 players, Puur alone', 'H', 0, '8H', [
      '8H 9H 6C 9C 10C JC 6S 7S QD',
      '6H 7H AC KC 6D 7D 8S 9S 10S',
      'JH AS KS QS 7C 8C QC 9D 10D',
      '10H QH KH AH JS JD KD AD 8D',
    ]),
    // Seat 1 holds the Puur as its only trump behind forehand's trumps.
    designCase('designed, 3 players, Puur alone', 'S', 2, '10S', [
      '6S 7S 8S AH KH QH 6C 7C 8C AD KD QD',
      'JS 6H 7H 8H 9H 9C 10C JC 6D 7D 8D 9D',
      '9S 10S QS KS AS 10H JH QC KC AC 10D JD',
    ]),
  ];
}

describe('hindersi-jass perft: engine = naive reference (J-1..J-4)', () => {
  for (const c of cases()) {
    const want = EXPECTED[c.name];
    it(`perft ${c.name}: ${want.join(' / ')}`, () => {
      const depth = want.length;
      const engine: number[] = [];
      const naive: number[] = [];
      for (let d = 1; d <= depth; d++) {
        engine.push(enginePerft(c.state, d));
        naive.push(naivePerft(c.naive, d));
      }
      expect(engine).toEqual(naive);
      expect(engine).toEqual(want);
    });
  }

  it('J-4: the table meets the Puur exception, barred undertrumps and free undertrumps', () => {
    const seen = { puurAlone: 0, undertrumpBarred: 0, undertrumpFree: 0 };
    for (const c of cases()) j4Nodes(c.naive, Math.min(EXPECTED[c.name].length, 5), seen);
    expect(seen.puurAlone).toBeGreaterThan(0);
    expect(seen.undertrumpBarred).toBeGreaterThan(0);
    expect(seen.undertrumpFree).toBeGreaterThan(0);
  });
});

/**
 * Count the nodes of the naive tree down to `depth` where J-4's special cases decide:
 * trumps led to a hand whose only trump is the Puur; a plain lead, already trumped, to
 * a hand holding the suit and a trump it may not play; the same to a hand void in the
 * suit (every trump allowed).
 */
function j4Nodes(
  g: NaiveJass,
  depth: number,
  seen: { puurAlone: number; undertrumpBarred: number; undertrumpFree: number },
): void {
  if (depth === 0 || g.over) return;
  if (g.current.length > 0) {
    const hand = g.hands[g.toMove];
    const led = suitLetter(g.current[0]);
    const trumps = hand.filter((c) => suitLetter(c) === g.trump);
    const trumped = g.current.some((c) => suitLetter(c) === g.trump);
    if (led === g.trump && trumps.length === 1 && rankName(trumps[0]) === 'J' && hand.length > 1) seen.puurAlone++;
    if (led !== g.trump && trumped && trumps.length > 0) {
      if (!hand.some((c) => suitLetter(c) === led)) seen.undertrumpFree++;
      else if (g.legalMoves().filter((c) => suitLetter(c) === g.trump).length < trumps.length) seen.undertrumpBarred++;
    }
  }
  for (const m of g.legalMoves()) {
    const c = g.clone();
    c.play(m);
    j4Nodes(c, depth - 1, seen);
  }
}

describe('hindersi-jass lock-step: engine and naive agree card by card (J-1..J-5)', () => {
  it('3000 deals with 4 and 3 players, random and slam-prone play', () => {
    const key = seedKey('jass-lock-step');
    const rng = new Rng();
    const states = [new JassState(3), new JassState(4)];
    const legal = newSets();
    const failures: string[] = [];
    const fail = (i: number, what: string) => {
      if (failures.length < 20) failures.push(`deal ${i}: ${what}`);
    };
    let slams = 0;
    for (let i = 0; i < 3000; i++) {
      rng.reseed(key, i);
      const seats = 3 + (i & 1);
      const state = states[seats - 3];
      state.deal(ctxFor(i % seats, seats), rng, deck);
      // Every third deal: one seat holds 6 to 9 top trumps and plays its strongest card,
      // the others their weakest, so that J-5 comes up.
      const strong = i % 3 === 0 ? rng.below(seats) : -1;
      if (strong >= 0) rig(state, strong, 6 + rng.below(4), rng);
      const naive = naiveTwin(state);
      let tricks = 0;
      while (!state.isTerminal()) {
        const n = state.legal(legal, 0);
        const mine = setToCodes(legal, 0)
          .map((m) => nameOf(state, m))
          .sort();
        const theirs = naive.legalMoves().sort();
        if (mine.join() !== theirs.join() || n !== mine.length || naive.toMove !== state.toMove) {
          fail(i, `ply ${state.plies}: engine ${state.toMove}:[${mine}] naive ${naive.toMove}:[${theirs}]`);
          break;
        }
        const m = strong >= 0 ? slamMove(state, strong) : setSelect(legal, 0, rng.below(n));
        state.apply(m);
        naive.play(nameOf(state, m));
        if (state.trick !== tricks) {
          const t = naive.tricks[tricks];
          if (state.trickWinner[tricks] !== t.winner || state.trickValue[tricks] !== t.points) {
            fail(
              i,
              `trick ${tricks}: engine ${state.trickWinner[tricks]}/${state.trickValue[tricks]} naive ${t.winner}/${t.points}`,
            );
          }
          tricks = state.trick;
        }
      }
      if (state.allTricks >= 0) slams++;
      const out = Array.from(state.charged.subarray(0, seats));
      if (!naive.over || out.join() !== naive.charged().join())
        fail(i, `charged engine [${out}] naive [${naive.charged()}]`);
    }
    expect(failures).toEqual([]);
    expect(slams).toBeGreaterThan(50);
  });
});
