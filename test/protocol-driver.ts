/**
 * A mini referee for the bot-protocol tests (not tafel's referee): plays a deal, or
 * every deal of a match, in process with a bot of tafel at every seat, seeded as a run
 * seeds it (src/harness/table/table.ts), and writes what a referee would send each seat
 * (PROTOCOL.md) beside the moves the bot made in process.
 * Feeding those lines to `tafel bot` must give the same moves back.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Bot } from '../src/games/bot.js';
import { newSets } from '../src/core/cardset.js';
import { Rng, seedKey } from '../src/core/rng.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { resolveEntrant } from '../src/harness/table/lineup.js';
import { dealRequest, legalNames, moveRequest, resultRequest } from '../src/harness/programs/requests.js';
import { reseedBot, reseedCards } from '../src/harness/table/seeding.js';
import { ROOT } from './cli-helpers.js';

const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface SeatScript {
  /** The lines tafel sends this seat: `deal`, each `move`, `result`. */
  readonly sent: string[];
  /** The moves the bot made in process, by name, one per `move`. */
  readonly played: string[];
}

/**
 * Deal 0 of group `group` of a run of single deals (`--deals`) with master seed `seed`
 * (rotation 0), played by `botText` at every seat: each seat's script.
 */
export function playDeal(
  game: Game,
  table: TableConfig,
  botText: string,
  seed: string,
  group: number,
): Promise<SeatScript[]> {
  return play(game, table, botText, seed, group, true);
}

/**
 * The match of group `group` of a run of matches (`--matches`) with master seed `seed`
 * (rotation 0), every deal of it, played by `botText` at every seat: each seat's script,
 * its deals one after the other.
 */
export function playMatch(
  game: Game,
  table: TableConfig,
  botText: string,
  seed: string,
  group: number,
): Promise<SeatScript[]> {
  return play(game, table, botText, seed, group, false);
}

/** Play as src/harness/table/table.ts plays: the cards of deal k and each bot's stream seeded from (seed, group, k). */
async function play(
  game: Game,
  table: TableConfig,
  botText: string,
  seed: string,
  group: number,
  singleDeal: boolean,
): Promise<SeatScript[]> {
  const entrant = await resolveEntrant(botText, game);
  const key = seedKey(seed);
  const n = table.seats;
  const rngs = Array.from({ length: n }, () => new Rng());
  const bots: Bot[] = rngs.map((rng, seat) => entrant.spec.create({ game, table, seat, rng, params: entrant.params }));
  const state = game.newState(table);
  const match = game.newMatch(table, { singleDeal, index: 0 });
  match.reset(group);
  const cards = new Rng();
  const scripts: SeatScript[] = rngs.map(() => ({ sent: [], played: [] }));
  const legal = newSets(1);
  while (!match.over) {
    const deal = match.dealIndex;
    reseedCards(cards, key, group, deal);
    for (let seat = 0; seat < n; seat++) reseedBot(rngs[seat], key, group, deal, seat, 0);
    match.startDeal(state, cards);
    for (let seat = 0; seat < n; seat++) {
      scripts[seat].sent.push(dealRequest(game, { group, rotation: 0, deal }, rngs[seat].hex(), state.observe(seat)));
    }
    while (!state.isTerminal()) {
      const seat = state.toMove;
      const count = state.legal(legal, 0);
      const obs = state.observe(seat);
      scripts[seat].sent.push(moveRequest(game, obs, legalNames(game, obs, legal, count, [])));
      const move = bots[seat].act(obs, legal, count);
      scripts[seat].played.push(game.protocol.moveName(obs, move));
      state.apply(move);
    }
    for (let seat = 0; seat < n; seat++) scripts[seat].sent.push(resultRequest(game, state.observe(seat)));
    match.finishDeal(state);
  }
  return scripts;
}

export interface Served {
  readonly status: number | null;
  readonly lines: string[];
  readonly stderr: string;
}

/** Run a bot program on `input` lines (all at once: requests are stateless) and collect its output lines. */
export function serve(command: string, args: readonly string[], input: readonly string[]): Served {
  const r = spawnSync(command, args, { input: input.map((l) => l + '\n').join(''), encoding: 'utf8', cwd: ROOT });
  return { status: r.status, lines: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

/** `tafel bot` with these arguments. */
export function tafelBot(args: readonly string[], input: readonly string[]): Served {
  return serve(process.execPath, [CLI, 'bot', ...args], input);
}
