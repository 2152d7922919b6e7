/**
 * alpha-mu (bots/alphamu.ts, `pimc:alphamu`): its values equal a brute-force maximum over
 * the seat's strategies (one move per information set, written plainly with strings),
 * each world played against the seat by others who know it, on endgames of every game;
 * with M = 1 it plays what pimc plays; its move depends on the seat's observation
 * alone; bad settings get one clear error. (Legal play through whole deals: the table
 * of bots-pimc.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { AlphaMu } from '../bots/alphamu.js';
import { PerfectPlay } from '../bots/perfect-play.js';
import { pimc } from '../bots/pimc.js';
import type { Bot } from '../src/games/bot.js';
import { CODE_LIMIT, newSets, setCodesInto, setFirst, setSelect, setToCodes } from '../src/core/cardset.js';
import { isTafelError } from '../src/core/errors.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { resolveParams } from '../src/games/params.js';
import { Decision, NO, YES, type Game, type State, type TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { defaultTable, endgame } from './endgames.js';

const GAMES = ['viersche', 'hindersche', 'hindersi-jass', 'vier-anderle'];
/** The most information sets at the seat's next choice in an endgame the reference enumerates (2^sets strategies). */
const MAX_SETS = 8;

function copyOf(game: Game, table: TableConfig, s: State): State {
  const c = game.newState(table);
  c.copyFrom(s);
  return c;
}

/** A seat's choice the strategy does not make yet: where, and its moves. */
interface Need {
  key: string;
  moves: number[];
}

/**
 * The reference: the best weighted sum over the worlds, among the seat's strategies
 * that play `move` now, of the worlds' values when the seat makes up to `m` decisions
 * (this one the first) by the strategy (a move per text of what it saw), every other
 * seat plays each world knowing it (its partner for the seat, the others against it),
 * and after the m-th decision the world is valued alone (`leaf`).
 */
class Reference {
  private readonly sign: number;
  private readonly side: boolean[];
  private readonly ret: Float64Array;

  constructor(
    private readonly game: Game,
    private readonly table: TableConfig,
    private readonly seat: number,
    private readonly from: number,
    private readonly aims: PerfectPlay | null,
  ) {
    this.sign = game.searchGoal.more ? 1 : -1;
    const teams = game.teams(table.seats);
    this.side = Array.from({ length: table.seats }, (_, s) => (teams ? teams[s] === teams[seat] : s === seat));
    this.ret = new Float64Array(table.seats);
  }

  best(worlds: State[], weight: number[], strategy: Map<string, number>, m: number): number {
    let sum = 0;
    for (let k = 0; k < worlds.length; k++) {
      const r = this.value(copyOf(this.game, this.table, worlds[k]), strategy, m);
      if (typeof r !== 'number') {
        let b = -Infinity;
        for (const mv of r.moves) b = Math.max(b, this.best(worlds, weight, new Map(strategy).set(r.key, mv), m));
        return b;
      }
      sum += weight[k] * r;
    }
    return sum;
  }

  /**
   * The seat's information sets at its next choice after `move`, over the worlds (the
   * reference's cost is exponential in them), and how many of them hold several worlds.
   */
  sets(worlds: State[], move: number): [number, number] {
    const keys = new Map<string, Set<number>>();
    let world = 0;
    const walk = (s: State) => {
      while (!s.isTerminal() && s.decision !== Decision.Card) s.apply(NO);
      if (s.isTerminal()) return;
      const legal = newSets(1);
      const n = s.legal(legal, 0);
      if (s.toMove === this.seat && n > 1) {
        const key = this.seen(s);
        keys.set(key, (keys.get(key) ?? new Set<number>()).add(world));
        return;
      }
      for (const mv of setToCodes(legal)) {
        const c = copyOf(this.game, this.table, s);
        c.apply(mv);
        walk(c);
      }
    };
    for (world = 0; world < worlds.length; world++) {
      const c = copyOf(this.game, this.table, worlds[world]);
      c.apply(move);
      walk(c);
    }
    return [keys.size, [...keys.values()].filter((w) => w.size > 1).length];
  }

