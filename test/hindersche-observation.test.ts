/**
 * Information hiding (game.ts "What a bot may know") and determinization ("Search:
 * determinization") for Hindersche: an observation shows a seat nothing of the other
 * hands or of the stack out of play (except the turned card), and `hindersche.sample`
 * draws worlds that look the same to the sampling seat, uniformly among those
 * consistent with what it saw, with the stack as one more holder of unseen cards.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setSize, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision } from '../src/games/game.js';
import { POINTS, toPhysical } from '../src/games/viersche/cards.js';
import { hindersche } from '../src/games/hindersche/index.js';
import { HinderscheState, type DealContext } from '../src/games/hindersche/state.js';
import { HinderscheView } from '../src/games/hindersche/view.js';
import { context } from './hindersche-helpers.js';

const KEY = seedKey('hindersche-observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();
const MASKS = [15, 15, 0b1011, 0b0111, 0b0110, 0b1001];

function ctxOf(s: HinderscheState): DealContext {
  return context({
    dealer: s.dealer,
    mask: s.mask,
    phase: s.phase,
    kind: s.kind,
    slate: Array.from(s.slate),
    playoffFor: s.playoffFor,
    playoffPlaces: s.playoffPlaces,
    schleipfen: s.schleipfen,
  });
}

/** Deal `i`: 2, 3 or 4 players, schleipfen on every other deal, played `plies` random moves. */
function randomPoint(i: number, plies: number): HinderscheState {
  const rng = new Rng(KEY, i);
  const mask = MASKS[i % MASKS.length];
  const seats = [0, 1, 2, 3].filter((q) => (mask >>> q) & 1);
  const s = new HinderscheState();
  s.deal(
    context({
      dealer: seats[i % seats.length],
      mask,
      phase: mask === 15 ? 1 : 2,
      slate: [1, 2, 1, 1],
      schleipfen: i % 2 === 1,
    }),
    rng,
    deck,
  );
  while (!s.isTerminal() && s.plies < plies) {
    const n = s.legal(buf, 0);
    const yesNo = s.decision === Decision.Schleipfe || s.decision === Decision.Object;
    s.apply(setSelect(buf, 0, yesNo ? (rng.below(3) === 0 ? 1 : 0) : rng.below(n)));
  }
  return s;
}

/** The same deal from other starting hands and stack and the same moves, or null if a move becomes illegal. */
function rebuild(s: HinderscheState, dealt: Int32Array, stack: Int32Array): HinderscheState | null {
  const w = new HinderscheState();
  w.begin(ctxOf(s), s.trump, s.turnup, dealt, stack);
  for (let p = 0; p < s.plies; p++) {
    const m = s.move(p);
    w.legal(buf, 0);
    if (!setHas(buf, 0, m)) return null;
    w.apply(m);
  }
  return w;
}

function firstDiff(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const k = x.findIndex((line, j) => line !== y[j]);
  return `${x[k]} vs ${y[k]}`;
}

const bit = (code: number) => 1 << (code & 31);
const handCodes = (s: HinderscheState, seat: number) => setToCodes(s.hands, seat * LANES);
/** Cards of the stack nobody has seen (all but the turn-up). */
const hiddenStack = (s: HinderscheState) => setToCodes(s.stack, 0).filter((c) => c !== s.turnup);
const heldTurnup = (s: HinderscheState, seat: number, c: number) =>
  seat === s.turnupHolder && s.turnupHeld && c === s.turnup;

