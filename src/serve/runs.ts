/**
 * Replay's run databases: the files given to `tafel serve --db` (a catalogue FILE.duckdb
 * and its Parquet parts, as `tafel run --db` writes them), named to the page by index,
 * read with `tafel query`'s code (src/harness/db/query.ts), each opened at its first
 * request and kept.
 *
 * A database holds a row per deal (run, grp, rotation, match, deal and the game's facts),
 * the deal's record only when the run wrote `--records` too. Without it, the deal is
 * played again from the run's spec (the runs table's `spec`: seed, rules, bots, seats)
 * with the engine, which gives the same deal exactly (every deal of a run depends only
 * on the seed and its coordinates: harness/table/replay.ts `regenerateRecord`); only
 * runs of built-in bots, since the page never loads code.
 *
 * A query is one SELECT (or WITH ... SELECT), run in the database's own session, in which
 * DuckDB may read no file but the database's parts (`allowed_directories`, external
 * access off, configuration locked): the page reads nothing else through it.
 */
import { resolve, basename, sep } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { TafelError } from '../core/errors.js';
import { builtinBot } from '../../bots/registry.js';
import { firstLine, openQuery, plain, type Value } from '../harness/db/query.js';
import { partsDir } from '../harness/db/parts.js';
import { liveRun, type RunSpec } from '../harness/run/spec.js';
import { regenerateRecord } from '../harness/table/replay.js';

/** At most this many rows of a list or a query's result. */
const LIST_MAX = 200;

/** A deal of a database as the page names it. */
export interface DbDeal {
  readonly run: number;
  readonly seed: string;
  readonly grp: number;
  readonly rotation: number;
  readonly match: number;
  readonly deal: number;
}

export interface DbFilter {
  readonly seed?: string;
  readonly group?: number;
  readonly rotation?: number;
  readonly deal?: number;
}

interface Session {
  readonly connection: DuckDBConnection;
  readonly runs: Map<number, { seed: string; spec: string }>;
  readonly records: boolean;
  /** Requests of one session one after another (a connection runs one statement at a time). */
  queue: Promise<unknown>;
}

export class RunDatabases {
  private readonly sessions = new Map<number, Promise<Session>>();
  private readonly closers: (() => void)[] = [];

  constructor(private readonly paths: readonly string[]) {
    for (const p of paths) {
      if (!existsSync(p)) throw new TafelError('missing-input', `--db ${p}: no such file`);
      if (!statSync(p).isFile()) throw new TafelError('bad-input', `--db ${p}: not a file`);
    }
  }

  list(): { index: number; name: string }[] {
    return this.paths.map((p, index) => ({ index, name: basename(p) }));
  }

