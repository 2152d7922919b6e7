// The `tafel` command as a bundle (npm run build, after tsc): dist/src/cli/main.js, the
// package's bin, and one startup chunk hold what every command loads, and each
// command's own code (a game's engine, DuckDB's, the pool's, the experiments', the
// report's...) chunks in dist/src/cli/bundle/ that its action imports when it runs.
// Node then reads three files at start-up instead of resolving some 130 modules, and
// `tafel play` eight to its first prompt (bench/README.md, "Start-up"). The rest of
// dist/ stays tsc's plain modules: the library (src/api.ts), the benchmarks, the
// experiments' scripts.
//
// Rolldown (vite's bundler), not esbuild: esbuild turns a module's top-level `const`
// into `var`, and V8 then reloads and rechecks every table the engine reads
// (random play measured 20% slower); rolldown keeps them `const`.
//
// The worker threads' entries are bundled beside the chunks, where the modules that
// start them look from their own chunk: the pool's (bundle/worker.js, pool.ts) and
// `tafel serve`'s analysis (bundle/analysis-worker.js, serve/jobs.ts).
import { rmSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { RolldownMagicString, rolldown } from 'rolldown';

// Packages imported from node_modules as they are: DuckDB's native addon (its API is
// bundled, below), piscina's and tsx's own files need their places, and the report's
// plotting loads only for a page.
const EXTERNAL = [/^node:/, /^@duckdb\/node-bindings/, 'piscina', /^tsx(\/|$)/, '@observablehq/plot', 'linkedom'];

// seedrandom requires Node's crypto only to seed itself without a seed, which tafel never
// does; its package.json lets a bundle leave it out ("browser": {"crypto": false}), and
// loading crypto would cost every start-up. Its require then gives null, as in a browser.
// And tafel calls only `seedrandom(seed)`, the ARC4 generator of seedrandom/seedrandom.js:
// its index.js adds six other generators (12 KB of CommonJS), left out.
const seedrandomArc4 = {
  name: 'seedrandom-arc4',
  resolveId(id, importer) {
    if (id === 'crypto' && importer?.includes('/node_modules/seedrandom/')) return '\0no-crypto';
    if (id === 'seedrandom') return this.resolve('seedrandom/seedrandom.js', importer, { skipSelf: true });
  },
  load(id) {
    if (id === '\0no-crypto') return 'module.exports = null;';
  },
};

// commander is CommonJS: its `require('node:...')` would make the bundle create a require
// function, which loads `node:module` (and its source maps), and it requires
// `node:child_process` (with net, dgram and streams) for executable subcommands, which
// tafel has none of. Node's builtins are taken as they are, and child_process only when
// a subcommand would spawn, so `tafel --version` loads neither (bench/README.md, "Start-up").
const commanderBuiltins = {
  name: 'commander-builtins',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]commander[\\/]/.test(id)) return null;
    const s = new RolldownMagicString(code);
    s.replace(
      "require('node:child_process')",
      "{ spawn: (...args) => globalThis.process.getBuiltinModule('node:child_process').spawn(...args) }",
    );
    s.replaceAll(/require\('(node:(?!child_process')[a-z_]+)'\)/g, "globalThis.process.getBuiltinModule('$1')");
    return { code: s };
  },
  // Nothing needs the bundle's require function then, but the runtime chunk keeps its
  // import of node:module (and Node loads the module and its source-map support): dropped.
  renderChunk(code) {
    const line = 'import { createRequire } from "node:module";\n';
    if (!code.startsWith(line) || code.includes('createRequire', line.length)) return null;
    const s = new RolldownMagicString(code);
    s.remove(0, line.length);
    return s;
  },
};

// DuckDB's API is bundled (one chunk instead of some sixty CommonJS modules: a query's
// start-up 0.2 s of CPU shorter); its native bindings stay a package. The API requires
// them (and Node's os) where it runs, through a require made there, so the runtime chunk
// that every command loads needs none.
const duckdbApiRequire = {
  name: 'duckdb-api-require',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]@duckdb[\\/]node-api[\\/]/.test(id)) return null;
    const s = new RolldownMagicString(code);
    s.replaceAll(
      'require("@duckdb/node-bindings")',
      "globalThis.process.getBuiltinModule('node:module').createRequire(import.meta.url)('@duckdb/node-bindings')",
    );
    s.replaceAll('require("os")', "globalThis.process.getBuiltinModule('node:os')");
    return { code: s };
  },
};

// Chunks by what loads together, not a file per shared module: each file costs Node a
// resolution, a read and a module record (bench/README.md, "Start-up"). Groups from the
// module graph once it is built, static imports followed, each taking what the ones
// before it left: what every command loads (main.ts's imports) in one chunk beside
// main.js; what the games' engines share (the card core, the trick games' kernel) in
// one; each game's own modules (its folder: the engines that listings.ts loads) in one;
// what `tafel play` loads besides (the session, the line-up, the outputs); pimc (play's
// default hint) with the solver. Other commands' modules chunk as rolldown splits them.
const groupOf = new Map();
const chunkGroups = {
  name: 'chunk-groups',
  buildEnd() {
    const closure = (id, seen = new Set()) => {
      const info = this.getModuleInfo(id);
      if (seen.has(id) || !info || info.isExternal) return seen;
      seen.add(id);
      for (const next of info.importedIds) closure(next, seen);
      return seen;
    };
    const claim = (name, ids) => {
      for (const id of ids) if (!groupOf.has(id)) groupOf.set(id, name);
    };
    const at = (path) => join(root, path);
    claim(
      'startup',
      [...closure(at('src/cli/main.ts'))].filter((id) => id !== at('src/cli/main.ts')),
    );
    const engines = this.getModuleInfo(at('src/games/listings.ts')).dynamicallyImportedIds.map((index) => [
      dirname(index) + sep,
      closure(index),
    ]);
    claim(
      'engine',
      engines.flatMap(([folder, ids]) => [...ids].filter((id) => !id.startsWith(folder))),
    );
    for (const [folder, ids] of engines) claim(basename(folder), ids);
    claim('play', closure(at('src/cli/play-command.ts')));
    claim('search', closure(at('bots/pimc.ts')));
  },
};

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'src', 'cli');
rmSync(join(outdir, 'bundle'), { recursive: true, force: true });

const bundle = await rolldown({
  cwd: root,
  input: {
    main: 'src/cli/main.ts',
    'bundle/worker': 'src/harness/run/worker.ts',
    'bundle/analysis-worker': 'src/serve/analysis-worker.ts',
  },
  platform: 'node',
  // An entry keeps its exports (the workers' handlers) and may export more: a group may
  // hold a module that another chunk imports dynamically (then a facade re-exports it).
  preserveEntrySignatures: 'allow-extension',
  external: EXTERNAL,
  plugins: [seedrandomArc4, commanderBuiltins, duckdbApiRequire, chunkGroups],
  logLevel: 'warn',
});
await bundle.write({
  dir: outdir,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'bundle/[name]-[hash].js',
  sourcemap: true,
  // Each module in its group's chunk only (not its imports too: those are in theirs).
  codeSplitting: {
    groups: [
      { name: (id) => groupOf.get(id) ?? null, debugName: 'chunk-groups', includeDependenciesRecursively: false },
    ],
  },
});
await bundle.close();