  private value(s: State, strategy: Map<string, number>, m: number): number | Need {
    while (!s.isTerminal() && s.decision !== Decision.Card) s.apply(NO);
    if (s.isTerminal()) return this.end(s);
    const legal = newSets(1);
    const n = s.legal(legal, 0);
    if (n === 1) {
      s.apply(setFirst(legal, 0));
      return this.value(s, strategy, m);
    }
    if (s.toMove === this.seat) {
      const key = this.seen(s);
      const mv = strategy.get(key);
      if (mv === undefined) return { key, moves: setToCodes(legal) };
      if (m === 1) return this.leaf(s, mv);
      s.apply(mv);
      return this.value(s, strategy, m - 1);
    }
    const mine = this.side[s.toMove];
    let v = mine ? -Infinity : Infinity;
    for (const mv of setToCodes(legal)) {
      const c = copyOf(this.game, this.table, s);
      c.apply(mv);
      const r = this.value(c, strategy, m);
      if (typeof r !== 'number') return r;
      v = mine ? Math.max(v, r) : Math.min(v, r);
    }
    return v;
  }

  /** What the seat saw since the root, as text. */
  private seen(s: State): string {
    const obs = s.observe(this.seat);
    const parts: string[] = [];
    for (let p = this.from; p < obs.plies; p++) parts.push(`${obs.moveSeat(p)}:${obs.move(p)}`);
    return parts.join(',');
  }

  private end(s: State): number {
    if (this.aims) {
      s.returns(this.ret);
      return this.ret[this.seat];
    }
    let taken = 0;
    for (let q = 0; q < this.table.seats; q++) if (this.side[q]) taken += s.taken(q);
    return this.sign * taken;
  }

  /** The world valued alone after the seat's move: exact minimax of the measure, or pimc's outlook. */
  private leaf(s: State, mv: number): number {
    if (this.aims) {
      const out = new Float64Array(CODE_LIMIT);
      this.aims.begin(1e12, 12);
      this.aims.aimValues(s, this.seat, 1e12, out);
      return out[mv];
    }
    const c = copyOf(this.game, this.table, s);
    c.apply(mv);
    return this.minimax(c);
  }

  private minimax(s: State): number {
    while (!s.isTerminal() && s.decision !== Decision.Card) s.apply(NO);
    if (s.isTerminal()) return this.end(s);
    const legal = newSets(1);
    s.legal(legal, 0);
    const mine = this.side[s.toMove];
    let v = mine ? -Infinity : Infinity;
    for (const mv of setToCodes(legal)) {
      const c = copyOf(this.game, this.table, s);
      c.apply(mv);
      const r = this.minimax(c);
      v = mine ? Math.max(v, r) : Math.min(v, r);
    }
    return v;
  }
}

