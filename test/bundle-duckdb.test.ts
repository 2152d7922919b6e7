/**
 * DuckDB's API in the bundle (dist/src/cli, scripts/bundle-cli.mjs): held in a chunk of
 * its own, and loaded by no command before it opens a query session (query.ts), so an
 * experiment's workers start without waiting for it (bench/README.md, "Run database").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BUNDLE = resolve(import.meta.dirname, '..', 'dist', 'src', 'cli', 'bundle');

/** The chunk that holds `module` (rolldown's `// path` mark). */
function chunkOf(module: string): string {
  const mark = `\n// ${module}\n`;
  const found = readdirSync(BUNDLE).filter(
    (f) => f.endsWith('.js') && readFileSync(join(BUNDLE, f), 'utf8').includes(mark),
  );
  expect(found, module).toHaveLength(1);
  return join(BUNDLE, found[0]);
}

/** The modules and the packages that a chunk loads with it: its static imports, followed. */
function staticGraph(file: string, seen = new Set<string>()): { modules: Set<string>; packages: Set<string> } {
  const out = { modules: new Set<string>(), packages: new Set<string>() };
  if (seen.has(file)) return out;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)) out.modules.add(m[1]);
  for (const m of text.matchAll(/^(?:import|export) (?:[^;]*?from )?"([^"]+)"/gm)) {
    if (!m[1].startsWith('.')) {
      out.packages.add(m[1]);
      continue;
    }
    const next = staticGraph(resolve(dirname(file), m[1]), seen);
    next.modules.forEach((x) => out.modules.add(x));
    next.packages.forEach((x) => out.packages.add(x));
  }
  return out;
}

describe("DuckDB's API in the bundle", () => {
  it('is bundled: its modules in the chunks, its native bindings a package', () => {
    const api = staticGraph(chunkOf('node_modules/@duckdb/node-api/lib/DuckDBInstance.js'));
    expect(api.packages.has('@duckdb/node-api')).toBe(false);
    // The bindings are required where the API runs, not imported by the chunk.
    expect([...api.packages].filter((p) => p.startsWith('@duckdb/'))).toEqual([]);
  });

  it('is not loaded with the experiments, nor with the query command, before a session opens', () => {
    for (const module of ['experiments/index.ts', 'src/cli/query.ts', 'src/harness/db/query.ts']) {
      const { modules, packages } = staticGraph(chunkOf(module));
      expect(modules.has(module), module).toBe(true);
      expect(
        [...modules].filter((m) => m.includes('@duckdb/')),
        module,
      ).toEqual([]);
      expect(
        [...packages].filter((p) => p.startsWith('@duckdb/')),
        module,
      ).toEqual([]);
    }
  });

  it('needs no require function at start-up: the runtime chunk imports nothing', () => {
    const runtime = readdirSync(BUNDLE).find((f) => /^rolldown-runtime-.*\.js$/.test(f));
    expect(runtime).toBeDefined();
    expect(readFileSync(join(BUNDLE, runtime!), 'utf8')).not.toMatch(/^import /m);
  });
});
