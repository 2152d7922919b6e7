/**
 * The play loop's faults when no move is timed (one try around the whole deal): a bot
 * that returns a code outside its legal set, -1 included, or throws, fails at that move
 * with the fault and seat the timed loop reports.
 */
import { describe, expect, it } from 'vitest';
import type { BotSpec } from '../src/games/bot.js';
import type { Game, Observation, TableConfig } from '../src/games/game.js';
import { findGame } from '../src/games/index.js';
import { BatchPlayer } from '../src/harness/run/batch.js';
import { liveRunOf } from '../src/harness/run/spec.js';
import { resolveLineup, type Lineup } from '../src/harness/table/lineup.js';

function gameNamed(name: string): Game {
  const g = findGame(name);
  if (!g) throw new Error(`no game ${name}`);
  return g;
}

function tableOf(game: Game): TableConfig {
  const rules: Record<string, string | number | boolean> = {};
  for (const v of game.variants) rules[v.key] = v.default;
  return { seats: game.defaultSeats, rules };
}

/** The lineup with its (only) entrant replaced, from its third move on, by `move` (or a throw). */
function spoiled(lineup: Lineup, move: unknown): Lineup {
  const entrants = lineup.entrants.map((e, i) => {
    if (i !== 0) return e;
    const create: BotSpec['create'] = (ctx) => {
      const bot = e.spec.create(ctx);
      let moves = 0;
      return {
        act(obs: Observation, legal: Int32Array, count: number) {
          if (++moves < 3) return bot.act(obs, legal, count);
          if (move === 'throw') throw new Error('no idea');
          return move as number;
        },
      };
    };
    return { ...e, spec: { ...e.spec, create } };
  });
  return { ...lineup, entrants };
}

describe('the untimed play loop', () => {
  for (const name of ['hindersche', 'vier-anderle']) {
    for (const [move, what] of [
      [-1, /played an illegal move \(-1\)/],
      [127, /played an illegal move/],
      [undefined, /played an illegal move \(undefined\)/],
      ['throw', /threw no idea/],
    ] as const) {
      it(`${name}: a bot whose move is ${String(move)} fails at that move`, async () => {
        const game = gameNamed(name);
        const table = tableOf(game);
        const lineup = spoiled(await resolveLineup('random', game, table.seats), move);
        const run = liveRunOf({ game, table, lineup, seed: 't', unit: 'deal', groups: 3 });
        const { failure, done } = new BatchPlayer(run).play(0, 3);
        expect(done).toBe(0);
        expect(failure?.message).toMatch(what);
        expect(failure?.fault).toBe(move === 'throw' ? 'threw' : 'illegal');
        expect(failure?.entrant).toBe(0);
        expect(failure?.at).toMatchObject({ group: 0, rotation: 0, deal: 0 });
      });
    }
  }
});
