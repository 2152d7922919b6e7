/**
 * The random streams of a run, each derived from the master seed's key (core/rng.ts)
 * and the coordinates of what it serves, and from nothing else, so that any deal can
 * be dealt and played again on its own, whatever the workers, shards or order:
 *
 *   cards of deal k of group g     (key, g, 0, k << 8)          the same in every rotation
 *   bot at seat s, rotation r      (key, g, 1 + s, k << 8 | r)
 *
 * The table (table.ts) plays by them, and so does `tafel play` (src/play/), so that a
 * session with seed S deals what a run with seed S deals.
 */
import { streamPrefix, type Rng, type SeedKey } from '../../core/rng.js';

/** Restart `rng` on the stream that deals deal `deal` of group `group`. */
export function reseedCards(rng: Rng, key: SeedKey, group: number, deal: number): void {
  rng.reseed(key, group, 0, deal << 8);
}

/** Restart `rng` on the stream of the bot at `seat` in rotation `rotation`, for deal `deal` of group `group`. */
export function reseedBot(rng: Rng, key: SeedKey, group: number, deal: number, seat: number, rotation: number): void {
  rng.reseed(key, group, 1 + seat, (deal << 8) | rotation);
}

/**
 * `reseedCards` and `reseedBot` for every seat of one deal at once (`bots[seat]`, the
 * streams of rotation `rotation`): the same streams, their shared part computed once.
 */
export function reseedDeal(
  cards: Rng,
  bots: readonly Rng[],
  key: SeedKey,
  group: number,
  deal: number,
  rotation: number,
): void {
  const prefix = streamPrefix(group);
  // One loop with one call site for all the streams (the cards' at y = 0): V8 inlines
  // `reseedAt` once per function, and a call per stream costs about as much as a stream.
  for (let y = 0; y <= bots.length; y++) {
    const rng = y === 0 ? cards : bots[y - 1];
    rng.reseedAt(key, prefix, y, y === 0 ? deal << 8 : (deal << 8) | rotation);
  }
}
