/** `tafel query ... --parquet`: which export the arguments ask for (src/harness/db/parquet.ts writes it). */
import { existsSync } from 'node:fs';
import { TafelError } from '../core/errors.js';

export interface QueryFlags {
  csv?: boolean;
  json?: boolean;
  parquet?: string;
  force?: boolean;
}

/**
 * `query --parquet`: a name ending .parquet takes the result of the SQL (the last
 * argument), any other name is a directory for every table (every argument a database).
 */
export async function queryParquet(args: string[], o: QueryFlags & { parquet: string }): Promise<void> {
  if (o.csv || o.json)
    throw new TafelError('bad-option', `query: give --${o.csv ? 'csv' : 'json'} or --parquet, not both`);
  const { exportQuery, exportTables } = await import('../harness/db/parquet.js');
  const target = { shown: o.parquet, force: o.force === true };
  if (o.parquet.toLowerCase().endsWith('.parquet')) {
    // A last argument that is a file is a database: the SQL is missing.
    if (args.length < 2 || existsSync(args[args.length - 1]))
      throw new TafelError(
        'missing-option',
        "query: --parquet FILE.parquet writes a query's result: give the databases, then the SQL",
      );
    return exportQuery(args.slice(0, -1), args[args.length - 1], target);
  }
  const last = args[args.length - 1];
  if (!existsSync(last) && /\s/.test(last))
    throw new TafelError(
      'bad-option',
      "query: --parquet DIR writes every table and takes no SQL; to write a query's result, give --parquet FILE.parquet",
    );
  const written = await exportTables(args, target);
  process.stdout.write(`wrote ${written.join(', ')} in ${o.parquet}\n`);
}
