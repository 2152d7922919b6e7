/**
 * Hindersi-Jass rule by rule (RULES.md C and J), from fixed positions and scripted
 * play. Most positions use hearts as trump: the Puur is JH, the Nell 9H.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets } from '../src/core/cardset.js';
import { cardName, PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision } from '../src/games/game.js';
import { PACK_POINTS, POINTS, PUUR, toCode, toPhysical } from '../src/games/hindersi-jass/cards.js';
import { hindersiJass } from '../src/games/hindersi-jass/index.js';
import { JassMatch, partieStriche } from '../src/games/hindersi-jass/match.js';
import { JassState } from '../src/games/hindersi-jass/state.js';
import { ctxFor, handNames, legalNames, physicalOf, play, position, randomPlayout, suitIndex } from './jass-helpers.js';

const KEY = seedKey('jass-rules');
const deck = new Uint8Array(PACK_SIZE);
const sorted = (names: string) => names.split(' ').sort();
const pointsOf = (trump: string, name: string) => POINTS[toCode(suitIndex(trump), physicalOf(name))];

describe('C-3, C-4, J-3: the deal and the turn-up', () => {
  for (const seats of [4, 3]) {
    it(`J-3: ${seats} players get ${36 / seats} cards each, together the whole pack; C-4: the dealer's last card is the turn-up and sets trump`, () => {
      const s = new JassState(seats);
      for (let i = 0; i < 200; i++) {
        const dealer = i % seats;
        s.deal(ctxFor(dealer, seats), new Rng(KEY, i), deck);
        const hands = Array.from({ length: seats }, (_, seat) => handNames(s, seat, s.dealt));
        expect(hands.map((h) => h.length)).toEqual(hands.map(() => 36 / seats));
        expect(new Set(hands.flat()).size).toBe(36);
        const turnup = cardName(toPhysical(s.trump, s.turnup));
        expect(hands[dealer]).toContain(turnup);
        expect(SUITS[s.trump]).toBe(turnup.slice(-1));
        expect(s.turnupHeld).toBe(true);
        expect(s.forehand).toBe((dealer + 1) % seats); // C-2
        expect(s.toMove).toBe(s.forehand); // C-5
        expect(s.tricks).toBe(36 / seats);
      }
    });
  }

  it('C-3: the same (seed, deal index) gives the same deal; another index gives another', () => {
    const a = new JassState(4);
    const b = new JassState(4);
    a.deal(ctxFor(2), new Rng(KEY, 7), deck);
    b.deal(ctxFor(2), new Rng(KEY, 7), deck);
    expect(Array.from(b.dealt)).toEqual(Array.from(a.dealt));
    b.deal(ctxFor(2), new Rng(KEY, 8), deck);
    expect(Array.from(b.dealt)).not.toEqual(Array.from(a.dealt));
  });

  it("C-4: the turn-up is public as the dealer's until he plays it", () => {
    const s = position('H', ['8H 6C', 'AC 7C', 'KC 8C', 'QC 9C'], { turnup: '8H' });
    const v = s.observe(2);
    expect([v.turnupHeld, v.codeName(v.turnup)]).toEqual([true, '8H']);
    play(s, 'AC KC QC 8H');
    expect(v.turnupHeld).toBe(false);
  });
});

describe('J-1, J-2: ranking and card points', () => {
  it('J-2: Puur 20, Nell 14, A 11, 10 10, K 4, Q 3, plain J 2, others 0', () => {
    expect(['JH', '9H', 'AH', '10H', 'KH', 'QH', '8H', '7H', '6H'].map((c) => pointsOf('H', c))).toEqual([
      20, 14, 11, 10, 4, 3, 0, 0, 0,
    ]);
    expect(['JC', '9C', 'AC', '10C', 'KC', 'QC', '8C', '7C', '6C'].map((c) => pointsOf('H', c))).toEqual([
      2, 0, 11, 10, 4, 3, 0, 0, 0,
    ]);
    // No second jack is promoted (J-1): the jack of trump's colour is a plain jack.
    expect(pointsOf('H', 'JD')).toBe(2);
    expect(toCode(suitIndex('H'), physicalOf('JH'))).toBe(PUUR);
  });

  it('J-2: the pack holds 152 card points under every trump, 157 with the last trick', () => {
    for (let trump = 0; trump < 4; trump++) {
      let sum = 0;
      for (let p = 0; p < PACK_SIZE; p++) sum += POINTS[toCode(trump, p)];
      expect(sum).toBe(152);
    }
    expect(PACK_POINTS).toBe(157);
  });

  it('J-1, C-5: trumps rank Puur, Nell, A K Q 10 8 7 6, above every plain card', () => {
    const order = ['6H', '7H', '8H', '10H', 'QH', 'KH', 'AH', '9H', 'JH'];
    for (let i = 0; i + 1 < order.length; i++) {
      // Seat 1 leads a club; seat 2 trumps low, seat 3 (void in clubs) trumps higher.
      const s = position('H', ['6C', 'AC', order[i], order[i + 1]]);
      play(s, 'AC', order[i], order[i + 1], '6C');
      expect(s.trickWinner[0], `${order[i + 1]} over ${order[i]}`).toBe(3);
    }
  });

  it('J-1, C-5: plain suits rank A K Q J 10 9 8 7 6, and a card of another plain suit never wins', () => {
    const order = ['6S', '7S', '8S', '9S', '10S', 'JS', 'QS', 'KS', 'AS'];
    for (let i = 0; i + 1 < order.length; i++) {
      const s = position('H', ['6C', order[i], order[i + 1], '6D']);
      play(s, order[i], order[i + 1], '6D', '6C');
      expect(s.trickWinner[0], `${order[i + 1]} over ${order[i]}`).toBe(2);
    }
    const s = position('H', ['AC', '6S', 'AD', 'KD']);
    play(s, '6S AD KD AC');
    expect(s.trickWinner[0]).toBe(1);
  });
});

describe('J-4: following', () => {
  // Trump hearts, dealer 0, forehand 1 leads.
  it('J-4: forehand (and every leader) may lead any card; no trump-lead duty', () => {
    const s = position('H', ['6C', 'JH 9H AC 6S', 'KC', 'QC']);
    expect(legalNames(s)).toEqual(sorted('JH 9H AC 6S'));
  });

  it('J-4: holding the suit led you may follow or trump while no trump lies in the trick', () => {
    const s = position('H', ['6C', 'AC', '7C 7H JH 8S', 'QC']);
    play(s, 'AC');
    expect(legalNames(s)).toEqual(sorted('7C 7H JH'));
  });

  it('J-4: holding the suit led you may not undertrump; only a trump above every trump in the trick', () => {
    const s = position('H', ['6C', 'AC', '9H 6S', '7C 10H JH 8S']);
    play(s, 'AC 9H');
    expect(legalNames(s)).toEqual(sorted('7C JH'));
  });

  it('J-4: holding the suit led after the Puur was played, no trump is playable at all', () => {
    const s = position('H', ['6C', 'AC', 'JH 6S', '7C 9H 8S']);
    play(s, 'AC JH');
    expect(legalNames(s)).toEqual(['7C']);
  });

  it('J-4: void in the suit led you may play any card, undertrumps included', () => {
    const s = position('H', ['6C', 'AC', '9H 6S', '10H JH 8S']);
    play(s, 'AC 9H');
    expect(legalNames(s)).toEqual(sorted('10H JH 8S'));
  });

  it('J-4: trumps led, holding trumps besides the Puur: a trump must be played, the Puur may be', () => {
    const s = position('H', ['6C', '6H', '7H JH 8S AC', 'QC']);
    play(s, '6H');
    expect(legalNames(s)).toEqual(sorted('7H JH'));
  });

  it('J-4: trumps led, the Puur as only trump: you may play anything (the Puur too)', () => {
    const s = position('H', ['6C', '6H', 'JH 8S AC', 'QC']);
    play(s, '6H');
    expect(legalNames(s)).toEqual(sorted('JH 8S AC'));
  });

  it('J-4: trumps led, no trump: anything', () => {
    const s = position('H', ['6C', '6H', '8S AC', 'QC']);
    play(s, '6H');
    expect(legalNames(s)).toEqual(sorted('8S AC'));
  });

  it('J-4 Decision: the Puur exception concerns trump leads; on a plain lead the Puur over-trumps like any trump', () => {
    const s = position('H', ['6C', 'AC', '9H 6S', '7C JH']);
    play(s, 'AC 9H');
    expect(legalNames(s)).toEqual(sorted('7C JH'));
  });

  it('J-4 with 3 players: the same rules at a three-seat table', () => {
    const s = position('S', ['7D 8S', 'AD KS', '9D 10S JS'], { dealer: 2, turnup: 'JS' });
    // Forehand is seat 0.
    play(s, '7D KS');
    expect(legalNames(s)).toEqual(sorted('9D JS'));
  });
});

describe('what play shows (state.voids, used by the sampler)', () => {
  it('a non-trump on a trump lead shows no trump but possibly the Puur; an undertrump or a discard shows a void; an over-trump nothing', () => {
    const s = position('H', ['7C 8D', '6H AC', 'JH 8S', '7H 6D']);
    play(s, '6H 8S 7H 7C'); // seat 2 keeps its lone Puur, seat 0 has no trump: the same public fact
    expect(Array.from(s.voids)).toEqual([1, 0, 1, 0]);
    const t = position('H', ['8H 6S', 'AC 7S', '9H 8S', '7H 6D']);
    const clubs = 1 << (toCode(t.trump, physicalOf('AC')) >>> 5);
    play(t, 'AC 9H 7H 8H'); // seat 2 trumps (shows nothing); seats 3 and 0 undertrump: void in clubs
    expect(Array.from(t.voids)).toEqual([clubs, 0, 0, clubs]);
  });
});

describe('J-2, J-5: scoring a deal', () => {
  it('J-2: the tricks hold 157 points, the last trick 5 more than its cards; J-5: without a sweep each seat is charged its points', () => {
    for (const seats of [3, 4]) {
      const s = new JassState(seats);
      for (let i = 0; i < 300; i++) {
        const rng = new Rng(KEY, 1000 + i);
        s.deal(ctxFor(i % seats, seats), rng, deck);
        randomPlayout(s, rng);
        let sum = 0;
        for (let t = 0; t < s.tricks; t++) sum += s.trickValue[t];
        expect(sum).toBe(157);
        const last = s.tricks - 1;
        let cards = 0;
        for (let j = 0; j < seats; j++) cards += POINTS[s.move(s.trickStart[last] + j)];
        expect(s.trickValue[last]).toBe(cards + 5);
        if (s.allTricks < 0)
          expect(Array.from(s.charged.subarray(0, seats))).toEqual(Array.from(s.seatPoints.subarray(0, seats)));
      }
    }
  });

  it('J-5: a sweep at 4 and at 3 seats: 0 for the sweeper, 157 for everybody else; its points are 157', () => {
    // Seat 0 deals and holds every trump: it wins every trick, whatever anybody plays.
    const four = position(
      'H',
      [
        '6H 7H 8H 9H 10H JH QH KH AH',
        '6C 7C 8C 9C 10C JC QC KC AC',
        '6S 7S 8S 9S 10S JS QS KS AS',
        '6D 7D 8D 9D 10D JD QD KD AD',
      ],
      { dealer: 0, turnup: '6H' },
    );
    randomPlayout(four, new Rng(KEY, 2));
    expect(four.allTricks).toBe(0);
    expect(Array.from(four.charged)).toEqual([0, 157, 157, 157]);
    expect(four.seatPoints[0]).toBe(157);
    const out = new Float64Array(4);
    four.returns(out);
    expect(Array.from(out)).toEqual([1, -1 / 3, -1 / 3, -1 / 3]);

    // Seat 0 deals, holds every trump and the other aces.
    const three = position(
      'S',
      [
        '6S 7S 8S 9S 10S JS QS KS AS AC AH AD',
        '6C 7C 8C 9C 10C JC QC KC 6H 7H 8H 9H',
        '10H JH QH KH 6D 7D 8D 9D 10D JD QD KD',
      ],
      { dealer: 0, turnup: '6S' },
    );
    randomPlayout(three, new Rng(KEY, 3));
    expect(three.allTricks).toBe(0);
    expect(Array.from(three.charged.subarray(0, 3))).toEqual([0, 157, 157]);
    expect(three.seatPoints[0]).toBe(157);
  });

  it('J-5: every trick but one is no sweep: the charges are the points taken', () => {
    // As above, but seat 1 holds the ace of clubs and seat 0 the king: seat 1 wins that trick when clubs are led.
    const s = position(
      'H',
      [
        '6H 7H 8H 9H 10H JH QH KH AH',
        '6C 7C 8C 9C 10C JC QC KC AC',
        '6S 7S 8S 9S 10S JS QS KS AS',
        '6D 7D 8D 9D 10D JD QD KD AD',
      ],
      { dealer: 0, turnup: '6H' },
    );
    play(s, 'AC 6S 6D 6H'); // forehand's ace is trumped
    expect(s.trickWinner[0]).toBe(0);
    randomPlayout(s, new Rng(KEY, 4));
    expect(s.allTricks).toBe(0);
    const t = position(
      'H',
      [
        '6H 7H 8H 9H 10H JH QH KH KC',
        '6C 7C 8C 9C 10C JC QC AH AC',
        '6S 7S 8S 9S 10S JS QS KS AS',
        '6D 7D 8D 9D 10D JD QD KD AD',
      ],
      { dealer: 0, turnup: '6H' },
    );
    play(t, 'AC 6S 6D KC'); // seat 0 follows with the king instead of trumping: seat 1 takes the trick
    randomPlayout(t, new Rng(KEY, 5));
    expect(t.allTricks).toBe(-1);
    expect(Array.from(t.charged)).toEqual(Array.from(t.seatPoints));
    expect(t.charged.reduce((a, b) => a + b, 0)).toBe(157);
  });

  it('returns: (mean charge of the others - own) / 157, zero-sum', () => {
    const s = new JassState(4);
    const out = new Float64Array(4);
    for (let i = 0; i < 100; i++) {
      const rng = new Rng(KEY, 2000 + i);
      s.deal(ctxFor(i & 3), rng, deck);
      randomPlayout(s, rng);
      s.returns(out);
      expect(Math.abs(out.reduce((a, b) => a + b, 0))).toBeLessThan(1e-12);
      for (let seat = 0; seat < 4; seat++) {
        const others = [0, 1, 2, 3].filter((q) => q !== seat).reduce((a, q) => a + s.charged[q], 0) / 3;
        expect(out[seat]).toBeCloseTo((others - s.charged[seat]) / 157, 12);
      }
    }
  });
});

describe('J-6: Partie and match', () => {
  const striche = (totals: number[]) => {
    const out = totals.map(() => 0);
    partieStriche(totals, totals.length, out);
    return out;
  };

  it('J-6: 4 players: the two lowest get a Strich, the two highest a Nuller', () => {
    expect(striche([10, 20, 30, 40])).toEqual([1, 1, -1, -1]);
    expect(striche([97, 3, 40, 30])).toEqual([-1, 1, -1, 1]);
  });

  it('J-6: 3 players: the lowest +1, the highest -1', () => {
    expect(striche([10, 20, 30])).toEqual([1, 0, -1]);
    expect(striche([200, 50, 170])).toEqual([-1, 1, 0]);
  });

  it('J-6 Decision, ties with 4 players: +1 needs two others strictly above, -1 two strictly below', () => {
    expect(striche([10, 10, 30, 40])).toEqual([1, 1, -1, -1]);
    expect(striche([10, 20, 20, 40])).toEqual([1, 0, 0, -1]);
    expect(striche([10, 10, 10, 40])).toEqual([0, 0, 0, -1]);
    expect(striche([10, 40, 40, 40])).toEqual([1, 0, 0, 0]);
    expect(striche([10, 10, 40, 40])).toEqual([1, 1, -1, -1]);
    expect(striche([20, 20, 20, 20])).toEqual([0, 0, 0, 0]);
    // After a sweep the sweeper alone is lowest.
    expect(striche([0, 157, 157, 157])).toEqual([1, 0, 0, 0]);
  });

  it('J-6 Decision, ties with 3 players', () => {
    expect(striche([10, 10, 30])).toEqual([0, 0, -1]);
    expect(striche([10, 30, 30])).toEqual([1, 0, 0]);
    expect(striche([5, 5, 5])).toEqual([0, 0, 0]);
  });

  for (const seats of [4, 3]) {
    it(`J-6: with ${seats} players a Partie is ${seats} deals; a match of 2 Partien ends after ${2 * seats}; the deal passes each time (C-2)`, () => {
      const match = new JassMatch(seats, 2, false, 1);
      match.recording = true;
      const s = new JassState(seats);
      const rng = new Rng(KEY, 50 + seats);
      const kinds: string[] = [];
      for (let d = 0; !match.over; d++) {
        expect(d).toBeLessThan(2 * seats);
        match.startDeal(s, rng);
        expect(s.dealer).toBe((1 + d) % seats);
        expect(s.partieDeal).toBe(d % seats);
        randomPlayout(s, rng);
        match.finishDeal(s);
        const events = match.record(s).events;
        kinds.push(
          events
            .map((e) => e.type)
            .filter((t) => t !== 'all-tricks')
            .join('+') || '-',
        );
      }
      const want = Array.from({ length: 2 * seats }, (_, d) =>
        d === seats - 1 ? 'partie' : d === 2 * seats - 1 ? 'partie+match' : '-',
      );
      expect(kinds).toEqual(want);
    });
  }

  it('the variant `partien` defaults to 4 and is checked', () => {
    expect(hindersiJass.variants.map((v) => [v.key, v.default])).toEqual([['partien', 4]]);
    expect(() => hindersiJass.checkTable({ seats: 5, rules: { partien: 4 } })).toThrow(/3 or 4/);
    expect(() => hindersiJass.checkTable({ seats: 2, rules: { partien: 4 } })).toThrow(/3 or 4/);
    expect(() => hindersiJass.checkTable({ seats: 3, rules: { partien: 4 } })).not.toThrow();
    const m = hindersiJass.newMatch({ seats: 4, rules: { partien: 1 } }, { singleDeal: false, index: 0 });
    const s = hindersiJass.newState({ seats: 4, rules: { partien: 1 } });
    const rng = new Rng(KEY, 9);
    let deals = 0;
    while (!m.over) {
      m.startDeal(s, rng);
      randomPlayout(s, rng);
      m.finishDeal(s);
      deals++;
    }
    expect(deals).toBe(4);
  });

  it('a single-deal match (--deals) is over after one deal and writes no Partie', () => {
    const m = new JassMatch(4, 4, true, 6);
    m.recording = true;
    const s = new JassState(4);
    const rng = new Rng(KEY, 10);
    m.startDeal(s, rng);
    expect(s.dealer).toBe(2);
    randomPlayout(s, rng);
    m.finishDeal(s);
    expect(m.over).toBe(true);
    const rec = m.record(s);
    expect(rec.events.filter((e) => e.type !== 'all-tricks')).toEqual([]);
    expect(rec.after).toEqual({ partie: 0, totals: Array.from(s.charged), striche: [0, 0, 0, 0] });
    expect(s.decision).toBe(Decision.None);
  });
});

describe('J-3 with 3 players: whole pack, 12 tricks', () => {
  it('every card is played once and 12 tricks are counted', () => {
    const s = new JassState(3);
    const rng = new Rng(KEY, 77);
    s.deal(ctxFor(1, 3), rng, deck);
    randomPlayout(s, rng);
    expect(s.trick).toBe(12);
    expect(s.plies).toBe(36);
    expect(new Set(Array.from({ length: s.plies }, (_, p) => s.move(p))).size).toBe(36);
    const left = newSets(1);
    for (let seat = 0; seat < 3; seat++) for (let l = 0; l < LANES; l++) left[l] |= s.hands[seat * LANES + l];
    expect(Array.from(left)).toEqual([0, 0, 0, 0]);
  });
});