  private session(index: number): Promise<Session> {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.paths.length)
      return Promise.reject(new TafelError('bad-option', `no database ${index} (there are ${this.paths.length})`));
    let s = this.sessions.get(index);
    if (!s) {
      s = this.open(this.paths[index]);
      this.sessions.set(index, s);
      s.catch(() => this.sessions.delete(index));
    }
    return s;
  }

  private async open(path: string): Promise<Session> {
    const session = await openQuery([path], 'serve');
    const connection = session.connection;
    this.closers.push(() => session.close());
    const dir = resolve(partsDir(path));
    await connection.run(`SET allowed_directories = ['${dir.replaceAll("'", "''")}${sep}']`);
    await connection.run('SET enable_external_access = false');
    await connection.run('SET lock_configuration = true');
    const runs = new Map<number, { seed: string; spec: string }>();
    for (const [run, seed, spec] of (await connection.runAndReadAll('SELECT run, seed, spec FROM runs')).getRowsJS())
      runs.set(Number(run), {
        seed: typeof seed === 'string' ? seed : '?',
        spec: typeof spec === 'string' ? spec : '{}',
      });
    const columns = (await connection.runAndReadAll('SELECT * FROM deals LIMIT 0')).columnNames();
    return { connection, runs, records: columns.includes('record'), queue: Promise.resolve() };
  }

  /** Run `f` on database `index`'s session when its earlier requests are done. */
  private async use<T>(index: number, f: (s: Session) => Promise<T>): Promise<T> {
    const s = await this.session(index);
    const next = s.queue.then(
      () => f(s),
      () => f(s),
    );
    s.queue = next.catch(() => undefined);
    return next;
  }

  /** The deals of database `index` that pass `filter`: the first LIST_MAX in order, and how many passed. */
  deals(index: number, filter: DbFilter): Promise<{ deals: DbDeal[]; matched: number }> {
    return this.use(index, async ({ connection, runs }) => {
      const where: string[] = [];
      if (filter.seed !== undefined) {
        const wanted = [...runs].filter(([, r]) => r.seed === filter.seed).map(([run]) => run);
        where.push(wanted.length ? `run IN (${wanted.join(', ')})` : 'false');
      }
      if (filter.group !== undefined) where.push(`grp = ${filter.group}`);
      if (filter.rotation !== undefined) where.push(`rotation = ${filter.rotation}`);
      if (filter.deal !== undefined) where.push(`deal = ${filter.deal}`);
      const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const count = (await connection.runAndReadAll(`SELECT count(*) FROM deals ${cond}`)).getRowsJS()[0][0];
      const rows = (
        await connection.runAndReadAll(
          `SELECT run, grp, rotation, match, deal FROM deals ${cond} ORDER BY run, grp, rotation, deal LIMIT ${LIST_MAX}`,
        )
      ).getRowsJS();
      return { deals: rows.map((r) => this.dealOf(runs, r.map(Number))), matched: Number(count) };
    });
  }

  private dealOf(runs: Session['runs'], [run, grp, rotation, match, deal]: number[]): DbDeal {
    return { run, seed: runs.get(run)?.seed ?? '?', grp, rotation, match, deal };
  }

  /**
   * The result of `sql`, one SELECT, and for each row the deal it names: its columns
   * must include `grp`, `rotation` and `deal` (and `run` when the database holds more
   * than one run).
   */
  query(index: number, sql: string): Promise<{ columns: string[]; rows: Value[][]; deals: DbDeal[]; more: boolean }> {
    return this.use(index, async ({ connection, runs }) => {
      const refuse = (why: string): never => {
        throw new TafelError('bad-sql', why);
      };
      const statements = await connection.extractStatements(sql).catch((e) => refuse(firstLine(e)));
      if (statements.count !== 1) refuse(`${statements.count} statements given: one SELECT is asked`);
      const prepared = await statements.prepare(0).catch((e) => refuse(firstLine(e)));
      if (prepared.statementType !== StatementType.SELECT)
        refuse('only a SELECT (or WITH ... SELECT) may be asked: the page reads, never writes');
      const result = await prepared.runAndReadAll().catch((e) => refuse(firstLine(e)));
      const columns = result.columnNames();
      const at = (name: string) => columns.findIndex((c) => c.toLowerCase() === name);
      const [run, grp, rotation, deal, match] = ['run', 'grp', 'rotation', 'deal', 'match'].map(at);
      if (grp < 0 || rotation < 0 || deal < 0 || (run < 0 && runs.size > 1))
        refuse(
          `the result's columns must name a deal: grp, rotation and deal${runs.size > 1 ? ', and run (the database holds several runs)' : ''}`,
        );
      const all = result.getRowsJS();
      const rows = all.slice(0, LIST_MAX).map((r) => r.map(plain));
      const only = [...runs.keys()][0];
      const deals = rows.map((r) => {
        const runOf = run >= 0 ? Number(r[run]) : only;
        const rotations = JSON.parse(runs.get(runOf)?.spec ?? '{"seatings":[[]]}') as { seatings: unknown[] };
        const m = match >= 0 ? Number(r[match]) : Number(r[grp]) * rotations.seatings.length + Number(r[rotation]);
        return this.dealOf(runs, [runOf, Number(r[grp]), Number(r[rotation]), m, Number(r[deal])]);
      });
      return { columns, rows, deals, more: all.length > LIST_MAX };
    });
  }

  /**
   * The record of a deal: the database's own (`--records` runs), else null with what
   * `regenerate` needs to play it again.
   */
  record(
    index: number,
    at: { run: number; grp: number; rotation: number; deal: number },
  ): Promise<{ record: Record<string, unknown> | null; again: RegenerateRequest }> {
    return this.use(index, async ({ connection, runs, records }) => {
      const where = `run = ${at.run} AND grp = ${at.grp} AND rotation = ${at.rotation} AND deal = ${at.deal}`;
      const cols = records ? 'match, record' : 'match';
      const rows = (await connection.runAndReadAll(`SELECT ${cols} FROM deals WHERE ${where} LIMIT 1`)).getRowsJS();
      if (rows.length === 0)
        throw new TafelError(
          'bad-option',
          `no deal ${at.deal} of group ${at.grp}, rotation ${at.rotation} of run ${at.run} in ${basename(this.paths[index])}`,
        );
      const [match, rec] = rows[0];
      const again = { spec: runs.get(at.run)!.spec, match: Number(match), deal: at.deal };
      if (typeof rec === 'string') return { record: JSON.parse(rec) as Record<string, unknown>, again };
      return { record: null, again };
    });
  }

  closeAll(): void {
    for (const close of this.closers.splice(0)) close();
    this.sessions.clear();
  }
}

/** What playing a deal of a run again needs: the run's spec as the runs table holds it, and the deal. */
export interface RegenerateRequest {
  readonly spec: string;
  readonly match: number;
  readonly deal: number;
}

/** The record of deal `deal` of match `match` of the run, played again by the engine (in a worker: jobs.ts). */
export async function regenerate(req: RegenerateRequest): Promise<Record<string, unknown>> {
  const identity = JSON.parse(req.spec) as Omit<RunSpec, 'files' | 'moveTimeout' | 'onBotError' | 'timeMoves'>;
  for (const e of identity.entrants) {
    if (Object.keys(identity.programs ?? {}).length > 0 || !builtinBot(e.source, identity.game))
      throw new TafelError(
        'bad-option',
        `bot ${e.label} is not built in, and the page plays built-in bots only: write the run with --records to replay its deals`,
      );
  }
  const spec: RunSpec = {
    ...identity,
    boards: identity.boards ?? null,
    timeControl: identity.timeControl ?? null,
    programs: {},
    files: { dir: '.', out: null, journal: null, records: null, dealCsv: null, db: null, report: null },
    moveTimeout: null,
    onBotError: 'stop',
    timeMoves: false,
  };
  return regenerateRecord(await liveRun(spec), req.match, req.deal);
}
