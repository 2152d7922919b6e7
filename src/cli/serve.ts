/**
 * `tafel serve`: the web page (src/serve/) on 127.0.0.1, one command, offline. Another
 * address only with --host, and then a warning: the page plays and reads files for
 * whoever reaches it. Stops on Ctrl-C (status 0).
 */
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { TafelError } from '../core/errors.js';
import { nonNegativeInt, positiveInt } from './common.js';

interface ServeFlags {
  port: number;
  host: string;
  open?: boolean;
  records: string[];
  db: string[];
  analysisLimit: number;
}

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('the web page: play against the bots in the browser (docs/serve.md)')
    .option('--port <p>', 'the port (0: any free one)', nonNegativeInt('--port'), 8737)
    .option('--host <address>', 'the address to listen on (other than loopback: warned)', '127.0.0.1')
    .option('--records <files...>', 'record files (RECORD.md lines) to replay; the page reads these and no others', [])
    .option('--db <files...>', 'run databases (tafel run --db) to replay; the page reads these and no others', [])
    .option(
      '--analysis-limit <seconds>',
      'the longest an analysis (or a deal of a database played again) may run',
      positiveInt('--analysis-limit'),
      60,
    )
    .option('--open', 'open the page in the desktop browser')
    .action(async (o: ServeFlags) => {
      await serveCommand(o);
    });
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

async function serveCommand(o: ServeFlags): Promise<void> {
  if (o.port > 65535) throw new TafelError('bad-option', `--port ${o.port}: a port is 0 to 65535`);
  const { makeServer } = await import('../serve/server.js');
  const { server } = makeServer({ records: o.records, dbs: o.db, jobLimitMs: o.analysisLimit * 1000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new TafelError('bad-option', `--host ${o.host} --port ${o.port}: cannot listen (${e.code ?? e.message})`)),
    );
    server.listen(o.port, o.host, resolve);
  });
  if (!LOOPBACK.test(o.host))
    process.stderr.write(
      `tafel serve: warning: listening on ${o.host}, not loopback: anyone who reaches it can use the page\n`,
    );
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `http://${host}:${port}/`;
  process.stdout.write(`tafel serve: ${url} (Ctrl-C to stop)\n`);
  if (o.open) {
    const { spawn } = await import('node:child_process');
    const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    spawn(opener, [url], { stdio: 'ignore', detached: true })
      .on('error', () => process.stderr.write(`tafel serve: could not start ${opener}; open ${url} by hand\n`))
      .unref();
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
