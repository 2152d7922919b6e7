/**
 * Information hiding (game.ts "What a bot may know") and determinization ("Search:
 * determinization") for Hindersi-Jass: an observation shows a seat nothing of the
 * other hands, and `hindersiJass.sample` draws worlds that look the same to the
 * sampling seat, uniformly among those consistent with what it saw.
 *
 * "Consistent" is checked here from its definition, not from the engine's inference:
 * a world is consistent when its starting hands agree with everything the seat saw
 * and replaying the public history from them is legal at every card (J-4). So the
 * finer points of what play reveals (an undertrump shows a void in the suit led; a
 * non-trump on a trump lead shows no trump but possibly the lone Puur) are tested by
 * brute force.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { PUUR, TRUMP_LANE } from '../src/games/hindersi-jass/cards.js';
import { hindersiJass } from '../src/games/hindersi-jass/index.js';
import { JassState } from '../src/games/hindersi-jass/state.js';
import { JassView } from '../src/games/hindersi-jass/view.js';

const KEY = seedKey('jass-observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();

function ctxOf(s: JassState) {
  return { dealer: s.dealer, partieDeal: s.partieDeal, partieDeals: s.partieDeals, totals: Array.from(s.partieTotals) };
}

/** A random deal at `seats` seats, in a random Partie, played `plies` random cards. */
function randomPoint(seats: number, i: number, plies: number): JassState {
  const rng = new Rng(KEY, seats, i);
  const s = new JassState(seats);
  const totals = [0, 0, 0, 0].map(() => rng.below(120));
  s.deal({ dealer: i % seats, partieDeal: i % seats, partieDeals: seats, totals }, rng, deck);
  while (!s.isTerminal() && s.plies < plies) s.apply(setSelect(buf, 0, rng.below(s.legal(buf, 0))));
  return s;
}

