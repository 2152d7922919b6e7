/**
 * A run's database (`--db FILE.duckdb`): a DuckDB catalogue of the runs, their bots,
 * boards and faults, and the rows of every deal, seat and match played as Parquet parts
 * beside it, each written by the worker thread that played it (parts.ts, rows.ts). The
 * main thread only orders and commits: a batch's parts are committed, with its faults,
 * by rewriting committed.json, before the journal names their groups.
 *
 * Never half-written: a part is written under a temporary name and renamed whole, and
 * committed.json is replaced whole, so the committed parts always hold at least the
 * journal's groups. Ctrl-C commits and stops at the journal's last group, and the run
 * deletes the parts it played past it; after a crash there may be parts (and a commit)
 * past the journal, which `--resume` deletes (`cutBack`) before it plays them again. So
 * a resumed run ends with the same rows as an uninterrupted one.
 *
 * The catalogue is opened only to be made and to be closed (faults, the end time), so
 * a running run holds no lock that would keep `tafel query` out.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { TafelError } from '../../core/errors.js';
import type { Game } from '../../games/game.js';
import { botText, rulesText, type RunSpec } from '../run/spec.js';
import { contentsOf, runNumber, schemaOf, type DbSchema } from './schema.js';
import type { Failure } from '../run/batch.js';
import type { DbBatch } from './rows.js';
import { macroSql } from './macros.js';
import { withCatalogue, type Catalogue } from './catalogue.js';
import { shardRange, shardText } from '../run/shard.js';
import {
  emptyManifest,
  partFile,
  partsDir,
  readManifest,
  sqlString,
  TABLE_NAMES,
  tableSql,
  writeManifest,
  type FaultRow,
  type Manifest,
  type PartEntry,
} from './parts.js';

export { sqlName, sqlString } from './parts.js';

const RUNS_COLUMNS = `run INTEGER, game VARCHAR, seats INTEGER, rules VARCHAR, bots VARCHAR, seed VARCHAR,
  unit VARCHAR, groups INTEGER, rotations INTEGER, shard VARCHAR, tafel VARCHAR, started TIMESTAMP,
  finished TIMESTAMP, spec JSON`;
const BOTS_COLUMNS = 'run INTEGER, label VARCHAR, bot VARCHAR, source VARCHAR, params JSON, cheats BOOLEAN';
const BOARDS_COLUMNS = 'run INTEGER, grp INTEGER, board VARCHAR, line INTEGER, deal JSON';
export const FAULTS_COLUMNS =
  'run INTEGER, grp INTEGER, rotation SMALLINT, deal INTEGER, seat SMALLINT, bot VARCHAR, kind VARCHAR, message VARCHAR';

/** The statements that make an empty catalogue. */
function createSql(): string[] {
  return [
    `CREATE TABLE runs (${RUNS_COLUMNS})`,
    `CREATE TABLE bots (${BOTS_COLUMNS})`,
    `CREATE TABLE boards (${BOARDS_COLUMNS})`,
    `CREATE TABLE faults (${FAULTS_COLUMNS})`,
    ...macroSql(false),
  ];
}

/** A fault row as SQL values. */
export function faultValues(f: FaultRow): string {
  const n = (x: number | null) => (x === null ? 'NULL' : String(x));
  const t = (x: string | null) => (x === null ? 'NULL' : sqlString(x));
  return `(${f.run}, ${f.grp}, ${n(f.rotation)}, ${n(f.deal)}, ${n(f.seat)}, ${t(f.bot)}, ${t(f.kind)}, ${t(f.message)})`;
}

function toRow(run: number, p: DbBatch): PartEntry {
  return [run, p.start, p.groups, p.deals, p.seats, p.matches];
}

/** What a run's rows are committed with, for one run or for several (an experiment's). */
export class RunDatabase {
  /**
   * Rows waiting for a commit that call for one now: none, ever. A commit rewrites
   * committed.json, whatever the rows, so the collector's time bound alone decides
   * (a commit per batch would make a long run's commits quadratic).
   */
  readonly waiting = 0;
  private pending: PartEntry[] = [];
  private pendingFaults: FaultRow[] = [];

