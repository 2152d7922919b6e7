/**
 * Search bots playing for the aims that decide Hindersche and Hindersi-Jass (a march:
 * 100 points, or all the tricks; `Game.dealAims` and `Game.outlook`, used by
 * bots/perfect-play.ts `aimValues`): the games' outlooks match their `returns`, the
 * oracle keeps a forceable march forceable where card points alone would give it up,
 * pimc with the true deal as its one world plays as the oracle, and the values are
 * deterministic.
 */
import { describe, expect, it } from 'vitest';
import { oracle } from '../bots/oracle.js';
import { pimc } from '../bots/pimc.js';
import { PerfectPlay } from '../bots/perfect-play.js';
import { Solver } from '../bots/solver/solver.js';
import type { Bot } from '../src/games/bot.js';
import { CODE_LIMIT, newSets, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, type DealAims, type Game, type State, type TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
import type { HinderscheState } from '../src/games/hindersche/state.js';
import type { JassState } from '../src/games/hindersi-jass/state.js';
import { rig } from './jass-helpers.js';

function gameNamed(name: string): Game {
  const g = findGame(name);
  if (!g) throw new Error(`no game ${name}`);
  return g;
}

function tableOf(game: Game, seats = game.defaultSeats): TableConfig {
  const rules: Record<string, string | number | boolean> = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { seats, rules };
}

const buf = newSets(1);

/** `strong` plays its strongest legal card (trumps first, then by rank), every other seat its weakest. */
function biasedMove(s: State, strong: number): number {
  const key = (c: number) => (c >>> 5 === 0 ? 100 : 0) + (c & 31);
  s.legal(buf, 0);
  const codes = setToCodes(buf, 0).sort((a, b) => key(a) - key(b));
  return s.toMove === strong ? codes[codes.length - 1] : codes[0];
}

/** The legal moves of `s` after which `seat` can still force `target` points (exact paranoid test). */
function marchMoves(
  solver: Solver,
  s: State,
  seat: number,
  target: number,
  child: State,
): { all: number[]; marching: number[] } {
  s.legal(buf, 0);
  const all = setToCodes(buf, 0);
  const marching = all.filter((m) => {
    child.copyFrom(s);
    child.apply(m);
    solver.reset();
    return solver.reaches(child, seat, target, true);
  });
  return { all, marching };
}

describe('deal aims and outlooks of the games', () => {
  it('Hindersche (H-4, H-6): the outlook of a march is its returns (+1 and -1/3 marks in phase 1, with the point term), and fewer points look better', () => {
    const game = gameNamed('hindersche');
    const table = tableOf(game);
    const s = game.newState(table) as HinderscheState;
    game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(s, new Rng(seedKey('aims'), 0));
    const aims: DealAims = { target: new Float64Array(4) };
    game.dealAims!(s, aims);
    expect(Array.from(aims.target)).toEqual([100, 100, 100, 100]);
    // Seat 1 marches with all 140 points: +1 mark relative, minus a quarter for 140 points.
    expect(game.outlook!(s, 1, 0, 1)).toBeCloseTo(1 - 0.25);
    // Seat 2 marches: -1/3 mark relative, and (140/3 - 0) / 140 of a quarter back for taking nothing.
    expect(game.outlook!(s, 1, 0, 2)).toBeCloseTo(-1 / 3 + 0.25 / 3);
    const few = game.outlook!(s, 1, 10, -1);
    const mid = game.outlook!(s, 1, 40, -1);
    const many = game.outlook!(s, 1, 70, -1);
    expect(few).toBeGreaterThan(mid);
    expect(mid).toBeGreaterThan(many);
    expect(few).toBeGreaterThan(0.3);
    expect(many).toBeLessThan(-0.9);
  });

  it('Hindersi-Jass (J-5): all the tricks is the aim while nobody else has a trick; the outlook is returns', () => {
    const game = gameNamed('hindersi-jass');
    const table = tableOf(game);
    const s = game.newState(table) as JassState;
    game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(s, new Rng(seedKey('aims'), 1));
    const aims: DealAims = { target: new Float64Array(4) };
    game.dealAims!(s, aims);
    expect(Array.from(aims.target)).toEqual([157, 157, 157, 157]);
    while (s.trick === 0) s.apply(biasedMove(s, -1));
    game.dealAims!(s, aims);
    const taker = s.trickWinner[0];
    for (let q = 0; q < 4; q++) expect(aims.target[q]).toBe(q === taker ? 157 : Infinity);
    expect(game.outlook!(s, 0, 50, 0)).toBe(1);
    expect(game.outlook!(s, 0, 50, 2)).toBeCloseTo(-1 / 3);
    expect(game.outlook!(s, 0, 157 / 4, -1)).toBeCloseTo(0);
    expect(game.outlook!(s, 0, 10, -1)).toBeGreaterThan(game.outlook!(s, 0, 20, -1));
  });
});

/**
 * Deals where `strong` plays high and the others low, until positions arise where the
 * seat to move can force the march with some of its moves but not all; the oracle must
 * play one of those. Returns [positions checked, positions where the card measure alone
 * (the old valuation) would have given the march up].
 */
function oracleKeepsMarches(
  name: string,
  budget: number,
  maxTricks: number,
  target: (s: State, seat: number) => number,
  setup?: (s: State, strong: number, rng: Rng) => void,
): [number, number] {
  const game = gameNamed(name);
  const table = tableOf(game);
  const s = game.newState(table);
  const child = game.newState(table);
  const solver = new Solver(game, table, { ttBits: 16 });
  const plain = new PerfectPlay(game, table, 16);
  const values = new Float64Array(CODE_LIMIT);
  const params = resolveParams(oracle.params, { budget: String(budget) }, 'bot oracle');
  const oracles: Bot[] = [0, 1, 2, 3].map((seat) =>
    oracle.create({ game, table, seat, rng: new Rng(), params, state: s }),
  );
  const key = seedKey(`march-${name}`);
  let checked = 0;
  let wouldLose = 0;
  for (let d = 0; d < 80 && checked < 8; d++) {
    const strong = d % 4;
    const rng = new Rng(key, d);
    game.newMatch(table, { singleDeal: true, index: d }).startDeal(s, rng);
    setup?.(s, strong, rng);
    while (!s.isTerminal()) {
      const seat = s.toMove;
      const n = s.legal(buf, 0);
      if (n > 1 && s.decision === Decision.Card && s.tricksLeft() <= maxTricks) {
        const t = target(s, seat);
        solver.reset();
        if (t < Infinity && solver.reaches(s, seat, t, true)) {
          const { all, marching } = marchMoves(solver, s, seat, t, child);
          if (marching.length < all.length) {
            checked++;
            s.legal(buf, 0);
            const got = oracles[seat].act(s.observe(seat), buf, n);
            expect(marching, `${name} deal ${d}, seat ${seat}`).toContain(got);
            // What the card measure alone would play.
            plain.begin(budget, 6);
            plain.cardValues(s, seat, budget, values);
            let best = all[0];
            for (const m of all) if (values[m] > values[best]) best = m;
            if (!marching.includes(best)) wouldLose++;
          }
        }
      }
      s.apply(biasedMove(s, strong));
    }
  }
  return [checked, wouldLose];
}

describe('the oracle plays for the march', () => {
  it('Hindersche (H-4 march): where 100 points can be forced with some moves only, it plays one of them', () => {
    const [checked, wouldLose] = oracleKeepsMarches('hindersche', 50_000, 6, (s) =>
      (s as HinderscheState).mask === 15 ? 100 : Infinity,
    );
    expect(checked).toBeGreaterThan(5);
    expect(wouldLose).toBeGreaterThan(0);
  });

  it('Hindersi-Jass (J-5 all tricks): where all the points can be forced by a seat that has every trick so far, it goes for them', () => {
    const game = gameNamed('hindersi-jass');
    const aims: DealAims = { target: new Float64Array(4) };
    // Proving a sweep takes far more nodes than refuting one (850k for one position with six
    // tricks left): five tricks at most, and a budget whose 30% for march tests is ample.
    const [checked, wouldLose] = oracleKeepsMarches(
      'hindersi-jass',
      4_000_000,
      5,
      (s, seat) => {
        game.dealAims!(s, aims);
        return aims.target[seat];
      },
      (s, strong, rng) => rig(s as JassState, strong, 6, rng),
    );
    expect(checked).toBeGreaterThan(3);
    expect(wouldLose).toBeGreaterThan(0);
  });
});

describe('pimc plays for the aims too', () => {
  it('the aim values of a world are a function of the world (the same twice, from a fresh or a used engine)', () => {
    for (const name of ['hindersche', 'hindersi-jass']) {
      const game = gameNamed(name);
      const table = tableOf(game);
      const s = game.newState(table);
      game.newMatch(table, { singleDeal: true, index: 3 }).startDeal(s, new Rng(seedKey('same'), 0));
      const rng = new Rng(seedKey('same'), 1);
      for (let k = 0; k < 14; k++) s.apply(biasedMove(s, rng.below(4)));
      const a = new Float64Array(CODE_LIMIT);
      const b = new Float64Array(CODE_LIMIT);
      const c = new Float64Array(CODE_LIMIT);
      const one = new PerfectPlay(game, table, 14);
      one.begin(60_000, 4);
      one.aimValues(s, s.toMove, 60_000, a);
      one.begin(60_000, 4);
      one.aimValues(s, s.toMove, 60_000, b);
      const two = new PerfectPlay(game, table, 14);
      two.begin(60_000, 4);
      two.aimValues(s, s.toMove, 60_000, c);
      s.legal(buf, 0);
      const moves = setToCodes(buf, 0);
      expect(moves.length).toBeGreaterThan(0);
      for (const m of moves) {
        expect(Number.isFinite(a[m])).toBe(true);
        expect(b[m]).toBe(a[m]);
        expect(c[m]).toBe(a[m]);
      }
    }
  });

  it('seeded pimc plays a Hindersche deal the same way twice', () => {
    const game = gameNamed('hindersche');
    const table = tableOf(game);
    const pp = resolveParams(pimc.params, { worlds: '4', budget: '20000' }, 'bot pimc');
    const runs: number[][] = [];
    for (let r = 0; r < 2; r++) {
      const s = game.newState(table);
      game.newMatch(table, { singleDeal: true, index: 5 }).startDeal(s, new Rng(seedKey('twice'), 0));
      const bots = [0, 1, 2, 3].map((seat) =>
        pimc.create({ game, table, seat, rng: new Rng(seedKey('twice-bot'), seat), params: pp }),
      );
      const moves: number[] = [];
      while (!s.isTerminal()) {
        const n = s.legal(buf, 0);
        const m = bots[s.toMove].act(s.observe(s.toMove), buf, n);
        moves.push(m);
        s.apply(m);
      }
      runs.push(moves);
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0].length).toBe(36);
  });
});
