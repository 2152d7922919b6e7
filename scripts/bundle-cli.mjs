// The `tafel` command as a bundle (npm run build, after tsc): dist/src/cli/main.js, the
// package's bin, and one startup chunk hold what every command loads, and each
// command's own code (a game's engine, DuckDB's, the pool's, the experiments', the
// report's...) chunks in dist/src/cli/bundle/ that its action imports when it runs.
// Node then reads three files at start-up instead of resolving some 130 modules
// (bench/README.md, "Start-up"). The rest of dist/ stays tsc's plain modules: the library (src/api.ts),
// the benchmarks, the experiments' scripts.
//
// Rolldown (vite's bundler), not esbuild: esbuild turns a module's top-level `const`
// into `var`, and V8 then reloads and rechecks every table the engine reads
// (random play measured 20% slower); rolldown keeps them `const`.
//
// The worker threads' entries are bundled beside the chunks, where the modules that
// start them look from their own chunk: the pool's (bundle/worker.js, pool.ts) and
// `tafel serve`'s analysis (bundle/analysis-worker.js, serve/jobs.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RolldownMagicString, rolldown } from 'rolldown';

// Packages imported from node_modules as they are: DuckDB's native addon (its API is
// bundled, below), piscina's and tsx's own files need their places, and the report's
// plotting loads only for a page.
const EXTERNAL = [/^node:/, /^@duckdb\/node-bindings/, 'piscina', /^tsx(\/|$)/, '@observablehq/plot', 'linkedom'];

// seedrandom requires Node's crypto only to seed itself without a seed, which tafel never
// does; its package.json lets a bundle leave it out ("browser": {"crypto": false}), and
// loading crypto would cost every start-up. Its require then gives null, as in a browser.
const seedrandomWithoutCrypto = {
  name: 'seedrandom-without-crypto',
  resolveId(id, importer) {
    if (id === 'crypto' && importer?.includes('/node_modules/seedrandom/')) return '\0no-crypto';
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

// What every command loads (main.ts and its static imports) in one chunk beside main.js,
// not a dozen: each file costs Node a resolution, a read and a module record. Collected
// from the module graph once it is built; the chunking below groups them.
const startup = new Set();
const startupModules = {
  name: 'startup-modules',
  buildEnd() {
    const visit = (id) => {
      const info = this.getModuleInfo(id);
      if (startup.has(id) || !info || info.isExternal) return;
      startup.add(id);
      for (const next of info.importedIds) visit(next);
    };
    visit(join(root, 'src', 'cli', 'main.ts'));
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
  external: EXTERNAL,
  plugins: [seedrandomWithoutCrypto, commanderBuiltins, duckdbApiRequire, startupModules],
  logLevel: 'warn',
});
await bundle.write({
  dir: outdir,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'bundle/[name]-[hash].js',
  sourcemap: true,
  codeSplitting: { groups: [{ name: 'startup', test: (id) => startup.has(id) && !id.endsWith('/src/cli/main.ts') }] },
});
await bundle.close();
