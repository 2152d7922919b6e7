/**
 * `tafel report INPUTS... --out FILE.html`: one page from what runs and experiments
 * leave.
 */
import { resolve } from 'node:path';
import { TafelError } from '../core/errors.js';
import { checkOutputs } from '../harness/run/outputs.js';
import { databaseInputs, readInputs } from '../report/inputs.js';
import { kilobytes, shown } from './common.js';

export interface ReportFlags {
  out: string;
  title?: string;
  force?: boolean;
}

export async function reportCommand(inputs: readonly string[], o: ReportFlags): Promise<void> {
  const out = resolve(o.out);
  if (inputs.some((p) => resolve(p) === out))
    throw new TafelError('bad-output', `report: --out ${o.out} is one of the inputs`);
  checkOutputs([{ flag: '--out', kind: 'html', shown: o.out, path: out }], {
    existing: o.force ? 'replace' : 'refuse',
  });
  const parts = readInputs(inputs, await databaseInputs(inputs));
  // The plotting library takes a second to load: not before the inputs have been read.
  const { writeReport } = await import('../report/page.js');
  const bytes = writeReport(out, parts, { title: o.title, made: new Date() });
  process.stderr.write(`tafel: report written to ${shown(out)} (${kilobytes(bytes)})\n`);
}
