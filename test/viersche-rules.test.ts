/**
 * Viersche rule by rule (RULES.md C and V), from fixed positions and scripted play.
 * Most positions use hearts as trump: the Alt is JH, the Kloei JD.
 */
import { describe, expect, it } from 'vitest';
import { LANES, newSets, setHas, setToCodes } from '../src/core/cardset.js';
import { cardName, PACK_SIZE, SUITS } from '../src/core/french.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { Decision, HIDDEN, NO, YES } from '../src/games/game.js';
import { POINTS, toCode, toPhysical } from '../src/games/viersche/cards.js';
import { VierscheMatch } from '../src/games/viersche/match.js';
import type { VierscheRecord } from '../src/games/viersche/record.js';
import { VierscheState, type DealContext } from '../src/games/viersche/state.js';
import {
  alwaysClaim,
  codeOfName,
  handNames,
  handSets,
  legalNames,
  neverClaim,
  physicalOf,
  play,
  position,
  randomPlayout,
  suitIndex,
  type ClaimPolicy,
} from './viersche-helpers.js';

const KEY = seedKey('rules');
const deck = new Uint8Array(PACK_SIZE);
const sorted = (names: string) => names.split(' ').sort();
const laneOfCard = (trump: string, name: string) => toCode(suitIndex(trump), physicalOf(name)) >>> 5;

/** RULES.md V-1: trumps low to high, for a trump suit letter. */
function trumpsLowToHigh(t: string): string[] {
  const kloei = 'J' + { C: 'S', S: 'C', H: 'D', D: 'H' }[t];
  return ['6', '7', '8', '9', '10', 'Q', 'K', 'A'].map((r) => r + t).concat([kloei, 'J' + t]);
}

/**
 * Trick 0 is seat 1's Alt (JH) answered by low trumps from seats that hold a trump in
 * `hands` and by spare plain cards from the others, so seat 1 wins it and leads trick
 * 1 holding `hands[1]`. Trump is hearts, dealer 0.
 */
function trick1(hands: readonly [string, string, string, string]): VierscheState {
  const used = new Set(hands.join(' ').split(/\s+/).filter(Boolean));
  const lowTrumps = ['6H', '7H', '8H', '9H'].filter((c) => !used.has(c));
  const spares = ['6S', '7S', '6C', '7C', '6D', '7D', '8S', '8C'].filter((c) => !used.has(c));
  const prelude: string[] = [];
  const full = hands.map((h, seat) => {
    if (seat === 1) return 'JH ' + h;
    const holdsTrump = h.split(' ').some((c) => c.endsWith('H') || c === 'JD');
    const card = holdsTrump ? lowTrumps.shift() : spares.shift();
    if (!card) throw new Error('trick1: out of prelude cards');
    prelude[seat] = card;
    return card + ' ' + h;
  });
  const s = position('H', full, { turnup: prelude[0].endsWith('H') ? prelude[0] : '6H' });
  play(s, 'JH', prelude[2], prelude[3], prelude[0]);
  expect(s.trickWinner[0]).toBe(1);
  return s;
}

// Fixed full deals (trump H) by seat relative to the dealer: rel 0 is the dealer, rel 1
// forehand. In A the dealer's team holds every trump and the aces; in B forehand's team
// does, except the dealer's turn-up 6H. Played "strong team highest card, other team
// lowest", the strong team takes all nine tricks.
const DESIGN_A = {
  turnup: 'AH',
  rel: [
    'JH JD AH KH QH AC AS AD KC',
    '6C 7C 8C 9C 6S 7S 8S 9S 6D',
    '10H 9H 8H 7H 6H KS KD QC QS',
    '10C JC 10S JS 7D 8D 9D 10D QD',
  ],
};
const DESIGN_B = {
  turnup: '6H',
  rel: [
    '6H 6C 7C 8C 9C 6S 7S 8S 9S',
    'JH JD AH KH QH AC AS AD KC',
    '10C 10S JS 6D 7D 8D 9D 10D QD',
    '10H 9H 8H 7H KS KD QC QS JC',
  ],
};

/** Deal a design into `s` for its context, so that `team` is the strong team. */
function beginDesign(s: VierscheState, ctx: DealContext, team: number): void {
  const design = (ctx.dealer & 1) === team ? DESIGN_A : DESIGN_B;
  const hands = [0, 1, 2, 3].map((seat) => design.rel[(seat - ctx.dealer + 4) % 4]);
  const trump = suitIndex('H');
  s.begin(ctx, trump, toCode(trump, physicalOf(design.turnup)), handSets(trump, hands));
}

