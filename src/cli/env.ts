/**
 * `tafel env`: a learning environment over stdin and stdout (env protocol v1,
 * docs/env.md). tafel plays the table, its bots at the opponents' seats, and asks the
 * program at the other end for the decisions of the learning seats: one seat
 * (`--seat`), some, or all (`--all-seats`, self-play). Exit status: 0 after `quit` or
 * at the end of input; 2 for bad flags or a message that breaks the protocol (an
 * illegal action included), with one line on stderr (`tafel: env: line N: ...`); 3 when
 * an opponent fails.
 */
import { readSync, writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { TafelError } from '../core/errors.js';
import type { Json } from '../games/game.js';
import { Actions, packNames } from '../harness/env/actions.js';
import { EnvSession } from '../harness/env/session.js';
import { gameNamed, tableFor } from '../harness/run/parts.js';
import { parseBots, resolveEntrant, type Entrant } from '../harness/table/lineup.js';

export interface EnvFlags {
  game: string;
  players?: number;
  rules?: string;
  seat?: string;
  allSeats?: boolean;
  opponents?: string;
  tables: number;
  seed: string;
  matches?: boolean;
}

export async function envCommand(o: EnvFlags): Promise<void> {
  // Each step allocates its messages (a kilobyte or so per table): a larger young
  // generation scavenges less often (bench/README.md, "Learning environment").
  setFlagsFromString('--max-semi-space-size=32');
  const game = gameNamed(o.game);
  const table = tableFor(game, o.players, o.rules);
  const seats = table.seats;
  if ((o.seat === undefined) === (o.allSeats !== true))
    throw new TafelError('bad-option', 'env: give --seat S (or S,T,...) or --all-seats, one of them');
  const learning = new Set<number>();
  if (o.allSeats === true) for (let s = 0; s < seats; s++) learning.add(s);
  else
    for (const part of o.seat!.split(',')) {
      const s = Number(part.trim());
      if (!/^\d+$/.test(part.trim()) || s >= seats)
        throw new TafelError('bad-option', `env: --seat '${o.seat}': seats are 0 to ${seats - 1}`);
      learning.add(s);
    }
  const others = seats - learning.size;
  if (others > 0 && o.opponents === undefined)
    throw new TafelError('bad-option', `env: --opponents names the bots of the ${others} other seats (e.g. random)`);
  if (others === 0 && o.opponents !== undefined)
    throw new TafelError('bad-option', 'env: --opponents: every seat is learning, there are no opponents');
  const names = o.opponents === undefined ? [] : parseBots(o.opponents);
  const entrants: Entrant[] = [];
  for (const name of names) {
    entrants.push(await resolveEntrant(name, game));
  }
  // The opponents in seat order, the list repeated as it runs out.
  const opponents: (Entrant | null)[] = [];
  let next = 0;
  for (let s = 0; s < seats; s++) opponents.push(learning.has(s) ? null : entrants[next++ % entrants.length]);
  const session = new EnvSession(
    {
      game,
      table,
      opponents,
      unit: o.matches === true ? 'match' : 'deal',
      tables: o.tables,
      actions: new Actions(packNames(game, table)),
    },
    o.seed,
  );
  const write = (msg: { readonly [key: string]: Json }) => writeAll(JSON.stringify(msg) + '\n');
  write(session.hello());
  let line = 0;
  for (const text of lines()) {
    line++;
    if (text.trim() === '') continue;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = null;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
      throw new TafelError('protocol', `env: line ${line}: not a JSON object`);
    let reply: { readonly [key: string]: Json } | null;
    try {
      reply = session.handle(msg as { readonly [key: string]: Json });
    } catch (e) {
      if (e instanceof TafelError) throw new TafelError(e.code, `env: line ${line}: ${e.message}`);
      throw new TafelError(
        'bot-failed',
        `env: line ${line}: an opponent threw ${String((e as Error)?.message ?? e).split('\n')[0]}`,
      );
    }
    if (reply === null) break;
    write(reply);
  }
}

/**
 * Stdin's lines, read with blocking reads: the learner waits for each answer, so nothing
 * else is to be done meanwhile, and a synchronous loop saves the event loop's turn per
 * message (more than half of a step's time with one table, measured).
 */
function* lines(): Generator<string> {
  const buf = Buffer.alloc(1 << 16);
  let rest = '';
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EOF') n = 0;
      else throw e;
    }
    if (n === 0) break;
    rest += buf.toString('utf8', 0, n);
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl).replace(/\r$/, '');
      rest = rest.slice(nl + 1);
    }
  }
  if (rest !== '') yield rest;
}

function writeAll(text: string): void {
  const data = Buffer.from(text, 'utf8');
  for (let at = 0; at < data.length;) {
    try {
      at += writeSync(1, data, at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // The learner has gone (closed its end): nothing is left to answer.
      if (code === 'EPIPE') process.exit(0);
      if (code !== 'EAGAIN') throw e;
    }
  }
}
