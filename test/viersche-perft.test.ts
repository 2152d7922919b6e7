/**
 * Perft and lock-step: the engine (src/games/viersche) against the naive reference
 * (src/games/viersche/reference.ts), two independent readings of RULES.md V-1 to V-9.
 * Perft counts the move sequences (cards and claim answers) of exactly `depth` moves;
 * a deal that ends earlier contributes nothing at deeper depths.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setSelect, setToCodes } from '../src/core/cardset.js';
import { SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO } from '../src/games/game.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';
import { NaiveViersche, naivePerft, type NaiveMove } from '../src/games/viersche/reference.js';
import { handNames, nameOf, randomMove } from './viersche-helpers.js';

const PERFT_KEY = seedKey('perft');
const deck = new Uint8Array(36);

const stack = Array.from({ length: 16 }, () => new VierscheState());
const bufs = newSets(16);

/** Engine perft on copy-and-apply (bulk count at the last ply). */
function enginePerft(s: VierscheState, depth: number): number {
  if (depth === 0) return 1;
  const off = depth * LANES;
  const n = s.legal(bufs, off);
  if (depth === 1) return n;
  let total = 0;
  const child = stack[depth];
  for (let k = 0; k < n; k++) {
    child.copyFrom(s);
    child.apply(setSelect(bufs, off, k));
    total += enginePerft(child, depth - 1);
  }
  return total;
}

/** Claim questions met in the naive tree down to `depth` (to show that a table row exercises V-8). */
function naiveClaimNodes(g: NaiveViersche, depth: number): number {
  if (depth === 0) return 0;
  let n = g.phase === 'claim' ? 1 : 0;
  for (const m of g.legalMoves()) {
    const c = g.clone();
    c.play(m);
    n += naiveClaimNodes(c, depth - 1);
  }
  return n;
}

/** The naive twin of a freshly dealt engine state: same dealer, trump, targets and hands, by name. */
function naiveTwin(s: VierscheState): NaiveViersche {
  const hands = [0, 1, 2, 3].map((seat) => handNames(s, seat, s.dealt));
  return new NaiveViersche(s.dealer, SUITS[s.trump], [s.targets[0], s.targets[1]], hands);
}

interface Case {
  name: string;
  state: VierscheState;
  naive: NaiveViersche;
}

/**
 * Deal `i` of the 'perft' seed with `ctx`, then `pre` random cards (seeded by i) in
 * both implementations; claim questions on the way are passed, so the deal goes on.
 */
function perftCase(name: string, i: number, ctx: DealContext, pre = 0): Case {
  const state = new VierscheState();
  state.deal(ctx, new Rng(PERFT_KEY, i), deck);
  const naive = naiveTwin(state);
  const rng = new Rng(PERFT_KEY, i, 1);
  for (let k = 0; k < pre; k++) {
    const m = state.decision === Decision.Claim ? NO : randomMove(state, rng);
    naive.play(nameOf(state, m));
    state.apply(m);
  }
  return { name, state, naive };
}

/** The first deal index of the 'perft' seed at which forehand holds no trump (V-4 face-down lead). */
function firstFacedownDeal(): number {
  const s = new VierscheState();
  for (let i = 0; ; i++) {
    s.deal({ dealer: i % 4, targets: [100, 100], secondDeal: false }, new Rng(PERFT_KEY, i), deck);
    if (s.hands[s.forehand * LANES] === 0) return i;
  }
}

const first = (dealer: number): DealContext => ({ dealer, targets: [100, 100], secondDeal: false });

/*
 * Perft table. Deals are `state.deal(ctx, new Rng(seedKey('perft'), i))`; the numbers
 * were produced by this file's engine perft and agree with the naive reference (the
 * test below checks both every run). Depths 1..6 are pinned here; depth 7 is checked
 * for engine = naive only.
 *
 *  case                                       d1   d2   d3    d4     d5      d6
 *  deal 0, dealer 0, trump H                   3    6    6    24    192     520
 *  deal 1, dealer 1, trump H                   3    6   12    36    288     991
 *  deal 2, dealer 2, trump S                   2    4   12    36    288     846
 *  deal 3, dealer 3, trump C                   4    4   12    24    192     712
 *  deal 15, dealer 3, trump H, face-down      9   27   27   162   1296    7011
 *  deal 3, 2nd deal, targets 10/50, dealer 1,
 *    after 14 random moves (claims passed)   6   18  108   216    540     990
 *    (trick 3 completes at depth 3 and claim questions appear there: V-8)
 */
const FACEDOWN_DEAL = 15;
const SECOND: DealContext = { dealer: 1, targets: [10, 50], secondDeal: true };