const buf = newSets();
/** Strong team: its strongest legal card (any trump above any plain card); the other team its weakest. */
function playDesign(s: VierscheState, strongTeam: number, claim: ClaimPolicy): void {
  while (!s.isTerminal()) {
    if (s.decision === Decision.Claim) {
      s.apply(claim(s) ? YES : NO);
      continue;
    }
    s.legal(buf, 0);
    const key = (c: number) => (c >>> 5 === 0 ? 100 : 0) + (c & 31);
    const codes = setToCodes(buf, 0).sort((a, b) => key(a) - key(b));
    s.apply((s.toMove & 1) === strongTeam ? codes[codes.length - 1] : codes[0]);
  }
}

/** The trick at which each team first reached its target (-1: never), recomputed from the tricks. */
function reachTricks(s: VierscheState): [number, number] {
  const pts = [0, 0];
  const reach: [number, number] = [-1, -1];
  for (let t = 0; t < s.trick; t++) {
    const team = s.trickWinner[t] & 1;
    pts[team] += s.trickValue[t];
    if (pts[team] >= s.targets[team] && reach[team] < 0) reach[team] = t;
  }
  return reach;
}

/** Random deals (by index from `seed`) and random playouts until `ok` holds at the end. */
function findDeal(
  ctx: DealContext,
  seed: number,
  ok: (s: VierscheState) => boolean,
  claim: (rng: Rng) => ClaimPolicy = () => neverClaim,
): VierscheState {
  const s = new VierscheState();
  const rng = new Rng();
  for (let i = 0; i < 20000; i++) {
    rng.reseed(KEY, seed, i);
    s.deal(ctx, rng, deck);
    randomPlayout(s, rng, claim(rng));
    if (ok(s)) return s;
  }
  throw new Error('findDeal: no such deal');
}

describe('C-3, C-4: the deal and the turn-up', () => {
  it("C-3: each seat gets 9 cards, together the whole pack; C-4: the last card is the dealer's turn-up and sets trump", () => {
    const s = new VierscheState();
    for (let i = 0; i < 200; i++) {
      const dealer = i % 4;
      s.deal({ dealer, targets: [100, 100], secondDeal: false }, new Rng(KEY, i), deck);
      const hands = [0, 1, 2, 3].map((seat) => handNames(s, seat, s.dealt));
      expect(hands.map((h) => h.length)).toEqual([9, 9, 9, 9]);
      expect(new Set(hands.flat()).size).toBe(36);
      const turnup = cardName(toPhysical(s.trump, s.turnup));
      expect(hands[dealer]).toContain(turnup);
      expect(SUITS[s.trump]).toBe(turnup.slice(-1));
      expect(s.turnup).toBe(codeOfName(s, turnup));
      expect(s.turnupHeld).toBe(true);
      expect(s.forehand).toBe((dealer + 1) % 4); // C-2
      expect(s.toMove).toBe(s.forehand); // C-5
      expect(Array.from(s.hands)).toEqual(Array.from(s.dealt));
    }
  });

  it('C-3: the same (seed, deal index) gives the same deal; another index or seed gives another', () => {
    const ctx: DealContext = { dealer: 2, targets: [100, 100], secondDeal: false };
    const dealt = (key: readonly [number, number, number, number], i: number) => {
      const s = new VierscheState();
      s.deal(ctx, new Rng(key, i), deck);
      return Array.from(s.dealt).join() + '/' + s.trump;
    };
    expect(dealt(KEY, 7)).toBe(dealt(KEY, 7));
    expect(dealt(KEY, 7)).not.toBe(dealt(KEY, 8));
    expect(dealt(KEY, 7)).not.toBe(dealt(seedKey('other'), 7));
    expect(new Set(Array.from({ length: 50 }, (_, i) => dealt(KEY, i))).size).toBe(50);
  });

  it("C-4: the turn-up is public, the dealer's from the first trick, and held until he plays it", () => {
    const s = new VierscheState();
    const rng = new Rng(KEY, 99, 1);
    const bad: string[] = [];
    let firstTrick = 0;
    for (let i = 0; i < 100; i++) {
      s.deal({ dealer: i % 4, targets: [100, 100], secondDeal: false }, new Rng(KEY, 1000 + i), deck);
      for (;;) {
        const held = setHas(s.hands, s.dealer * LANES, s.turnup);
        for (let seat = 0; seat < 4; seat++) {
          const o = s.observe(seat);
          if (o.turnup !== s.turnup || o.turnupHeld !== held) bad.push(`deal ${i} ply ${s.plies} seat ${seat}`);
        }
        if (s.isTerminal()) break;
        const n = s.legal(buf, 0);
        if (s.trick === 0 && s.toMove === s.dealer) {
          // The first lead is a trump or counts as one, so the dealer may always play the turn-up.
          if (setHas(buf, 0, s.turnup)) firstTrick++;
        }
        s.apply(setToCodes(buf, 0)[rng.below(n)]);
      }
    }
    expect(bad).toEqual([]);
    expect(firstTrick).toBe(100);
  });
});

