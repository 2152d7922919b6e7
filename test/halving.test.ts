/** The race of pimc's moves across its worlds (bots/halving.ts): which moves it drops, and when. */
import { describe, expect, it } from 'vitest';
import { MoveRace } from '../bots/halving.js';
import { Rng, seedKey } from '../src/core/rng.js';

/** Race `n` moves over `worlds` worlds, move i worth `value(i, w)` in world w; the worlds each move was valued in. */
function race(n: number, worlds: number, value: (i: number, w: number) => number): number[] {
  const r = new MoveRace(worlds);
  r.begin(n);
  const valued = new Array<number>(n).fill(0);
  for (let w = 0; w < worlds; w++) {
    for (let i = 0; i < n; i++) {
      if (r.alive[i] === 0) continue;
      r.record(i, value(i, w));
      valued[i]++;
    }
    r.endWorld();
  }
  return valued;
}

describe('MoveRace', () => {
  it('drops a move behind in every world at the first test, and a twin of the leader', () => {
    // Move 1 leads; move 0 is its twin (the same value in every world); move 2 is always worse.
    const rng = new Rng(seedKey('twin'), 0);
    const noise = Array.from({ length: 100 }, () => rng.uniform());
    expect(race(3, 100, (i, w) => (i === 2 ? noise[w] - 1 : noise[w] + (i === 1 ? 1e-9 : 0)))).toEqual([16, 100, 16]);
  });

  it('keeps moves it cannot tell from the leader, and drops one clearly behind only once the worlds show it', () => {
    const rng = new Rng(seedKey('race'), 0);
    const a = Array.from({ length: 300 }, () => rng.uniform());
    const b = Array.from({ length: 300 }, () => rng.uniform());
    const c = Array.from({ length: 300 }, () => rng.uniform());
    // 0 and 1 equal in law (independent noise), 2 behind by a tenth of the range of their values.
    const valued = race(3, 300, (i, w) => (i === 0 ? a[w] : i === 1 ? b[w] : c[w] - 0.1));
    expect(valued[0] + valued[1]).toBeGreaterThan(300);
    expect(valued[2]).toBeGreaterThan(16);
    expect(valued[2]).toBeLessThan(300);
  });

  it('never drops the leader, and starts afresh with each decision', () => {
    const r = new MoveRace(40);
    r.begin(2);
    for (let w = 0; w < 40; w++) {
      r.record(0, 1);
      if (r.alive[1] === 1) r.record(1, 0);
      r.endWorld();
    }
    expect([r.alive[0], r.alive[1]]).toEqual([1, 0]);
    r.begin(2);
    expect([r.alive[0], r.alive[1]]).toEqual([1, 1]);
  });
});
