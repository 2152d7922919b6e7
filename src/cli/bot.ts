/**
 * `tafel bot`: one of tafel's bots (built-in or a module) served over the bot protocol
 * (PROTOCOL.md) on stdin and stdout, so that other programs can play against it or with
 * it. Exit status: 0 after `quit` or at the end of input between deals; 2 for bad flags
 * or a message that breaks the protocol (one line on stderr, `tafel: line N: ...`); 3
 * when the bot itself fails (throws, or plays an illegal move).
 */
import { createInterface } from 'node:readline';
import { TafelError } from '../core/errors.js';
import type { Json } from '../games/game.js';
import { BotServer } from '../harness/programs/server.js';
import { resolveEntrant } from '../harness/table/lineup.js';
import { gameNamed, tableFor } from '../harness/run/parts.js';

export interface BotFlags {
  game: string;
  bot: string;
  players?: number;
  rules?: string;
}

export async function botCommand(o: BotFlags): Promise<void> {
  const game = gameNamed(o.game);
  const table = tableFor(game, o.players, o.rules);
  const server = new BotServer(game, table, await resolveEntrant(o.bot, game));
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let line = 0;
  for await (const text of input) {
    line++;
    if (text.trim() === '') continue;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      throw new TafelError('protocol', `line ${line}: not a JSON object`);
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
      throw new TafelError('protocol', `line ${line}: not a JSON object`);
    let replies: { [key: string]: Json }[] | null;
    try {
      replies = server.handle(msg as { [key: string]: Json });
    } catch (e) {
      if (e instanceof TafelError) throw new TafelError(e.code, `line ${line}: ${e.message}`);
      throw new TafelError(
        'bot-failed',
        `line ${line}: bot ${o.bot} threw ${String((e as Error)?.message ?? e).split('\n')[0]}`,
      );
    }
    if (replies === null) break;
    for (const r of replies) process.stdout.write(JSON.stringify(r) + '\n');
  }
  input.close();
}
