/**
 * The contract suite: every game in GAMES passes the same tests of game.ts's contract,
 * as OpenSpiel runs its random-simulation and resample tests over every game.
 * Positions come from seeded random matches (whole matches every third group, so
 * second deals, Butzen, playoffs and hands with money in the pot come up), stopped at
 * random plies. The tests:
 *
 * - information hiding, attacked three ways: reflection on an observation, `handLane`
 *   out of range, and a reused state begun afresh;
 * - observation equality: every world sampled from a seat's observation answers every
 *   getter and every method of that seat's window exactly as the real deal does;
 * - uniform resampling: on positions small enough to enumerate every consistent world
 *   (by the game's own rules: replayed from rebuilt starting hands), chi-square of the
 *   sampler's draws against uniform;
 * - perft and lock-step against the game's naive reference (its folder's reference.ts);
 * - the range behaviour game.ts states, copy/apply round trips, and play that
 *   allocates nothing.
 *
 * Per-game test files keep what is specific to a game's rules. Adding a game: one line
 * in CASES (the game folder's reference.ts: the tables to play and the naive reference's twin).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CODE_LIMIT, LANES, newSets, setHas, setSelect, setSize, setToCodes } from '../src/core/cardset.js';
import { Rng } from '../src/core/rng.js';
import { Decision, HIDDEN, NO, YES } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { TrickState } from '../src/games/trick/state.js';
import {
  KEY,
  chiSquare,
  engineName,
  firstDiff,
  handOf,
  members,
  newState,
  points,
  probe,
  randomMove,
  tableOf,
  uniformCases,
} from './contract-helpers.js';
import type { ContractCase, NaiveGame } from '../src/games/reference.js';

const legalBuf = newSets(1);

/** Each game's tables and naive reference (its folder's reference.ts): one line a game. */
const CASES: Readonly<Record<string, ContractCase>> = {
  viersche: (await import('../src/games/viersche/reference.js')).contract,
  hindersche: (await import('../src/games/hindersche/reference.js')).contract,
  'hindersi-jass': (await import('../src/games/hindersi-jass/reference.js')).contract,
  'vier-anderle': (await import('../src/games/vier-anderle/reference.js')).contract,
};

describe('every game has a line in the contract suite', () => {
  it('CASES names exactly the games of GAMES', () => {
    expect(Object.keys(CASES).sort()).toEqual(GAMES.map((g) => g.name).sort());
  });
});