  private constructor(
    readonly path: string,
    readonly schema: DbSchema,
    private readonly manifest: Manifest,
    /** The catalogue being made (a new database), settled by `ready`. */
    private readonly made: Promise<void> = Promise.resolve(),
    /** The parts of the database this one replaced, being deleted meanwhile. */
    private readonly cleared: Promise<void> = Promise.resolve(),
  ) {}

  /**
   * Settles once the catalogue is made: `open` starts making it and returns, so that it
   * is made while the workers start; a run awaits this before its first batch, so that
   * a database that cannot be made stops it before any play.
   */
  ready(): Promise<void> {
    return this.made;
  }

  /**
   * Open the database at `path` for the runs `specs` (one game): `create` makes it anew
   * (replacing a file there and its parts: the caller has checked that it may),
   * `continue` opens the one they were started in (a resume) and checks that it holds them.
   */
  static open(
    path: string,
    game: Game,
    specs: readonly RunSpec[],
    mode: 'create' | 'continue',
    /** The runs whose columns the tables have (by default `specs`; a merge's are its shards'). */
    like: readonly RunSpec[] = specs,
  ): RunDatabase {
    const schema = schemaOf(game, contentsOf(like));
    const fresh = emptyManifest(schema);
    if (mode === 'create') {
      rmSync(path, { force: true });
      rmSync(`${path}.wal`, { force: true });
      // The old parts are moved aside and deleted while the run plays: freeing a big
      // run's pages takes the kernel a while, which the start should not wait for.
      const old = `${partsDir(path)}.old`;
      rmSync(old, { recursive: true, force: true });
      let cleared = Promise.resolve();
      if (existsSync(partsDir(path))) {
        renameSync(partsDir(path), old);
        // A failure leaves only the moved-aside directory, which the next create deletes.
        cleared = rm(old, { recursive: true, force: true }).catch(() => undefined);
      }
      const made = withCatalogue(path, async (c) => {
        for (const sql of createSql()) await c.run(sql);
        for (const s of specs) await addRun(c, s);
      });
      // Awaited by `ready` or `close`: not a rejection nobody handles meanwhile.
      made.catch(() => undefined);
      mkdirSync(partsDir(path), { recursive: true });
      for (const s of specs) {
        const { from, to } = shardRange(s.groups, s.shard);
        const labels = s.entrants.map((e) => e.label);
        fresh.runs.push({ run: runNumber(s), shard: s.shard ? shardText(s.shard) : null, from, to, labels });
      }
      writeManifest(path, fresh);
      return new RunDatabase(path, schema, fresh, made, cleared);
    }
    if (!existsSync(path)) throw new TafelError('bad-resume', `cannot resume: the database ${path} is missing`);
    const bad = (why: string): never => {
      throw new TafelError('bad-resume', `cannot resume: the database ${path} ${why}`);
    };
    let m: Manifest | null = null;
    try {
      m = readManifest(path);
    } catch (e) {
      bad(`has an unreadable commit record (${(e as Error).message})`);
    }
    if (!m) return bad('keeps its rows in its own tables (an older tafel wrote it): start the run anew');
    if (JSON.stringify(m.tables) !== JSON.stringify(fresh.tables))
      bad("has other columns than this run writes (another tafel, or another run's?)");
    for (const s of specs)
      if (!m.runs.some((r) => r.run === runNumber(s))) bad('is not the one this run was started in');
    m.live = true;
    writeManifest(path, m);
    return new RunDatabase(path, schema, m);
  }

  /** Take in a batch's parts of run `spec` (written by its worker), to be committed by the next `flush`. */
  append(spec: RunSpec, parts: readonly DbBatch[]): void {
    const run = runNumber(spec);
    for (const p of parts) this.pending.push(toRow(run, p));
  }

  /** A row of `faults` for each bot's fault among `failures` (of run `spec`, in group order). */
  appendFaults(spec: RunSpec, failures: readonly Failure[]): void {
    const run = runNumber(spec);
    for (const f of failures) {
      if (f.fault === null) continue;
      this.pendingFaults.push({
        run,
        grp: f.group,
        rotation: f.at?.rotation ?? null,
        deal: f.at?.deal ?? null,
        seat: f.at?.seat ?? null,
        bot: spec.entrants[f.entrant]?.label ?? null,
        kind: f.fault,
        message: f.message,
      });
    }
  }

