/**
 * What only Vier-Anderle's sampler must get right (the rest of information hiding and
 * determinization is the contract suite's, contract.test.ts): the heading duty of A-3
 * shows more than lane voids (a lower tarock played shows no tarock that would have
 * headed), so the sampler works with the cards each seat cannot hold, and when uniform
 * proposals almost never fit (a dozen players late in a hand) it builds a world by
 * matching and mixes it by swaps.
 */
import { describe, expect, it } from 'vitest';
import { LANES, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES } from '../src/games/game.js';
import { codeName } from '../src/games/vier-anderle/cards.js';
import { vierAnderle } from '../src/games/vier-anderle/index.js';
import { AnderleState } from '../src/games/vier-anderle/state.js';
import { AnderleSampler } from '../src/games/vier-anderle/sample.js';
import { popcount } from '../src/core/bits.js';
import { play, position } from './anderle-helpers.js';

function randomMove(s: AnderleState, rng: Rng, buf: Int32Array): void {
  if (s.decision === Decision.Declare) {
    s.apply(rng.uniform() < 0.6 ? YES : NO);
    return;
  }
  const k = s.legal(buf, 0);
  s.apply(setToCodes(buf)[rng.below(k)]);
}

/** Deal `deal` of a session (type 1 or 2 by the deal's number) and random play to a random point; false if the hand ended. */
function randomPosition(s: AnderleState, deal: number, seats: number, rng: Rng, buf: Int32Array): boolean {
  s.deal({ dealer: deal % seats, potBefore: deal % 3 === 0 ? 0 : 4 * (deal % 5) }, rng, new Uint8Array(64));
  const stop = rng.below(4 * seats + seats);
  for (let i = 0; i < stop && !s.isTerminal(); i++) randomMove(s, rng, buf);
  return !s.isTerminal();
}

