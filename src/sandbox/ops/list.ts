/**
 * Listing: selectors, then paging with `limit` and `continue`. The continue token has the
 * real server's shape (base64 of `{"v":"meta.k8s.io/v1","rv":…,"start":"<key>\u0000"}`);
 * a page continues after the last key returned. Unlike etcd, later pages show the current
 * state rather than a snapshot at the first page's resourceVersion. `remainingItemCount`
 * is reported only without selectors, as the real server does.
 */
import { Buffer } from 'node:buffer';
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { combine, fieldSelector, labelSelector } from '../store/selectors.js';
import type { ResourceDef } from '../resources/types.js';
import type { ListOptions, ListResult, OpsEnv } from './types.js';

function decodeContinue(token: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (isObject(parsed) && parsed.v === 'meta.k8s.io/v1' && typeof parsed.start === 'string' && parsed.start.endsWith('\u0000')) {
      return parsed.start.slice(0, -1);
    }
  } catch {
    // fall through to the refusal below
  }
  throw statusErrors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` }), 'utf8').toString('base64url');
}

/** GET on a collection. */
export function listObjects(env: OpsEnv, def: ResourceDef, opts: ListOptions = {}): ListResult {
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
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (remaining > 0) {
    result.continue = encodeContinue(revision, lastKey);
    if (!select) result.remainingItemCount = remaining;
  }
  return result;
}