describe('AlphaMu', () => {
  for (const name of GAMES) {
    it(`${name}: equals the brute-force best strategy over the seat's information sets (M = 1, 2, 3)`, () => {
      const game = findGame(name)!;
      const table = defaultTable(game, 4);
      const play = new PerfectPlay(game, table, 16);
      const alpha = new AlphaMu(game, table, play);
      const reference = new PerfectPlay(game, table, 16);
      const rng = new Rng(seedKey('alphamu-worlds'), 0);
      const legal = newSets(1);
      const moves = new Int32Array(CODE_LIMIT);
      const got = new Float64Array(CODE_LIMIT);
      const count = 3;
      const weight = new Float64Array([1, 2, 1]);
      let checked = 0;
      let shared = 0;
      for (let i = 0; i < 60 && checked < 24; i++) {
        const s = endgame('alphamu', game, table, i, 3, i % 4);
        if (!s) continue;
        const seat = s.toMove;
        const n = s.legal(legal, 0);
        if (n < 2) continue;
        setCodesInto(legal, 0, moves);
        const worlds = Array.from({ length: count }, () => {
          const w = game.newState(table);
          game.sample(s.observe(seat), rng, w);
          return w;
        });
        const ref = new Reference(game, table, seat, s.observe(seat).plies, play.hasAims ? reference : null);
        const sets = Array.from(moves.subarray(0, n), (mv) => ref.sets(worlds, mv));
        if (sets.some(([all]) => all > MAX_SETS)) continue;
        shared += sets.reduce((sum, [, several]) => sum + several, 0);
        for (const m of [1, 2, 3]) {
          play.begin(1e12, 12);
          expect(alpha.search(worlds, weight, count, seat, moves, n, m, got)).toBe(m);
          const want = Array.from({ length: n }, (_, k) => ref.best(worlds, [...weight], new Map([['', moves[k]]]), m));
          const top = Math.max(...want);
          expect(Math.max(...got.subarray(0, n)), `${name} endgame ${i}, M=${m}`).toBeCloseTo(top, 9);
          for (let k = 0; k < n; k++) {
            const label = `${name} endgame ${i}, M=${m}, ${s.moveName(moves[k])}`;
            // A move cut short gets a bound between its value and the best; the others their value.
            if (Math.abs(got[k] - want[k]) > 1e-9) {
              expect(got[k], label).toBeGreaterThan(want[k]);
              expect(got[k], label).toBeLessThanOrEqual(top + 1e-9);
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThanOrEqual(24);
      // Information sets of several worlds at the seat's second decision: one choice binds them.
      expect(shared).toBeGreaterThan(3);
    });
  }
});

/** A pimc bot for `seat` with `params` over the defaults, on its own stream. */
function pimcBot(game: Game, table: TableConfig, seat: number, params: Record<string, string>, stream: number): Bot {
  const p = resolveParams(pimc.params, params, 'bot pimc');
  return pimc.create({ game, table, seat, rng: new Rng(seedKey('alphamu-bot'), stream), params: p });
}

describe('pimc:alphamu', () => {
  it('with M = 1 plays what pimc (paranoid) plays with the same worlds', () => {
    for (const name of GAMES) {
      const game = findGame(name)!;
      const table = defaultTable(game, 4);
      const state = game.newState(table);
      const legal = newSets(1);
      const play = new Rng(seedKey('alphamu-one'), 1);
      let compared = 0;
      game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(state, new Rng(seedKey('alphamu-one'), 0));
      const common = { worlds: '4', budget: '20000', model: 'paranoid' };
      const a = pimcBot(game, table, 0, { ...common, alphamu: '1' }, 1);
      const b = pimcBot(game, table, 0, common, 1);
      while (!state.isTerminal()) {
        const n = state.legal(legal, 0);
        // Every seat declares in (Vier-Anderle), so that seat 0 plays its cards.
        let move = state.decision === Decision.Declare ? YES : setSelect(legal, 0, play.below(n));
        if (state.toMove === 0 && state.decision === Decision.Card) {
          move = a.act(state.observe(0), legal, n);
          expect(b.act(state.observe(0), legal, n), name).toBe(move);
          if (n > 1) compared++;
        }
        state.apply(move);
      }
      expect(compared, name).toBeGreaterThan(1);
    }
  });

  it("its move depends on the seat's observation alone: deals that differ only in hidden cards get the same move", () => {
    for (const name of ['viersche', 'hindersi-jass']) {
      const game = findGame(name)!;
      const table = defaultTable(game, 4);
      const state = game.newState(table);
      const other = game.newState(table);
      const legal = newSets(1);
      const play = new Rng(seedKey('alphamu-hidden'), 1);
      let compared = 0;
      let differ = 0;
      game.newMatch(table, { singleDeal: true, index: 0 }).startDeal(state, new Rng(seedKey('alphamu-hidden'), 0));
      while (!state.isTerminal()) {
        const seat = state.toMove;
        const n = state.legal(legal, 0);
        if (n > 1 && state.decision === Decision.Card && state.observe(seat).plies % 3 === 0) {
          game.sample(state.observe(seat), play, other);
          expect(other.observe(seat).fingerprint()).toBe(state.observe(seat).fingerprint());
          if (other.observe((seat + 1) % 4).fingerprint() !== state.observe((seat + 1) % 4).fingerprint()) differ++;
          const params = { worlds: '4', budget: '30000', alphamu: '2' };
          const x = pimcBot(game, table, seat, params, 9).act(state.observe(seat), legal, n);
          const y = pimcBot(game, table, seat, params, 9).act(other.observe(seat), legal, n);
          expect(y, name).toBe(x);
          compared++;
        }
        state.apply(setSelect(legal, 0, play.below(n)));
      }
      expect(compared, name).toBeGreaterThan(3);
      expect(differ, name).toBeGreaterThan(0);
    }
  });

  it('needs the paranoid model and the mean: one clear error otherwise', () => {
    const game = findGame('hindersi-jass')!;
    const table = defaultTable(game, 4);
    const cases: [Record<string, string>, string][] = [
      [
        { alphamu: '2', model: 'heuristic' },
        'pimc: alphamu=2 needs model=paranoid (the others taken to know the world and play against the seat); model is heuristic',
      ],
      [{ alphamu: '3', choose: 'votes' }, 'pimc: alphamu=3 plays the best mean; choose=votes does not apply'],
    ];
    for (const [params, message] of cases) {
      let err: unknown;
      try {
        pimcBot(game, table, 0, params, 0);
      } catch (e) {
        err = e;
      }
      expect(isTafelError(err)).toBe(true);
      expect((err as Error).message).toBe(message);
    }
    for (const bad of ['-1', '7', '1.5', 'two']) {
      let err: unknown;
      try {
        resolveParams(pimc.params, { alphamu: bad }, 'bot pimc');
      } catch (e) {
        err = e;
      }
      expect(isTafelError(err), bad).toBe(true);
      expect((err as Error).message.split('\n')).toHaveLength(1);
    }
  });
});