describe('vier-anderle sampling beyond lane voids (A-3)', () => {
  it('A-3: the cards each seat cannot hold never exclude its true hand, and deals built by matching replay and look the same', () => {
    // The forbidden sets (voids and the heading duty) must be no stricter than the truth,
    // and a deal that respects them must replay legally (the sampler checks every world it
    // builds, and throws otherwise). rejectionTries 0 builds every world by matching and swaps.
    let cards = 0;
    let strict = 0;
    for (const seats of [3, 5, 9, 13]) {
      const table = { seats, rules: { pips: 'auto' } };
      const s = vierAnderle.newState(table);
      const w = vierAnderle.newState(table);
      const rng = new Rng(seedKey(`forbidden-${seats}`));
      const buf = new Int32Array(LANES);
      const exact = new AnderleSampler();
      const built = new AnderleSampler(0);
      for (let deal = 0; deal < 40; deal++) {
        if (!randomPosition(s, deal, seats, rng, buf)) continue;
        const me = s.toMove;
        const obs = s.observe(me);
        exact.sample(obs, rng, w);
        for (let q = 0; q < seats; q++) {
          if (q === me) continue;
          for (let lane = 0; lane < 2; lane++) {
            expect(s.hands[q * LANES + lane] & exact.forbiddenIn(q, lane), `seat ${q} lane ${lane}`).toBe(0);
            const f = exact.forbiddenIn(q, lane);
            for (let m = f; m !== 0; m &= m - 1) strict++;
          }
          cards += popcount(s.hands[q * LANES]) + popcount(s.hands[q * LANES + 1]);
        }
        for (let k = 0; k < 3; k++) {
          built.sample(obs, rng, w);
          expect(w.observe(me).fingerprint()).toBe(obs.fingerprint());
        }
      }
    }
    expect(cards).toBeGreaterThan(500);
    expect(strict).toBeGreaterThan(200); // the sets do say something
  });

  it('with a dozen players late in a hand, where uniform proposals almost never fit, a world is built; built worlds spread like exact ones', () => {
    // 13 players, third trick (found by a soak run that made the rejection-only sampler give up).
    const table = { seats: 13, rules: { pips: 'auto' } };
    const s = vierAnderle.newState(table);
    const rng = new Rng(seedKey('soak-13'));
    const buf = new Int32Array(LANES);
    const w = vierAnderle.newState(table);
    const sampler = new AnderleSampler();
    let hard = 0;
    for (let deal = 0; deal < 1000 && hard < 3; deal++) {
      s.deal({ dealer: deal % 13, potBefore: 0 }, rng, new Uint8Array(64));
      while (!s.isTerminal() && (s.trick < 2 || s.trickCards < 8)) randomMove(s, rng, buf);
      if (s.isTerminal()) continue;
      const obs = s.observe(s.toMove);
      const before = sampler.built;
      sampler.sample(obs, rng, w);
      expect(w.observe(s.toMove).fingerprint()).toBe(obs.fingerprint());
      if (sampler.built > before) hard++;
    }
    expect(hard).toBe(3);

    // Built worlds, in the small case of the uniform test above: seat 1's hands equally likely.
    const t = position(['KC T1 T2 T3', 'KS QS JS CS', 'QC JC CC KH'], { dealer: 2 });
    play(t, 'KC', 'JS');
    const obs = t.observe(2);
    const v = new AnderleState(3, false);
    const r = new Rng(seedKey('spread'));
    const built = new AnderleSampler(0);
    const counts = new Map<string, number>();
    const N = 3000;
    for (let i = 0; i < N; i++) {
      built.sample(obs, r, v);
      const key = setToCodes(v.dealt, LANES).map(codeName).sort().join(' ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(120);
    for (const n of counts.values()) expect(Math.abs(n - N / 120)).toBeLessThan(22);
  });

  it('a world completed from the history played once is the world a replay builds, and it replays legally', () => {
    // Without a watcher the sampler adds each seat's unseen cards to the history played
    // with the seen cards (sample.ts, `build`); with one it replays the history under
    // `legal`. From the same stream both must give the same world, and the same stream
    // after; sampling one view again and again (as search does) must not change that.
    let worlds = 0;
    const watcher = { before: () => undefined };
    for (const seats of [2, 4, 7, 13]) {
      const table = { seats, rules: { pips: 'auto' } };
      const s = vierAnderle.newState(table);
      const a = vierAnderle.newState(table);
      const b = vierAnderle.newState(table);
      const replayed = vierAnderle.newState(table);
      const rng = new Rng(seedKey(`build-${seats}`));
      const buf = new Int32Array(LANES);
      const fast = new AnderleSampler();
      const checked = new AnderleSampler();
      for (let deal = 0; deal < 30; deal++) {
        if (!randomPosition(s, deal, seats, rng, buf)) continue;
        for (let k = 0; k < 2 * seats; k++) {
          const obs = s.observe(k % seats);
          const ra = new Rng(seedKey(`world-${seats}-${deal}-${k}`));
          const rb = new Rng(seedKey(`world-${seats}-${deal}-${k}`));
          fast.sample(obs, ra, a);
          checked.sample(obs, rb, b, watcher);
          expect(ra.next()).toBe(rb.next());
          expect(Array.from(a.dealt)).toEqual(Array.from(b.dealt));
          expect(Array.from(a.hands)).toEqual(Array.from(b.hands));
          expect(Array.from(a.handCount)).toEqual(Array.from(b.handCount));
          for (let q = 0; q < seats; q++) expect(a.observe(q).fingerprint()).toBe(b.observe(q).fingerprint());
          // The history is legal in the world from its starting hands.
          replayed.begin({ dealer: s.dealer, potBefore: s.potBefore }, a.dealt);
          for (let ply = 0; ply < s.plies; ply++) {
            const m = s.move(ply);
            replayed.legal(buf, 0);
            expect((buf[m >>> 5] >>> (m & 31)) & 1, `ply ${ply}`).toBe(1);
            replayed.apply(m);
          }
          worlds++;
        }
      }
    }
    expect(worlds).toBeGreaterThan(500);
  });
});
