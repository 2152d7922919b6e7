/**
 * `tafel serve`'s web server: node:http, a JSON API under /api/ and the page built by
 * vite into dist/web/ (listed once at start; no other file is ever served). A bad
 * request gets a status and one line of text; a client that goes away mid-request
 * changes nothing (a play session waits for its next answer, src/serve/play.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { TafelError } from '../core/errors.js';
import { PACKAGE_DIR } from '../harness/run/version.js';
import { GAMES } from '../games/index.js';
import { BUILTIN_BOTS } from '../../bots/registry.js';
import { PlayRooms, type PlayRequest } from './play.js';
import { RecordFiles, type DealFilter } from './replay.js';
import { RunDatabases } from './runs.js';
import { Jobs, JobRefused } from './jobs.js';
import { DEFAULT_BUDGET, MAX_BUDGET, type Analysis } from './analysis.js';
import { rebuildDeal } from './rebuild.js';

/** Where vite puts the page. */
const WEB_DIR = join(PACKAGE_DIR, 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const MAX_BODY = 64 * 1024;

/** A status and one line for the client. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Every file of the built page by its URL path. */
function pageFiles(dir: string): Map<string, { type: string; body: Buffer }> {
  if (!existsSync(join(dir, 'index.html')))
    throw new TafelError('missing-input', `the page is not built (no ${join(dir, 'index.html')}): run npm run build`);
  const files = new Map<string, { type: string; body: Buffer }>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        files.set('/' + relative(dir, path).split(sep).join('/'), {
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          body: readFileSync(path),
        });
    }
  };
  walk(dir);
  files.set('/', files.get('/index.html')!);
  return files;
}

function gamesJson(): unknown {
  return GAMES.map((g) => ({
    name: g.name,
    minSeats: g.minSeats,
    maxSeats: g.maxSeats,
    defaultSeats: g.defaultSeats,
    variants: g.variants.map((v) => ({ key: v.key, description: v.description, default: v.default, type: v.type })),
    bots: BUILTIN_BOTS.filter((b) => !b.cheats && (!b.games || b.games.includes(g.name))).map((b) => b.name),
  }));
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
}

export interface ServeOptions {
  readonly webDir?: string;
  /** The record files Replay may read (`--records`), and no others. */
  readonly records?: readonly string[];
  /** The run databases Replay may read (`--db`), and no others. */
  readonly dbs?: readonly string[];
  /** The longest an analysis (or a deal played again) may run, in ms (default 60 s). */
  readonly jobLimitMs?: number;
}

/** Records played again from a run's spec, kept: the last this many. */
const KEEP_RECORDS = 64;

export interface Served {
  readonly server: Server;
  readonly rooms: PlayRooms;
}