for (const game of GAMES) {
  const c = CASES[game.name];
  if (!c) continue;
  for (const [seats, rules] of c.tables) {
    const table = tableOf(game, seats, rules);
    const label = `${game.name}, ${seats} seats${Object.keys(rules).length ? `, ${JSON.stringify(rules)}` : ''}`;

    describe(`${label}: information hiding (game.ts, "What a bot may know")`, () => {
      it('reflection finds no state, no typed array and no other hand on an observation', () => {
        for (const s of points(game, table, 6, 1)) {
          const fields: unknown[] = Object.values(s);
          const hidden = new Set<unknown>([s, ...fields.filter((v) => typeof v === 'object' && v !== null)]);
          for (let seat = 0; seat < seats; seat++) {
            const o = s.observe(seat);
            const own = [
              ...Object.keys(o),
              ...Object.getOwnPropertyNames(o),
              ...Object.getOwnPropertySymbols(o).map(String),
            ];
            const forIn: string[] = [];
            for (const k in o) forIn.push(k);
            expect(new Set([...own, ...forIn])).toEqual(new Set(['seat', 'seats']));
            expect(JSON.parse(JSON.stringify(o))).toEqual({ seat, seats });
            const { getters, methods } = members(o);
            const any = o as unknown as Record<string, unknown>;
            for (const g of getters) {
              const v = any[g];
              expect(['number', 'boolean', 'string'], g).toContain(typeof v);
              expect(hidden.has(v)).toBe(false);
            }
            for (const name of methods) {
              const f = any[name] as (arg: number) => unknown;
              for (let arg = -2; arg < 60; arg++) {
                const v = f.call(o, arg);
                expect(['number', 'boolean', 'string'], `${name}(${arg})`).toContain(typeof v);
              }
            }
          }
        }
      });

      it("handLane answers the observer's own lanes only, whatever lane it is asked for", () => {
        const leaks: string[] = [];
        for (const s of points(game, table, 4, 2)) {
          for (let seat = 0; seat < seats; seat++) {
            for (let lane = -4 * LANES; lane < (seats + 1) * LANES; lane++) {
              const v = s.observe(seat).handLane(lane);
              const own = lane >= 0 && lane < LANES ? s.hands[seat * LANES + lane] : 0;
              if (v !== own) leaks.push(`seat ${seat} handLane(${lane}) = ${v}`);
            }
          }
        }
        expect(leaks).toEqual([]);
      });

      it('a reused state, begun afresh, shows exactly what a new state shows (nothing of its last deal)', () => {
        const used = points(game, table, 12, 3);
        const cards = new Rng();
        for (let i = 0; i < used.length; i++) {
          const fresh = newState(game, table);
          const match = game.newMatch(table, { singleDeal: true, index: i });
          cards.reseed(KEY, i, 50);
          match.startDeal(fresh, cards);
          match.reset(i);
          cards.reseed(KEY, i, 50);
          match.startDeal(used[i], cards);
          for (let seat = 0; seat < seats; seat++) {
            const a = probe(fresh.observe(seat));
            const b = probe(used[i].observe(seat));
            expect(b, firstDiff(a, b)).toBe(a);
          }
        }
      });
    });

    describe(`${label}: determinization (game.ts, "Search: determinization")`, () => {
      it('every sampled world answers every question of the sampling seat as the real deal does; other seats see the difference', () => {
        const world = newState(game, table);
        const rng = new Rng(KEY, 4);
        const failures: string[] = [];
        let worlds = 0;
        let otherDiffers = 0;
        for (const s of points(game, table, 60, 4)) {
          if (s.isTerminal()) continue;
          for (let seat = 0; seat < seats; seat++) {
            const obs = s.observe(seat);
            const want = probe(obs);
            for (let k = 0; k < 2; k++) {
              game.sample(obs, rng, world);
              worlds++;
              const got = probe(world.observe(seat));
              if (got !== want) failures.push(`seat ${seat}: ${firstDiff(want, got)}`);
              for (let q = 0; q < seats; q++) if (q !== seat && handOf(world, q) !== handOf(s, q)) otherDiffers++;
            }
          }
        }
        expect(failures.slice(0, 10)).toEqual([]);
        expect(worlds).toBeGreaterThan(50);
        expect(otherDiffers).toBeGreaterThan(worlds / 4);
      });

      it('the sampler draws uniformly among the consistent worlds (chi-square on positions small enough to enumerate them)', () => {
        const found = uniformCases(game, table);
        expect(found.length).toBeGreaterThan(0);
        for (const { s, seat, worlds } of found) {
          const r = chiSquare(game, table, s, seat, worlds, Math.min(20000, 60 * worlds.length), s.plies);
          expect(r.strays, `${worlds.length} worlds`).toBe(0);
          expect(r.chi2, `${worlds.length} worlds`).toBeLessThan(r.bound);
        }
      });
    });

    describe(`${label}: the engine against the naive reference (reference.ts)`, () => {
      it('perft to depth 3 from the start of deals of random matches, and lock-step through whole deals', () => {
        const cards = new Rng();
        const play = new Rng();
        const s = newState(game, table);
        const stack = Array.from({ length: 4 }, () => newState(game, table));
        let deals = 0;
        for (let i = 0; deals < 24; i++) {
          const match = game.newMatch(table, { singleDeal: i % 2 === 0, index: i });
          for (let k = 0; !match.over && k < 12; k++, deals++) {
            cards.reseed(KEY, i, 60, k);
            play.reseed(KEY, i, 61, k);
            match.startDeal(s, cards);
            const naive = c.naive(s);
            if (deals % 3 === 0) expect(perft(s, stack, 3)).toEqual(naivePerft(naive, 3));
            while (!s.isTerminal()) {
              const n = s.legal(legalBuf, 0);
              const names = setToCodes(legalBuf, 0).map((m) => engineName(s, m));
              expect(names.sort()).toEqual(naive.moves().sort());
              const m = setSelect(legalBuf, 0, play.below(n));
              naive.play(engineName(s, m));
              s.apply(m);
            }
            expect(naive.moves()).toEqual([]);
            match.finishDeal(s);
          }
        }
      });
    });

    describe(`${label}: the contract's mechanics`, () => {
      it('ranges: moves outside the history are -1; legal counts its set; a terminal state has no mover and no move', () => {
        const bad: string[] = [];
        for (const s of points(game, table, 30, 6)) {
          const n = s.legal(legalBuf, 0);
          if (n !== setSize(legalBuf, 0)) bad.push(`count ${n} vs set ${setSize(legalBuf, 0)}`);
          const terminal = s.isTerminal();
          if (terminal !== (n === 0) || terminal !== (s.toMove === -1) || terminal !== (s.decision === Decision.None))
            bad.push('terminal, no legal move, toMove -1 and Decision.None disagree');
          if (!terminal && s.decision === Decision.Card) {
            for (const m of setToCodes(legalBuf, 0))
              if (!setHas(s.hands, s.toMove * LANES, m)) bad.push(`legal card ${m} not in the mover's hand`);
          } else if (!terminal && !(n === 2 && setHas(legalBuf, 0, YES) && setHas(legalBuf, 0, NO)))
            bad.push('a yes/no decision is not answered by YES and NO');
          for (let seat = 0; seat < seats; seat++) {
            const o = s.observe(seat);
            for (const ply of [-3, -1, o.plies, o.plies + 1, 1000]) {
              if (o.move(ply) !== -1 || o.moveSeat(ply) !== -1) bad.push(`ply ${ply} of ${o.plies} answers`);
            }
            for (let ply = 0; ply < o.plies; ply++) {
              const m = o.move(ply);
              if (!(m === HIDDEN || (m >= 0 && m < CODE_LIMIT)) || !(o.moveSeat(ply) >= 0 && o.moveSeat(ply) < seats))
                bad.push(`ply ${ply}: move ${m} by ${o.moveSeat(ply)}`);
            }
          }
        }
        expect(bad.slice(0, 10)).toEqual([]);
      });

      it('copyFrom makes a state that plays on exactly as the original, whatever the copy held before', () => {
        const dirty = points(game, table, 20, 7);
        const ret = new Float64Array(seats);
        const ret2 = new Float64Array(seats);
        const rng = new Rng(KEY, 8);
        points(game, table, 20, 8).forEach((s, i) => {
          const copy = dirty[i];
          copy.copyFrom(s);
          // Every number the state holds, its array and its own fields alike.
          expect(Array.from(copy.m)).toEqual(Array.from(s.m));
          const fields = copy as unknown as Record<string, unknown>;
          for (const [k, v] of Object.entries(s) as [string, unknown][])
            if (typeof v !== 'object') expect(fields[k], k).toBe(v);
          while (!s.isTerminal()) {
            for (let seat = 0; seat < seats; seat++)
              expect(copy.observe(seat).fingerprint()).toBe(s.observe(seat).fingerprint());
            const m = randomMove(s, rng);
            s.apply(m);
            copy.apply(m);
          }
          s.returns(ret);
          copy.returns(ret2);
          expect(Array.from(ret2)).toEqual(Array.from(ret));
        });
      });

      it('play allocates nothing: legal, apply, observe, copyFrom, sample and scoring over runs of about 20000 moves', () => {
        // In a process of its own (test/fixtures/allocation-probe.js): the test runner allocates in the background.
        const probe = () =>
          JSON.parse(
            execFileSync(
              process.execPath,
              ['test/fixtures/allocation-probe.js', game.name, String(seats), JSON.stringify(rules)],
              { encoding: 'utf8' },
            ),
          ) as { grown: number; moves: number; finite: boolean };
        // A second process where the first grew: now and then the JIT leaves a function in a
        // state that boxes a number every few deals (one process in about six, at two
        // Vier-Anderle seats); play that allocates does so in every process.
        let { grown, moves, finite } = probe();
        if (grown >= moves) ({ grown, moves, finite } = probe());
        expect(finite).toBe(true);
        expect(moves).toBeGreaterThan(3000);
        // Less than a byte a move: one small object a move would be 16 bytes or more.
        expect(grown).toBeLessThan(moves);
      });
    });
  }
}

// ---- Perft --------------------------------------------------------------------------

function perft(s: TrickState, stack: TrickState[], depth: number): number[] {
  const counts = new Array<number>(depth + 1).fill(0);
  const buf = newSets(depth + 1);
  const walk = (at: TrickState, d: number) => {
    counts[d]++;
    if (d === depth) return;
    const n = at.legal(buf, d * LANES);
    for (let k = 0; k < n; k++) {
      const child = stack[d];
      child.copyFrom(at);
      child.apply(setSelect(buf, d * LANES, k));
      walk(child, d + 1);
      // walk may have reused deeper scratch states only: `child` stays valid for the next k.
    }
  };
  walk(s, 0);
  return counts;
}

function naivePerft(g: NaiveGame, depth: number): number[] {
  const counts = new Array<number>(depth + 1).fill(0);
  const walk = (at: NaiveGame, d: number) => {
    counts[d]++;
    if (d === depth) return;
    for (const m of at.moves()) {
      const child = at.clone();
      child.play(m);
      walk(child, d + 1);
    }
  };
  walk(g, 0);
  return counts;
}

// ---- Uniform resampling ---------------------------------------------------------------