  /** Commit what was taken in (before the journal names it). */
  flush(): void {
    if (!this.pending.length && !this.pendingFaults.length) return;
    this.manifest.parts.push(...this.pending);
    this.manifest.faults.push(...this.pendingFaults);
    this.pending = [];
    this.pendingFaults = [];
    writeManifest(this.path, this.manifest);
  }

  /** The part files of run `run` on disk: table and first group of each (temporary files as start -1). */
  private filesOf(run: number): { table: string; start: number; file: string }[] {
    const dir = join(partsDir(this.path), String(run));
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((file) => {
      const m = /^(deals|seats|matches)-(\d+)\.parquet$/.exec(file);
      return m ? { table: m[1], start: Number(m[2]), file } : { table: '', start: -1, file };
    });
  }

  /** Delete run `run`'s part files that no committed part names (played past the last commit). */
  private dropUncommitted(run: number): void {
    const kept = new Set(this.manifest.parts.filter((p) => p[0] === run).map((p) => p[1]));
    const dir = join(partsDir(this.path), String(run));
    for (const f of this.filesOf(run)) if (!kept.has(f.start)) rmSync(join(dir, f.file), { force: true });
  }

  /**
   * Before a resume: delete the parts and faults of `spec`'s groups from its shard's
   * `kept`-th on, and check that the groups before hold `deals` deals, as the journal says.
   */
  async cutBack(spec: RunSpec, kept: number, deals: number): Promise<void> {
    const run = runNumber(spec);
    const { from, to } = shardRange(spec.groups, spec.shard);
    const cut = from + kept;
    const mine = (run2: number, g: number) => run2 === run && g >= from && g < to;
    const m = this.manifest;
    m.parts = m.parts.filter((p) => !(mine(p[0], p[1]) && p[1] >= cut));
    m.faults = m.faults.filter((f) => !(mine(f.run, f.grp) && f.grp >= cut));
    // A part that ends past the cut (a journal whose last lines were lost): its rows before the cut.
    for (const p of m.parts) if (mine(p[0], p[1]) && p[1] + p[2] > cut) await this.cutPart(p, cut);
    this.dropUncommitted(run);
    let have = 0;
    for (const p of m.parts) if (mine(p[0], p[1])) have += p[3];
    if (have !== deals) {
      throw new TafelError(
        'bad-resume',
        `cannot resume: the database ${this.path} holds ${have} deals of the run's first ${kept} groups, but the journal has ${deals}`,
      );
    }
    writeManifest(this.path, m);
  }

