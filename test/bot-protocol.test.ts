/**
 * The bot protocol (PROTOCOL.md) and `tafel bot`: what a seat is shown carries nothing
 * it may not know; `tafel bot heuristic` fed a real deal's requests answers the moves
 * the heuristic makes in process (same seeds, same draws); bad input is one line.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/core/rng.js';
import type { Game, ParamValue, TableConfig } from '../src/games/game.js';
import { GAMES } from '../src/games/index.js';
import { KEY, newState, points, tableOf } from './contract-helpers.js';
import { hello, playDeal, tafelBot } from './protocol-driver.js';

const TABLES: Readonly<Record<string, readonly (readonly [number, Readonly<Record<string, ParamValue>>])[]>> = {
  viersche: [[4, {}]],
  hindersche: [
    [4, {}],
    [4, { schleipfen: true }],
  ],
  'hindersi-jass': [
    [4, {}],
    [3, {}],
  ],
  'vier-anderle': [
    [4, {}],
    [5, { pips: 'always', pot: 0 }],
  ],
};

function tableArgs(game: Game, table: TableConfig): string[] {
  const rules = Object.entries(table.rules).map(([k, v]) => `${k}=${String(v)}`);
  return ['--game', game.name, '--players', String(table.seats), ...(rules.length ? ['--rules', rules.join(',')] : [])];
}

describe.each(GAMES.map((g) => [g.name, g] as const))('%s', (_, game) => {
  for (const [seats, rules] of TABLES[game.name]) {
    const table = tableOf(game, seats, rules);
    const label = `${seats} seats ${JSON.stringify(rules)}`;

    it(`${label}: a seat's encoded observation is the same in every world it cannot tell from the real one`, () => {
      const world = newState(game, table);
      const rng = new Rng(KEY, 31);
      let compared = 0;
      for (const s of points(game, table, 60, 5)) {
        for (let seat = 0; seat < seats; seat++) {
          const obs = s.observe(seat);
          game.sample(obs, rng, world);
          // Hidden cards differ between the two deals, and nothing the seat is shown does.
          expect(JSON.stringify(game.protocol.encode(world.observe(seat)))).toBe(
            JSON.stringify(game.protocol.encode(obs)),
          );
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);
    });

    // The random bot and pimc draw from ctx.rng (pimc samples worlds from the observation
    // too): the same moves show that the seed and the rebuilt window are the real ones.
    it.each(['heuristic', 'random', 'pimc:worlds=4:budget=20000'])(
      `${label}: tafel bot %s answers every request of two deals with the move it makes in process`,
      async (bot) => {
        for (const group of [0, 1]) {
          const scripts = await playDeal(game, table, bot, 'proto', group);
          const input = [hello(game, table), ...scripts.flatMap((s) => s.sent), '{"type":"quit"}'];
          const r = tafelBot([...tableArgs(game, table), '--bot', bot], input);
          expect(r.stderr).toBe('');
          expect(r.status).toBe(0);
          const [first, ...plays] = r.lines.map((l) => JSON.parse(l) as { type: string; move?: string });
          expect(first.type).toBe('bot');
          expect(plays.map((p) => p.move)).toEqual(scripts.flatMap((s) => s.played));
          expect(plays.length).toBeGreaterThan(seats);
        }
      },
    );
  }
});
