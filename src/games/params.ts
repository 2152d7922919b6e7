/**
 * Parsing `key=value` settings against their specs: rule variants (`--rules`) and bot
 * parameters (`heuristic:aggression=0.7`). Shared by games, bots and the CLI so that
 * every setting is validated the same way and every error names the setting.
 */
import { TafelError } from '../core/errors.js';
import type { ParamSpec, ParamValue, Params } from './game.js';

/** Parse one value of `spec` from text. `where` names the owner for errors ("bot heuristic"). */
export function parseParam(spec: ParamSpec, text: string, where: string): ParamValue {
  const bad = (why: string): never => {
    throw new TafelError('bad-param', `${where}: ${spec.key}=${text}: ${why}`);
  };
  if (spec.type === 'boolean') {
    if (/^(true|yes|on|1)$/i.test(text)) return true;
    if (/^(false|no|off|0)$/i.test(text)) return false;
    return bad('expected true or false');
  }
  if (spec.type === 'int' || spec.type === 'number') {
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v)) return bad('expected a number');
    if (spec.type === 'int' && !Number.isInteger(v)) return bad('expected a whole number');
    if (spec.min !== undefined && v < spec.min) return bad(`must be at least ${spec.min}`);
    if (spec.max !== undefined && v > spec.max) return bad(`must be at most ${spec.max}`);
    return v;
  }
  if (!spec.type.includes(text)) return bad(`expected one of ${spec.type.join(', ')}`);
  return text;
}

/**
 * Complete settings: defaults for every spec, overridden by `given` (text values from
 * the command line, or values already typed). Unknown keys are errors.
 */
export function resolveParams(
  specs: readonly ParamSpec[],
  given: Readonly<Record<string, ParamValue>>,
  where: string,
): Params {
  const out: Record<string, ParamValue> = {};
  for (const s of specs) out[s.key] = s.default;
  for (const [key, value] of Object.entries(given)) {
    const spec = specs.find((s) => s.key === key);
    if (!spec) {
      const known = specs.length ? specs.map((s) => s.key).join(', ') : 'none';
      throw new TafelError('unknown-param', `${where}: unknown setting '${key}' (known: ${known})`);
    }
    out[key] = parseParam(spec, String(value), where);
  }
  return out;
}

/** Parse `a=1,b=x` into raw text values. */
export function parseAssignments(text: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new TafelError('bad-param', `${where}: '${part}' is not key=value`);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

/** One line per spec, for `tafel games` and `tafel bots`. */
export function describeParams(specs: readonly ParamSpec[]): string[] {
  return specs.map((s) => {
    const type = Array.isArray(s.type) ? s.type.join('|') : String(s.type);
    const range = s.min !== undefined || s.max !== undefined ? ` [${s.min ?? ''}..${s.max ?? ''}]` : '';
    return `${s.key}=${String(s.default)} (${type}${range}): ${s.description}`;
  });
}
