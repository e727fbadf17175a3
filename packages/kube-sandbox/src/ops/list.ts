/**
 * Listing: selectors, then paging with `limit` and `continue` (the real server's token shape; unlike
 * etcd, later pages show current state, not a snapshot; `remainingItemCount` only without selectors).
 * resourceVersion as the watch cache answers: newer than the store is 504 `Too large resource version`;
 * `Exact` is served only when nothing changed since, else 410 Expired (the sandbox keeps no snapshots).
 */
import { Buffer } from 'node:buffer';
import { isObject, type JsonObject } from '../api/json.js';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { statusErrors } from '../api/status.js';
import { combine, fieldSelector, labelSelector } from '../store/selectors.js';
import { resourceKey, type ResourceDef } from '../resources/types.js';
import type { ListOptions, ListResult, OpsEnv } from './types.js';

function decodeContinue(token: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (isObject(parsed) && parsed.v === 'meta.k8s.io/v1' && typeof parsed.start === 'string' &&
      parsed.start.endsWith('\u0000')) {
      return parsed.start.slice(0, -1);
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
function listVersion(env: OpsEnv, def: ResourceDef, opts: ListOptions): string | undefined {
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
  if (match !== 'Exact' || wanted === current) return match === 'Exact' ? rv : undefined;
  const changes = env.objects.hub.replay(resourceKey(def), wanted);
  if (changes === 'expired' || changes.length > 0) {
    throw statusErrors.expired('The resourceVersion for the provided list is too old.');
  }
  return rv;
}

/** GET on a collection. */
export function listObjects(env: OpsEnv, def: ResourceDef, opts: ListOptions = {}): ListResult {
  const exactVersion = listVersion(env, def, opts);
  const select = combine(labelSelector(opts.labelSelector), fieldSelector(opts.fieldSelector, def));
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const after = opts.continue ? decodeContinue(opts.continue) : '';
  const revision = env.objects.revision;
  const { keys, from, to, object } = env.objects.range(def, opts.namespace ?? '', after);
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
  const result: ListResult = { items, resourceVersion: exactVersion ?? String(revision) };
  if (remaining > 0) {
    result.continue = encodeContinue(revision, lastKey);
    if (!select) result.remainingItemCount = remaining;
  }
  return result;
}
