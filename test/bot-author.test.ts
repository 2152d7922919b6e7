/**
 * Writing a bot (docs/bots.md): a bot module in TypeScript loads in the main thread and
 * in the workers, the example bot plays and type-checks against the package's own
 * declarations (package.json `exports`), and `tafel games/bots --json` list the registries.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GAMES } from '../src/games/index.js';
import { BUILTIN_BOTS } from '../bots/registry.js';
import type { ParamSpec } from '../src/games/game.js';
import { ROOT, expectUserError, read, results, tafel, tmpDir } from './cli-helpers.js';

const EXAMPLE = './bots/examples/lead-high.ts';

/** A bot module's source: plays its lowest legal move; the type import is erased, so it needs nothing at run time. */
const LOWEST = `import type { BotSpec } from 'tafel';
const lowest: BotSpec = {
  name: 'lowest-ts',
  description: 'its lowest legal move',
  params: [],
  create: () => ({
    act(_obs, legal: Int32Array): number {
      for (let lane = 0; lane < 4; lane++) if (legal[lane] !== 0) return (lane << 5) | (31 - Math.clz32(legal[lane] & -legal[lane]));
      return -1;
    },
  }),
};
export default lowest;
`;

describe('a bot module in TypeScript', () => {
  it('the example plays Viersche against random, the same results with 1 and 2 workers', () => {
    const dir = tmpDir();
    const run = (workers: number) => {
      const out = join(dir, `w${workers}.csv`);
      const args = ['run', '--game', 'viersche', '--bots', `${EXAMPLE},random`, '--deals', '40', '--seed', 'ex'];
      const r = tafel([...args, '--workers', String(workers), '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      return { table: results(r), csv: read(out) };
    };
    const [one, two] = [run(1), run(2)];
    expect(one.table).toContain(`${EXAMPLE}:noise=0`);
    expect(two.table).toBe(one.table);
    expect(two.csv).toBe(one.csv);
  });

  it('its parameter is checked like a built-in bot parameter', () => {
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', `${EXAMPLE}:noise=2,random`, '--deals', '2']),
      /noise/,
    );
    expectUserError(
      tafel(['run', '--game', 'hindersche', '--bots', `${EXAMPLE},random`, '--deals', '2']),
      /does not play hindersche/,
    );
  });

  it('type-checks against the package declarations', () => {
    const tsc = join(ROOT, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'bots/examples/tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('a .ts outside any package (compiled as CommonJS) and a .mts load too, by default or as `bot`', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'lowest.ts'), LOWEST);
    writeFileSync(join(dir, 'lowest.mts'), LOWEST);
    writeFileSync(join(dir, 'named.ts'), LOWEST.replace('export default lowest;', 'export const bot = lowest;'));
    for (const file of ['lowest.ts', 'lowest.mts', 'named.ts']) {
      const r = tafel(
        ['run', '--game', 'hindersi-jass', '--bots', `./${file},random`, '--deals', '4', '--workers', '1'],
        dir,
      );
      expect(r.status, r.stderr).toBe(0);
      expect(results(r)).toContain(`./${file}`);
    }
  });

  it('a .ts that does not compile: one line naming the file', () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'bots'));
    writeFileSync(join(dir, 'bots', 'broken.ts'), 'export default { name: "x", create( };\n');
    expectUserError(
      tafel(['run', '--game', 'viersche', '--bots', './bots/broken.ts,random', '--deals', '2'], dir),
      /^tafel: bot file \.\/bots\/broken\.ts: cannot load: .*broken\.ts:1:\d+: ERROR: Expected/,
    );
  });
});

interface ParamJson {
  key: string;
  description: string;
  type: ParamSpec['type'];
  default: ParamSpec['default'];
  min: number | null;
  max: number | null;
}

const paramJson = (p: ParamSpec): ParamJson => ({
  key: p.key,
  description: p.description,
  type: p.type,
  default: p.default,
  min: p.min ?? null,
  max: p.max ?? null,
});

function json<T>(args: string[]): T {
  const r = tafel(args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('tafel games --json and tafel bots --json', () => {
  it('games: every game with its seats, rules, metrics and facts', () => {
    const { games } = json<{ games: Record<string, unknown>[] }>(['games', '--json']);
    expect(games.map((g) => g.name)).toEqual(GAMES.map((g) => g.name));
    GAMES.forEach((g, i) => {
      expect(games[i]).toEqual({
        name: g.name,
        title: g.title,
        seats: { min: g.minSeats, max: g.maxSeats, default: g.defaultSeats },
        teams: g.teams(g.defaultSeats),
        rules: g.variants.map(paramJson),
        metrics: {
          deal: g.dealMetrics.map((m) => ({ ...m, binary: m.binary === true })),
          match: g.matchMetrics.map((m) => ({ ...m, binary: m.binary === true })),
        },
        facts: { deal: g.facts?.deal ?? [], seat: g.facts?.seat ?? [] },
      });
    });
    expect(games.some((g) => (g.rules as unknown[]).length > 0)).toBe(true);
  });

  it('bots: every built-in bot, or those of one game, with their parameters', () => {
    const all = json<{ game: string | null; bots: Record<string, unknown>[] }>(['bots', '--json']);
    const expected = (b: (typeof BUILTIN_BOTS)[number]) => ({
      name: b.name,
      description: b.description,
      games: b.games ?? null,
      cheats: b.cheats === true,
      params: b.params.map(paramJson),
    });
    expect(all).toEqual({ game: null, bots: BUILTIN_BOTS.map(expected) });
    for (const g of GAMES) {
      const one = json<{ game: string; bots: { name: string; games: string[] | null }[] }>([
        'bots',
        '--game',
        g.name,
        '--json',
      ]);
      const plays = BUILTIN_BOTS.filter((b) => !b.games || b.games.includes(g.name));
      expect(one).toEqual({ game: g.name, bots: plays.map(expected) });
      // One spec per name: the game's own heuristic.
      expect(new Set(one.bots.map((b) => b.name)).size).toBe(one.bots.length);
    }
  });

  it('bots --game: the text list narrowed too; an unknown game is one line', () => {
    const r = tafel(['bots', '--game', 'vier-anderle']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('heuristic [vier-anderle]');
    expect(r.stdout).not.toContain('heuristic [viersche]');
    expectUserError(tafel(['bots', '--game', 'skat', '--json']), /unknown game 'skat'/);
  });
});
