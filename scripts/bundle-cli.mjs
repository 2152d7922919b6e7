// The `tafel` command as a bundle (npm run build, after tsc): dist/src/cli/main.js, the
// package's bin, becomes one file holding what every command loads, and each command's
// own code (DuckDB's, the pool's, the experiments', the report's...) a chunk in
// dist/src/cli/bundle/ that its action imports when it runs. Node then reads a few
// files at start-up instead of resolving some 130 modules (bench/README.md,
// "Start-up"). The rest of dist/ stays tsc's plain modules: the library (src/api.ts),
// the benchmarks, the experiments' scripts.
//
// The pool's worker entry is bundled beside the chunks (bundle/worker.js), where
// pool.ts finds it (`new URL('./worker.js', import.meta.url)` from its chunk).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

// Packages imported from node_modules as they are: DuckDB's native addon, piscina's and
// tsx's own files need their places, the report's plotting loads only for a page, and
// commander is CommonJS that requires Node's modules (which a bundle could not). The
// others are bundled: seedrandom's ARC4 (its Node build then finds no crypto module,
// which it wants only to seed itself without a seed, never done here), csv, zod.
const EXTERNAL = ['@duckdb/node-api', 'piscina', 'tsx', '@observablehq/plot', 'linkedom', 'commander'];

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'src', 'cli');
rmSync(join(outdir, 'bundle'), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/cli/main.ts', out: 'main' },
    { in: 'src/harness/run/worker.ts', out: 'bundle/worker' },
  ],
  outdir,
  chunkNames: 'bundle/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  sourcemap: true,
  logLevel: 'warning',
});