describe('V-1: trumps Alt, Kloei, A K Q 10 9 8 7 6', () => {
  for (const t of ['C', 'S', 'H', 'D']) {
    it(`V-1: with ${t} trump, every pair of trumps is won by the higher in ${trumpsLowToHigh(t).join(' < ')}`, () => {
      const order = trumpsLowToHigh(t);
      const plain = t === 'C' || t === 'S' ? 'H' : 'C';
      for (let i = 0; i < order.length; i++) {
        for (let j = 0; j < order.length; j++) {
          if (i === j) continue;
          const s = position(t, ['7' + plain, order[i], order[j], '6' + plain]);
          play(s, order[i], order[j], '6' + plain, '7' + plain);
          expect(s.trickWinner[0], `${order[i]} led, ${order[j]} second`).toBe(i > j ? 1 : 2);
        }
      }
    });
  }

  it('V-1: the Kloei counts as a trump in the forced first lead', () => {
    expect(legalNames(position('H', ['6C', 'JD 9C 9S', '7C', '8C']))).toEqual(['JD']);
    const s = play(position('H', ['6H', 'JD 9C', '7C', '8C 7H']), 'JD');
    expect(s.facedown).toBe(false);
    expect(legalNames(s)).toEqual(['7C']); // seat 2 has no trump: anything
    play(s, '7C');
    expect(legalNames(s)).toEqual(['7H']); // seat 3 must answer the trump lead with a trump
  });

  it('V-1: trumps led, the Kloei must be played as a trump (not kept as a diamond)', () => {
    const s = play(position('H', ['6H', 'AH', 'JD 7D 8C', '9C']), 'AH');
    expect(legalNames(s)).toEqual(['JD']);
  });

  it('V-1: a diamond lead does not oblige the holder of the Kloei alone; playing another suit shows a diamond void', () => {
    const s = trick1(['8S', '9D', 'JD 7C', '9S']);
    play(s, '9D');
    expect(legalNames(s)).toEqual(sorted('7C JD'));
    play(s, '7C');
    const dLane = laneOfCard('H', '9D');
    expect(s.observe(0).voids(2) & (1 << dLane)).not.toBe(0);
    expect(handNames(s, 2)).toEqual(['JD']); // void in diamonds while holding the jack of diamonds
    expect(s.observe(0).voids(2) & 1).toBe(0); // not void in trump
  });

  it('V-1: holding a diamond and the Kloei, a diamond lead allows both but nothing else', () => {
    const s = play(trick1(['8S', '9D', 'JD 8D 7C', '9S']), '9D');
    expect(legalNames(s)).toEqual(sorted('8D JD'));
  });

  it('V-1: the Kloei trumps a diamond lead and beats its ace', () => {
    const s = play(trick1(['8S', 'AD', 'JD 7C', '9S']), 'AD', 'JD', '9S', '8S');
    expect(s.trickWinner[1]).toBe(2);
  });

  it("V-1: the Kloei's suit has 8 cards, trump 10, the others 9, under every trump", () => {
    for (let trump = 0; trump < 4; trump++) {
      const perLane = [0, 0, 0, 0];
      for (let p = 0; p < PACK_SIZE; p++) perLane[toCode(trump, p) >>> 5]++;
      expect(perLane[0]).toBe(10);
      const kloeiSuit = 'J' + { C: 'S', S: 'C', H: 'D', D: 'H' }[SUITS[trump]];
      const other = 'A' + kloeiSuit.slice(1);
      expect(perLane[toCode(trump, physicalOf(other)) >>> 5]).toBe(8);
      expect(perLane.slice(1).sort()).toEqual([8, 9, 9]);
    }
  });
});

describe('V-2: plain suits A K Q J 10 9 8 7 6', () => {
  for (const t of ['H', 'C']) {
    it(`V-2: with ${t} trump, every pair in each plain suit goes to the higher (ten below jack)`, () => {
      const kloei = 'J' + { C: 'S', S: 'C', H: 'D', D: 'H' }[t];
      for (const p of SUITS.filter((x) => x !== t)) {
        const order = ['6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'].map((r) => r + p).filter((c) => c !== kloei);
        expect(order.length).toBe(p === kloei.slice(1) ? 8 : 9);
        const q = SUITS.find((x) => x !== t && x !== p) ?? '';
        for (let i = 0; i < order.length; i++) {
          for (let j = 0; j < order.length; j++) {
            if (i === j) continue;
            const [a, b] = [order[i], order[j]];
            const s = position(t, [`6${t} 10${q}`, `A${t} ${a}`, `7${q} ${b}`, `8${q} 9${q}`], { turnup: `6${t}` });
            play(s, `A${t}`, `7${q}`, `8${q}`, `6${t}`, a, b, `9${q}`, `10${q}`);
            expect(s.trickWinner[1], `${a} led, ${b} second`).toBe(i > j ? 1 : 2);
          }
        }
      }
    });
  }

  it('V-2: a card of another plain suit never wins, whatever its rank', () => {
    const s = play(trick1(['AS', '6C', 'AD', 'KS']), '6C', 'AD', 'KS', 'AS');
    expect(s.trickWinner[1]).toBe(1);
  });
});

