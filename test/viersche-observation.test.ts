/**
 * What only Viersche's windows and sampler must get right (the rest of information
 * hiding and determinization is the contract suite's, contract.test.ts): the face-down
 * lead of V-4, unseen by every seat but forehand while its trick is open and drawn
 * uniformly among the unseen non-trumps, and the turn-up the dealer holds (C-4).
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { PACK_SIZE } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, HIDDEN, NO } from '../src/games/game.js';
import { toCode } from '../src/games/viersche/cards.js';
import { viersche } from '../src/games/viersche/index.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';
import { chiSquare, consistentWorlds, tableOf } from './contract-helpers.js';

const KEY = seedKey('observation');
const deck = new Uint8Array(PACK_SIZE);
const buf = newSets();
const TABLE = tableOf(viersche, 4, {});

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

const bit = (code: number) => 1 << (code & 31);
const handCodes = (s: VierscheState, seat: number) => setToCodes(s.hands, seat * LANES);

describe('V-4: the face-down lead', () => {
  it('while its trick is open, every seat but forehand sees the same whichever unseen non-trump lies face down', () => {
    const failures: string[] = [];
    let pairs = 0;
    const rng = new Rng(KEY, 3);
    for (let i = 0; i < 60; i++) {
      const s = facedownPoint(20000 + i * 100, 1 + (i % 3));
      expect(s.facedown && s.trick === 0).toBe(true);
      const moves = Array.from({ length: s.plies }, (_, p) => s.move(p));
      const fd = moves[0];
      for (let seat = 0; seat < 4; seat++) {
        if (seat === s.forehand) continue;
        // Another seat that has not played to the trick gives forehand one of its non-trumps for the face-down card.
        for (let y = 0; y < 4; y++) {
          if (y === seat || y === s.forehand || moves.some((_, p) => p > 0 && s.moveSeat(p) === y)) continue;
          const cands = handCodes(s, y).filter((c) => c >>> 5 !== 0 && !(s.turnupHeld && c === s.turnup));
          if (!cands.length) continue;
          const b = cands[rng.below(cands.length)];
          const dealt = Int32Array.from(s.dealt);
          dealt[s.forehand * LANES + (fd >>> 5)] &= ~bit(fd);
          dealt[y * LANES + (fd >>> 5)] |= bit(fd);
          dealt[y * LANES + (b >>> 5)] &= ~bit(b);
          dealt[s.forehand * LANES + (b >>> 5)] |= bit(b);
          const w = rebuild(s, dealt, [b, ...moves.slice(1)]);
          if (!w) continue; // the later cards of the trick are no longer legal with y's new hand
          pairs++;
          if (w.observe(seat).fingerprint() !== s.observe(seat).fingerprint())
            failures.push(`deal ${i} seat ${seat}: face-down card visible`);
          if (w.observe(s.forehand).fingerprint() === s.observe(s.forehand).fingerprint())
            failures.push(`deal ${i}: forehand does not see its own lead`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(pairs).toBeGreaterThan(50);
  });

  it('once its trick is complete, the face-down card is shown to every seat', () => {
    const s = facedownPoint(30000, 0);
    while (s.trick === 0) {
      s.legal(buf, 0);
      s.apply(setSelect(buf, 0, 0));
    }
    for (let seat = 0; seat < 4; seat++) expect(s.observe(seat).move(0)).toBe(s.move(0));
  });

  it('a hidden face-down lead is drawn uniformly among the unseen non-trumps', () => {
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
    const df = candidates.size - 1;
    expect(strays).toBe(0);
    expect(chi2).toBeLessThan(df + 6 * Math.sqrt(2 * df));
  });
});

describe('C-4: the turn-up the dealer still holds', () => {
  it('lies in the hand of the dealer in every world; the rest is uniform (chi-square)', () => {
    for (let i = 0; i < 3000; i++) {
      const rng = new Rng(KEY, 5000 + i);
      const s = randomPoint(5000 + i, 0);
      while (!s.isTerminal() && s.trick < 7)
        s.apply(s.decision === Decision.Claim ? NO : setSelect(buf, 0, rng.below(s.legal(buf, 0))));
      const seat = (s.dealer + 1 + (i % 3)) % 4;
      if (s.isTerminal() || !s.turnupHeld || s.trickCards > 0) continue;
      const worlds = consistentWorlds(viersche, TABLE, s, seat, 900);
      if (!worlds || worlds.length < 6) continue;
      const world = new VierscheState();
      for (let k = 0; k < 200; k++) {
        viersche.sample(s.observe(seat), rng, world);
        expect(setHas(world.hands, s.dealer * LANES, s.turnup)).toBe(true);
      }
      const r = chiSquare(viersche, TABLE, s, seat, worlds, 60 * worlds.length, 2);
      expect(r.strays).toBe(0);
      expect(r.chi2).toBeLessThan(r.bound);
      return;
    }
    throw new Error('no such position');
  });
});
