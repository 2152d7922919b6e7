/**
 * Information hiding (game.ts "What a bot may know") and determinization ("Search:
 * determinization") for Viersche: an observation shows a seat nothing of the other
 * hands, and `viersche.sample` draws worlds that look the same to the sampling seat,
 * uniformly among those consistent with what it saw.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, HIDDEN, NO } from '../src/games/game.js';
import { toCode, toPhysical } from '../src/games/viersche/cards.js';
import { viersche } from '../src/games/viersche/index.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';
import { VierscheView } from '../src/games/viersche/view.js';

const KEY = seedKey('observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();

function ctxOf(s: VierscheState): DealContext {
  return { dealer: s.dealer, targets: [s.targets[0], s.targets[1]], secondDeal: s.secondDeal };
}

/** A random deal (first or second) played `plies` random moves; claims are passed so deals run long. */
function randomPoint(i: number, plies: number): VierscheState {
  const rng = new Rng(KEY, i);
  const s = new VierscheState();
  const ctx: DealContext =
    i % 3 === 0
      ? { dealer: i % 4, targets: [25, 35], secondDeal: true }
      : { dealer: i % 4, targets: [100, 100], secondDeal: false };
  s.deal(ctx, rng, deck);
  while (!s.isTerminal() && s.plies < plies)
    s.apply(s.decision === Decision.Claim ? NO : setSelect(buf, 0, rng.below(s.legal(buf, 0))));
  return s;
}

/** The first deal from index `from` on whose forehand has no trump, played `plies` random moves. */
function facedownPoint(from: number, plies: number): VierscheState {
  for (let i = from; ; i++) {
    const s = randomPoint(i, 0);
    if (s.hands[s.forehand * LANES] === 0) return randomPoint(i, plies);
  }
}

/** The same deal from other starting hands and the same moves (with `moves` edited), or null if a move becomes illegal. */
function rebuild(s: VierscheState, dealt: Int32Array, moves: readonly number[]): VierscheState | null {
  const w = new VierscheState();
  w.begin(ctxOf(s), s.trump, s.turnup, dealt);
  for (const m of moves) {
    w.legal(buf, 0);
    if (!setHas(buf, 0, m)) return null;
    w.apply(m);
  }
  return w;
}

/** The first line where two fingerprints differ, for failure messages. */
function firstDiff(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const k = x.findIndex((line, j) => line !== y[j]);
  return `${x[k]} vs ${y[k]}`;
}

const movesOf = (s: VierscheState) => Array.from({ length: s.plies }, (_, p) => s.move(p));
const bit = (code: number) => 1 << (code & 31);

/** Move card `a` from seat x's starting hand to seat y's and `b` the other way. */
function swapDealt(s: VierscheState, x: number, a: number, y: number, b: number): Int32Array {
  const d = Int32Array.from(s.dealt);
  d[x * LANES + (a >>> 5)] &= ~bit(a);
  d[y * LANES + (a >>> 5)] |= bit(a);
  d[y * LANES + (b >>> 5)] &= ~bit(b);
  d[x * LANES + (b >>> 5)] |= bit(b);
  return d;
}

const handCodes = (s: VierscheState, seat: number) => setToCodes(s.hands, seat * LANES);
const heldTurnup = (s: VierscheState, code: number) => s.turnupHeld && code === s.turnup;

