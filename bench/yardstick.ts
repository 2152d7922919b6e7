/**
 * The C yardstick of ../shared/bench-ref: compiled once with the machine's gcc, run
 * on one core, its deals/s read from its output line. tafel's figures are quoted as a
 * ratio against it, measured in the same minute (these machines drift).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TafelError } from '../src/core/errors.js';

export function runYardstick(source: string, deals: number): number {
  if (!existsSync(source)) throw new TafelError('bad-yardstick', `--yardstick ${source}: not found`);
  let binary = source;
  if (source.endsWith('.c')) {
    binary = join(tmpdir(), `tafel-playout-${statSync(source).mtimeMs | 0}`);
    if (!existsSync(binary)) {
      try {
        execFileSync('gcc', ['-O3', '-march=native', '-o', binary, source], { stdio: 'pipe' });
      } catch (e) {
        throw new TafelError(
          'bad-yardstick',
          `--yardstick ${source}: gcc failed: ${(e as Error).message.split('\n')[0]}`,
        );
      }
    }
  }
  const text = execFileSync(binary, ['random', String(deals), '12345'], { encoding: 'utf8' });
  const m = /deals_per_s=(\d+)/.exec(text);
  if (!m) throw new TafelError('bad-yardstick', `--yardstick: no deals_per_s in its output: ${text.trim()}`);
  return Number(m[1]);
}
