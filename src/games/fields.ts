/**
 * Reading the match facts of a bot-protocol request (PROTOCOL.md), for a game's
 * `GameProtocol.start`: typed fields with their bounds, and what is wrong with one as
 * a `FieldProblem` naming it (which `start` returns as its answer).
 */
import type { Json } from './game.js';

export type Fields = { readonly [key: string]: Json };

/** A field no deal of the table can have: the message says which and why. */
export class FieldProblem extends Error {}

/** `problem` with the field and the value it has. */
export function bad(fields: Fields, key: string, problem: string): FieldProblem {
  return new FieldProblem(`${key} ${JSON.stringify(fields[key]) ?? 'missing'}: ${problem}`);
}

function isWhole(v: Json | undefined, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/** The value's items when it is a list, else none. */
function listOf(v: Json | undefined): readonly Json[] {
  return Array.isArray(v) ? (v as readonly Json[]) : [];
}

/** A whole number from `lo` to `hi`. */
export function whole(fields: Fields, key: string, lo: number, hi: number): number {
  const v = fields[key];
  if (!isWhole(v, lo, hi)) throw bad(fields, key, `not a whole number from ${lo} to ${hi}`);
  return v;
}

/** A list of `length` whole numbers from `lo` to `hi` (by seat, by team). */
export function wholes(fields: Fields, key: string, length: number, lo: number, hi: number): number[] {
  const list = listOf(fields[key]);
  if (!(list.length === length && list.every((x) => isWhole(x, lo, hi))))
    throw bad(fields, key, `not a list of ${length} whole numbers from ${lo} to ${hi}`);
  return list.map(Number);
}

/** `true` or `false`. */
export function flag(fields: Fields, key: string): boolean {
  const v = fields[key];
  if (typeof v !== 'boolean') throw bad(fields, key, 'not true or false');
  return v;
}

/** A list of `length` booleans. */
export function flags(fields: Fields, key: string, length: number): boolean[] {
  const list = listOf(fields[key]);
  if (!(list.length === length && list.every((x) => typeof x === 'boolean')))
    throw bad(fields, key, `not a list of ${length} true or false`);
  return list.map((x) => x === true);
}

/** `start`'s answer: null when `begin` ran, else the problem it met. */
export function problemOf(begin: () => void): string | null {
  try {
    begin();
    return null;
  } catch (e) {
    if (e instanceof FieldProblem) return e.message;
    throw e;
  }
}