describe('V-3: card points', () => {
  const value: Record<string, number> = { A: 11, K: 4, Q: 3, J: 2, '10': 10, '9': 0, '8': 0, '7': 0, '6': 0 };

  it('V-3: Alt 12, Kloei 12, A 11, K 4, Q 3, plain J 2, 10 10, 9-6 nothing; 140 in the pack, under every trump', () => {
    for (let trump = 0; trump < 4; trump++) {
      let total = 0;
      for (let p = 0; p < PACK_SIZE; p++) {
        const name = cardName(p);
        const rank = name.slice(0, -1);
        const jackOfTrumpColour = rank === 'J' && ((p / 9) | 0) >> 1 === trump >> 1;
        const want = jackOfTrumpColour ? 12 : value[rank];
        expect(POINTS[toCode(trump, p)], `${name} with ${SUITS[trump]} trump`).toBe(want);
        total += POINTS[toCode(trump, p)];
      }
      expect(total).toBe(140);
    }
  });

  it('V-3: a trick scores the points of its cards (Alt 12 + Kloei 12 + plain J 2 + 10 of trump 10)', () => {
    const s = play(position('H', ['10H', 'JH', 'JD', 'JC']), 'JH', 'JD', 'JC', '10H');
    expect(s.trickWinner[0]).toBe(1);
    expect(s.trickValue[0]).toBe(36);
    expect([s.teamPoints(0), s.teamPoints(1)]).toEqual([0, 36]);
    expect(s.seatPoints[1]).toBe(36);
  });

  it('V-3: a deal played out counts 140 (C-5 tricks to the winner)', () => {
    const s = findDeal({ dealer: 3, targets: [100, 100], secondDeal: false }, 1, (x) => x.trick === 9);
    expect(s.teamPoints(0) + s.teamPoints(1)).toBe(140);
    expect(Array.from(s.seatPoints).reduce((a, b) => a + b, 0)).toBe(140);
  });
});

describe('V-4: the first lead', () => {
  it('V-4: forehand holding trumps must lead one (trump suit or Kloei)', () => {
    expect(legalNames(position('H', ['7H', '6H JD AC KS', '9C', '8C']))).toEqual(sorted('6H JD'));
  });

  it('V-4: forehand without a trump may lead any card', () => {
    expect(legalNames(position('H', ['7H', 'AC 7S 8D', '9C', '8C']))).toEqual(sorted('8D 7S AC'));
  });

  // Dealer 0 holds the turn-up 7H. Forehand (1) has no trump and leads AC face down.
  const facedownDeal = () => position('H', ['7H 8H 10S', 'AC 9S 9D', 'KC 8S 6S', '6H QC 7S'], { turnup: '7H' });

  it('V-4: the face-down lead counts as a trump lead: trumps must answer it, trumpless seats play anything', () => {
    const s = play(facedownDeal(), 'AC');
    expect(s.facedown).toBe(true);
    expect(legalNames(s)).toEqual(sorted('6S 8S KC')); // no duty to follow clubs
    play(s, 'KC');
    expect(legalNames(s)).toEqual(['6H']); // not QC: the lead counts as trump
    play(s, '6H');
    expect(legalNames(s)).toEqual(sorted('7H 8H'));
  });

  it('V-4: the face-down card cannot win; its points go to the winner of the trick', () => {
    const s = play(facedownDeal(), 'AC', 'KC', '6H', '7H');
    expect(s.trickWinner[0]).toBe(0);
    expect(s.trickValue[0]).toBe(11 + 4);
    expect(s.seatPoints[0]).toBe(15);
    expect(s.teamPoints(1)).toBe(0);
    expect(s.turnupHeld).toBe(false);
  });

  it('V-4: the face-down card is hidden from the other seats until the trick is complete, visible to forehand', () => {
    const s = play(facedownDeal(), 'AC');
    const ac = codeOfName(s, 'AC');
    const other = play(position('H', ['7H 8H 10S', 'AC 9S 9D', 'KC 8S 6S', '6H QC 7S'], { turnup: '7H' }), '9D');
    ['KC', '6H', '7H'].forEach((card, k) => {
      expect(s.observe(1).move(0)).toBe(ac);
      for (const seat of [0, 2, 3]) {
        expect(s.observe(seat).move(0), `seat ${seat} after ${k + 1} cards`).toBe(HIDDEN);
        // Two worlds that differ only in the face-down card look the same to the others.
        expect(s.observe(seat).fingerprint()).toBe(other.observe(seat).fingerprint());
      }
      expect(s.observe(1).fingerprint()).not.toBe(other.observe(1).fingerprint());
      if (k === 0) expect(s.observe(2).trickPointsSeen).toBe(0);
      play(s, card);
      play(other, card);
    });
    for (let seat = 0; seat < 4; seat++) expect(s.observe(seat).move(0)).toBe(ac);
    expect(s.observe(2).fingerprint()).not.toBe(other.observe(2).fingerprint());
  });

  it('V-4: only the first lead is forced or face down: the next leader may lead a plain card, and it must be followed', () => {
    const s = play(facedownDeal(), 'AC', 'KC', '6H', '7H');
    expect(legalNames(s)).toEqual(sorted('10S 8H'));
    play(s, '10S');
    expect(s.led).toBe(laneOfCard('H', '10S'));
    expect(legalNames(s)).toEqual(['9S']);
    play(s, '9S', '8S', '7S');
    expect(s.trickWinner[1]).toBe(0);
  });
});

