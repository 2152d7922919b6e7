/**
 * A game is one folder (docs/layout.md, "Adding a game"): everything about one game lives in
 * src/games/<game>/ and is reached through its `Game` entry. This suite reads every
 * source file of src/, bots/, experiments/ and bench/ and lists where a game is named:
 * an import from a game's folder, the game's name as a string (`'viersche'`), or its
 * entry's identifier (`hindersiJass`), comments left out. Only the game's own folder,
 * the registry (src/games/index.ts, and its listings without the engines,
 * src/games/listings.ts) and the contract suite's one line may name a game,
 * besides the places in ALLOWED, each of which says why it names a game as data.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAMES } from '../src/games/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const SCANNED = ['src', 'bots', 'experiments', 'bench'];
const REGISTRY = 'src/games/index.ts';
const LISTINGS = 'src/games/listings.ts';
const CONTRACT = 'test/contract.test.ts';

/** Each game's folder name (its name) and the identifier of its entry in the registry. */
const NAMES: readonly { readonly game: string; readonly entry: string }[] = GAMES.map((g) => ({
  game: g.name,
  entry: g.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
}));

/**
 * Files outside a game's folder that may name that game, and why. A key is `file game`.
 * Card names, protocol dispatch, heuristics, screens and defaults go through the Game
 * entry instead: they do not belong here.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // The public package API (package.json `exports`) names each game's observation type.
  'src/api.ts viersche': 'the public API exports VierscheObservation',
  'src/api.ts hindersche': 'the public API exports HinderscheObservation',
  'src/api.ts hindersi-jass': 'the public API exports JassObservation',
  'src/api.ts vier-anderle': 'the public API exports AnderleObservation',
  // H-1: Hindersche is played with Viersche's cards; its naive reference reads the card rules from Viersche's reference,
  // which shares no code with either engine.
  'src/games/hindersche/reference.ts viersche': "H-1: Hindersche's card rules are Viersche's (the naive reading)",
  // Experiments that study one game.
  'experiments/hindersche-marches.ts hindersche': 'the experiment studies marches in Hindersche',
  'experiments/anderle-pot.ts vier-anderle': 'the experiment studies the Vier-Anderle pot',
  // An experiment's default --game, as its usage says.
  'experiments/ladder.ts viersche': 'the default --game',
  'experiments/tune.ts viersche': 'the default --game',
  // Benchmarks measure chosen games.
  'bench/micro.bench.ts viersche': "micro-benchmarks of Viersche's engine",
  'bench/solve.bench.ts viersche': 'solver positions of each game',
  'bench/solve.bench.ts hindersche': 'solver positions of each game',
  'bench/solve.bench.ts hindersi-jass': 'solver positions of each game',
  'bench/solve.bench.ts vier-anderle': 'solver positions of each game',
  'bench/side-by-side.ts viersche': "the default runs (every game); the C comparison's Viersche runs",
  'bench/side-by-side.ts hindersche': 'the default runs: every game',
  'bench/side-by-side.ts hindersi-jass': 'the default runs: every game',
  'bench/side-by-side.ts vier-anderle': 'the default runs: every game',
  'bench/programs.ts viersche': 'bot programs timed at Viersche',
  // A user's bot module, as docs/bots.md walks through it: it plays Viersche.
  'bots/examples/lead-high.ts viersche': 'the example bot plays Viersche',
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The source without its comments (strings kept: a game's name in a string names it). */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
      if (i === 0) break;
    } else out += c;
  }
  return out;
}

/** Each game `file` names, with how (the first time). */
function namedIn(file: string, text: string): Map<string, string> {
  const found = new Map<string, string>();
  let code = withoutComments(text);
  // Imports first: a path into a game's folder names that game.
  code = code.replace(/(\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"]+)\2/g, (_, _kw, _q, spec: string) => {
    const path = relative(ROOT, resolve(ROOT, dirname(file), spec))
      .split('\\')
      .join('/');
    const game = /^src\/games\/([^/]+)\//.exec(path)?.[1];
    if (game && NAMES.some((n) => n.game === game) && !found.has(game)) found.set(game, `imports ${path}`);
    return '';
  });
  for (const { game, entry } of NAMES) {
    if (found.has(game)) continue;
    const word = new RegExp(`(?<![\\w-])(${game}|${entry})(?![\\w-])`).exec(code);
    if (word) found.set(game, `names ${JSON.stringify(word[1])}`);
  }
  return found;
}

/** Whether `file` may name `game` without a word in ALLOWED: its own folder, or the registry. */
function owns(file: string, game: string): boolean {
  return file === REGISTRY || file === LISTINGS || file.startsWith(`src/games/${game}/`);
}

/** Every `file game` pair outside the owners, with how the file names the game. */
function strays(files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files) {
    for (const [game, how] of namedIn(file, readFileSync(join(ROOT, file), 'utf8')))
      if (!owns(file, game)) out.set(`${file} ${game}`, how);
  }
  return out;
}

describe('a game is one folder (docs/layout.md, "Adding a game")', () => {
  const files = SCANNED.flatMap(sources);
  const found = strays(files);

  it('no file outside a game folder names the game, but the registry and the allowed places', () => {
    const wrong = [...found]
      .filter(([key]) => !(key in ALLOWED))
      .map(([key, how]) => {
        const [file, game] = key.split(' ');
        return `${file} ${how}, so it knows the game ${game}: outside src/games/${game}/ and the registry, reach a game through its Game entry (GAMES, findGame, game.heuristic, game.screen, game.experiments...)`;
      });
    expect(wrong, wrong.join('\n')).toEqual([]);
  });

  it('every allowed place still names its game (drop the entries a change made stale)', () => {
    const stale = Object.keys(ALLOWED).filter((key) => !found.has(key));
    expect(stale, `ALLOWED entries that no longer name their game: ${stale.join('; ')}`).toEqual([]);
  });

  it('the registry names every game, each folder is a game, and the contract suite names each game on one line', () => {
    for (const file of [REGISTRY, LISTINGS]) {
      const registry = namedIn(file, readFileSync(join(ROOT, file), 'utf8'));
      expect([...registry.keys()].sort(), file).toEqual(NAMES.map((n) => n.game).sort());
    }
    const folders = readdirSync(join(ROOT, 'src/games'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'trick')
      .map((e) => e.name);
    expect(folders.sort()).toEqual(NAMES.map((n) => n.game).sort());
    const lines = withoutComments(readFileSync(join(ROOT, CONTRACT), 'utf8')).split('\n');
    for (const { game, entry } of NAMES) {
      const naming = lines.filter((l) => new RegExp(`(?<![\\w-])(${game}|${entry})(?![\\w-])`).test(l));
      expect(naming, `${CONTRACT} names ${game} on ${naming.length} lines, not one`).toHaveLength(1);
    }
  });

  it('catches a stray import and a stray name (the check can fail)', () => {
    const stray = namedIn(
      'bots/pimc.ts',
      "import { PACK } from '../src/games/viersche/cards.js';\nif (x === 'vier-anderle') y();\n// hindersche in a comment\n",
    );
    expect([...stray]).toEqual([
      ['viersche', 'imports src/games/viersche/cards.js'],
      ['vier-anderle', 'names "vier-anderle"'],
    ]);
    expect(owns('bots/pimc.ts', 'viersche')).toBe(false);
    expect(owns('src/games/viersche/heuristic.ts', 'viersche')).toBe(true);
    expect(owns('src/games/hindersche/heuristic.ts', 'viersche')).toBe(false);
  });
});