/** The same deal from other starting hands and the same moves, or null if a card becomes illegal. */
function rebuild(s: JassState, dealt: Int32Array, moves: readonly number[]): JassState | null {
  const w = new JassState(s.seats);
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

const movesOf = (s: JassState) => Array.from({ length: s.plies }, (_, p) => s.move(p));
const bit = (code: number) => 1 << (code & 31);
const handCodes = (s: JassState, seat: number) => setToCodes(s.hands, seat * LANES);
const heldTurnup = (s: JassState, code: number) => s.turnupHeld && code === s.turnup;
const seatsOf = (s: JassState) => Array.from({ length: s.seats }, (_, q) => q);

/** Move card `a` from seat x's starting hand to seat y's and `b` the other way. */
function swapDealt(s: JassState, x: number, a: number, y: number, b: number): Int32Array {
  const d = Int32Array.from(s.dealt);
  d[x * LANES + (a >>> 5)] &= ~bit(a);
  d[y * LANES + (a >>> 5)] |= bit(a);
  d[y * LANES + (b >>> 5)] &= ~bit(b);
  d[x * LANES + (b >>> 5)] |= bit(b);
  return d;
}

describe('observations reveal nothing hidden (game.ts contract)', () => {
  it('reflection finds no state, no typed array and no other hand on an observation', () => {
    for (const seats of [3, 4]) {
      const s = randomPoint(seats, 1, 13);
      const hidden = new Set<unknown>([s, s.m, s.hands, s.dealt, s.voids, s.charged]);
      for (let seat = 0; seat < seats; seat++) {
        const o = s.observe(seat);
        expect(o).toBeInstanceOf(JassView);
        const own = [
          ...Object.keys(o),
          ...Object.getOwnPropertyNames(o),
          ...Object.getOwnPropertySymbols(o).map(String),
        ];
        const forIn: string[] = [];
        for (const k in o) forIn.push(k);
        expect(new Set([...own, ...forIn])).toEqual(new Set(['seat', 'seats']));
        expect(JSON.parse(JSON.stringify(o))).toEqual({ seat, seats });
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
        for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(JassView.prototype))) {
          if (typeof desc.value !== 'function' || name === 'constructor') continue;
          const f = desc.value as (this: JassView, arg: number) => unknown;
          for (let arg = -2; arg < 50; arg++)
            expect(['number', 'boolean', 'string', 'undefined'], name).toContain(typeof f.call(o, arg));
        }
      }
    }
  });

  it("handLane answers the observer's own lanes only, whatever lane it is asked for", () => {
    const s = randomPoint(4, 2, 0);
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
    for (const seats of [3, 4]) {
      const used = randomPoint(seats, 7, 36);
      const again = new JassState(seats);
      again.copyFrom(used);
      const fresh = new JassState(seats);
      const start = randomPoint(seats, 8, 0);
      fresh.begin(ctxOf(start), start.trump, start.turnup, start.dealt);
      again.begin(ctxOf(start), start.trump, start.turnup, start.dealt);
      for (let seat = 0; seat < seats; seat++) {
        const a = fresh.observe(seat).fingerprint();
        const b = again.observe(seat).fingerprint();
        expect(b, firstDiff(a, b)).toBe(a);
      }
    }
  });

  it('two worlds that differ only in cards a seat has not seen give it identical fingerprints', () => {
    const failures: string[] = [];
    let pairs = 0;
    const rng = new Rng(KEY, 3);
    for (let i = 0; i < 400; i++) {
      const seats = 3 + (i & 1);
      const s = randomPoint(seats, 100 + i, rng.below(34));
      const moves = movesOf(s);
      const facts = publicFacts(s);
      for (let seat = 0; seat < seats; seat++) {
        // Two other seats swap one card each that they still hold, each allowed to its new holder by what play showed.
        const others = seatsOf(s).filter((q) => q !== seat);
        const x = others[rng.below(others.length)];
        const y = others.filter((q) => q !== x)[rng.below(others.length - 1)];
        const cx = handCodes(s, x).filter((c) => !heldTurnup(s, c) && mayHold(facts, y, c));
        const cy = handCodes(s, y).filter((c) => !heldTurnup(s, c) && mayHold(facts, x, c));
        if (!cx.length || !cy.length) continue;
        const a = cx[rng.below(cx.length)];
        const b = cy[rng.below(cy.length)];
        const w = rebuild(s, swapDealt(s, x, a, y, b), moves);
        if (!w) {
          failures.push(`point ${i}: swap ${a}/${b} between ${x} and ${y} made the history illegal`);
          continue;
        }
        pairs++;
        if (w.observe(seat).fingerprint() !== s.observe(seat).fingerprint())
          failures.push(`point ${i} seat ${seat}: fingerprint differs after swapping ${x}:${a} and ${y}:${b}`);
        if (w.observe(x).fingerprint() === s.observe(x).fingerprint())
          failures.push(`point ${i}: seat ${x} did not see its own hand change`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(pairs).toBeGreaterThan(600);
  });
});

interface Facts {
  /** Per seat: plain lanes it has shown void in. */
  voids: number[];
  /** Per seat: it played a non-trump to a trump lead (no trump but possibly the Puur). */
  noTrumpButPuur: boolean[];
}

/** What the public history shows, derived here from the cards (J-4), independently of state.voids. */
function publicFacts(s: JassState): Facts {
  const facts: Facts = { voids: seatsOf(s).map(() => 0), noTrumpButPuur: seatsOf(s).map(() => false) };
  for (let t = 0; t <= Math.min(s.trick, s.tricks - 1); t++) {
    const n = t < s.trick ? s.seats : s.trickCards;
    if (n === 0) continue;
    const start = s.trickStart[t];
    const led = s.move(start) >>> 5;
    let topTrump = led === TRUMP_LANE ? s.move(start) & 31 : -1;
    for (let j = 1; j < n; j++) {
      const m = s.move(start + j);
      const seat = s.moveSeat(start + j);
      const lane = m >>> 5;
      if (led === TRUMP_LANE) {
        if (lane !== TRUMP_LANE) facts.noTrumpButPuur[seat] = true;
      } else if (lane !== led && (lane !== TRUMP_LANE || (m & 31) < topTrump)) {
        facts.voids[seat] |= 1 << led; // a discard, or an undertrump
      }
      if (lane === TRUMP_LANE) topTrump = Math.max(topTrump, m & 31);
    }
  }
  return facts;
}

/** Whether what play showed allows `seat` to hold card `c`. */
function mayHold(f: Facts, seat: number, c: number): boolean {
  if (c >>> 5 !== TRUMP_LANE) return ((f.voids[seat] >>> (c >>> 5)) & 1) === 0;
  return !f.noTrumpButPuur[seat] || c === PUUR;
}

/**
 * Every world consistent with `seat`'s view, by brute force: the unseen cards dealt to
 * the other seats in every way that keeps their current hand sizes, each world kept if
 * replaying the whole history from its starting hands is legal. Keys list the other
 * seats' current hands.
 */
function consistentWorlds(s: JassState, seat: number): string[] {
  const others = seatsOf(s).filter((q) => q !== seat);
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
  const moves = movesOf(s);
  const out: string[] = [];
  const rec = (k: number, rest: number[], parts: number[][]) => {
    if (k === others.length) {
      const dealt = Int32Array.from(s.dealt);
      others.forEach((q, j) => {
        for (let l = 0; l < LANES; l++) dealt[q * LANES + l] &= ~s.hands[q * LANES + l];
        for (const c of [...(fixed.get(q) ?? []), ...parts[j]]) dealt[q * LANES + (c >>> 5)] |= bit(c);
      });
      if (rebuild(s, dealt, moves))
        out.push(
          others.map((q, j) => [...(fixed.get(q) ?? []), ...parts[j]].sort((a, b) => a - b).join(',')).join('|'),
        );
      return;
    }
    const choose = (from: number, picked: number[]) => {
      if (picked.length === sizes[k]) {
        rec(
          k + 1,
          rest.filter((c) => !picked.includes(c)),
          [...parts, picked],
        );
        return;
      }
      for (let j = from; j < rest.length; j++) choose(j + 1, [...picked, rest[j]]);
    };
    choose(0, []);
  };
  rec(0, unseen, []);
  return out;
}

function worldKey(w: JassState, seat: number): string {
  return seatsOf(w)
    .filter((q) => q !== seat)
    .map((q) => handCodes(w, q).join(','))
    .join('|');
}

describe('hindersiJass.sample: resampling from an observation', () => {
  it('every world looks the same to the sampling seat, deals the pack, keeps hand sizes and the turn-up, and replays legally', () => {
    const failures: string[] = [];
    const rng = new Rng(KEY, 4);
    let worlds = 0;
    let flaggedWithPuur = 0;
    for (let i = 0; i < 500; i++) {
      const seats = 3 + (i & 1);
      const world = new JassState(seats);
      const s = randomPoint(seats, 1000 + i, rng.below(36));
      const moves = movesOf(s);
      const facts = publicFacts(s);
      for (let seat = 0; seat < seats; seat++) {
        const obs = s.observe(seat);
        const fp = obs.fingerprint();
        for (let k = 0; k < 3; k++) {
          hindersiJass.sample(obs, rng, world);
          worlds++;
          const bad = (what: string) => failures.push(`point ${i} seat ${seat}: ${what}`);
          const wfp = world.observe(seat).fingerprint();
          if (wfp !== fp) bad(`fingerprint differs: ${firstDiff(fp, wfp)}`);
          if (world.isTerminal() !== s.isTerminal()) bad('terminal differs');
          if (!rebuild(s, world.dealt, moves)) bad('the history is illegal in the sampled world');
          const all = new Set<number>();
          for (let q = 0; q < seats; q++) {
            if (world.handSize(q) !== s.handSize(q)) bad(`hand size of ${q}`);
            for (const c of setToCodes(world.dealt, q * LANES)) all.add(c);
            if (q !== seat && facts.noTrumpButPuur[q] && setHas(world.hands, q * LANES, PUUR)) flaggedWithPuur++;
          }
          if (all.size !== 36) bad('the world does not deal the pack');
          if (s.turnupHeld !== setHas(world.hands, world.dealer * LANES, world.turnup)) bad('turn-up');
          for (let l = 0; l < LANES; l++)
            if (world.hands[seat * LANES + l] !== s.hands[seat * LANES + l]) bad('own hand');
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(worlds).toBe(3 * 500 * 3.5);
    // J-4: a seat that did not follow a trump lead may still hold the lone Puur, and the sampler gives it to it.
    expect(flaggedWithPuur).toBeGreaterThan(0);
  });
});

describe('hindersiJass.sample is uniform over the consistent worlds', () => {
  /** A position after `plies` random cards at `seats` seats and an observer such that `ok` holds. */
  function findPosition(
    seats: number,
    plies: number,
    from: number,
    ok: (s: JassState, seat: number, worlds: string[]) => boolean,
  ): [JassState, number] {
    for (let i = from; i < from + 3000; i++) {
      const s = randomPoint(seats, i, plies);
      const seat = (s.toMove + 1 + (i % (seats - 1))) % seats;
      const f = publicFacts(s);
      // Only bother enumerating points that show something.
      if (!seatsOf(s).some((q) => q !== seat && (f.voids[q] !== 0 || f.noTrumpButPuur[q]))) continue;
      const worlds = consistentWorlds(s, seat);
      if (ok(s, seat, worlds)) return [s, seat];
    }
    throw new Error('no such position');
  }

  function chiSquare(
    s: JassState,
    seat: number,
    samples: number,
    seed: number,
  ): { cells: number; chi2: number; strays: number } {
    const worlds = consistentWorlds(s, seat);
    const count = new Map(worlds.map((k) => [k, 0]));
    const world = new JassState(s.seats);
    const rng = new Rng(KEY, seed);
    let strays = 0;
    for (let k = 0; k < samples; k++) {
      hindersiJass.sample(s.observe(seat), rng, world);
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

  it('4 players after 6 tricks, an observer facing revealed voids: chi-square against uniform', () => {
    const [s, seat] = findPosition(
      4,
      24,
      5000,
      (t, q, w) =>
        w.length >= 30 && w.length <= 1500 && seatsOf(t).some((o) => o !== q && publicFacts(t).voids[o] !== 0),
    );
    const r = chiSquare(s, seat, 20000, 1);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('J-4: a seat that did not follow a trump lead while the Puur is unseen may hold it alone: chi-square against uniform', () => {
    // The Puur is unseen by the observer and in some consistent worlds the flagged seat holds it, in others not.
    const [s, seat] = findPosition(4, 24, 8000, (t, q, w) => {
      const f = publicFacts(t);
      const flagged = seatsOf(t).filter((o) => o !== q && f.noTrumpButPuur[o] && t.handSize(o) > 0);
      if (!flagged.length || setHas(t.hands, q * LANES, PUUR) || w.length < 10 || w.length > 1500) return false;
      const others = seatsOf(t).filter((x) => x !== q);
      const withPuur = (key: string, o: number) => key.split('|')[others.indexOf(o)].split(',').includes(String(PUUR));
      return flagged.some((o) => w.some((k) => withPuur(k, o)) && w.some((k) => !withPuur(k, o)));
    });
    const r = chiSquare(s, seat, 20000, 2);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('3 players after 8 tricks, with voids shown (undertrumps included): chi-square against uniform', () => {
    const [s, seat] = findPosition(
      3,
      24,
      11000,
      (t, q, w) =>
        w.length >= 10 && w.length <= 1500 && seatsOf(t).some((o) => o !== q && publicFacts(t).voids[o] !== 0),
    );
    const r = chiSquare(s, seat, 20000, 3);
    expect(r.strays).toBe(0);
    expect(r.chi2).toBeLessThan(bound(r.cells));
  });

  it('J-4: an undertrump on a plain lead shows a void in the suit led (no consistent world gives that suit back)', () => {
    let found = 0;
    for (let i = 0; i < 3000 && found < 5; i++) {
      const s = randomPoint(4, 20000 + i, 27);
      // The undertrumps in the history: (seat, suit led) of a trump below one already in a plain-led trick.
      const under: [number, number][] = [];
      for (let t = 0; t < s.trick; t++) {
        const start = s.trickStart[t];
        const led = s.move(start) >>> 5;
        if (led === TRUMP_LANE) continue;
        let top = -1;
        for (let j = 1; j < 4; j++) {
          const m = s.move(start + j);
          if (m >>> 5 !== TRUMP_LANE) continue;
          if ((m & 31) < top) under.push([s.moveSeat(start + j), led]);
          top = Math.max(top, m & 31);
        }
      }
      const seat = s.toMove;
      const target = under.find(
        ([q, led]) =>
          q !== seat &&
          s.handSize(q) > 0 &&
          seatsOf(s).some((o) => o !== q && o !== seat && s.hands[o * LANES + led] !== 0),
      );
      if (!target) continue;
      found++;
      const [q, led] = target;
      const others = seatsOf(s).filter((x) => x !== seat);
      for (const key of consistentWorlds(s, seat)) {
        const cards = key.split('|')[others.indexOf(q)].split(',').filter(Boolean).map(Number);
        expect(cards.some((c) => c >>> 5 === led)).toBe(false);
      }
    }
    expect(found).toBe(5);
  });
});
