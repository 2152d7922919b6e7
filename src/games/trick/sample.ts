/**
 * The skeleton of determinization (game.ts, "Search: determinization") for games whose
 * play reveals voids by lane: a world is built from what one seat has seen, then the
 * deal is rebuilt from the start and the public history replayed into it, so every
 * derived quantity (points, voids, who won what) is recomputed by the rules that made it.
 *
 * The steps, which a game's sampler calls in its own order (the order fixes how the
 * random stream is used, so it is part of what the sampler draws):
 *
 * 1. `seen`: the observer's hand, and every card seen played goes back to the starting
 *    hand of the seat that played it; what is left of the pack is the unseen pool.
 * 2. `placeTurnup`: the turned card is public: in its holder's hand while he holds it,
 *    or out of play when nobody does.
 * 3. `addHolder` for each seat (and the cards out of play) that holds unseen cards: how
 *    many, and in which lanes none (the voids its play has shown).
 * 4. `dealUnseen`: the pool dealt uniformly among the holders under those constraints
 *    (`HandSampler`), then `merge` into the starting hands.
 * 5. `replay` into the output state, which the game has begun from the observation.
 *
 * `samplerPerState` makes a game's `Game.sample` from its sampler: one per output state.
 */
import { LANES, newSets } from '../../core/cardset.js';
import type { Rng } from '../../core/rng.js';
import { HIDDEN, NO, type HistoryWatcher } from '../game.js';
import { HandSampler } from './hand-sampler.js';
import { MAX_SEATS } from './layout.js';
import type { TrickState } from './state.js';
import type { TrickView } from './view.js';

/** What draws worlds for one game (its sample.ts). */
interface Sampler<S extends TrickState, O> {
  sample(obs: O, rng: Rng, out: S, watcher?: HistoryWatcher<S>): void;
}

/**
 * A game's `Game.sample`: one sampler per output state, made by `make` on the state's
 * first world, so that a sampler's buffers are never shared between searches (each
 * search keeps its own worlds) and nothing is allocated after warm-up.
 */
export function samplerPerState<S extends TrickState, O>(
  make: () => Sampler<S, O>,
): (obs: O, rng: Rng, out: S, watcher?: HistoryWatcher<S>) => void {
  const samplers = new WeakMap<S, Sampler<S, O>>();
  return (obs, rng, out, watcher) => {
    let s = samplers.get(out);
    if (!s) samplers.set(out, (s = make()));
    s.sample(obs, rng, out, watcher);
  };
}

/**
 * The `HandSampler` of every lane sampler that deals to `maxHolders` holders at most.
 * A deal is a function of its constraints and the stream alone (the counting table is
 * a cache of the constraints, rebuilt when they change), and `deal` calls nothing
 * outside it, so one serves every sampler. Its table is about 200 KB: one per output
 * state cost that much per world of every search bot of every deal (a quarter of pimc's
 * time in Hindersche, its 300 worlds a decision, went to allocating them).
 */
function sharedHandSampler(maxHolders: number): HandSampler {
  let sampler = handSamplers.get(maxHolders);
  if (!sampler) handSamplers.set(maxHolders, (sampler = new HandSampler(maxHolders)));
  return sampler;
}

const handSamplers = new Map<number, HandSampler>();

/** Holders of unseen cards: the seats, and the cards out of play. */
const HOLDERS = MAX_SEATS + 1;
/** `holderSeat` of the cards out of play. */
const OUT_OF_PLAY = -1;

export class LaneSampler {
  /** The world's starting hands, LANES masks per seat. */
  protected readonly hands = newSets(MAX_SEATS);
  /** The world's cards out of play. */
  protected readonly stack = newSets(1);
  /** The cards the observer has not seen. */
  protected readonly pool = newSets(1);
  /** Holder h's share of the pool, at `h * LANES`. */
  protected readonly unknown = newSets(HOLDERS);
  protected readonly sizes = new Int32Array(HOLDERS);
  protected readonly forbidden = new Int32Array(HOLDERS);
  protected readonly holderSeat = new Int32Array(HOLDERS);
  protected holders = 0;
  /** Moves of the history the observer did not see (`HIDDEN`). */
  protected hidden = 0;
  private readonly outOff = new Int32Array(HOLDERS);
  private readonly dealer: HandSampler;

