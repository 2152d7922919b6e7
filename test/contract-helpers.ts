/**
 * Helpers of the contract suite (contract.test.ts), shared with the per-game tests of
 * what is specific to a game: positions of random play, the whole answer of an
 * observation, and the worlds consistent with a seat's view enumerated by brute force
 * with the game's own rules (for chi-square tests of a sampler).
 */
import { LANES, newSets, setHas, setSelect, setToCodes } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import { HIDDEN, NO, YES, type Game, type Observation, type ParamValue, type TableConfig } from '../src/games/game.js';
import { resolveParams } from '../src/games/params.js';
import { TrickState } from '../src/games/trick/state.js';

export const KEY = seedKey('contract');
const legalBuf = newSets(1);

export function tableOf(game: Game, seats: number, rules: Readonly<Record<string, ParamValue>>): TableConfig {
  return { seats, rules: resolveParams(game.variants, rules, game.name) };
}

export function newState(game: Game, table: TableConfig): TrickState {
  const s: unknown = game.newState(table);
  if (!(s instanceof TrickState)) throw new Error(`${game.name}: not a trick-kernel state`);
  return s as TrickState;
}

export function randomMove(s: TrickState, rng: Rng): number {
  return setSelect(legalBuf, 0, rng.below(s.legal(legalBuf, 0)));
}

/**
 * `count` positions (copies) of seeded random play: deal k of match i of the table,
 * stopped at a random ply, or at its end now and then.
 */
export function points(game: Game, table: TableConfig, count: number, seed: number): TrickState[] {
  const out: TrickState[] = [];
  const cards = new Rng();
  const play = new Rng();
  const s = newState(game, table);
  for (let i = 0; out.length < count; i++) {
    const match = game.newMatch(table, { singleDeal: i % 3 !== 0, index: i });
    for (let k = 0; !match.over && k < 40 && out.length < count; k++) {
      cards.reseed(KEY, i, seed, k);
      play.reseed(KEY, i, seed + 1, k);
      match.startDeal(s, cards);
      const stop = play.below(64);
      while (!s.isTerminal()) {
        if (s.plies === stop) out.push(copyOf(game, table, s));
        s.apply(randomMove(s, play));
      }
      if (stop >= s.plies && play.below(3) === 0) out.push(copyOf(game, table, s));
      match.finishDeal(s);
    }
  }
  return out;
}

function copyOf(game: Game, table: TableConfig, s: TrickState): TrickState {
  const c = newState(game, table);
  c.copyFrom(s);
  return c;
}

/** The methods and getters of an observation's class chain (not the constructor). */
export function members(o: Observation): { getters: string[]; methods: string[] } {
  const getters: string[] = [];
  const methods: string[] = [];
  for (
    let p = Object.getPrototypeOf(o) as object | null;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(p))) {
      if (name === 'constructor' || getters.includes(name) || methods.includes(name)) continue;
      if (d.get) getters.push(name);
      else if (typeof d.value === 'function') methods.push(name);
    }
  }
  return { getters, methods };
}

/** Everything a window answers: every getter, and every method for arguments -2..40. */
export function probe(o: Observation): string {
  const { getters, methods } = members(o);
  const parts: string[] = [];
  const any = o as unknown as Record<string, unknown>;
  for (const g of getters) parts.push(`${g}=${String(any[g])}`);
  for (const name of methods) {
    const f = any[name] as (arg: number) => unknown;
    const values: string[] = [];
    for (let arg = -2; arg <= 40; arg++) values.push(String(f.call(o, arg)));
    parts.push(`${name}(${values.join(',')})`);
  }
  return parts.join('\n');
}

export function firstDiff(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const k = x.findIndex((line, j) => line !== y[j]);
  return `${x[k]}  vs  ${y[k]}`;
}

export const handOf = (s: TrickState, seat: number) => setToCodes(s.hands, seat * LANES).join(',');
export const engineName = (s: TrickState, m: number) => (m === YES ? 'yes' : m === NO ? 'no' : s.moveName(m));

/** The unseen holdings of a world from `seat`'s side: the other seats' hands now. */
function worldKey(w: TrickState, seat: number): string {
  const out: string[] = [];
  for (let q = 0; q < w.seats; q++) if (q !== seat) out.push(handOf(w, q));
  return out.join('|');
}

/**
 * Positions late in deals of the table with a seat that has seen no hidden move, and
 * the keys of every world consistent with that seat's view, between 6 and 900 of them.
 */
export function uniformCases(game: Game, table: TableConfig): { s: TrickState; seat: number; worlds: string[] }[] {
  const out: { s: TrickState; seat: number; worlds: string[] }[] = [];
  for (const s of points(game, table, 400, 10)) {
    if (s.isTerminal() || s.tricksLeft() > 3) continue;
    const seat = (s.toMove + 1 + out.length) % table.seats;
    const obs = s.observe(seat);
    let hidden = false;
    for (let ply = 0; ply < obs.plies; ply++) if (obs.move(ply) === HIDDEN) hidden = true;
    if (hidden) continue;
    const worlds = consistentWorlds(game, table, s, seat, 900);
    if (worlds && worlds.length >= 6) out.push({ s, seat, worlds });
    if (out.length === 3) break;
  }
  return out;
}