  /** Rewrite part `p` with its rows of groups before `cut` (DuckDB reads and writes it). */
  private async cutPart(p: PartEntry, cut: number): Promise<void> {
    // The API, loaded only here: a resume after a crash, which reads results.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const c = await instance.connect();
    try {
      for (const [i, table] of TABLE_NAMES.entries()) {
        if (!this.manifest.tables[table]) continue;
        const file = join(partsDir(this.path), partFile(p[0], table, p[1]));
        const tmp = `${file}.cut`;
        await c.run(
          `COPY (SELECT * FROM read_parquet(${sqlString(file)}) WHERE grp < ${cut}) TO ${sqlString(tmp)} (FORMAT parquet)`,
        );
        const r = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet(${sqlString(tmp)})`);
        p[3 + i] = r.getRows()[0][0] as number;
        renameSync(tmp, file);
      }
    } finally {
      c.closeSync();
      instance.closeSync();
    }
    p[2] = cut - p[1];
  }

  /**
   * Take in the parts of shard `spec` (of the run this database holds whole) from its own
   * database at `path`, after checking that it holds the `deals` deals its journal names.
   */
  copyShard(path: string, spec: RunSpec, deals: number): void {
    const run = runNumber(spec);
    const { from, to } = shardRange(spec.groups, spec.shard);
    const fail = (why: string): never => {
      throw new TafelError('bad-merge', `merge --db: ${path}: ${why}`);
    };
    if (!existsSync(path)) fail('no such file');
    let m: Manifest | null = null;
    try {
      m = readManifest(path);
    } catch (e) {
      fail((e as Error).message);
    }
    if (!m) return fail('keeps its rows in its own tables (an older tafel wrote it): play the shard again');
    const mine = (run2: number, g: number) => run2 === run && g >= from && g < to;
    const parts = m.parts.filter((p) => mine(p[0], p[1]));
    const have = parts.reduce((n, p) => n + p[3], 0);
    if (have !== deals) {
      throw new TafelError(
        'bad-merge',
        `merge --db: ${path} holds ${have} deals of shard ${shardText(spec.shard!)}, but its journal has ${deals}`,
      );
    }
    mkdirSync(join(partsDir(this.path), String(run)), { recursive: true });
    for (const p of parts) {
      for (const table of TABLE_NAMES) {
        if (!this.manifest.tables[table]) continue;
        const name = partFile(p[0], table, p[1]);
        const source = join(partsDir(path), name);
        const target = join(partsDir(this.path), name);
        if (!existsSync(source)) fail(`its part ${name} is missing`);
        // Parts are never changed once written: a link shares one, where the file system allows.
        try {
          linkSync(source, target);
        } catch {
          copyFileSync(source, target);
        }
      }
      this.pending.push([...p]);
    }
    this.pendingFaults.push(...m.faults.filter((f) => mine(f.run, f.grp)));
    this.flush();
  }

  /** Commit, delete what was played past the commit, write the faults and the run's end time, and close. */
  async close(finished: readonly RunSpec[] = []): Promise<void> {
    await this.made;
    await this.cleared;
    this.flush();
    for (const r of this.manifest.runs) this.dropUncommitted(r.run);
    await withCatalogue(this.path, async (c) => {
      await c.run('DELETE FROM faults');
      const faults = this.manifest.faults;
      for (let i = 0; i < faults.length; i += 1000)
        await c.run(
          `INSERT INTO faults VALUES ${faults
            .slice(i, i + 1000)
            .map(faultValues)
            .join(', ')}`,
        );
      // Views over the parts for any DuckDB client, their paths relative to the database's
      // directory (where a client opened from there, or with file_search_path, finds them).
      // DuckDB binds a view as it makes it: from the database's directory, as a client would.
      await c.run(`SET file_search_path = ${sqlString(dirname(resolve(this.path)))}`);
      for (const t of TABLE_NAMES) {
        const sql = tableSql(this.manifest, t, (part) => `${basename(this.path)}.parts/${part}`, true);
        if (sql !== null) await c.run(`CREATE OR REPLACE VIEW ${t} AS ${sql}`);
      }
      for (const s of finished) {
        await c.run(
          `UPDATE runs SET finished = now()::TIMESTAMP WHERE run = ${runNumber(s)} AND shard IS NOT DISTINCT FROM ${shardSql(s)}`,
        );
      }
    });
    this.manifest.live = false;
    writeManifest(this.path, this.manifest);
  }
}

function shardSql(spec: RunSpec): string {
  return spec.shard ? sqlString(shardText(spec.shard)) : 'NULL';
}

/** The run's rows of `runs` and `bots`. */
async function addRun(c: Catalogue, s: RunSpec): Promise<void> {
  const run = runNumber(s);
  const { files, moveTimeout, onBotError, timeMoves, ...identity } = s;
  void files;
  void moveTimeout;
  void onBotError;
  void timeMoves;
  const values = [
    run,
    sqlString(s.game),
    s.seats,
    sqlString(rulesText(s.rules)),
    sqlString(s.bots.join(',')),
    sqlString(s.seed),
    sqlString(s.unit),
    s.groups,
    s.seatings.length,
    shardSql(s),
    sqlString(s.tafel),
    'now()::TIMESTAMP',
    'NULL',
    sqlString(JSON.stringify(identity)),
  ];
  await c.run(`INSERT INTO runs VALUES (${values.join(', ')})`);
  // A run of boards: the board of each of its (its shard's) groups.
  const { from, to } = shardRange(s.groups, s.shard);
  const boards = s.boards?.boards.slice(from, to) ?? [];
  if (boards.length) {
    const rows = boards.map(({ id, line, dealer, hands, turnup }, i) => {
      const deal = sqlString(JSON.stringify({ dealer, hands, turnup }));
      return `(${run}, ${from + i}, ${sqlString(id)}, ${line}, ${deal})`;
    });
    await c.run(`INSERT INTO boards VALUES ${rows.join(', ')}`);
  }
  for (const e of s.entrants) {
    await c.run(
      `INSERT INTO bots VALUES (${run}, ${sqlString(e.label)}, ${sqlString(botText(e))}, ${sqlString(e.source)}, ${sqlString(JSON.stringify(e.params))}, ${e.cheats})`,
    );
  }
}