describe('observations reveal nothing hidden (game.ts contract)', () => {
  it('reflection finds no state, no typed array and no other hand on an observation', () => {
    const s = randomPoint(1, 13);
    const hidden = new Set<unknown>([s, s.m, s.hands, s.dealt, s.voids]);
    for (let seat = 0; seat < 4; seat++) {
      const o = s.observe(seat);
      expect(o).toBeInstanceOf(VierscheView);
      const own = [...Object.keys(o), ...Object.getOwnPropertyNames(o), ...Object.getOwnPropertySymbols(o).map(String)];
      const forIn: string[] = [];
      for (const k in o) forIn.push(k);
      expect(new Set([...own, ...forIn])).toEqual(new Set(['seat', 'seats']));
      expect(JSON.parse(JSON.stringify(o))).toEqual({ seat, seats: 4 });
      // Every getter of the prototype chain yields a primitive.
      for (
        let proto = Object.getPrototypeOf(o) as object | null;
        proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto) as object | null
      ) {
        for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
          if (!desc.get) continue;
          const v: unknown = desc.get.call(o);
          expect(['number', 'boolean', 'string'], name).toContain(typeof v);
          expect(hidden.has(v)).toBe(false);
        }
      }
      for (const v of Object.values(o)) expect(hidden.has(v)).toBe(false);
      // Every method, called with any small argument, answers with a primitive.
      for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(VierscheView.prototype))) {
        if (typeof desc.value !== 'function' || name === 'constructor') continue;
        const f = desc.value as (this: VierscheView, arg: number) => unknown;
        for (let arg = -2; arg < 50; arg++) {
          const v = f.call(o, arg);
          expect(['number', 'boolean', 'string', 'undefined'], name).toContain(typeof v);
        }
      }
    }
  });

  it("handLane answers the observer's own lanes only, whatever lane it is asked for", () => {
    // The contract: "Lane `lane` of the observer's own hand". A bot that asks for lane
    // LANES or -LANES must not get the next or previous seat's trump lane.
    const s = randomPoint(2, 0);
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

  it('a reused state, begun afresh, shows exactly what a new state shows (nothing of its last deal)', () => {
    // Search and the harness reuse states; `begin` must leave no trace of the previous
    // deal in any window, or worlds that agree on everything differ in their fingerprint.
    const used = randomPoint(7, 30);
    const fresh = new VierscheState();
    const again = new VierscheState();
    again.copyFrom(used);
    const start = randomPoint(8, 0);
    fresh.begin(ctxOf(start), start.trump, start.turnup, start.dealt);
    again.begin(ctxOf(start), start.trump, start.turnup, start.dealt);
    for (let seat = 0; seat < 4; seat++) {
      const a = fresh.observe(seat).fingerprint();
      const b = again.observe(seat).fingerprint();
      expect(b, firstDiff(a, b)).toBe(a);
    }
  });

  it('two worlds that differ only in cards a seat has not seen give it identical fingerprints', () => {
    const failures: string[] = [];
    let pairs = 0;
    let facedownPairs = 0;
    const rng = new Rng(KEY, 3);
    for (let i = 0; i < 400; i++) {
      // Every tenth point sits in a first trick led face down.
      const s = i % 10 === 0 ? facedownPoint(20000 + i * 100, 1 + (i % 3)) : randomPoint(100 + i, rng.below(40));
      const moves = movesOf(s);
      const voids = publicVoids(s);
      for (let seat = 0; seat < 4; seat++) {
        // Two other seats swap one card each that they still hold, each card in a lane its new holder is not known to be void in.
        const others = [0, 1, 2, 3].filter((q) => q !== seat);
        const x = others[rng.below(3)];
        const y = others.filter((q) => q !== x)[rng.below(2)];
        const cx = handCodes(s, x).filter((c) => !heldTurnup(s, c) && !(voids[y] & (1 << (c >>> 5))));
        const cy = handCodes(s, y).filter((c) => !heldTurnup(s, c) && !(voids[x] & (1 << (c >>> 5))));
        if (cx.length && cy.length) {
          const a = cx[rng.below(cx.length)];
          const b = cy[rng.below(cy.length)];
          const w = rebuild(s, swapDealt(s, x, a, y, b), moves);
          if (!w) failures.push(`deal ${i}: swap ${a}/${b} made the history illegal`);
          else {
            pairs++;
            if (w.observe(seat).fingerprint() !== s.observe(seat).fingerprint())
              failures.push(`deal ${i} seat ${seat}: fingerprint differs after swapping ${x}:${a} and ${y}:${b}`);
            if (w.observe(x).fingerprint() === s.observe(x).fingerprint())
              failures.push(`deal ${i}: seat ${x} did not see its own hand change`);
          }
        }
        // V-4: while its trick is open, the face-down lead is as unseen as a card in a hand.
        if (s.facedown && s.trick === 0 && seat !== s.forehand) {
          const fd = s.move(0);
          for (const y2 of others) {
            const cands = handCodes(s, y2).filter(
              (c) => c >>> 5 !== 0 && !heldTurnup(s, c) && !(voids[y2] & (1 << (fd >>> 5))),
            );
            if (!cands.length) continue;
            const b = cands[rng.below(cands.length)];
            const edited = [b, ...moves.slice(1)];
            const dealt = y2 === s.forehand ? s.dealt : swapDealt(s, s.forehand, fd, y2, b);
            const w = rebuild(s, dealt, edited);
            if (!w) failures.push(`deal ${i}: face-down swap made the history illegal`);
            else {
              facedownPairs++;
              if (w.observe(seat).fingerprint() !== s.observe(seat).fingerprint())
                failures.push(`deal ${i} seat ${seat}: face-down card visible`);
              if (w.observe(s.forehand).fingerprint() === s.observe(s.forehand).fingerprint())
                failures.push(`deal ${i}: forehand does not see its own lead`);
            }
          }
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(pairs).toBeGreaterThan(1000);
    expect(facedownPairs).toBeGreaterThan(50);
  });
});

/** Voids shown by the public history, by seat as lane masks, derived from the moves (V-4, V-5). */
function publicVoids(s: VierscheState): number[] {
  const v = [0, 0, 0, 0];
  for (let t = 0; t <= Math.min(s.trick, 8); t++) {
    const start = s.trickStart[t];
    const n = t < s.trick ? 4 : s.trickCards;
    if (n === 0) continue;
    const facedown = t === 0 && s.facedown;
    const led = facedown ? 0 : s.move(start) >>> 5;
    if (facedown) v[s.moveSeat(start)] |= 1; // no trump to lead
    for (let j = 1; j < n; j++) {
      const lane = s.move(start + j) >>> 5;
      if (lane !== led && lane !== 0) v[s.moveSeat(start + j)] |= 1 << led;
    }
  }
  return v;
}

describe('viersche.sample: resampling from an observation', () => {
  it('every world looks the same to the sampling seat, deals the pack, keeps hand sizes, voids and the turn-up', () => {
    const failures: string[] = [];
    const world = new VierscheState();
    const rng = new Rng(KEY, 4);
    let worlds = 0;
    let facedownWorlds = 0;
    for (let i = 0; i < 500; i++) {
      // Every fifth point sits inside a first trick led face down (V-4: the card is hidden).
      const s = i % 5 === 0 ? facedownPoint(1000 + i * 100, 1 + (i % 3)) : randomPoint(1000 + i, rng.below(44));
      const voids = publicVoids(s);
      for (let seat = 0; seat < 4; seat++) {
        const obs = s.observe(seat);
        const fp = obs.fingerprint();
        for (let k = 0; k < 3; k++) {
          viersche.sample(obs, rng, world);
          worlds++;
          if (obs.move(0) === HIDDEN) facedownWorlds++;
          const bad = (what: string) => failures.push(`point ${i} seat ${seat}: ${what}`);
          const wfp = world.observe(seat).fingerprint();
          if (wfp !== fp) bad(`fingerprint differs: ${firstDiff(fp, wfp)}`);
          if (world.isTerminal() !== s.isTerminal()) bad('terminal differs');
          const n = world.legal(buf, 0);
          if (!world.isTerminal() && n === 0) bad('no legal move');
          if (world.toMove === seat && n !== s.legal(newSets(), 0)) bad('own legal moves differ');
          const all = new Set<number>();
          for (let q = 0; q < 4; q++) {
            if (world.handSize(q) !== s.handSize(q)) bad(`hand size of ${q}`);
            for (const c of setToCodes(world.dealt, q * LANES)) all.add(toPhysical(world.trump, c));
            for (let l = 0; l < 4; l++)
              if (voids[q] & (1 << l) && world.hands[q * LANES + l] !== 0)
                bad(`seat ${q} holds a card of void lane ${l}`);
          }
          if (all.size !== 36) bad('the world does not deal the pack');
          if (s.turnupHeld !== setHas(world.hands, world.dealer * LANES, world.turnup)) bad('turn-up');
          for (let l = 0; l < LANES; l++)
            if (world.hands[seat * LANES + l] !== s.hands[seat * LANES + l]) bad('own hand');
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(worlds).toBe(6000);
    expect(facedownWorlds).toBeGreaterThan(0);
  });
});

/** Unseen cards of `seat` and the hands they can make, enumerated by brute force. */
function consistentWorlds(s: VierscheState, seat: number): string[] {
  const voids = publicVoids(s);
  const others = [0, 1, 2, 3].filter((q) => q !== seat);
  const fixed = new Map<number, number[]>(others.map((q) => [q, []]));
  const unseen: number[] = [];
  for (const q of others) {
    for (const c of handCodes(s, q)) {
      if (heldTurnup(s, c) && q === s.dealer)
        fixed.get(q)?.push(c); // C-4: public
      else unseen.push(c);
    }
  }
  const sizes = others.map((q) => s.handSize(q) - (fixed.get(q)?.length ?? 0));
  const out: string[] = [];
  const rec = (k: number, rest: number[], parts: number[][]) => {
    if (k === others.length) {
      out.push(others.map((q, j) => [...(fixed.get(q) ?? []), ...parts[j]].sort((a, b) => a - b).join(',')).join('|'));
      return;
    }
    const q = others[k];
    const ok = rest.filter((c) => !(voids[q] & (1 << (c >>> 5))));
    const choose = (from: number, picked: number[]) => {
      if (picked.length === sizes[k]) {
        rec(
          k + 1,
          rest.filter((c) => !picked.includes(c)),
          [...parts, picked],
        );
        return;
      }
      for (let j = from; j < ok.length; j++) choose(j + 1, [...picked, ok[j]]);
    };
    choose(0, []);
  };
  rec(0, unseen, []);
  return out;
}

function worldKey(w: VierscheState, seat: number): string {
  return [0, 1, 2, 3]
    .filter((q) => q !== seat)
    .map((q) => handCodes(w, q).join(','))
    .join('|');
}

describe('viersche.sample is uniform over the consistent worlds', () => {
  /** A position at the start of trick `tricks` (claims passed) and an observer other than the leader, such that `ok` holds. */
  function findPosition(
    tricks: number,
    ok: (s: VierscheState, seat: number, worlds: number) => boolean,
  ): [VierscheState, number] {
    for (let i = 0; i < 2000; i++) {
      const rng = new Rng(KEY, 5000 + i);
      const s = randomPoint(5000 + i, 0);
      while (!s.isTerminal() && !(s.trick === tricks && s.decision === Decision.Card)) {
        s.apply(s.decision === Decision.Claim ? NO : setSelect(buf, 0, rng.below(s.legal(buf, 0))));
      }
      const seat = (s.toMove + 1 + (i % 3)) % 4;
      if (s.trick === tricks && ok(s, seat, consistentWorlds(s, seat).length)) return [s, seat];
    }
    throw new Error('no such position');
  }

  function chiSquare(
    s: VierscheState,
    seat: number,
    samples: number,
    seed: number,
  ): { cells: number; chi2: number; strays: number } {
    const worlds = consistentWorlds(s, seat);
    const count = new Map(worlds.map((k) => [k, 0]));
    const world = new VierscheState();
    const rng = new Rng(KEY, seed);
    let strays = 0;
    for (let k = 0; k < samples; k++) {
      viersche.sample(s.observe(seat), rng, world);
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

  // The bound: mean df, sd sqrt(2 df); 6 sd keeps false alarms out, a real bias of a few percent per cell shows.
  const bound = (cells: number) => cells - 1 + 6 * Math.sqrt(2 * (cells - 1));

  it('after 6 tricks, an observer facing revealed voids: chi-square against uniform', () => {
    const [s, seat] = findPosition(
      6,
      (t, q, n) => n >= 30 && n <= 1200 && [0, 1, 2, 3].some((o) => o !== q && publicVoids(t)[o] !== 0),
    );
    const r = chiSquare(s, seat, 20000, 1);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('after 6 tricks, the dealer still holding the turn-up (C-4): chi-square against uniform', () => {
    const [s, seat] = findPosition(6, (t, q, n) => t.turnupHeld && q !== t.dealer && n >= 30 && n <= 1700);
    const r = chiSquare(s, seat, 20000, 2);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('V-4: a hidden face-down lead is drawn uniformly among the unseen non-trumps', () => {
    // Forehand's starting hand is any 9 unseen non-trumps, and any of them may be the
    // lead, so every unseen non-trump is equally likely to lie face down.
    const s = facedownPoint(7000, 2);
    const seat = (s.forehand + 2) % 4; // has seen the second card, not the first
    expect(s.observe(seat).move(0)).toBe(HIDDEN);
    const seen = new Set([...handCodes(s, seat), s.move(1)]);
    const candidates = new Map<number, number>();
    for (let p = 0; p < PACK_SIZE; p++) {
      const c = toCode(s.trump, p);
      if (c >>> 5 !== 0 && !seen.has(c)) candidates.set(c, 0);
    }
    const world = new VierscheState();
    const rng = new Rng(KEY, 8);
    const samples = 20000;
    let strays = 0;
    for (let k = 0; k < samples; k++) {
      viersche.sample(s.observe(seat), rng, world);
      const n = candidates.get(world.move(0));
      if (n === undefined) strays++;
      else candidates.set(world.move(0), n + 1);
    }
    const e = samples / candidates.size;
    let chi2 = 0;
    for (const n of candidates.values()) chi2 += (n - e) ** 2 / e;
    expect(strays).toBe(0);
    expect(chi2).toBeLessThan(bound(candidates.size));
  });

  it('after 7 tricks with two void seats: chi-square against uniform', () => {
    const [s, seat] = findPosition(
      7,
      (t, q, n) => n >= 4 && [0, 1, 2, 3].filter((o) => o !== q && publicVoids(t)[o] !== 0).length >= 2,
    );
    const r = chiSquare(s, seat, 20000, 3);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });
});
