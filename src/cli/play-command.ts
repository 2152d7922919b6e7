/**
 * The action of `tafel play` (its flags are defined in play.ts): the session between
 * the person at the terminal and the bots, loaded only when the command runs, with the
 * engine of the one game played and the bots seated (bench/README.md, "Start-up").
 */
import { resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { readBoards } from '../harness/table/boards.js';
import { resolveEntrant } from '../harness/table/lineup.js';
import { TextFile, checkOutputs } from '../harness/run/outputs.js';
import { seatEntrants } from '../play/seating.js';
import { playSession } from '../play/session.js';
import { openTerminal } from '../play/terminal.js';
import { loadGame } from '../games/listings.js';
import { tableFor } from '../harness/run/table-for.js';
import { DEFAULT_HINT } from './play.js';

export interface PlayFlags {
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

export async function playCommand(o: PlayFlags): Promise<void> {
  const game = await loadGame(o.game);
  const table = tableFor(game, o.players, o.rules);
  const entrants = await seatEntrants(o.bots, game, table.seats, o.seat);
  // A --hint bot is checked now, so that a bad one fails before the table is drawn; the
  // default one, which plays every game and sees only its seat (test/play-cli.test.ts),
  // loads when `h` first asks it, not before the first prompt (bench/README.md, "Start-up").
  if (o.hint !== DEFAULT_HINT) {
    const hint = await resolveEntrant(o.hint, game);
    if (hint.spec.cheats)
      throw new TafelError('bad-option', `--hint ${o.hint}: it sees every hand, so it cannot advise a seat`);
  }
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
