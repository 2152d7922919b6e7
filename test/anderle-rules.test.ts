/** Vier-Anderle rules (RULES.md section A), by rule id, from named positions. */
import { describe, expect, it } from 'vitest';
import { TafelError } from '../src/core/errors.js';
import { Decision } from '../src/games/game.js';
import { codeName, fullPack, packSize, parseCard } from '../src/games/vier-anderle/cards.js';
import { vierAnderle } from '../src/games/vier-anderle/index.js';
import { AnderleMatch } from '../src/games/vier-anderle/match.js';
import { Outcome } from '../src/games/vier-anderle/state.js';
import { setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { legalNames, play, position } from './anderle-helpers.js';

describe('A-1 pack and pips', () => {
  it('A-1: 38 cards without pips, 54 with; names round-trip (RECORD.md)', () => {
    for (const pips of [false, true]) {
      const [t, s] = fullPack(pips);
      const codes = setToCodes(Int32Array.from([t, s, 0, 0]));
      expect(codes.length).toBe(packSize(pips));
      for (const c of codes) expect(parseCard(codeName(c))).toBe(c);
    }
    expect(['T1', 'T22', 'KH', 'CS', '10C', '7S', '1D', '4H'].map((n) => codeName(parseCard(n)))).toEqual([
      'T1',
      'T22',
      'KH',
      'CS',
      '10C',
      '7S',
      '1D',
      '4H',
    ]);
    expect(parseCard('T23')).toBe(-1);
    expect(parseCard('10H')).toBe(-1);
    expect(parseCard('1C')).toBe(-1);
  });

  const check = (seats: number, pips: string) => () =>
    vierAnderle.checkTable({ seats, rules: { pips, hands: 12, untilEmpty: false } });
  it('A-1: an impossible combination is a clear TafelError (11 players without pips)', () => {
    expect(check(11, 'never')).toThrow(TafelError);
    expect(check(11, 'never')).toThrow(/11 players need the pip cards/);
    expect(check(10, 'never')).toThrow(TafelError);
    expect(check(14, 'auto')).toThrow(/2 to 13/);
    expect(check(1, 'always')).toThrow(TafelError);
    expect(check(9, 'never')).not.toThrow();
    expect(check(13, 'auto')).not.toThrow();
    expect(check(2, 'always')).not.toThrow();
  });
  it('A-1: auto uses pips only from 10 players', () => {
    const st = (seats: number, pips: string) => vierAnderle.newState({ seats, rules: { pips } });
    expect(st(9, 'auto').pips).toBe(false);
    expect(st(10, 'auto').pips).toBe(true);
    expect(st(4, 'always').pips).toBe(true);
    expect(st(4, 'never').pips).toBe(false);
  });
});

describe('A-3 play', () => {
  it('A-3: source example 17: 18 led, holding the 21 and small tarocks, only the 21 is legal', () => {
    const s = position(['T18 KC QC JC', 'T21 T1 T2 T3', 'KS QS JS CS'], { dealer: 2 });
    play(s, 'T18');
    expect(legalNames(s)).toEqual(['T21']);
  });
  it('A-3: tarocks led, none can head: any tarock (no suit card)', () => {
    const s = position(['T18 KC QC JC', 'T5 T1 KS QS', 'KH QH JH CH'], { dealer: 2 });
    play(s, 'T18');
    expect(legalNames(s)).toEqual(['T1', 'T5']);
  });
  it('A-3: tarocks led, void in tarocks: anything', () => {
    const s = position(['T18 KC QC JC', 'KS QS JS CS', 'KH QH JH CH'], { dealer: 2 });
    play(s, 'T18');
    expect(legalNames(s)).toEqual(['CS', 'JS', 'KS', 'QS']);
  });
  it('A-3: suit led: must follow, and head with the suit when able', () => {
    const s = position(['CC T1 T2 T3', 'KC JC T22 T21', 'KH QH JH CH'], { dealer: 2 });
    play(s, 'CC');
    expect(legalNames(s)).toEqual(['KC']);
  });
  it('A-3: suit led, cannot head in suit: any card of the suit, no tarock', () => {
    const s = position(['KC T1 T2 T3', 'QC JC T22 T21', 'KH QH JH CH'], { dealer: 2 });
    play(s, 'KC');
    expect(legalNames(s)).toEqual(['JC', 'QC']);
  });
  it('A-3: suit led with a tarock already on it, holding the suit: any card of the suit', () => {
    const s = position(['JC T1 T2 T3', 'KS QS JS T4', 'KC QC CC T22'], { dealer: 2 });
    play(s, 'JC', 'T4');
    expect(legalNames(s)).toEqual(['CC', 'KC', 'QC']);
  });
  it('A-3: suit led, void, a tarock already lies: must beat it if able', () => {
    const s = position(['JC T1 T2 T3', 'KS QS JS T10', 'KH T5 T12 T20'], { dealer: 2 });
    play(s, 'JC', 'T10');
    expect(legalNames(s)).toEqual(['T12', 'T20']);
  });
  it('A-3: suit led, void, a higher tarock lies than any held: any tarock', () => {
    const s = position(['JC T1 T2 T3', 'KS QS JS T21', 'KH T5 T12 T20'], { dealer: 2 });
    play(s, 'JC', 'T21');
    expect(legalNames(s)).toEqual(['T12', 'T20', 'T5']);
  });
  it('A-3: suit led, void, no tarock lies: any tarock (each heads)', () => {
    const s = position(['JC T1 T2 T3', 'KH T5 T12 T20', 'KS QS JS T21'], { dealer: 2 });
    play(s, 'JC');
    expect(legalNames(s)).toEqual(['T12', 'T20', 'T5']);
  });
  it('A-3: void in the suit led and in tarocks: anything; a discard never wins', () => {
    const s = position(['JC T1 T2 T3', 'KH QS JS CD', 'KS QH T21 T20'], { dealer: 2 });
    play(s, 'JC');
    expect(legalNames(s)).toEqual(['CD', 'JS', 'KH', 'QS']);
    play(s, 'KH', 'T20');
    expect(s.trickWinner[0]).toBe(2);
  });
  it('A-3: with pips, the red order K Q C J 1 2 3 4 and black K Q C J 10 9 8 7', () => {
    const s = position(['2H T1 T2 T3', '1H 4H T21 T20', '9C T4 T5 T6', '8C 10C T22 KS'], { dealer: 3, pips: true });
    play(s, '2H');
    expect(legalNames(s)).toEqual(['1H']);
    play(s, '1H', 'T4', 'T22');
    expect(s.trickWinner[0]).toBe(3);
    play(s, 'KS', 'T1', 'T20', 'T5'); // KS led, seat 0 void: tarock (any heads); seat 1 must head T1; seat 2 must head T20? cannot: any tarock
    expect(s.trickWinner[1]).toBe(1);
  });
});

describe('A-4..A-6 the worked examples of the source, through the session ledger', () => {
  it('A-5 and A-6: 6 players, pot 4 -> 16; then pot 20, C +5, D +15, B and E pay 20 -> 40', () => {
    const m = new AnderleMatch(6, 12, false, false, 5);
    // A..F = seats 0..5; F deals the first hand, everyone plays.
    const h1 = position(
      ['T22 T21 T1 T2', 'T20 T3 T4 T5', 'T19 T6 T7 T8', 'T9 T10 T11 T12', 'T13 T14 T15 T16', 'T17 T18 KC KS'],
      { dealer: 5, potBefore: m.pot },
    );
    expect(h1.type).toBe(1);
    expect(h1.decision).toBe(Decision.Card);
    expect(h1.toMove).toBe(0);
    play(h1, 'T22 T3 T6 T9 T13 T17', 'T21 T4 T7 T10 T14 T18', 'T1 T20 T8 T11 T15 KC', 'T5 T19 T12 T16 KS T2');
    expect(Array.from(h1.seatTricks.subarray(0, 6))).toEqual([2, 1, 1, 0, 0, 0]);
    m.recording = true;
    m.finishDeal(h1);
    expect(m.pot).toBe(16);
    expect(Array.from(m.balances.subarray(0, 6))).toEqual([0, 0, 0, -4, -4, -8]);
    const r1 = m.record(h1);
    expect(r1.events).toEqual([
      { type: 'ante', seat: 5, n: 4 },
      { type: 'loser-pay', seat: 3, n: 4 },
      { type: 'loser-pay', seat: 4, n: 4 },
      { type: 'loser-pay', seat: 5, n: 4 },
    ]);
    expect(r1.after).toEqual({ pot: 16, balances: [0, 0, 0, -4, -4, -8] });

    // A deals (the deal passes on); the pot holds 16 + 4 = 20. A and F stay out.
    const h2 = position(
      ['T1 T2 T3 T4', 'CS QS KS KD', 'T19 JC CC QC', 'T22 T21 T20 JS', 'JH CH QH KH', 'T5 T6 T7 T8'],
      { dealer: 0, potBefore: m.pot },
    );
    expect(h2.type).toBe(2);
    expect(h2.pot).toBe(20);
    expect(h2.decision).toBe(Decision.Declare);
    expect(h2.toMove).toBe(1);
    play(h2, 'in in in in out out');
    expect(h2.decision).toBe(Decision.Card);
    expect(h2.toMove).toBe(1);
    play(h2, 'CS T19 JS JH', 'JC T20 CH KD', 'T21 QH QS CC', 'T22 KH KS QC');
    expect(Array.from(h2.seatTricks.subarray(0, 6))).toEqual([0, 0, 1, 3, 0, 0]);
    m.finishDeal(h2);
    expect(m.pot).toBe(40);
    expect(Array.from(m.balances.subarray(0, 6))).toEqual([-4, -20, 5, 11, -24, -8]);
    const r2 = m.record(h2);
    expect(r2.type).toBe(2);
    expect(r2.players).toEqual([1, 2, 3, 4]);
    expect(r2.points).toEqual([null, 0, 1, 3, 0, null]);
    expect(r2.events).toEqual([
      { type: 'ante', seat: 0, n: 4 },
      { type: 'trick-pay', seat: 2, n: 5 },
      { type: 'trick-pay', seat: 3, n: 5 },
      { type: 'trick-pay', seat: 3, n: 5 },
      { type: 'trick-pay', seat: 3, n: 5 },
      { type: 'loser-pay', seat: 1, n: 20 },
      { type: 'loser-pay', seat: 4, n: 20 },
    ]);
    expect(r2.declarations).toEqual([
      { seat: 1, in: true },
      { seat: 2, in: true },
      { seat: 3, in: true },
      { seat: 4, in: true },
      { seat: 5, in: false },
      { seat: 0, in: false },
    ]);
    expect(r2.before).toEqual(r1.after);
  });
});

describe('A-7 decisions', () => {
  it('A-7: nobody in: the hand is void, the pot keeps the ante', () => {
    const m = new AnderleMatch(3, 12, false, false, 0);
    m.pot = 8;
    m.balances[1] = -8;
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8', 'T9 T10 T11 T12'], { dealer: 0, potBefore: 8 });
    play(s, 'out out out');
    expect(s.isTerminal()).toBe(true);
    expect(s.outcome).toBe(Outcome.Void);
    m.recording = true;
    m.finishDeal(s);
    expect(m.pot).toBe(12);
    expect(m.record(s).events).toEqual([{ type: 'ante', seat: 0, n: 4 }, { type: 'void' }]);
    expect(m.record(s).players).toEqual([]);
  });
  it('A-7: exactly one in takes the whole pot without play', () => {
    const m = new AnderleMatch(3, 12, false, false, 0);
    m.pot = 8;
    m.balances[1] = -8;
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8', 'T9 T10 T11 T12'], { dealer: 0, potBefore: 8 });
    play(s, 'out in out');
    expect(s.outcome).toBe(Outcome.Sole);
    m.recording = true;
    m.finishDeal(s);
    expect(m.pot).toBe(0);
    expect(Array.from(m.balances.subarray(0, 3))).toEqual([-4, -8, 12]);
    const r = m.record(s);
    expect(r.events).toEqual([
      { type: 'ante', seat: 0, n: 4 },
      { type: 'sole', seat: 2, n: 12 },
    ]);
    expect(r.points).toEqual([null, null, 0]);
    expect(r.tricks).toEqual([]);
  });
  it('A-7: forehand out: the first player in after the dealer leads; play skips seats out', () => {
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8', 'T9 T10 T11 T12', 'T13 T14 T15 T16'], {
      dealer: 3,
      potBefore: 4,
    });
    play(s, 'out out in in');
    expect(s.toMove).toBe(2);
    play(s, 'T9');
    expect(s.toMove).toBe(3);
    play(s, 'T13');
    expect(s.trickWinner[0]).toBe(3);
    expect(s.toMove).toBe(3);
  });
  it('A-6: declarations go from forehand round to the dealer, each seeing the earlier ones', () => {
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8', 'T9 T10 T11 T12'], { dealer: 1, potBefore: 4 });
    expect(s.toMove).toBe(2);
    play(s, 'in');
    expect(s.observe(0).declared(2)).toBe(1);
    expect(s.toMove).toBe(0);
    play(s, 'in');
    expect(s.toMove).toBe(1);
    expect(legalNames(s)).toEqual(['in', 'out']);
  });
  it('A-5: the empty-pot hand has no declarations and pays no tricks', () => {
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8'], { dealer: 1, potBefore: 0 });
    expect(s.decision).toBe(Decision.Card);
    play(s, 'T1 T5 T8 T2 T7 T3 T6 T4');
    expect(Array.from(s.delta.subarray(0, 2))).toEqual([-4, -4]);
  });
  it('A-6: one seat takes all four tricks: the pot is emptied by the quarters', () => {
    const m = new AnderleMatch(2, 12, false, false, 0);
    m.pot = 12;
    m.balances[0] = -12;
    const s = position(['T1 T2 T3 T4', 'T5 T6 T7 T8'], { dealer: 1, potBefore: 12 });
    play(s, 'in in', 'T1 T5 T8 T2 T7 T3 T6 T4');
    m.finishDeal(s);
    expect(m.pot).toBe(16 + 16 - 16);
    expect(m.balances[0] + m.balances[1] + m.pot).toBe(0);
  });
});

