/**
 * Listing: selectors, then paging with `limit` and `continue` (the real server's token shape;
 * `remainingItemCount` only without selectors). A later page, and an `Exact` list, show the objects as
 * they were at that resourceVersion, as etcd serves them: today's objects with every change since put
 * back from the watch history; once the history no longer reaches back, 410 Expired. A newer version
 * than the store is 504 `Too large resource version`.
 */
import { Buffer } from 'node:buffer';
import { isObject, readMeta, type JsonObject } from '../api/json.js';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { statusErrors } from '../api/status.js';
import { storageKey } from '../store/object-store.js';
import { combine, fieldSelector, labelSelector } from '../store/selectors.js';
import { resourceKey, type ResourceDef } from '../resources/resource-def.js';
import type { ListOptions, ListResult, OpsEnv } from './op-options.js';

function decodeContinue(token: string): { start: string; rv: number } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (isObject(parsed) && parsed.v === 'meta.k8s.io/v1' && typeof parsed.start === 'string' &&
      parsed.start.endsWith('\u0000') && Number.isSafeInteger(parsed.rv)) {
      return { start: parsed.start.slice(0, -1), rv: Number(parsed.rv) };
    }
  } catch {
    // fall through to the refusal below
  }
  throw statusErrors.badRequest('continue key is not valid: incorrect encoded start resourceVersion ' +
    '(version meta.k8s.io/v1)');
}

function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` }), 'utf8')
    .toString('base64url');
}

function listOptionsInvalid(errors: FieldError[]): Error {
  return statusErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errors);
}

/**
 * The ListOptions rules of a watch and of sendInitialEvents, as the API server validates
 * them: `sendInitialEvents` (given at all) is for watches only and needs
 * `resourceVersionMatch=NotOlderThan`; a watch takes `resourceVersionMatch` only with
 * `sendInitialEvents`, only NotOlderThan, and never with `continue`.
 */
export function validateWatchOptions(
  watch: boolean, opts: { sendInitialEvents?: string; resourceVersionMatch?: string; continue?: string },
): void {
  const errors: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (!watch) {
    if (opts.sendInitialEvents !== undefined) {
      errors.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    }
  } else {
    if (opts.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errors.push(fieldError.forbidden('resourceVersionMatch',
        'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match) {
      if (opts.sendInitialEvents === undefined) {
        errors.push(fieldError.forbidden('resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') {
        errors.push(fieldError.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      }
      if (opts.continue) {
        errors.push(fieldError.forbidden('resourceVersionMatch',
          'resourceVersionMatch is forbidden when continue is provided'));
      }
    }
  }
  if (errors.length > 0) throw listOptionsInvalid(errors);
}

/**
 * Check `resourceVersion` and `resourceVersionMatch` of a list; returns the version the
 * answer is at when it is not the current one (an exact match).
 */
function listVersion(env: OpsEnv, opts: ListOptions): string | undefined {
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  const errors: FieldError[] = [];
  if (match) {
    if (!rv) {
      errors.push(fieldError.forbidden('resourceVersionMatch',
        'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (opts.continue) {
      errors.push(fieldError.forbidden('resourceVersionMatch',
        'resourceVersionMatch is forbidden when continue is provided'));
    }
    if (match === 'Exact' && rv === '0') {
      errors.push(fieldError.forbidden('resourceVersionMatch',
        'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errors.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
  }
  if (errors.length > 0) throw listOptionsInvalid(errors);
  if (rv === '' || rv === '0' || opts.continue) return undefined;
  if (!/^\d+$/.test(rv)) throw statusErrors.badRequest(`invalid resource version: ${rv}`);
  const wanted = Number(rv);
  const current = env.objects.revision;
  if (wanted > current) throw statusErrors.tooLargeResourceVersion(wanted, current);
  // A paged list with a resourceVersion and no match is served at exactly that version (API concepts).
  const exact = match === 'Exact' || (match === '' && opts.limit !== undefined && opts.limit > 0);
  return exact ? rv : undefined;
}

/**
 * The objects of `def` in `namespace` after key `after` as they were at resourceVersion `rv`, in key
 * order: today's, with each key a later write touched put back to what it was before the first such
 * write (gone where it was created since).
 */
function objectsAt(
  env: OpsEnv, def: ResourceDef, namespace: string, after: string, rv: number, expiredText: string,
): Array<[string, JsonObject]> {
  const changes = env.objects.hub.replay(resourceKey(def), rv);
  if (changes === 'expired') throw statusErrors.expired(expiredText);
  const current = env.objects.list(def, namespace, after);
  if (changes.length === 0) return current;
  const before = new Map<string, JsonObject | undefined>();
  const prefix = def.namespaced && namespace ? `${namespace}/` : '';
  for (const change of changes) {
    const key = storageKey(change.namespace, String(readMeta(change.object).name));
    if (!before.has(key)) before.set(key, change.type === 'ADDED' ? undefined : change.previous);
  }
  const at = new Map(current.filter(([key]) => !before.has(key)));
  for (const [key, object] of before) {
    if (object && key.startsWith(prefix) && key > after) at.set(key, object);
  }
  return [...at].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const CONTINUE_EXPIRED = 'The provided continue parameter is too old to display a consistent list result. You can ' +
  'start a new list without the continue parameter.';

/** GET on a collection. */
export function listObjects(env: OpsEnv, def: ResourceDef, opts: ListOptions = {}): ListResult {
  const exactVersion = listVersion(env, opts);
  const select = combine(labelSelector(opts.labelSelector), fieldSelector(opts.fieldSelector, def));
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const token = opts.continue ? decodeContinue(opts.continue) : undefined;
  const after = token?.start ?? '';
  // A later page is served at its first page's version, as is an exact list.
  const snapshot = token?.rv ?? (exactVersion === undefined ? undefined : Number(exactVersion));
  const revision = snapshot ?? env.objects.revision;
  if (snapshot !== undefined && snapshot < env.objects.revision) {
    const text = token ? CONTINUE_EXPIRED : 'The resourceVersion for the provided list is too old.';
    const pairs = objectsAt(env, def, opts.namespace ?? '', after, snapshot, text);
    const byKey = new Map(pairs);
    return page(pairs.map(([key]) => key), 0, pairs.length, (key) => byKey.get(key)!, select, limit, revision);
  }
  const { keys, from, to, object } = env.objects.range(def, opts.namespace ?? '', after);
  return page(keys, from, to, object, select, limit, revision);
}

/** One page of `keys[from..to)`: the selected objects up to `limit`, and the token and count of the rest. */
function page(
  keys: readonly string[], from: number, to: number, object: (key: string) => JsonObject,
  select: ((obj: JsonObject) => boolean) | undefined, limit: number, revision: number,
): ListResult {
  const items: JsonObject[] = [];
  let lastKey = '';
  let remaining = 0;
  for (let i = from; i < to; i++) {
    const obj = object(keys[i]!);
    if (select && !select(obj)) continue;
    if (items.length < limit) {
      items.push(obj);
      lastKey = keys[i]!;
    } else if (select) {
      // With selectors the real server reports no count; knowing there is more is enough.
      remaining = 1;
      break;
    } else {
      remaining = to - i;
      break;
    }
  }
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (remaining > 0) {
    result.continue = encodeContinue(revision, lastKey);
    if (!select) result.remainingItemCount = remaining;
  }
  return result;
}
