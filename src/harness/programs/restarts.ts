/**
 * Programs started again after a fault, counted per entrant's bot spec in the thread that
 * plays: a program's spec (bot.ts) counts each restart, and the batch player takes the
 * counts at the end of every batch (BatchResult.restarts). Not journaled: a count of
 * processes, not a result.
 */
import type { BotSpec } from '../../../bots/bot.js';

const counts = new WeakMap<BotSpec, number>();

/**
 * One more restart of a program of the entrant whose spec is `spec` (one spec per entrant).
 * @public for bot.ts, the programs' BotSpec, which restarts them
 */
export function countRestart(spec: BotSpec): void {
  counts.set(spec, (counts.get(spec) ?? 0) + 1);
}

/** The restarts counted for `spec` since the last take. */
export function takeRestarts(spec: BotSpec): number {
  const n = counts.get(spec) ?? 0;
  if (n) counts.delete(spec);
  return n;
}