describe('A-8 sessions', () => {
  it('A-8: hands, and untilEmpty plays on until the pot is empty', async () => {
    const { Rng, seedKey } = await import('../src/core/rng.js');
    const table = { seats: 5, rules: { pips: 'auto', hands: 3, untilEmpty: true } };
    const m = vierAnderle.newMatch(table, { singleDeal: false, index: 0 }) as AnderleMatch;
    const st = vierAnderle.newState(table);
    const rng = new Rng(seedKey('s'));
    const buf = new Int32Array(4);
    let deals = 0;
    while (!m.over) {
      m.startDeal(st, rng);
      while (!st.isTerminal()) {
        const k = st.legal(buf, 0);
        st.apply(setToCodes(buf)[rng.below(k)]);
      }
      m.finishDeal(st);
      deals++;
    }
    expect(deals).toBeGreaterThanOrEqual(3);
    expect(m.pot === 0 || deals === 3 + 1000).toBe(true);
    const plain = vierAnderle.newMatch({ seats: 5, rules: { hands: 3 } }, { singleDeal: false, index: 0 });
    for (let i = 0; i < 3; i++) {
      expect(plain.over).toBe(false);
      plain.startDeal(st, rng);
      while (!st.isTerminal()) {
        st.legal(buf, 0);
        st.apply(setToCodes(buf)[0]);
      }
      plain.finishDeal(st);
    }
    expect(plain.over).toBe(true);
  });
});

