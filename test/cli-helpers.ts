/** Running the built `tafel` command (dist/, built by global-setup.ts) from tests. */
import { expect } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function tafel(args: readonly string[], cwd = ROOT): Ran {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Start `tafel` without waiting; `done` resolves when it exits. */
export function start(args: readonly string[], cwd = ROOT) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Ran>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  return { child, done };
}

/** `tafel serve ARGS` started, and the address it prints once it listens. */
export async function serve(args: readonly string[]): Promise<{ server: ReturnType<typeof start>; base: string }> {
  const server = start(['serve', ...args]);
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    void server.done.then((r) => reject(new Error(`tafel serve ended: ${r.stderr}`)));
  });
  return { server, base };
}

export function tmpDir(): string {
  return mkdtempSync(join(tmpdir(), 'tafel-test-'));
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** stdout without its first line (the head line, which holds the time taken). */
export function results(r: Ran): string {
  return r.stdout.slice(r.stdout.indexOf('\n') + 1);
}

/** A user error: exit 2, exactly one line on stderr, no stack trace. */
export function expectUserError(r: Ran, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/**
 * What two journals of one run share (format 3): the header, the skipped lines and the
 * last checkpoint, which is the run's final state. Checkpoints in between fall where
 * the run's timing put them, so they are left out.
 */
export function journalState(text: string): string {
  const lines = text.split('\n').filter((l) => l !== '');
  const last = lines.findLastIndex((l) => l.startsWith('{"groups":'));
  return [lines[0], ...lines.slice(1).filter((l) => l.startsWith('{"g":')), ...(last > 0 ? [lines[last]] : [])].join(
    '\n',
  );
}

/** Groups (played or skipped) a format-3 journal's last checkpoint holds, 0 without one. */
export function journalGroups(text: string): number {
  const last = text
    .split('\n')
    .filter((l) => l.startsWith('{"groups":'))
    .at(-1);
  return last ? (JSON.parse(last) as { groups: number }).groups : 0;
}
