/**
 * Splitting one run over several machines. Shard i of n plays the contiguous groups
 * [floor(i*N/n), floor((i+1)*N/n)) of a run of N groups: contiguous, so that each
 * shard's records and per-deal rows, concatenated in shard order, are exactly the
 * single machine's, and `tafel merge` only has to put journals side by side.
 */
import { TafelError } from '../../core/errors.js';

export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** `i/n` with 0 <= i < n. */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,9})\/(\d{1,9})$/.exec(text.trim());
  const bad = (why: string): never => {
    throw new TafelError('bad-shard', `--shard '${text}': ${why}`);
  };
  if (!m) return bad('expected i/n, the shard index i (from 0) and the number of shards n, e.g. 0/4');
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count === 0) return bad('the number of shards must be at least 1');
  if (index >= count) return bad(`the shard index counts from 0, so it must be below ${count}`);
  return { index, count };
}

/** The groups [from, to) that `shard` plays of a run of `groups` groups (all of them without a shard). */
export function shardRange(groups: number, shard: Shard | null): { from: number; to: number } {
  if (!shard) return { from: 0, to: groups };
  // BigInt: i * N can pass 2^53 for huge runs, and a rounding slip would lose a group.
  const at = (i: number) => Number((BigInt(i) * BigInt(groups)) / BigInt(shard.count));
  return { from: at(shard.index), to: at(shard.index + 1) };
}

export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