describe('V-5: following', () => {
  it('V-5: holding the suit led, follow it or trump; nothing else', () => {
    const s = play(trick1(['8D', '9C', '7C KC 6H 8S', '9S']), '9C');
    expect(legalNames(s)).toEqual(sorted('6H 7C KC'));
  });

  it('V-5: void in the suit led, any card', () => {
    const s = play(trick1(['8D', '9C', '6H 8S 9D', '9S']), '9C');
    expect(legalNames(s)).toEqual(sorted('6H 8S 9D'));
  });

  it('V-5: trumps led, holding a trump: a trump (any of them)', () => {
    const s = play(trick1(['8D', '10H AC', 'AH 7H QS', '9S']), '10H');
    expect(legalNames(s)).toEqual(sorted('7H AH'));
  });

  it('V-5: trumps led, no trump: any card', () => {
    const s = play(trick1(['8D', '10H AC', 'QS 9D', '9S']), '10H');
    expect(legalNames(s)).toEqual(sorted('9D QS'));
  });

  it('V-5: no duty to head: a lower card of the suit led may be kept back or played', () => {
    const s = play(trick1(['8D', '9C', '7C AC', '9S']), '9C');
    expect(legalNames(s)).toEqual(sorted('7C AC'));
    play(s, '7C', '9S', '8D');
    expect(s.trickWinner[1]).toBe(1);
  });

  it('V-5: no duty to overtrump, and undertrumping is allowed, void or not', () => {
    // Seat 3 is void in clubs: undertrump, overtrump or discard.
    const a = play(trick1(['8D', '9C', 'KH', 'AH 10H 8S']), '9C', 'KH');
    expect(legalNames(a)).toEqual(sorted('10H 8S AH'));
    play(a, '10H', '8D');
    expect(a.trickWinner[1]).toBe(2);
    // Seat 3 holds clubs: follow, or trump with any trump, even below the one played.
    const b = play(trick1(['8D', '9C', 'KH', '8C 10H 8S']), '9C', 'KH');
    expect(legalNames(b)).toEqual(sorted('10H 8C'));
  });

  it('V-6: no schleipfen: after every trick the winner (and nobody else) acts next', () => {
    const s = new VierscheState();
    const rng = new Rng(KEY, 6);
    for (let i = 0; i < 200; i++) {
      s.deal({ dealer: i % 4, targets: [100, 100], secondDeal: false }, rng, deck);
      let trick = 0;
      while (!s.isTerminal()) {
        const n = s.legal(buf, 0);
        s.apply(setToCodes(buf, 0)[rng.below(n)]);
        if (s.trick !== trick && !s.isTerminal()) {
          expect(s.toMove).toBe(s.trickWinner[trick]);
          expect([Decision.Card, Decision.Claim]).toContain(s.decision);
          trick = s.trick;
        }
      }
    }
  });
});

/** A match whose next deal is dealt; `index` picks the first dealer. */
function newMatch(index = 0): { match: VierscheMatch; state: VierscheState; rng: Rng } {
  const match = new VierscheMatch(false, index);
  match.recording = true;
  return { match, state: new VierscheState(), rng: new Rng(KEY, 5000 + index) };
}

/** Play the next deal of `match` as a random deal replayed until `ok` holds (V-7 cases). */
function playMatchDeal(
  m: { match: VierscheMatch; state: VierscheState; rng: Rng },
  ok: (s: VierscheState) => boolean,
  claim: ClaimPolicy = neverClaim,
): VierscheRecord {
  const start = new VierscheState();
  for (let tries = 0; tries < 50000; tries++) {
    if (tries % 200 === 0) {
      m.match.startDeal(m.state, m.rng);
      start.copyFrom(m.state);
    }
    m.state.copyFrom(start);
    randomPlayout(m.state, m.rng, claim);
    if (ok(m.state)) {
      m.match.finishDeal(m.state);
      return m.match.record(m.state);
    }
  }
  throw new Error('playMatchDeal: case not found');
}