export function makeServer(options: ServeOptions = {}): Served {
  const files = pageFiles(options.webDir ?? WEB_DIR);
  const rooms = new PlayRooms();
  const games = JSON.stringify(gamesJson());
  const records = new RecordFiles(options.records ?? []);
  const dbs = new RunDatabases(options.dbs ?? []);
  const jobs = new Jobs(options.jobLimitMs ?? 60_000);
  const played = new Map<string, Record<string, unknown>>();

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const from = Number(url.searchParams.get('from') ?? 0) || 0;
    const json = (value: unknown, text?: string): void => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(text ?? JSON.stringify(value));
    };
    if (!path.startsWith('/api/')) {
      const file = method === 'GET' ? files.get(path) : undefined;
      if (!file) throw new HttpError(404, `no page at ${path}`);
      res.writeHead(200, { 'content-type': file.type });
      res.end(file.body);
      return;
    }
    const parts = path.split('/').slice(2);
    const q = url.searchParams;
    const num = (key: string): number | undefined => {
      const v = q.get(key);
      if (v === null || v === '') return undefined;
      if (!/^\d{1,15}$/.test(v)) throw new HttpError(400, `${key}=${v}: a whole number from 0`);
      return Number(v);
    };
    const need = (key: string): number => {
      const v = num(key);
      if (v === undefined) throw new HttpError(400, `${key}: missing`);
      return v;
    };
    /** A job in the worker, stopped if the client goes away first. */
    const job = <T>(j: Parameters<Jobs['run']>[0]): Promise<T> =>
      jobs.run<T>(j, (stop) => res.once('close', () => !res.writableEnded && stop()));
    /** The record a request names: `file` and `line`, or `db`, `run`, `grp`, `rotation` and `deal`. */
    const recordOf = async (): Promise<Record<string, unknown>> => {
      if (q.get('db') === null) return records.record(need('file'), need('line'));
      const at = { run: need('run'), grp: need('grp'), rotation: need('rotation'), deal: need('deal') };
      const { record, again } = await dbs.record(need('db'), at);
      if (record) return record;
      const key = JSON.stringify([q.get('db'), at]);
      const kept = played.get(key) ?? (await job<Record<string, unknown>>({ kind: 'regenerate', ...again }));
      played.delete(key);
      played.set(key, kept);
      if (played.size > KEEP_RECORDS) played.delete(played.keys().next().value!);
      return kept;
    };
    if (method === 'GET' && path === '/api/games') return json(null, games);
    if (method === 'POST' && path === '/api/replay/db-query') {
      const b = (await body(req)) as { db?: unknown; sql?: unknown };
      if (typeof b?.sql !== 'string' || typeof b.db !== 'number')
        throw new HttpError(400, 'a query names its db and sql');
      return json(await dbs.query(b.db, b.sql));
    }
    if (method === 'GET' && path === '/api/analysis') {
      const ply = need('ply');
      const budget = num('budget') ?? DEFAULT_BUDGET;
      if (budget < 1000 || budget > MAX_BUDGET)
        throw new HttpError(400, `budget=${budget}: 1000 to ${MAX_BUDGET} nodes`);
      const record = await recordOf();
      return json(await job<Analysis>({ kind: 'analyse', req: { record, ply, bot: q.get('bot') ?? '', budget } }));
    }
    if (method === 'GET' && parts[0] === 'replay') {
      if (parts[1] === 'files' && parts.length === 2) return json(records.list());
      if (parts[1] === 'dbs' && parts.length === 2) return json(dbs.list());
      if (parts[1] === 'db-deals' && parts.length === 2) {
        const filter = {
          seed: q.get('seed') || undefined,
          group: num('group'),
          rotation: num('rotation'),
          deal: num('deal'),
        };
        return json(await dbs.deals(need('db'), filter));
      }
      if (parts[1] === 'db-record' && parts.length === 2) return json(await recordOf());
      if (parts[1] === 'decisions' && parts.length === 2) {
        const { plies } = rebuildDeal(await recordOf());
        return json(plies.map(({ seat, decision, name, trick }, ply) => ({ ply, seat, decision, name, trick })));
      }
      const file = num('file') ?? -1;
      if (parts[1] === 'deals' && parts.length === 2) {
        const seed = q.get('seed') || undefined;
        const filter: DealFilter = { seed, match: num('match'), deal: num('deal'), rotation: num('rotation') };
        return json(records.deals(file, filter));
      }
      if (parts[1] === 'record' && parts.length === 2) return json(records.record(file, num('line') ?? 0));
    }
    if (parts[0] === 'play') {
      if (method === 'POST' && parts.length === 1) return json(await rooms.open((await body(req)) as PlayRequest));
      const id = parts[1] ?? '';
      if (method === 'GET' && parts.length === 2) return json(rooms.view(id, from));
      if (method === 'POST' && parts.length === 3 && parts[2] === 'answer') {
        const b = (await body(req)) as { line?: unknown; from?: unknown };
        return json(await rooms.answer(id, b?.line, typeof b?.from === 'number' ? b.from : 0));
      }
      if (method === 'GET' && parts.length === 3 && parts[2] === 'records') {
        res.writeHead(200, {
          'content-type': 'application/x-ndjson',
          'content-disposition': `attachment; filename="tafel-play-${id}.jsonl"`,
        });
        res.end(rooms.records(id));
        return;
      }
    }
    throw new HttpError(404, `no API at ${method} ${path}`);
  };

  const server = createServer((req, res) => {
    res.on('error', () => {});
    route(req, res).catch((e: unknown) => {
      const status =
        e instanceof HttpError ? e.status : e instanceof JobRefused ? 503 : e instanceof TafelError ? 400 : 500;
      const line = String((e as Error)?.message ?? e).split('\n')[0];
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(line + '\n');
    });
  });
  server.on('close', () => {
    rooms.closeAll();
    jobs.stop();
    dbs.closeAll();
  });
  return { server, rooms };
}