describe('observations reveal nothing hidden (game.ts contract)', () => {
  it('reflection finds no state, no typed array and no other hand on an observation', () => {
    const s = randomPoint(2, 13);
    const hidden = new Set<unknown>([s, s.m, s.hands, s.dealt, s.stack, s.voids]);
    for (let seat = 0; seat < 4; seat++) {
      const o = s.observe(seat);
      expect(o).toBeInstanceOf(HinderscheView);
      const own = [...Object.keys(o), ...Object.getOwnPropertyNames(o), ...Object.getOwnPropertySymbols(o).map(String)];
      const forIn: string[] = [];
      for (const k in o) forIn.push(k);
      expect(new Set([...own, ...forIn])).toEqual(new Set(['seat', 'seats']));
      expect(JSON.parse(JSON.stringify(o))).toEqual({ seat, seats: 4 });
      for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(HinderscheView.prototype))) {
        if (desc.get) {
          const v: unknown = desc.get.call(o);
          expect(['number', 'boolean', 'string'], name).toContain(typeof v);
          expect(hidden.has(v)).toBe(false);
        } else if (typeof desc.value === 'function' && name !== 'constructor') {
          const f = desc.value as (this: HinderscheView, arg: number) => unknown;
          for (let arg = -2; arg < 50; arg++)
            expect(['number', 'boolean', 'string', 'undefined'], name).toContain(typeof f.call(o, arg));
        }
      }
    }
  });

  it("handLane answers the observer's own lanes only, whatever lane it is asked for", () => {
    const s = randomPoint(3, 0);
    const leaks: string[] = [];
    for (let seat = 0; seat < 4; seat++) {
      for (let lane = -4 * LANES; lane < 5 * LANES; lane++) {
        const v = s.observe(seat).handLane(lane);
        const own = lane >= 0 && lane < LANES ? s.hands[seat * LANES + lane] : 0;
        if ((v ?? 0) !== own) leaks.push(`seat ${seat} handLane(${lane}) = ${v}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('a reused state, begun afresh, shows exactly what a new state shows', () => {
    const used = randomPoint(7, 30);
    const fresh = new HinderscheState();
    const again = new HinderscheState();
    again.copyFrom(used);
    const start = randomPoint(8, 0);
    fresh.begin(ctxOf(start), start.trump, start.turnup, start.dealt, start.stack);
    again.begin(ctxOf(start), start.trump, start.turnup, start.dealt, start.stack);
    for (let seat = 0; seat < 4; seat++)
      expect(again.observe(seat).fingerprint()).toBe(fresh.observe(seat).fingerprint());
  });

  it('worlds differing only in unseen cards (two other hands, or a hand and the stack) look identical to a seat', () => {
    const failures: string[] = [];
    let pairs = 0;
    let stackPairs = 0;
    const rng = new Rng(KEY, 3);
    for (let i = 0; i < 400; i++) {
      const s = randomPoint(100 + i, rng.below(50));
      const voids = [0, 1, 2, 3].map((q) => s.voids[q]);
      for (let seat = 0; seat < 4; seat++) {
        const others = [0, 1, 2, 3].filter((q) => q !== seat && s.plays(q));
        if (others.length === 0) continue;
        const x = others[rng.below(others.length)];
        const cx = handCodes(s, x).filter((c) => !heldTurnup(s, x, c));
        // Another player, or the stack (holder -1), takes one of x's cards in a lane it may hold.
        const y =
          others.length > 1 && rng.below(2) === 0 ? others.filter((q) => q !== x)[rng.below(others.length - 1)] : -1;
        const cy =
          y >= 0
            ? handCodes(s, y).filter((c) => !heldTurnup(s, y, c) && !(voids[x] & (1 << (c >>> 5))))
            : hiddenStack(s).filter((c) => !(voids[x] & (1 << (c >>> 5))));
        const a = cx.filter((c) => y < 0 || !(voids[y] & (1 << (c >>> 5))));
        if (!a.length || !cy.length) continue;
        const ca = a[rng.below(a.length)];
        const cb = cy[rng.below(cy.length)];
        const dealt = Int32Array.from(s.dealt);
        const stack = Int32Array.from(s.stack);
        dealt[x * LANES + (ca >>> 5)] &= ~bit(ca);
        dealt[x * LANES + (cb >>> 5)] |= bit(cb);
        if (y >= 0) {
          dealt[y * LANES + (cb >>> 5)] &= ~bit(cb);
          dealt[y * LANES + (ca >>> 5)] |= bit(ca);
        } else {
          stack[cb >>> 5] &= ~bit(cb);
          stack[ca >>> 5] |= bit(ca);
        }
        const w = rebuild(s, dealt, stack);
        if (!w) {
          failures.push(`point ${i}: the swap made the history illegal`);
          continue;
        }
        pairs++;
        if (y < 0) stackPairs++;
        const fp = s.observe(seat).fingerprint();
        const wfp = w.observe(seat).fingerprint();
        if (wfp !== fp) failures.push(`point ${i} seat ${seat}: ${firstDiff(fp, wfp)}`);
        if (w.observe(x).fingerprint() === s.observe(x).fingerprint())
          failures.push(`point ${i}: seat ${x} did not see its own hand change`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(pairs).toBeGreaterThan(800);
    expect(stackPairs).toBeGreaterThan(200);
  });
});

describe('hindersche.sample: resampling from an observation', () => {
  it('every world looks the same to the sampling seat; hands, voids, the stack and the turned card are respected', () => {
    const failures: string[] = [];
    const world = new HinderscheState();
    const rng = new Rng(KEY, 4);
    let worlds = 0;
    let stackWorlds = 0;
    for (let i = 0; i < 400; i++) {
      const s = randomPoint(1000 + i, rng.below(60));
      for (let seat = 0; seat < 4; seat++) {
        const obs = s.observe(seat);
        const fp = obs.fingerprint();
        for (let k = 0; k < 3; k++) {
          hindersche.sample(obs, rng, world);
          worlds++;
          const bad = (what: string) => failures.push(`point ${i} seat ${seat}: ${what}`);
          const wfp = world.observe(seat).fingerprint();
          if (wfp !== fp) bad(`fingerprint differs: ${firstDiff(fp, wfp)}`);
          if (world.isTerminal() !== s.isTerminal()) bad('terminal differs');
          if (!world.isTerminal() && world.legal(buf, 0) === 0) bad('no legal move');
          const all = new Set<number>();
          for (let q = 0; q < 4; q++) {
            if (world.handSize(q) !== s.handSize(q)) bad(`hand size of ${q}`);
            for (const c of setToCodes(world.dealt, q * LANES)) all.add(toPhysical(world.trump, c));
            for (let l = 0; l < 4; l++)
              if (s.voids[q] & (1 << l) && world.hands[q * LANES + l] !== 0)
                bad(`seat ${q} holds a card of void lane ${l}`);
          }
          for (const c of setToCodes(world.stack, 0)) all.add(toPhysical(world.trump, c));
          if (all.size !== 36) bad('the world does not deal the pack');
          if (setSize(world.stack, 0) !== setSize(s.stack, 0)) bad('stack size');
          if (s.players < 4) {
            stackWorlds++;
            if (!setHas(world.stack, 0, world.turnup)) bad('the turned card left the stack');
            // Nothing the observer has seen lies in the stack.
            for (let p = 0; p < s.plies; p++)
              if (s.move(p) < 126 && setHas(world.stack, 0, s.move(p))) bad('a played card in the stack');
            for (let l = 0; l < LANES; l++)
              if (world.stack[l] & s.hands[seat * LANES + l]) bad('an own card in the stack');
          } else if (s.turnupHeld !== setHas(world.hands, world.dealer * LANES, world.turnup)) bad('turn-up');
          for (let l = 0; l < LANES; l++)
            if (world.hands[seat * LANES + l] !== s.hands[seat * LANES + l]) bad('own hand');
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(worlds).toBe(4800);
    expect(stackWorlds).toBeGreaterThan(1500);
  });
});

/** The unseen cards of `seat` and every way to split them among the other players and the stack. */
function consistentWorlds(s: HinderscheState, seat: number): string[] {
  const holders = [0, 1, 2, 3].filter((q) => q !== seat && s.plays(q));
  const unseen: number[] = [];
  for (const q of holders) for (const c of handCodes(s, q)) if (!heldTurnup(s, q, c)) unseen.push(c);
  unseen.push(...hiddenStack(s));
  const sizes = [
    ...holders.map((q) => s.handSize(q) - (s.turnupHolder === q && s.turnupHeld ? 1 : 0)),
    hiddenStack(s).length,
  ];
  const voids = [...holders.map((q) => s.voids[q]), 0];
  const out: string[] = [];
  const rec = (k: number, rest: number[], parts: number[][]) => {
    if (k === sizes.length) {
      out.push(parts.map((p) => [...p].sort((a, b) => a - b).join(',')).join('|'));
      return;
    }
    const ok = rest.filter((c) => !(voids[k] & (1 << (c >>> 5))));
    const choose = (from: number, picked: number[]) => {
      if (picked.length === sizes[k]) {
        rec(
          k + 1,
          rest.filter((c) => !picked.includes(c)),
          [...parts, picked],
        );
        return;
      }
      for (let j = from; j <= ok.length - (sizes[k] - picked.length); j++) choose(j + 1, [...picked, ok[j]]);
    };
    choose(0, []);
  };
  rec(0, unseen, []);
  return out;
}

/** The number of splits of the unseen cards ignoring voids: an upper bound on the consistent worlds. */
function splits(s: HinderscheState, seat: number): number {
  const holders = [0, 1, 2, 3].filter((q) => q !== seat && s.plays(q));
  const sizes = [
    ...holders.map((q) => s.handSize(q) - (s.turnupHolder === q && s.turnupHeld ? 1 : 0)),
    hiddenStack(s).length,
  ];
  let n = 0;
  let ways = 1;
  for (const k of sizes) {
    for (let j = 1; j <= k; j++) ways = (ways * (n + j)) / j;
    n += k;
  }
  return ways;
}

function worldKey(w: HinderscheState, seat: number): string {
  const holders = [0, 1, 2, 3].filter((q) => q !== seat && w.plays(q));
  return [
    ...holders.map((q) =>
      handCodes(w, q)
        .filter((c) => !heldTurnup(w, q, c))
        .join(','),
    ),
    hiddenStack(w).join(','),
  ].join('|');
}

describe('hindersche.sample is uniform over the consistent worlds, the stack included', () => {
  /** A point deep in a deal of `mask`, observed by a seat taking part, with between lo and hi consistent worlds. */
  function findPoint(
    mask: number,
    lo: number,
    hi: number,
    ok: (s: HinderscheState, seat: number) => boolean,
  ): [HinderscheState, number] {
    for (let i = 0; i < 3000; i++) {
      const rng = new Rng(KEY, 5000 + i);
      const seats = [0, 1, 2, 3].filter((q) => (mask >>> q) & 1);
      const s = new HinderscheState();
      s.deal(context({ dealer: seats[i % seats.length], mask, phase: 2, slate: [1, 1, 1, 1] }), rng, deck);
      const stop = 6 + rng.below(3);
      while (!s.isTerminal() && s.trick < stop) s.apply(setSelect(buf, 0, rng.below(s.legal(buf, 0))));
      if (s.isTerminal()) continue;
      const seat = seats[rng.below(seats.length)];
      if (!ok(s, seat)) continue;
      if (splits(s, seat) > 20 * hi) continue; // too many to enumerate
      const n = consistentWorlds(s, seat).length;
      if (n >= lo && n <= hi) return [s, seat];
    }
    throw new Error('no such point');
  }

  function chiSquare(s: HinderscheState, seat: number, samples: number, seed: number) {
    const worlds = consistentWorlds(s, seat);
    const count = new Map(worlds.map((k) => [k, 0]));
    const world = new HinderscheState();
    const rng = new Rng(KEY, seed);
    let strays = 0;
    for (let k = 0; k < samples; k++) {
      hindersche.sample(s.observe(seat), rng, world);
      const key = worldKey(world, seat);
      const c = count.get(key);
      if (c === undefined) strays++;
      else count.set(key, c + 1);
    }
    const e = samples / worlds.length;
    let chi2 = 0;
    for (const c of count.values()) chi2 += (c - e) ** 2 / e;
    return { cells: worlds.length, chi2, strays };
  }

  const bound = (cells: number) => cells - 1 + 6 * Math.sqrt(2 * (cells - 1));

  it('three players, late in the deal, with a revealed void: chi-square against uniform (stack as a holder)', () => {
    const [s, seat] = findPoint(0b1011, 30, 1500, (t, q) => [0, 1, 3].some((o) => o !== q && t.voids[o] !== 0));
    expect(s.players).toBe(3);
    const r = chiSquare(s, seat, 20000, 1);
    console.log(`three players: ${r.cells} worlds, chi2 ${r.chi2.toFixed(1)}`);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it("two players: the opponent's hand and the 17 unknown stack cards, chi-square against uniform", () => {
    const [s, seat] = findPoint(0b0110, 10, 3000, () => true);
    const r = chiSquare(s, seat, 20000, 2);
    console.log(`two players: ${r.cells} worlds, chi2 ${r.chi2.toFixed(1)}`);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('four players, the dealer still holding the turn-up: chi-square against uniform', () => {
    const [s, seat] = findPoint(15, 30, 1500, (t, q) => t.turnupHeld && q !== t.dealer);
    const r = chiSquare(s, seat, 20000, 3);
    console.log(`four players: ${r.cells} worlds, chi2 ${r.chi2.toFixed(1)}`);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('the turn-up out of play is never dealt to a player, and what the stack holds costs its points to nobody', () => {
    const s = randomPoint(2, 0); // 3 players
    expect(s.players).toBe(3);
    const world = new HinderscheState();
    const rng = new Rng(KEY, 9);
    for (let k = 0; k < 2000; k++) {
      hindersche.sample(s.observe(s.forehand), rng, world);
      expect(setHas(world.stack, 0, s.turnup)).toBe(true);
      let stackPoints = 0;
      for (const c of setToCodes(world.stack, 0)) stackPoints += POINTS[c];
      let handPoints = 0;
      for (let q = 0; q < 4; q++) for (const c of setToCodes(world.hands, q * LANES)) handPoints += POINTS[c];
      expect(handPoints + stackPoints).toBe(140);
    }
  });
});
