/**
 * tafel's package directory (the one holding its package.json, found upward from this
 * module, in src/ or dist/, bundled or not) and its version from that package.json.
 * Files that ship beside the code (the page in dist/web, the example plan) are found
 * from the directory, not from a module's own place, which bundling changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackage(): { dir: string; version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'tafel' && typeof pkg.version === 'string') return { dir, version: pkg.version };
    }
    if (dirname(dir) === dir) return { dir: process.cwd(), version: 'unknown' };
  }
}

const found = findPackage();

/** The directory of tafel's package.json (the working directory if none is found). */
export const PACKAGE_DIR = found.dir;

export const VERSION = found.version;