describe('single deals from a pot (variant pot)', () => {
  const dealOnce = (
    rules: Record<string, string | number | boolean>,
    seats: number,
    index: number,
    recording = true,
  ) => {
    const table = { seats, rules: { pips: 'auto', hands: 12, untilEmpty: false, ...rules } };
    vierAnderle.checkTable(table);
    const m = vierAnderle.newMatch(table, { singleDeal: true, index }) as AnderleMatch;
    m.recording = recording;
    const st = vierAnderle.newState(table);
    const buf = new Int32Array(4);
    m.startDeal(st, new Rng(seedKey('pot'), index));
    const decisions = new Set<number>();
    while (!st.isTerminal()) {
      decisions.add(st.decision);
      const k = st.legal(buf, 0);
      st.apply(setToCodes(buf)[k - 1]);
    }
    m.finishDeal(st);
    return { m, rec: m.record(st), decisions };
  };

  it('A-6: pot=8 (the default) makes every single deal a hand with declarations; pot=0 an empty-pot hand (A-5)', () => {
    expect(vierAnderle.variants.find((v) => v.key === 'pot')?.default).toBe(8);
    const declared = dealOnce({ pot: 8 }, 4, 0);
    expect(declared.decisions.has(Decision.Declare)).toBe(true);
    expect(declared.rec.type).toBe(2);
    const empty = dealOnce({ pot: 0 }, 4, 0);
    expect(empty.decisions.has(Decision.Declare)).toBe(false);
    expect(empty.rec.type).toBe(1);
  });

  it('A-4: the pot came from the players, as evenly as it divides, so balances and pot still sum to 0', () => {
    for (const [pot, seats, index] of [
      [8, 4, 0],
      [12, 5, 3],
      [4, 6, 1],
    ]) {
      const { rec } = dealOnce({ pot }, seats, index);
      const before = rec.before as { pot: number; balances: number[] };
      expect(before.pot).toBe(pot);
      expect(before.balances.reduce((a, b) => a + b, 0) + before.pot).toBe(0);
      expect(Math.max(...before.balances) - Math.min(...before.balances)).toBeLessThanOrEqual(1);
      // The first seats after the dealer paid the remainder.
      const dealer = index % seats;
      const after = (k: number) => before.balances[(dealer + 1 + k) % seats];
      for (let k = 1; k < seats; k++) expect(after(k)).toBeGreaterThanOrEqual(after(k - 1));
      const end = rec.after as { pot: number; balances: number[] };
      expect(end.balances.reduce((a, b) => a + b, 0) + end.pot).toBe(0);
    }
  });

  it('A-6: a pot that is not a multiple of 4 is refused with one clear line', () => {
    expect(() =>
      vierAnderle.checkTable({ seats: 4, rules: { pips: 'auto', hands: 12, pot: 6, untilEmpty: false } }),
    ).toThrow(/vier-anderle: pot=6: the pot holds a whole number of stakes divisible by 4/);
  });
});