describe('V-7: games over one or two deals', () => {
  const undecided =
    (x: number, tie = false) =>
    (s: VierscheState) =>
      s.winner < 0 && Math.max(s.teamPoints(0), s.teamPoints(1)) === x && (!tie || s.teamPoints(0) === s.teamPoints(1));

  for (const x of [85, 99, 72]) {
    it(`V-7: an undecided first deal at ${x}-${140 - x} writes down ${x}; the second deal's targets are ${100 - x} and ${x - 40}`, () => {
      const m = newMatch(x);
      const rec = playMatchDeal(m, undecided(x));
      const lead = m.state.teamPoints(1) > m.state.teamPoints(0) ? 1 : 0;
      expect(rec.after.carry).toEqual({ team: lead, points: x });
      expect(rec.events).toEqual([{ type: 'carry', team: lead, points: x }]);
      expect(rec.after.rungs).toEqual([4, 4]);
      m.match.startDeal(m.state, m.rng);
      expect(m.state.secondDeal).toBe(true);
      expect(m.state.targets[lead]).toBe(100 - x);
      expect(m.state.targets[1 - lead]).toBe(x - 40);
      // The source's check: the trailing team's first-deal points plus its target make 100.
      expect(140 - x + m.state.targets[1 - lead]).toBe(100);
      expect(m.state.targets[0] + m.state.targets[1]).toBe(60);
      // V-7: the second deal always decides the game; then targets are 100 again.
      const second = playMatchDeal(m, (s) => s.trick === 9);
      expect(m.state.winner).toBeGreaterThanOrEqual(0);
      expect(second.after.carry).toBeNull();
      expect(second.events).toContainEqual({ type: 'game', team: m.state.winner, rungs: m.state.gameRungs });
      m.match.startDeal(m.state, m.rng);
      expect(Array.from(m.state.targets)).toEqual([100, 100]);
      expect(m.state.secondDeal).toBe(false);
    });
  }

  it('V-7: at 70-70 either team is written down and both need 30', () => {
    const m = newMatch(1);
    const rec = playMatchDeal(m, undecided(70, true));
    expect(rec.after.carry?.points).toBe(70);
    m.match.startDeal(m.state, m.rng);
    expect(Array.from(m.state.targets)).toEqual([30, 30]);
  });

  it('V-7: a first deal in which a team takes 100 wins the game; the next deal starts from 100 again', () => {
    const m = newMatch(2);
    const rec = playMatchDeal(m, (s) => s.winner >= 0 && s.trick === 9);
    const w = m.state.winner;
    expect(m.state.teamPoints(w)).toBeGreaterThanOrEqual(100);
    expect(m.state.teamPoints(1 - w)).toBeLessThan(100); // V-7: only one team can
    expect(rec.after.carry).toBeNull();
    expect(rec.events).toEqual([{ type: 'game', team: w, rungs: m.state.gameRungs }]);
    m.match.startDeal(m.state, m.rng);
    expect(Array.from(m.state.targets)).toEqual([100, 100]);
  });
});

