/**
 * `tafel play`: a person at one seat against bots at the others, at the terminal or
 * through piped input (src/play/). Flags become a session; user errors are one line
 * and status 2, a failing bot status 3 (main.ts). A session stopped by `q` or Ctrl-D at
 * a terminal ends with status 0, by Ctrl-C with 130, and piped input that ends before
 * the session does with 2 (the script was too short). Every finished deal is in the
 * records file by then, a whole line each.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { TafelError } from '../core/errors.js';
import { GAMES } from '../games/index.js';
import { readBoards } from '../harness/table/boards.js';
import { resolveEntrant } from '../harness/table/lineup.js';
import { TextFile, checkOutputs } from '../harness/run/outputs.js';
import { seatEntrants } from '../play/seating.js';
import { playSession } from '../play/session.js';
import { openTerminal } from '../play/terminal.js';
import { gameNamed, tableFor } from '../harness/run/parts.js';
import { nonNegativeInt, positiveInt, seedText } from './common.js';

interface PlayFlags {
  game: string;
  seat: number;
  bots: string;
  seed: string;
  rules?: string;
  players?: number;
  deals?: number;
  matches?: number;
  boards?: string;
  first: number;
  hint: string;
  showHands?: boolean;
  records?: string;
  force?: boolean;
}

export function addPlayCommand(program: Command): void {
  program
    .command('play')
    .description('play against the bots: you at one seat (--seat), bots at the others, whole matches or deals')
    .requiredOption('--game <name>', 'the game: ' + GAMES.map((g) => g.name).join(', '))
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
    .option('--hint <bot>', 'the bot that h asks for a hint', 'pimc')
    .option('--show-hands', 'show every hand (open play, to try lines; the records say so)')
    .option('--records <file.jsonl>', 'write every finished deal as a RECORD.md deal record (your seat: human)')
    .option('--force', 'replace the --records file if it exists')
    .action(async (o: PlayFlags) => {
      await playCommand(o);
    });
}

async function playCommand(o: PlayFlags): Promise<void> {
  const game = gameNamed(o.game);
  const table = tableFor(game, o.players, o.rules);
  const entrants = await seatEntrants(o.bots, game, table.seats, o.seat);
  const hint = await resolveEntrant(o.hint, game);
  if (hint.spec.cheats)
    throw new TafelError('bad-option', `--hint ${o.hint}: it sees every hand, so it cannot advise a seat`);
  if (o.records)
    checkOutputs([{ flag: '--records', kind: 'jsonl', shown: o.records, path: resolve(o.records) }], {
      existing: o.force ? 'replace' : 'refuse',
    });
  // With boards, --first and --deals/--matches pick which of them: all from --first by default.
  const boards = o.boards === undefined ? null : readBoards(o.boards, o.boards, game, table);
  const count = o.deals ?? o.matches ?? (boards ? boards.length - o.first : 1);
  if (boards && (o.first >= boards.length || o.first + count > boards.length)) {
    throw new TafelError(
      'bad-board',
      `--boards ${o.boards} holds ${boards.length} boards: --first ${o.first} with ${count} to play goes past them`,
    );
  }
  const records = o.records ? new TextFile(o.records, '--records') : null;
  const terminal = openTerminal();
  try {
    const result = await playSession(
      {
        game,
        table,
        seed: o.seed,
        seat: o.seat,
        entrants,
        unit: o.deals || (boards && !o.matches) ? 'deal' : 'match',
        count,
        first: o.first,
        hint: o.hint,
        showHands: o.showHands === true,
        ...(boards ? { boards } : {}),
      },
      terminal,
      {
        record: records ? (r) => records.write(JSON.stringify(r) + '\n') : undefined,
        resolveBot: (label) => resolveEntrant(label, game),
      },
    );
    if (result.end === 'ended') {
      if (terminal.interrupted) process.exitCode = 130;
      else if (!terminal.interactive) {
        process.stderr.write(`tafel: the input ended before the session did (${result.deals} deals finished)\n`);
        process.exitCode = 2;
      }
    }
  } finally {
    terminal.close();
    records?.close();
  }
}