const EXPECTED: Record<string, readonly number[]> = {
  'deal 0, dealer 0, trump H': [3, 6, 6, 24, 192, 520],
  'deal 1, dealer 1, trump H': [3, 6, 12, 36, 288, 991],
  'deal 2, dealer 2, trump S': [2, 4, 12, 36, 288, 846],
  'deal 3, dealer 3, trump C': [4, 4, 12, 24, 192, 712],
  'deal 15, dealer 3, trump H, face-down': [9, 27, 27, 162, 1296, 7011],
  'deal 3, second deal 10/50, after 14 random moves': [6, 18, 108, 216, 540, 990],
};

function cases(): Case[] {
  return [
    perftCase('deal 0, dealer 0, trump H', 0, first(0)),
    perftCase('deal 1, dealer 1, trump H', 1, first(1)),
    perftCase('deal 2, dealer 2, trump S', 2, first(2)),
    perftCase('deal 3, dealer 3, trump C', 3, first(3)),
    perftCase('deal 15, dealer 3, trump H, face-down', FACEDOWN_DEAL, first(3)),
    perftCase('deal 3, second deal 10/50, after 14 random moves', 3, SECOND, 14),
  ];
}

describe('viersche perft: engine = naive reference (V-1..V-5, V-8)', () => {
  it(`V-4: deal ${FACEDOWN_DEAL} is the first 'perft' deal whose forehand holds no trump`, () => {
    expect(firstFacedownDeal()).toBe(FACEDOWN_DEAL);
    const c = perftCase('fd', FACEDOWN_DEAL, first(3));
    expect(c.state.hands[c.state.forehand * LANES]).toBe(0);
  });

  for (const c of cases()) {
    it(`perft ${c.name}: ${EXPECTED[c.name].join(' / ')}`, () => {
      const engine: number[] = [];
      const naive: number[] = [];
      const deep = 7;
      for (let d = 1; d <= deep; d++) {
        engine.push(enginePerft(c.state, d));
        naive.push(naivePerft(c.naive, d));
      }
      expect(engine).toEqual(naive);
      const want = EXPECTED[c.name];
      expect(engine.slice(0, want.length)).toEqual(want);
      console.log(`perft ${c.name}: ${engine.join(' ')}`);
    });
  }

  it('V-8: the second-deal row meets claim questions within depth 4', () => {
    const c = cases()[5];
    expect(c.state.secondDeal).toBe(true);
    expect(naiveClaimNodes(c.naive, 4)).toBeGreaterThan(0);
  });
});

describe('viersche lock-step: engine and naive agree move by move (V-1..V-9)', () => {
  it('2000 random deals, first and second deals, claims answered at random', () => {
    const key = seedKey('lock-step');
    const rng = new Rng();
    const state = new VierscheState();
    const legal = newSets();
    const failures: string[] = [];
    const fail = (i: number, what: string) => {
      if (failures.length < 20) failures.push(`deal ${i}: ${what}`);
    };
    let claims = 0;
    let facedowns = 0;
    for (let i = 0; i < 2000; i++) {
      rng.reseed(key, i);
      // Half first deals, half second deals after a random carried score (V-7).
      const x = 70 + rng.below(30);
      const team = rng.below(2);
      const targets: [number, number] = [0, 0];
      targets[team] = 100 - x;
      targets[1 - team] = x - 40;
      const ctx: DealContext = i % 2 === 0 ? first(i % 4) : { dealer: i % 4, targets, secondDeal: true };
      state.deal(ctx, rng, deck);
      const naive = naiveTwin(state);
      let tricks = 0;
      while (!state.isTerminal()) {
        const n = state.legal(legal, 0);
        const mine = setToCodes(legal, 0)
          .map((m) => nameOf(state, m))
          .sort();
        const theirs: NaiveMove[] = naive.legalMoves().sort();
        if (mine.join() !== theirs.join() || n !== mine.length || naive.toMove !== state.toMove) {
          fail(i, `ply ${state.plies}: engine ${state.toMove}:[${mine}] naive ${naive.toMove}:[${theirs}]`);
          break;
        }
        if (state.decision === Decision.Claim) claims++;
        const m = setSelect(legal, 0, rng.below(n));
        state.apply(m);
        naive.play(nameOf(state, m));
        if (state.trick !== tricks && state.trick <= 9) {
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
      if (state.facedown) facedowns++;
      const out = [
        state.winner,
        state.gameRungs,
        state.teamPoints(0),
        state.teamPoints(1),
        state.claimTrick,
        +state.facedown,
      ];
      const ref = [
        naive.winner,
        naive.rungs,
        naive.teamPoints[0],
        naive.teamPoints[1],
        naive.claimedAfter,
        +naive.facedown,
      ];
      if (naive.phase !== 'over' || out.join() !== ref.join())
        fail(i, `outcome engine [${out}] naive [${ref}] (${naive.phase})`);
    }
    expect(failures).toEqual([]);
    // The random deals do reach the rules under test.
    expect(claims).toBeGreaterThan(500);
    expect(facedowns).toBeGreaterThan(30);
  });
});
