/**
 * Column helpers for server-side tables: the AGE cell as kubectl prints it (Go's
 * `duration.HumanDuration`), and the tiny JSONPath subset CRD printer columns use
 * (`.spec.url`, `.status.conditions[?(@.type=="Ready")].status`).
 */
import { isObject, type JsonObject } from '../api/json.js';
import type { ColumnDef } from './resource-def.js';

/** Go's duration.HumanDuration: `45s`, `3m20s`, `5h`, `2d3h`, `1y`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${hours / 24}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${days / 365}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

/** The age of a timestamp, `<unknown>` when absent. */
export function ageOf(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string') return '<unknown>';
  const then = Date.parse(timestamp);
  return Number.isNaN(then) ? '<unknown>' : humanDuration(now - then);
}

/** The NAME column most tables start with. */
export const nameColumn = (): ColumnDef => ({
  name: 'Name', type: 'string', format: 'name',
  description: 'Name must be unique within a namespace. More info: ' +
    'https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  cell: (obj) => (isObject(obj.metadata) ? obj.metadata.name : ''),
});

/** The AGE column most tables end with. */
export const ageColumn = (): ColumnDef => ({
  name: 'Age', type: 'string', format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  cell: (obj, now) => ageOf(isObject(obj.metadata) ? obj.metadata.creationTimestamp : undefined, now),
});

const SEGMENT = /^\.([A-Za-z0-9_-]+)(\[\?\(@\.([A-Za-z0-9_]+)==["']([^"']*)["']\)\])?/;

/** Evaluate a printer-column JSONPath; undefined when any step is missing. */
export function evalJsonPath(obj: unknown, path: string): unknown {
  let rest = path;
  let current: unknown = obj;
  while (rest.length > 0) {
    const match = SEGMENT.exec(rest);
    if (!match) return undefined;
    rest = rest.slice(match[0].length);
    current = isObject(current) ? current[match[1]!] : undefined;
    if (match[2]) {
      const [field, wanted] = [match[3]!, match[4]!];
      current = Array.isArray(current) ? current.find((item) => isObject(item) && item[field] === wanted) : undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** A CRD additionalPrinterColumn; `date` columns print as ages, as kubectl shows them. */
export function jsonPathColumn(name: string, type: ColumnDef['type'], jsonPath: string, description = ''): ColumnDef {
  return {
    name, type: type === 'date' ? 'date' : type, format: '', description, jsonPath,
    cell: (obj: JsonObject, now: number) => {
      const value = evalJsonPath(obj, jsonPath);
      // Like the apiextensions table convertor: a missing value is a null cell.
      if (value === undefined) return null;
      if (type === 'date') return ageOf(value, now);
      return typeof value === 'object' ? JSON.stringify(value) : value;
    },
  };
}

/** A column computed by a function (built-in kinds). */
export function column(name: string, cell: ColumnDef['cell'], type: ColumnDef['type'] = 'string',
  priority = 0): ColumnDef {
  return { name, type, format: '', description: '', priority, cell };
}
