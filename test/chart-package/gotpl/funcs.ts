/**
 * The template functions our chart calls: Go's builtins and the Sprig/Helm functions,
 * each with the semantics of the Go implementation for the value kinds a Helm chart
 * sees (strings, numbers, booleans, null, lists and string-keyed maps). `include`,
 * `and` and `or` need the executor and live there.
 */
import { stringify } from 'yaml';

type Fn = (...args: unknown[]) => unknown;

/** Go's truth: false, 0, nil and empty strings, lists and maps are false. */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** How `{{ x }}` prints a value (fmt.Sprint; Helm blanks `<no value>`). */
export function printValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(printValue).join(' ')}]`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `map[${entries.map(([k, x]) => `${k}:${printValue(x)}`).join(' ')}]`;
}

/** Go %q of a string. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Sprig's strval: a string as is, anything else printed. */
function str(v: unknown): string {
  return typeof v === 'string' ? v : printValue(v);
}

function list(v: unknown, fn: string): unknown[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new Error(`${fn}: want a list, got ${printValue(v)}`);
  return v;
}

function printf(format: string, ...args: unknown[]): string {
  let n = 0;
  return format.replace(/%([%svdq])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[n++];
    if (verb === 'q') return goQuote(str(arg));
    if (verb === 'd') {
      if (typeof arg !== 'number' || !Number.isInteger(arg)) return `%!d(${typeof arg}=${printValue(arg)})`;
      return String(arg);
    }
    return str(arg);
  });
}

function indent(n: number, s: unknown): string {
  const pad = ' '.repeat(n);
  return pad + str(s).split('\n').join(`\n${pad}`);
}

function toYaml(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return stringify(v, { sortMapEntries: true, indentSeq: false, lineWidth: 0 }).replace(/\n$/, '');
}

function dig(...args: unknown[]): unknown {
  const map = args[args.length - 1];
  const fallback = args[args.length - 2];
  const keys = args.slice(0, -2) as string[];
  let cur: unknown = map;
  for (const key of keys) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !(key in (cur as object))) return fallback;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function uniq(v: unknown): unknown[] {
  const out: unknown[] = [];
  for (const item of list(v, 'uniq')) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(item))) out.push(item);
  return out;
}

function trunc(n: number, s: unknown): string {
  const text = str(s);
  if (n >= 0) return text.length > n ? text.slice(0, n) : text;
  return text.length > -n ? text.slice(text.length + n) : text;
}

function trimAll(cutset: string, s: unknown): string {
  const text = str(s);
  let start = 0;
  let end = text.length;
  while (start < end && cutset.includes(text[start]!)) start++;
  while (end > start && cutset.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

function eq(a: unknown, ...rest: unknown[]): boolean {
  return rest.some((b) => a === b || (a == null && b == null));
}

/** Sprig's toInt: numbers truncated, numeric strings parsed, anything else 0. */
function toInt(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Math.trunc(Number(v));
  return 0;
}

/** Go's lt/gt: both operands must be numbers or both strings, else the template fails. */
function compare(fn: string, a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new Error(`${fn}: incompatible types for comparison: ${printValue(a)} and ${printValue(b)}`);
}

/** Sprig's kindIs over the kinds Go's reflect names for values a chart sees. */
function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  // Helm reads every number of the values as float64; this renderer cannot tell apart
  // the int64 that Sprig's arithmetic answers, so the chart never asks kindIs about those.
  if (typeof v === 'number') return 'float64';
  return Array.isArray(v) ? 'slice' : 'map';
}

/** The function table, by template name. */
export const FUNCS: Record<string, Fn> = {
  not: (v) => !truthy(v),
  eq,
  ne: (a, b) => !eq(a, b),
  len: (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : Object.keys(v as object).length),
  index: (m, ...keys) => keys.reduce<unknown>((cur, k) => (cur == null ? undefined : (cur as Record<string, unknown>)[k as string]), m),
  printf: (format, ...args) => printf(str(format), ...args),
  default: (fallback, v) => (truthy(v) ? v : fallback),
  empty: (v) => !truthy(v),
  required: (message, v) => {
    if (v === null || v === undefined || v === '') throw new Error(str(message));
    return v;
  },
  fail: (message) => {
    throw new Error(str(message));
  },
  quote: (...args) => args.filter((a) => a !== null && a !== undefined).map((a) => goQuote(str(a))).join(' '),
  squote: (...args) => args.filter((a) => a != null).map((a) => `'${str(a)}'`).join(' '),
  toYaml,
  toJson: (v) => JSON.stringify(v ?? null),
  fromJson: (s) => JSON.parse(str(s)) as unknown,
  fromJsonArray: (s) => list(JSON.parse(str(s)) as unknown, 'fromJsonArray'),
  indent: (n, s) => indent(n as number, s),
  nindent: (n, s) => `\n${indent(n as number, s)}`,
  trunc: (n, s) => trunc(n as number, s),
  trimSuffix: (suffix, s) => (str(s).endsWith(str(suffix)) ? str(s).slice(0, -str(suffix).length || undefined) : str(s)),
  trimPrefix: (prefix, s) => (str(s).startsWith(str(prefix)) ? str(s).slice(str(prefix).length) : str(s)),
  trimAll: (cutset, s) => trimAll(str(cutset), s),
  trim: (s) => str(s).trim(),
  replace: (from, to, s) => str(s).split(str(from)).join(str(to)),
  contains: (needle, s) => str(s).includes(str(needle)),
  hasPrefix: (prefix, s) => str(s).startsWith(str(prefix)),
  hasSuffix: (suffix, s) => str(s).endsWith(str(suffix)),
  lower: (s) => str(s).toLowerCase(),
  upper: (s) => str(s).toUpperCase(),
  toString: (v: unknown) => str(v),
  join: (sep, v) => list(v, 'join').filter((x) => x != null).map(str).join(str(sep)),
  list: (...items) => items,
  dict: (...kv) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < kv.length; i += 2) out[str(kv[i])] = kv[i + 1];
    return out;
  },
  dig,
  hasKey: (m, key) => m !== null && typeof m === 'object' && str(key) in (m as object),
  has: (needle, v) => list(v, 'has').includes(needle),
  append: (v, item) => [...list(v, 'append'), item],
  prepend: (v, item) => [item, ...list(v, 'prepend')],
  concat: (...lists) => lists.flatMap((l) => list(l, 'concat')),
  compact: (v) => list(v, 'compact').filter(truthy),
  uniq,
  without: (v: unknown, ...drop: unknown[]) => list(v, 'without').filter((x) => !drop.includes(x)),
  first: (v) => list(v, 'first')[0],
  int: (v) => toInt(v),
  add: (...nums) => nums.reduce<number>((sum, n) => sum + toInt(n), 0),
  lt: (a, b) => compare('lt', a, b) < 0,
  le: (a, b) => compare('le', a, b) <= 0,
  gt: (a, b) => compare('gt', a, b) > 0,
  ge: (a, b) => compare('ge', a, b) >= 0,
  kindIs: (kind, v) => kindOf(v) === str(kind),
  last: (v) => list(v, 'last').at(-1),
};
