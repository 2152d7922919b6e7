/**
 * Who sits where in `tafel play`: the person at their seat, and the `--bots` list at
 * the other seats in seat order, a shorter list repeated in turn (`pimc,heuristic`
 * with the person at seat 0 of four: pimc at 1, heuristic at 2, pimc at 3).
 */
import { TafelError } from '../core/errors.js';
import type { Game } from '../games/game.js';
import { resolveEntrant, type Entrant } from '../harness/table/lineup.js';

/** The entrant at each seat, null at the person's. `dir`: where bot module paths are relative to. */
export async function seatEntrants(
  botsText: string,
  game: Game,
  seats: number,
  person: number,
  dir?: string,
): Promise<(Entrant | null)[]> {
  if (!Number.isSafeInteger(person) || person < 0 || person >= seats)
    throw new TafelError('bad-option', `--seat ${person}: ${game.name} here has seats 0 to ${seats - 1}`);
  const labels = botsText.split(',').map((s) => s.trim());
  if (labels.some((l) => l === '')) throw new TafelError('bad-bot', `--bots '${botsText}': empty bot name`);
  if (labels.length > seats - 1)
    throw new TafelError(
      'bad-bot',
      `--bots names ${labels.length} bots but ${seats === 2 ? 'there is 1 other seat' : `there are ${seats - 1} other seats`} at this ${game.name} table`,
    );
  const resolved = new Map<string, Entrant>();
  for (const label of labels) if (!resolved.has(label)) resolved.set(label, await resolveEntrant(label, game, dir));
  let next = 0;
  return Array.from({ length: seats }, (_, s) => (s === person ? null : resolved.get(labels[next++ % labels.length])!));
}
