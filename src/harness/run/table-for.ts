/**
 * A game's table from what a user wrote (players and rules), checked: apart from
 * parts.ts, which looks games up in the registry of every engine, so that a command
 * that has loaded its one game (`tafel play`) builds its table without the others.
 */
import { TafelError } from '../../core/errors.js';
import type { Game, TableConfig } from '../../games/game.js';
import { parseAssignments, resolveParams } from '../../games/params.js';

/** `where: ` before a message, when something names the field. */
const at = (where: string | undefined): string => (where ? `${where}: ` : '');

/** How many players `game` takes, as the messages say it: `exactly 4`, `3 to 6`. */
export function playersRange(game: Game): string {
  return game.minSeats === game.maxSeats ? `exactly ${game.minSeats}` : `${game.minSeats} to ${game.maxSeats}`;
}

/**
 * The table of `game`: `players` (the game's default when absent) and its rules (the
 * defaults for the rest), checked. Rules are `--rules` text (`key=value,...`) or a
 * plan's `rules` object; `where` names a plan's run (`run NAME`), absent for flags.
 */
export function tableFor(
  game: Game,
  players: number | undefined,
  rules: string | Readonly<Record<string, string>> | undefined,
  where?: string,
): TableConfig {
  const seats = players ?? game.defaultSeats;
  if (seats < game.minSeats || seats > game.maxSeats)
    throw new TafelError(
      'bad-table',
      `${at(where)}${game.name} is played by ${playersRange(game)} players, not ${seats}`,
    );
  const given = typeof rules === 'object' ? rules : parseAssignments(rules ?? '', '--rules');
  const table = {
    seats,
    rules: resolveParams(game.variants, given, where ? `${where} rules` : `--rules for ${game.name}`),
  };
  game.checkTable(table);
  return table;
}
