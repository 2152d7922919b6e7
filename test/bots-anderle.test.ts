/** Bots at Vier-Anderle: legal play at every table size, the heuristic's declaring rule, montecarlo's estimate. */
import { describe, expect, it } from 'vitest';
import { LANES, setHas } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, NO, YES, type Params } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import { vierAnderle } from '../src/games/vier-anderle/index.js';
import type { AnderleMatch } from '../src/games/vier-anderle/match.js';
import type { Bot, BotSpec } from '../src/games/bot.js';
import { heuristicAnderle } from '../src/games/vier-anderle/heuristic.js';
import { montecarlo } from '../bots/montecarlo.js';
import { random } from '../bots/random.js';
import { builtinBot } from '../bots/registry.js';
import { position } from './anderle-helpers.js';

const table = (seats: number) => ({ seats, rules: { pips: 'auto', hands: 6, untilEmpty: false } });

function make(spec: BotSpec, seats: number, seat: number, rng: Rng, given: Record<string, string> = {}): Bot {
  const params: Params = resolveParams(spec.params, given, spec.name);
  return spec.create({ game: vierAnderle, table: table(seats), seat, rng, params });
}

/** Play sessions with `specs[seat % specs.length]` at each seat; returns the balance per spec index. */
function session(specs: BotSpec[], seats: number, sessions: number, seed: string): number[] {
  const st = vierAnderle.newState(table(seats));
  const m = vierAnderle.newMatch(table(seats), { singleDeal: false, index: 0 }) as AnderleMatch;
  const key = seedKey(seed);
  const cards = new Rng();
  const rngs = Array.from({ length: seats }, () => new Rng());
  const bots = rngs.map((rng, seat) => make(specs[seat % specs.length], seats, seat, rng));
  const buf = new Int32Array(LANES);
  const out = new Array<number>(specs.length).fill(0);
  for (let i = 0; i < sessions; i++) {
    m.reset(i);
    while (!m.over) {
      cards.reseed(key, i, m.dealIndex);
      rngs.forEach((r, seat) => r.reseed(key, i, m.dealIndex, seat + 1));
      m.startDeal(st, cards);
      while (!st.isTerminal()) {
        const k = st.legal(buf, 0);
        const mv = bots[st.toMove].act(st.observe(st.toMove), buf, k);
        expect(setHas(buf, 0, mv)).toBe(true);
        st.apply(mv);
      }
      m.finishDeal(st);
    }
    for (let s = 0; s < seats; s++) out[s % specs.length] += m.balances[s];
  }
  return out;
}

describe('bots at vier-anderle', () => {
  it("the registry finds the vier-anderle heuristic, the game's own, which plays that game only", () => {
    expect(builtinBot('heuristic', 'vier-anderle')).toBe(heuristicAnderle);
    expect(vierAnderle.heuristic).toBe(heuristicAnderle);
    expect(heuristicAnderle.games).toEqual(['vier-anderle']);
  });

  for (const seats of [2, 5, 9, 13]) {
    it(`random and heuristic play only legal moves with ${seats} players`, () => {
      session([random, heuristicAnderle], seats, 4, `legal-${seats}`);
    });
  }

  it('montecarlo (few worlds) plays legal moves, declarations included', () => {
    const mcSpec: BotSpec = {
      ...montecarlo,
      create: (ctx) => montecarlo.create({ ...ctx, params: resolveParams(montecarlo.params, { worlds: '6' }, 'mc') }),
    };
    session([mcSpec, heuristicAnderle, random], 6, 2, 'mc-legal');
  });

  it('A-6: the heuristic declares on strength against a threshold that rises with rivals', () => {
    const s = position(['T22 T21 T20 KC', 'T1 JC JS JH', 'T2 T3 CS QD', 'T4 T5 T6 T7'], { dealer: 3, potBefore: 8 });
    const leg = new Int32Array(LANES);
    s.legal(leg, 0);
    const bot = (seat: number, given: Record<string, string> = {}) => make(heuristicAnderle, 4, seat, new Rng(), given);
    expect(s.decision).toBe(Decision.Declare);
    expect(bot(0).act(s.observe(0), leg, 2)).toBe(YES);
    s.apply(YES);
    expect(bot(1).act(s.observe(1), leg, 2)).toBe(NO);
    s.apply(NO);
    // A lower threshold takes the weak hand in.
    expect(bot(2).act(s.observe(2), leg, 2)).toBe(NO);
    expect(bot(2, { threshold: '-1' }).act(s.observe(2), leg, 2)).toBe(YES);
  });

  it('A-3: the heuristic wins cheaply when it plays last, and leads a master tarock', () => {
    const s = position(['JC T1 T2 T3', 'T22 T21 T20 T10'], { dealer: 1 });
    const leg = new Int32Array(LANES);
    s.apply(32 + 4); // JC
    const k = s.legal(leg, 0);
    expect(make(heuristicAnderle, 2, 1, new Rng()).act(s.observe(1), leg, k)).toBe(9); // T10, the cheapest winner
    s.apply(9);
    s.legal(leg, 0);
    expect(make(heuristicAnderle, 2, 1, new Rng()).act(s.observe(1), leg, 3)).toBe(21); // T22 is master
  });

  it('montecarlo declares in with a sure hand and out with a hopeless one', () => {
    const s = position(['T22 T21 T20 T19', 'JC JS JH JD', 'T2 T3 CS QD', 'T4 T5 T6 T7', 'KC KS T8 T9'], {
      dealer: 4,
      potBefore: 8,
    });
    const leg = new Int32Array(LANES);
    s.legal(leg, 0);
    const params = resolveParams(montecarlo.params, { worlds: '40' }, 'mc');
    const mc = (seat: number) =>
      montecarlo.create({ game: vierAnderle, table: table(5), seat, rng: new Rng(seedKey('mc'), seat), params });
    expect(mc(0).act(s.observe(0), leg, 2)).toBe(YES);
    s.apply(YES);
    expect(mc(1).act(s.observe(1), leg, 2)).toBe(NO);
  });

  it('the heuristic beats random over sessions (balance, fixed seeds)', () => {
    const [h, r] = session([heuristicAnderle, random], 6, 60, 'strength');
    expect(h).toBeGreaterThan(r);
  });
});
