/**
 * `tafel play`: a person at one seat against bots at the others, at the terminal or
 * through piped input (src/play/). Flags become a session; user errors are one line
 * and status 2, a failing bot status 3 (main.ts). A session stopped by `q` or Ctrl-D at
 * a terminal ends with status 0, by Ctrl-C with 130, and piped input that ends before
 * the session does with 2 (the script was too short). Every finished deal is in the
 * records file by then, a whole line each.
 */
import { Option, type Command } from 'commander';
import { gameNames } from '../games/listings.js';
import { nonNegativeInt, positiveInt, seedText } from './common.js';
import type { PlayFlags } from './play-command.js';

/** The bot that `h` asks when --hint names none. */
export const DEFAULT_HINT = 'pimc';

export function addPlayCommand(program: Command): void {
  program
    .command('play')
    .description('play against the bots: you at one seat (--seat), bots at the others, whole matches or deals')
    .requiredOption('--game <name>', 'the game: ' + gameNames())
    .option('--seat <s>', 'your seat, from 0', nonNegativeInt('--seat'), 0)
    .option(
      '--bots <list>',
      'the bots at the other seats in seat order, e.g. pimc or pimc,heuristic (a shorter list repeats)',
      'heuristic',
    )
    .option('--seed <seed>', 'master seed: deals what `tafel run` deals with the same seed', seedText, '1')
    .option('--rules <list>', 'rule variants, key=value,...')
    .option('--players <n>', 'number of seats, for games that allow several', positiveInt('--players'))
    .addOption(
      new Option('--deals <n>', 'play n single deals from a fresh score')
        .argParser(positiveInt('--deals'))
        .conflicts('matches'),
    )
    .addOption(new Option('--matches <n>', 'play n whole matches (default 1)').argParser(positiveInt('--matches')))
    .option(
      '--boards <file.jsonl>',
      'play these chosen deals in order (docs/boards.md): deal (match) i starts with board i',
    )
    .option('--first <i>', 'start at match (or deal) i of the seed: group i of a run', nonNegativeInt('--first'), 0)
    .option('--hint <bot>', 'the bot that h asks for a hint', DEFAULT_HINT)
    .option('--show-hands', 'show every hand (open play, to try lines; the records say so)')
    .option('--records <file.jsonl>', 'write every finished deal as a RECORD.md deal record (your seat: human)')
    .option('--force', 'replace the --records file if it exists')
    .action(async (o: PlayFlags) => {
      const { playCommand } = await import('./play-command.js');
      await playCommand(o);
    });
}