/**
 * Every world consistent with `seat`'s view of `s`, by brute force and the game's own
 * rules: the cards `seat` has not seen are dealt in every way to the other seats (as
 * many as each holds now) and out of play; a deal is consistent when the history
 * replays legally from the starting hands it makes, the turned card lies where the
 * deal says, and `seat` sees exactly what it sees in `s`. Null when there are more
 * than `limit` deals to try.
 */
export function consistentWorlds(
  game: Game,
  table: TableConfig,
  s: TrickState,
  seat: number,
  limit: number,
): string[] | null {
  const seats = s.seats;
  const played: number[][] = Array.from({ length: seats }, () => []);
  const seen = new Set<number>(setToCodes(s.hands, seat * LANES));
  for (let ply = 0; ply < s.plies; ply++) {
    const m = s.move(ply);
    if (m < NO) {
      played[s.moveSeat(ply)].push(m);
      seen.add(m);
    }
  }
  const turnup = s.turnup;
  const turnupPublic = turnup >= 0 && (s.turnupHolder < 0 || s.turnupHeld);
  if (turnupPublic) seen.add(turnup);
  const pool: number[] = [];
  for (let lane = 0; lane < LANES; lane++) {
    for (let m = s.packLane(lane); m !== 0; m &= m - 1) {
      const code = (lane << 5) | (31 - Math.clz32(m & -m));
      if (!seen.has(code)) pool.push(code);
    }
  }
  const holders = Array.from({ length: seats }, (_, q) => q).filter((q) => q !== seat);
  const sizes = holders.map((q) => s.handSize(q) - (turnupPublic && q === s.turnupHolder && s.turnupHeld ? 1 : 0));
  let total = 1;
  let left = pool.length;
  for (const k of sizes) {
    total *= binomial(left, k);
    left -= k;
  }
  if (total > limit) return null;

  const want = s.observe(seat).fingerprint();
  const world = newState(game, table);
  const out: string[] = [];
  const parts: number[][] = [];
  const place = (h: number, rest: number[]) => {
    if (h === holders.length) {
      if (consistent(s, world, seat, holders, parts, rest, played, want)) out.push(worldKey(world, seat));
      return;
    }
    choose(rest, sizes[h], 0, [], (picked) => {
      parts[h] = picked;
      place(
        h + 1,
        rest.filter((c) => !picked.includes(c)),
      );
    });
  };
  place(0, pool);
  return out;
}

function consistent(
  s: TrickState,
  world: TrickState,
  seat: number,
  holders: number[],
  parts: number[][],
  outOfPlay: number[],
  played: number[][],
  want: string,
): boolean {
  world.copyFrom(s);
  const add = (arr: Int32Array, off: number, c: number) => (arr[off + (c >>> 5)] |= 1 << (c & 31));
  for (let q = 0; q < s.seats; q++) {
    for (let l = 0; l < LANES; l++) world.dealt[q * LANES + l] = q === seat ? s.hands[q * LANES + l] : 0;
    for (const c of played[q]) add(world.dealt, q * LANES, c);
  }
  holders.forEach((q, h) => parts[h].forEach((c) => add(world.dealt, q * LANES, c)));
  world.stack.fill(0);
  for (const c of outOfPlay) add(world.stack, 0, c);
  if (s.turnup >= 0 && (s.turnupHolder < 0 || s.turnupHeld)) {
    if (s.turnupHolder < 0) add(world.stack, 0, s.turnup);
    else add(world.dealt, s.turnupHolder * LANES, s.turnup);
  }
  world.restart();
  const buf = newSets(1);
  for (let ply = 0; ply < s.plies; ply++) {
    const m = s.move(ply);
    world.legal(buf, 0);
    if (!setHas(buf, 0, m)) return false;
    world.apply(m);
  }
  return world.observe(seat).fingerprint() === want;
}

function choose(from: number[], k: number, at: number, picked: number[], visit: (picked: number[]) => void): void {
  if (picked.length === k) {
    visit(picked);
    return;
  }
  for (let i = at; i <= from.length - (k - picked.length); i++) choose(from, k, i + 1, [...picked, from[i]], visit);
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/**
 * Draws `samples` worlds from `seat`'s view of `s` and compares their spread over the
 * consistent `worlds` with uniform: the chi-square statistic, its bound (mean df, sd
 * sqrt(2 df): 6 sd keep false alarms out, while a bias of a few percent a cell shows)
 * and the draws that are no consistent world at all.
 */
export function chiSquare(
  game: Game,
  table: TableConfig,
  s: TrickState,
  seat: number,
  worlds: readonly string[],
  samples: number,
  seed: number,
): { chi2: number; bound: number; strays: number } {
  const count = new Map(worlds.map((k) => [k, 0]));
  const world = newState(game, table);
  const rng = new Rng(KEY, 5, seed);
  let strays = 0;
  for (let k = 0; k < samples; k++) {
    game.sample(s.observe(seat), rng, world);
    const key = worldKey(world, seat);
    const n = count.get(key);
    if (n === undefined) strays++;
    else count.set(key, n + 1);
  }
  const e = samples / worlds.length;
  let chi2 = 0;
  for (const n of count.values()) chi2 += (n - e) ** 2 / e;
  const df = worlds.length - 1;
  return { chi2, bound: df + 6 * Math.sqrt(2 * df), strays };
}
