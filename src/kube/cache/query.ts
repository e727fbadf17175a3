/**
 * Which cached store can answer a read: a list only from a store holding a superset of what the API
 * server would return (its own field selector exactly; a plain `key=value` label selector over a store
 * of every object or one listed by the existence of one of the query's keys), a get only from a store
 * without selectors. Anything richer (`!=`, `in`, `!key`) goes to the API server: we never guess a
 * selector's meaning.
 */
import type { KubeObject, ListOptions } from '../../service/ports.js';
import type { FeedSpec } from './cache-ports.js';

/** The equality requirements of a plain `k=v,k2==v2` selector; undefined for anything else. */
export function equalitySelector(text: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (const part of text.split(',')) {
    const term = part.trim();
    if (term === '') continue;
    const m = /^([A-Za-z0-9._/-]+)\s*==?\s*([A-Za-z0-9._-]*)$/.exec(term);
    if (!m) return undefined;
    out.set(m[1]!, m[2]!);
  }
  return out;
}

/** A filter for a list query over a store with `spec`; null: every item; undefined: the store cannot answer. */
export function listFilter(spec: FeedSpec, options: ListOptions = {}): ((o: KubeObject) => boolean) | null | undefined {
  if ((options.fieldSelector ?? '') !== (spec.fieldSelector ?? '')) return undefined;
  const query = options.labelSelector?.trim() ?? '';
  if (query === '') return spec.labelSelector ? undefined : null;
  const wanted = equalitySelector(query);
  if (!wanted || wanted.size === 0) return undefined;
  if (spec.labelSelector && !wanted.has(spec.labelSelector)) return undefined;
  return (o) => {
    const labels = o.metadata.labels ?? {};
    for (const [key, value] of wanted) if (labels[key] !== value) return false;
    return true;
  };
}

/** True when a store with `spec` holds every object of its namespace (so it can answer gets). */
export function answersGets(spec: FeedSpec): boolean {
  return !spec.labelSelector && !spec.fieldSelector;
}
