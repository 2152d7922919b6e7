/**
 * A game's listing apart from its engine (src/games/<game>/listing.ts, src/games/listings.ts)
 * and the built-in bots by name (bots/names.ts): what `--help`, `tafel games` and
 * `tafel play` read so that they start without loading every game and bot
 * (bench/README.md, "Start-up"). The listings and names must say what the engines and
 * the registry say; the command's start-up chunk must hold no engine.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAMES } from '../src/games/index.js';
import { GAME_LISTINGS, gameNames, listingNamed, loadGame } from '../src/games/listings.js';
import { gameNamed } from '../src/harness/run/parts.js';
import { BUILTIN_BOTS, builtinBot } from '../bots/registry.js';
import { BUILTIN_BOT_NAMES, loadBuiltinBot } from '../bots/names.js';
import { SEATS as VIERSCHE_SEATS } from '../src/games/viersche/state.js';
import { SEATS as HINDERSCHE_SEATS } from '../src/games/hindersche/state.js';
import { MAX_PLAYERS as JASS_MAX, MIN_SEATS as JASS_MIN } from '../src/games/hindersi-jass/state.js';
import { DEFAULT_PARTIEN } from '../src/games/hindersi-jass/match.js';
import { MAX_PLAYERS as ANDERLE_MAX, MIN_SEATS as ANDERLE_MIN } from '../src/games/vier-anderle/state.js';
import { DEFAULT_HANDS, DEFAULT_POT } from '../src/games/vier-anderle/match.js';
import { TafelError } from '../src/core/errors.js';

const ROOT = resolve(import.meta.dirname, '..');
const LISTED = ['name', 'title', 'minSeats', 'maxSeats', 'defaultSeats', 'variants', 'dealMetrics', 'matchMetrics'];

describe('game listings', () => {
  it('list the games of the registry, in its order, with the fields their engines carry', () => {
    expect(GAME_LISTINGS.map((g) => g.name)).toEqual(GAMES.map((g) => g.name));
    expect(gameNames()).toBe(GAMES.map((g) => g.name).join(', '));
    GAME_LISTINGS.forEach((listing, i) => {
      const game = GAMES[i];
      for (const key of LISTED)
        expect((game as unknown as Record<string, unknown>)[key], `${game.name} ${key}`).toBe(
          (listing as unknown as Record<string, unknown>)[key],
        );
      expect(game.teams(game.defaultSeats)).toEqual(listing.teams(listing.defaultSeats));
      expect(game.search).toBe(listing.search);
    });
  });

  it("say the engines' own seats and rule defaults", () => {
    const variant = (game: string, key: string) => listingNamed(game).variants.find((v) => v.key === key)?.default;
    const seats = (game: string) => {
      const g = listingNamed(game);
      return [g.minSeats, g.maxSeats];
    };
    expect(seats('viersche')).toEqual([VIERSCHE_SEATS, VIERSCHE_SEATS]);
    expect(seats('hindersche')).toEqual([HINDERSCHE_SEATS, HINDERSCHE_SEATS]);
    expect(seats('hindersi-jass')).toEqual([JASS_MIN, JASS_MAX]);
    expect(seats('vier-anderle')).toEqual([ANDERLE_MIN, ANDERLE_MAX]);
    expect(variant('hindersi-jass', 'partien')).toBe(DEFAULT_PARTIEN);
    expect(variant('vier-anderle', 'hands')).toBe(DEFAULT_HANDS);
    expect(variant('vier-anderle', 'pot')).toBe(DEFAULT_POT);
  });

  it('load each engine on demand: the registry object itself', async () => {
    for (const game of GAMES) expect(await loadGame(game.name)).toBe(game);
  });

  it('refuse an unknown game with the message gameNamed gives', async () => {
    const expected = `--game: unknown game 'nope' (known: ${gameNames()})`;
    expect(() => gameNamed('nope', '--game')).toThrow(expected);
    await expect(loadGame('nope', '--game')).rejects.toThrow(expected);
    await expect(loadGame('nope')).rejects.toBeInstanceOf(TafelError);
    await expect(loadGame('__proto__')).rejects.toThrow("unknown game '__proto__'");
  });

  it('import nothing but types (a listing loads no engine)', () => {
    for (const game of GAMES) {
      const text = readFileSync(join(ROOT, 'src', 'games', game.name, 'listing.ts'), 'utf8');
      const imports = [...text.matchAll(/^import .*$/gm)].map((m) => m[0]);
      expect(imports.length, game.name).toBeGreaterThan(0);
      for (const line of imports) expect(line, game.name).toMatch(/^import type /);
    }
  });
});

describe('built-in bots by name', () => {
  it("are the registry's names, in its order", () => {
    expect(BUILTIN_BOT_NAMES).toEqual([...new Set(BUILTIN_BOTS.map((b) => b.name))]);
  });

  it("load the registry's bot for every game, and nothing for another name", async () => {
    for (const game of GAMES) {
      for (const name of BUILTIN_BOT_NAMES) {
        expect(await loadBuiltinBot(name, game), `${name} ${game.name}`).toBe(builtinBot(name, game.name));
      }
      expect(await loadBuiltinBot('nobot', game)).toBeUndefined();
      expect(await loadBuiltinBot('toString', game)).toBeUndefined();
    }
  });
});

/** The modules (rolldown's `// path` marks) of a bundle file and the files it imports statically. */
function bundledModules(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const modules = new Set([...text.matchAll(/^\/\/ ((?:src|bots|node_modules)\/\S+)$/gm)].map((m) => m[1]));
  for (const m of text.matchAll(/^(?:import|export) (?:[^;]*?from )?"(\.[^"]+)"/gm))
    for (const id of bundledModules(resolve(dirname(file), m[1]), seen)) modules.add(id);
  return modules;
}

describe("the command's start-up (the bundle, dist/src/cli)", () => {
  const main = join(ROOT, 'dist', 'src', 'cli', 'main.js');

  it('loads no game engine, no bot and no command of its own before it parses the command line', () => {
    const modules = [...bundledModules(main)];
    expect(modules).toContain('src/cli/main.ts');
    expect(modules).toContain('src/games/listings.ts');
    const engines = modules.filter((m) => /^src\/games\/[^/]+\//.test(m) && !/\/listing\.ts$/.test(m));
    expect(engines).toEqual([]);
    expect(modules.filter((m) => m.startsWith('bots/'))).toEqual(['bots/names.ts']);
    expect(modules.filter((m) => /^src\/(harness\/(table|db|programs|stats)|play|serve|report)\//.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('node_modules/') && !m.startsWith('node_modules/commander/'))).toEqual(
      [],
    );
  });

  it("loads tafel play's action with no game engine: the session loads the one it plays", () => {
    const bundle = join(ROOT, 'dist', 'src', 'cli', 'bundle');
    const chunk = readdirSync(bundle).find((f) => /^play-command-.*\.js$/.test(f));
    expect(chunk).toBeDefined();
    const modules = [...bundledModules(join(bundle, chunk!))];
    expect(modules).toContain('src/cli/play-command.ts');
    expect(modules.filter((m) => /^src\/games\/(?!trick\/)[^/]+\//.test(m) && !m.endsWith('/listing.ts'))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('bots/') && m !== 'bots/names.ts')).toEqual([]);
  });
});
