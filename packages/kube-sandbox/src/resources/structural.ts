/**
 * Validation against a structural schema as the apiextensions server treats a custom resource: unknown
 * fields pruned (and reported, for Warn or Strict), nulls of non-nullable fields dropped, defaults filled,
 * violations as field errors in the real form (`spec.interval in body must be of type string: "integer"`).
 * The walk mutates its value; callers pass a copy they own.
 */
import { fieldError, type FieldError } from '../api/field-errors.js';
import { clone, isObject, jsonTypeName, type JsonObject } from '../api/json.js';
import { keepsUnknown, type SchemaNode } from './schema.js';

/** What a walk found: violations, and the paths of fields it pruned. */
export interface StructuralResult {
  errors: FieldError[];
  pruned: string[];
}

/** Prune, default and validate `value` (mutated) against `node`; `path` prefixes field paths. */
export function applyStructuralSchema(node: SchemaNode, value: unknown, path = ''): StructuralResult {
  const result: StructuralResult = { errors: [], pruned: [] };
  walk(node, value, path, result);
  return result;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
const compiledPatterns = new Map<string, RegExp>();

function typeMatches(node: SchemaNode, value: unknown): boolean {
  if (node['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (node.type) {
    case undefined: return true;
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    default: return typeof value === node.type;
  }
}

function walk(node: SchemaNode, value: unknown, path: string, out: StructuralResult): void {
  if (!typeMatches(node, value)) {
    const actual = jsonTypeName(value);
    const expected = node['x-kubernetes-int-or-string'] ? 'integer,string' : node.type;
    out.errors.push(fieldError.typeInvalid(path, actual, `${path} in body must be of type ${expected}: "${actual}"`));
    return;
  }
  if (node['x-sandbox-summarised']) return;
  if (typeof value === 'string') checkString(node, value, path, out);
  else if (typeof value === 'number') checkNumber(node, value, path, out);
  else if (Array.isArray(value)) walkArray(node, value, path, out);
  else if (isObject(value)) walkObject(node, value, path, out);
  if (node.enum && !node.enum.some((allowed) => allowed === value)) {
    out.errors.push(fieldError.notSupported(path, value, node.enum));
  }
}

function checkString(node: SchemaNode, value: string, path: string, out: StructuralResult): void {
  if (node.maxLength !== undefined && value.length > node.maxLength) {
    out.errors.push(fieldError.tooLong(path, node.maxLength));
  }
  if (node.minLength !== undefined && value.length < node.minLength) {
    out.errors.push(fieldError.invalid(path, value, `${path} in body should be at least ${node.minLength} chars long`));
  }
  if (node.pattern !== undefined) {
    let re = compiledPatterns.get(node.pattern);
    if (!re) {
      re = new RegExp(node.pattern, 'u');
      compiledPatterns.set(node.pattern, re);
    }
    if (!re.test(value)) {
      out.errors.push(fieldError.invalid(path, value, `${path} in body should match '${node.pattern}'`));
    }
  }
}

function checkNumber(node: SchemaNode, value: number, path: string, out: StructuralResult): void {
  if (node.minimum !== undefined && value < node.minimum) {
    out.errors.push(fieldError.invalid(path, value,
      `${path} in body should be greater than or equal to ${node.minimum}`));
  }
}

function walkArray(node: SchemaNode, value: unknown[], path: string, out: StructuralResult): void {
  if (node.maxItems !== undefined && value.length > node.maxItems) {
    out.errors.push(fieldError.tooMany(path, value.length, node.maxItems));
  }
  if (node.items) {
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null && !node.items.nullable) continue;
      walk(node.items, value[i], `${path}[${i}]`, out);
    }
  }
  const listType = node['x-kubernetes-list-type'];
  if (listType === 'set' || listType === 'map') checkUnique(node, value, path, out);
}

function checkUnique(node: SchemaNode, value: unknown[], path: string, out: StructuralResult): void {
  const keys = node['x-kubernetes-list-map-keys'];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const identity = keys && isObject(item) ? Object.fromEntries(keys.map((k) => [k, item[k]])) : item;
    const text = JSON.stringify(identity);
    if (seen.has(text)) out.errors.push(fieldError.duplicate(`${path}[${i}]`, identity));
    seen.add(text);
  });
}

function walkObject(node: SchemaNode, value: JsonObject, path: string, out: StructuralResult): void {
  const properties = node.properties;
  const additional = node.additionalProperties;
  for (const key of Object.keys(value)) {
    const childNode = properties?.[key] ?? additional;
    if (!childNode) {
      if (!keepsUnknown(node)) {
        out.pruned.push(join(path, key));
        delete value[key];
      }
      continue;
    }
    if (value[key] === null && !childNode.nullable) {
      delete value[key];
      continue;
    }
    walk(childNode, value[key], join(path, key), out);
  }
  if (properties) {
    for (const [key, childNode] of Object.entries(properties)) {
      if (value[key] === undefined && childNode.default !== undefined) {
        value[key] = clone(childNode.default);
        walk(childNode, value[key], join(path, key), out);
      }
    }
  }
  for (const key of node.required ?? []) {
    if (value[key] === undefined) out.errors.push(fieldError.required(join(path, key)));
  }
}