describe('V-8: claims', () => {
  it('V-8: the claim question goes to the trick-winning seat, and only when its team has reached its target', () => {
    // Second deal, team 0 needs 10, team 1 needs 50.
    const s = position('H', ['6H KC', 'AH 6C', '7S 10C', '8S 9S'], { turnup: '6H', targets: [10, 50] });
    play(s, 'AH', '7S', '8S', '6H'); // team 1 takes 11 < 50: no question
    expect(s.decision).toBe(Decision.Card);
    expect(s.toMove).toBe(1);
    play(s, '6C', '10C', '9S', 'KC'); // seat 0 takes 14 >= 10
    expect(s.decision).toBe(Decision.Claim);
    expect(s.toMove).toBe(0); // the winning seat, not its partner
    expect(legalNames(s)).toEqual(['claim', 'pass']);
    const pass = new VierscheState();
    pass.copyFrom(s);
    play(pass, 'pass');
    expect(pass.decision).toBe(Decision.Card);
    expect(pass.winner).toBe(-1);
    play(s, 'claim');
    expect(s.isTerminal()).toBe(true);
    expect([s.winner, s.gameRungs, s.claimTrick]).toEqual([0, 1, 1]);
  });

  it('V-8: a claim wins at once even if the other team had reached its target earlier', () => {
    const ctx: DealContext = { dealer: 1, targets: [30, 30], secondDeal: true };
    const s = findDeal(
      ctx,
      2,
      (x) => x.claimTrick >= 0 && x.winner === 0 && reachTricks(x)[1] >= 0 && reachTricks(x)[1] < x.claimTrick,
      () => (x) => (x.toMove & 1) === 0,
    );
    expect(s.isTerminal()).toBe(true);
    expect(s.trick).toBe(s.claimTrick + 1); // nothing played after the claim
    expect(s.gameRungs).toBe(1);
    expect(s.teamPoints(1)).toBeGreaterThanOrEqual(30);
  });

  it('V-8: without a claim the deal is played out and counted: the team that reached its target wins', () => {
    const s = findDeal(
      { dealer: 0, targets: [100, 100], secondDeal: false },
      3,
      (x) => x.trick === 9 && x.winner >= 0 && x.teamTricks(x.winner) < 9 && reachTricks(x)[x.winner] < 8,
    );
    expect(s.plies).toBeGreaterThan(36); // the claim question came, and was passed
    expect(s.claimTrick).toBe(-1);
    expect(s.teamPoints(s.winner)).toBeGreaterThanOrEqual(100);
    expect(s.gameRungs).toBe(1);
  });

  it('V-8: no claim question after the ninth trick, even when the winner has reached its target', () => {
    const s = findDeal(
      { dealer: 2, targets: [100, 100], secondDeal: false },
      4,
      (x) => x.trick === 9 && x.winner === (x.trickWinner[8] & 1) && reachTricks(x)[x.winner] < 8,
    );
    expect(s.isTerminal()).toBe(true);
    expect(s.decision).toBe(Decision.None);
    expect(s.move(s.plies - 1)).toBeLessThan(NO); // the last move is a card, not a claim answer
  });

  it('V-8 Decision: both teams reached their targets in a second deal without a claim: the earlier trick wins', () => {
    const ctx: DealContext = { dealer: 3, targets: [25, 35], secondDeal: true };
    const s = findDeal(ctx, 5, (x) => {
      const [r0, r1] = reachTricks(x);
      if (r0 < 0 || r1 < 0) return false;
      const early = r0 < r1 ? 0 : 1;
      return x.teamPoints(1 - early) > x.teamPoints(early); // the later team ends with more points
    });
    const [r0, r1] = reachTricks(s);
    expect(s.winner).toBe(r0 < r1 ? 0 : 1);
    expect(s.claimTrick).toBe(-1);
  });

  it('V-8: claims are allowed in a first deal (target 100) and in a second deal', () => {
    const a = findDeal(
      { dealer: 0, targets: [100, 100], secondDeal: false },
      6,
      (x) => x.claimTrick >= 0,
      () => alwaysClaim,
    );
    expect(a.teamPoints(a.winner)).toBeGreaterThanOrEqual(100);
    const b = findDeal(
      { dealer: 0, targets: [15, 45], secondDeal: true },
      7,
      (x) => x.claimTrick >= 0,
      () => alwaysClaim,
    );
    expect(b.teamPoints(b.winner)).toBeGreaterThanOrEqual(b.targets[b.winner]);
  });
});

describe('V-9: rungs for a game', () => {
  const first: DealContext = { dealer: 0, targets: [100, 100], secondDeal: false };

  it('V-9: all nine tricks without a claim: 2 rungs', () => {
    const s = new VierscheState();
    beginDesign(s, first, 0);
    playDesign(s, 0, neverClaim);
    expect([s.winner, s.teamTricks(0), s.gameRungs, s.claimTrick]).toEqual([0, 9, 2, -1]);
    expect(s.teamPoints(0)).toBe(140);
  });

  it('V-9: a claim before the ninth trick forfeits the second rung, even with every trick so far', () => {
    for (const claimAt of [-1, 8]) {
      const s = new VierscheState();
      beginDesign(s, first, 0);
      // -1: claim at the first question; 8: at the last question (after the eighth trick).
      playDesign(s, 0, (x) => claimAt < 0 || x.trick === claimAt);
      expect(s.winner).toBe(0);
      expect(s.gameRungs).toBe(1);
      expect(s.teamTricks(1)).toBe(0);
      expect(s.claimTrick).toBeLessThan(8);
      if (claimAt > 0) expect(s.claimTrick).toBe(7);
    }
  });

  it('V-9 Decision: all nine tricks in a second deal also erase 2', () => {
    for (const team of [0, 1]) {
      const s = new VierscheState();
      const ctx: DealContext = { dealer: 1, targets: [30, 30], secondDeal: true };
      beginDesign(s, ctx, team);
      playDesign(s, team, neverClaim);
      expect([s.winner, s.gameRungs]).toEqual([team, 2]);
    }
  });

  it('V-9: a game won without all nine tricks erases 1', () => {
    const s = findDeal(first, 8, (x) => x.winner >= 0 && x.trick === 9 && x.teamTricks(x.winner) === 8);
    expect(s.gameRungs).toBe(1);
  });
});

