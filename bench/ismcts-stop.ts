/**
 * What an earlier stop costs ismcts in moves and saves in iterations: whole deals in
 * which four `ismcts:gap=1` (the full search's moves) play; at each of their decisions
 * every other configuration is asked too, from the same deal stream (so the same key
 * and, with the same rule, the same move), and counted when its move differs. The
 * yardstick is `streams`, the full search fed other streams: how often the search's
 * own randomness alone changes its move.
 *
 *   npm run build && node dist/bench/ismcts-stop.js --game G --deals 6 [gap=0.2 ...]
 *
 * `--game` defaults to the registry's first game.
 *
 * Each argument `key=value` is one configuration (ismcts parameters joined by `:`);
 * without any, gap=0.2 and gap=0.1.
 */
import { newSets } from '../src/core/cardset.js';
import { Rng, type SeedKey, seedKey } from '../src/core/rng.js';
import type { Bot } from '../src/games/bot.js';
import type { Game, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { resolveParams } from '../src/games/params.js';
// The registry first: it resolves the import cycle of ismcts and the heuristics.
import '../bots/registry.js';
import { ismcts } from '../bots/ismcts.js';

const args = process.argv.slice(2);
function option(name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
}
const gameName = option('--game', GAMES[0].name);
const deals = Number(option('--deals', '6'));
const configs = args.length ? args : ['gap=0.2', 'gap=0.1'];
const game = GAMES.find((g) => g.name === gameName);
if (!game || !Number.isInteger(deals) || deals < 1) {
  console.error(`ismcts-stop: unknown game ${gameName} or bad --deals (a positive integer)`);
  process.exit(1);
}

const rules: Record<string, string | number | boolean> = {};
for (const v of game.variants) rules[v.key] = v.default;
const table: TableConfig = { seats: game.defaultSeats, rules };
let worlds = 0;
// The game with its sampler counted: one world per iteration.
const counted: Game = Object.create(game, {
  sample: { value: (...a: Parameters<Game['sample']>) => (worlds++, game.sample(...a)) },
}) as Game;

/** One bot per seat of `config`, the deal stream of seat s from (key, s + 1 + offset). */
function seats(config: string, key: SeedKey, offset: number): Bot[] {
  const given: Record<string, string> = {};
  for (const kv of config.split(':').filter((x) => x.includes('='))) {
    const [k, v] = kv.split('=');
    given[k] = v;
  }
  const params = resolveParams(ismcts.params, given, 'bot ismcts');
  const bots: Bot[] = [];
  for (let seat = 0; seat < table.seats; seat++)
    bots.push(ismcts.create({ game: counted, table, seat, rng: new Rng(key, 1 + seat + offset), params }));
  return bots;
}

const names = ['streams', ...configs];
const differ = new Array<number>(names.length).fill(0);
const iterations = new Array<number>(names.length).fill(0);
let decisions = 0;
let fullIterations = 0;
const legal = newSets(1);
for (let d = 0; d < deals; d++) {
  const key = seedKey(`ismcts-stop-${d}`);
  const state = game.newState(table);
  game.newMatch(table, { singleDeal: true, index: d }).startDeal(state, new Rng(key, 0));
  const full = seats('gap=1', key, 0);
  const others = names.map((c, i) => (i === 0 ? seats('gap=1', key, 100) : seats(c, key, 0)));
  while (!state.isTerminal()) {
    const n = state.legal(legal, 0);
    const seat = state.toMove;
    worlds = 0;
    const move = full[seat].act(state.observe(seat), legal, n);
    if (n > 1) {
      decisions++;
      fullIterations += worlds;
    }
    others.forEach((bots, i) => {
      worlds = 0;
      const m = bots[seat].act(state.observe(seat), legal, n);
      if (n === 1) return;
      iterations[i] += worlds;
      if (m !== move) differ[i]++;
    });
    state.apply(move);
  }
}
console.log(
  `${gameName}: ${deals} deals, ${decisions} decisions; gap=1 (the full search's moves) ${(fullIterations / decisions).toFixed(0)} iterations a decision`,
);
names.forEach((name, i) => {
  const share = ((100 * iterations[i]) / fullIterations).toFixed(0);
  console.log(
    `${name}: a move other than gap=1's at ${differ[i]} of ${decisions} decisions (${((100 * differ[i]) / decisions).toFixed(1)}%), ${(iterations[i] / decisions).toFixed(0)} iterations a decision (${share}% of gap=1's)`,
  );
});
