/**
 * JSON Patch (RFC 6902, `application/json-patch+json`): add, remove, replace, move, copy
 * and test, with JSON Pointer paths (RFC 6901). A failing operation rejects the whole
 * patch; the caller reports it as 422, as kube-apiserver does.
 */
import { clone, deepEqual, isObject } from '../api/json.js';

/** Why a JSON patch could not be applied (rendered as 422 Invalid). */
export class PatchApplyError extends Error {
  override readonly name = 'PatchApplyError';
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchApplyError(`invalid JSON pointer: ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

/** The parent container of the pointer's target and the last token. */
function resolveParent(doc: unknown, tokens: string[], pointer: string): [Container, string] {
  let current: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else current = undefined;
    if (current === undefined) {
      throw new PatchApplyError(`doc is missing path: ${JSON.stringify(pointer)}: missing value`);
    }
  }
  if (!Array.isArray(current) && !isObject(current)) {
    throw new PatchApplyError(`doc is missing path: ${JSON.stringify(pointer)}: missing value`);
  }
  return [current, tokens[tokens.length - 1]!];
}

function arrayIndex(list: unknown[], token: string, pointer: string, forInsert: boolean): number {
  if (forInsert && token === '-') return list.length;
  const index = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : NaN;
  const max = forInsert ? list.length : list.length - 1;
  if (Number.isNaN(index) || index > max) {
    throw new PatchApplyError(`unable to access invalid index: ${token} in ${JSON.stringify(pointer)}`);
  }
  return index;
}

function read(doc: unknown, pointer: string): unknown {
  let current = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) current = current[arrayIndex(current, token, pointer, false)];
    else if (isObject(current) && Object.prototype.hasOwnProperty.call(current, token)) current = current[token];
    else throw new PatchApplyError(`doc is missing path: ${JSON.stringify(pointer)}: missing value`);
  }
  return current;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const [parent, last] = resolveParent(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, pointer, true), 0, value);
  else parent[last] = value;
  return doc;
}

function remove(doc: unknown, pointer: string, op: string): unknown {
  const tokens = parsePointer(pointer);
  const [parent, last] = resolveParent(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, pointer, false), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, last)) delete parent[last];
  else throw new PatchApplyError(`${op} operation does not apply: doc is missing path: ` +
    `${JSON.stringify(pointer)}: missing value`);
  return doc;
}

/** Apply a JSON patch document to a copy of `target`. */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new PatchApplyError('json patch must be an array of operations');
  let doc = clone(target);
  for (const raw of patch) {
    if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
      throw new PatchApplyError(`invalid JSON patch operation: ${JSON.stringify(raw)}`);
    }
    const { op, path } = raw;
    const from = typeof raw.from === 'string' ? raw.from : '';
    switch (op) {
      case 'add': doc = add(doc, path, clone(raw.value)); break;
      case 'remove': doc = remove(doc, path, 'remove'); break;
      case 'replace':
        read(doc, path);
        doc = add(remove(doc, path, 'replace'), path, clone(raw.value));
        break;
      case 'move': {
        const value = read(doc, from);
        doc = add(remove(doc, from, 'move'), path, value);
        break;
      }
      case 'copy': doc = add(doc, path, clone(read(doc, from))); break;
      case 'test':
        if (!deepEqual(read(doc, path), raw.value)) {
          throw new PatchApplyError(`testing value ${path} failed: test failed`);
        }
        break;
      default: throw new PatchApplyError(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}