describe('V-10: sets and the match', () => {
  /** Next deal of the match, won by `team`: 2 rungs (all nine tricks), or 1 (a claim). */
  function win(m: { match: VierscheMatch; state: VierscheState; rng: Rng }, team: number, rungs: 1 | 2) {
    m.match.startDeal(m.state, m.rng);
    const ctx: DealContext = {
      dealer: m.state.dealer,
      targets: [m.state.targets[0], m.state.targets[1]],
      secondDeal: m.state.secondDeal,
    };
    beginDesign(m.state, ctx, team);
    playDesign(m.state, team, rungs === 2 ? neverClaim : alwaysClaim);
    expect([m.state.winner, m.state.gameRungs]).toEqual([team, rungs]);
    m.match.finishDeal(m.state);
    return m.match.record(m.state);
  }

  it('V-10: four 1-rung games win a set; the losers, with no rung erased, chalk 2', () => {
    const m = newMatch(0);
    for (let g = 1; g <= 3; g++) {
      const rec = win(m, 0, 1);
      expect(rec.after.rungs).toEqual([4 - g, 4]);
      expect(rec.events).toEqual([{ type: 'game', team: 0, rungs: 1 }]);
    }
    const rec = win(m, 0, 1);
    expect(rec.events).toEqual([
      { type: 'game', team: 0, rungs: 1 },
      { type: 'set', loser: 1, marks: 2 },
    ]);
    expect(rec.after).toEqual({ rungs: [4, 4], carry: null, frame: [0, 2] }); // rungs reset with the set
    expect(m.match.over).toBe(false);
  });

  it('V-10: losers who erased a rung chalk 1', () => {
    const m = newMatch(1);
    win(m, 1, 1);
    for (let g = 0; g < 3; g++) win(m, 0, 1);
    const rec = win(m, 0, 1);
    expect(rec.before?.rungs).toEqual([1, 3]);
    expect(rec.events).toContainEqual({ type: 'set', loser: 1, marks: 1 });
    expect(rec.after.frame).toEqual([0, 1]);
  });

  it('V-9, V-10: 2-rung games; with one rung left a 2-rung game erases only 1', () => {
    const m = newMatch(2);
    expect(win(m, 1, 2).after.rungs).toEqual([4, 2]);
    expect(win(m, 1, 1).after.rungs).toEqual([4, 1]);
    const rec = win(m, 1, 2);
    expect(rec.events).toEqual([
      { type: 'game', team: 1, rungs: 1 },
      { type: 'set', loser: 0, marks: 2 },
    ]);
    expect(rec.after.frame).toEqual([2, 0]);
  });

  it('V-10: the team that reaches 4 frame marks loses the match, not before', () => {
    const m = newMatch(3);
    // Team 1 loses a set without a rung (2 marks), then two sets with a rung (1 each).
    const sets: [number, 1 | 2][][] = [
      [
        [0, 2],
        [0, 2],
      ],
      [
        [1, 1],
        [0, 2],
        [0, 2],
      ],
      [
        [1, 2],
        [0, 2],
        [0, 2],
      ],
    ];
    const frames = [
      [0, 2],
      [0, 3],
      [0, 4],
    ];
    let last: Pick<VierscheRecord, 'after' | 'events'> = {
      after: { rungs: [4, 4], carry: null, frame: [0, 0] },
      events: [],
    };
    for (const [k, games] of sets.entries()) {
      for (const [team, rungs] of games) {
        expect(m.match.over).toBe(false);
        last = win(m, team, rungs);
      }
      expect(last.after.frame).toEqual(frames[k]);
    }
    expect(m.match.over).toBe(true);
    expect(last.events).toEqual([
      { type: 'game', team: 0, rungs: 2 },
      { type: 'set', loser: 1, marks: 1 },
      { type: 'match', loser: 1 },
    ]);
    const metrics = new Float64Array(12);
    m.match.matchMetrics(metrics);
    // won, sets, marks by seat (teams 0+2 and 1+3).
    expect(Array.from(metrics)).toEqual([1, 3, 0, 0, 0, 4, 1, 3, 0, 0, 0, 4]);
  });

  it('V-10: a 2-mark set can carry a team past 4 marks, which ends the match too', () => {
    const m = newMatch(4);
    for (let set = 0; set < 3; set++) {
      win(m, 1, 1);
      win(m, 0, 2);
      expect(win(m, 0, 2).after.frame).toEqual([0, set + 1]);
    }
    win(m, 0, 2);
    const rec = win(m, 0, 2);
    expect(rec.after.frame).toEqual([0, 5]);
    expect(rec.events).toContainEqual({ type: 'match', loser: 1 });
    expect(m.match.over).toBe(true);
  });

  it('C-2: the deal passes to the next seat after each deal; singleDeal matches end after one deal', () => {
    const m = newMatch(2);
    const dealers = [0, 1, 2, 3, 4].map(() => win(m, 0, 1).dealer);
    expect(dealers).toEqual([2, 3, 0, 1, 2]);
    const single = new VierscheMatch(true, 7);
    const s = new VierscheState();
    single.startDeal(s, new Rng(KEY, 1));
    expect(s.dealer).toBe(3);
    randomPlayout(s, new Rng(KEY, 2));
    single.finishDeal(s);
    expect(single.over).toBe(true);
  });
});