  /** `maxHolders`: the most holders the game ever deals to (sizes `HandSampler`'s tables). */
  constructor(maxHolders: number) {
    this.dealer = sharedHandSampler(maxHolders);
    for (let h = 0; h < HOLDERS; h++) this.outOff[h] = h * LANES;
  }

  /**
   * Step 1: the observer's hand and the cards seen played, as starting hands; the rest
   * of the pack (`pack[packOff ..]`, LANES masks) is the pool.
   */
  protected seen(obs: TrickView, pack: Int32Array, packOff: number): void {
    const { hands, pool } = this;
    const me = obs.seat;
    // Loops, not fill(): a builtin call costs more than these stores.
    for (let i = 0; i < obs.seats * LANES; i++) hands[i] = 0;
    for (let l = 0; l < LANES; l++) {
      const own = obs.handLane(l);
      hands[me * LANES + l] = own;
      pool[l] = pack[packOff + l] & ~own;
      this.stack[l] = 0;
    }
    this.hidden = 0;
    for (let ply = 0; ply < obs.plies; ply++) {
      const m = obs.move(ply);
      if (m === HIDDEN) this.hidden++;
      else if (m < NO) {
        const bit = 1 << (m & 31);
        hands[obs.moveSeat(ply) * LANES + (m >>> 5)] |= bit;
        pool[m >>> 5] &= ~bit;
      }
    }
    this.holders = 0;
  }

  /** Step 2: the turned card `turnup` to `holder`'s hand while `held` (unless the observer is the holder), or out of play for holder -1. */
  protected placeTurnup(me: number, turnup: number, holder: number, held: boolean): void {
    if (turnup < 0) return;
    const bit = 1 << (turnup & 31);
    const lane = turnup >>> 5;
    if (holder < 0) {
      this.stack[lane] |= bit;
      this.pool[lane] &= ~bit;
    } else if (held && holder !== me) {
      this.hands[holder * LANES + lane] |= bit;
      this.pool[lane] &= ~bit;
    }
  }

  /** Step 3: `seat` (or -1: the cards out of play) holds `size` unseen cards, none in the lanes of `forbidden`. */
  protected addHolder(seat: number, size: number, forbidden: number): void {
    const h = this.holders++;
    this.holderSeat[h] = seat;
    this.sizes[h] = size;
    this.forbidden[h] = forbidden;
  }

  /** Step 4: deal the pool to the holders; false when no deal fits. */
  protected dealUnseen(rng: Rng): boolean {
    return this.dealer.deal(this.pool, 0, this.holders, this.sizes, this.forbidden, this.unknown, this.outOff, rng);
  }

  /** Step 4, after the deal: each holder's share into its starting hand (or the cards out of play). */
  protected merge(): void {
    for (let h = 0; h < this.holders; h++) {
      const seat = this.holderSeat[h];
      const off = h * LANES;
      if (seat === OUT_OF_PLAY) for (let l = 0; l < LANES; l++) this.stack[l] |= this.unknown[off + l];
      else for (let l = 0; l < LANES; l++) this.hands[seat * LANES + l] |= this.unknown[off + l];
    }
  }

  /** Step 5: replay the history into `out` (begun from the starting hands), a hidden move being `hiddenCard`. */
  protected replay<S extends TrickState>(obs: TrickView, out: S, watcher?: HistoryWatcher<S>, hiddenCard = -1): void {
    for (let ply = 0; ply < obs.plies; ply++) {
      let m = obs.move(ply);
      if (m === HIDDEN) m = hiddenCard;
      watcher?.before(out, ply, m);
      out.apply(m);
    }
  }
}

/** The holder index of the cards out of play in `addHolder`. */
export { OUT_OF_PLAY };
