/**
 * Watching a resource: the initial state (resourceVersion absent, "" or "0", or `sendInitialEvents`) or
 * the history after a version, then every change, filtered by namespace and selectors; an object that
 * starts or stops matching is ADDED or DELETED, as the watch cache does. Too old a version ends with a 410
 * Expired ERROR event; too new is refused before streaming with 504 Too large resource version.
 */
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { combine, fieldSelector, labelSelector, type Selector } from '../store/selectors.js';
import type { StoreEvent } from '../store/watch-hub.js';
import { apiVersionOf, resourceKey, type ResourceDef } from '../resources/resource-def.js';
import type { OpsEnv } from './op-options.js';

/** Options of a watch (the watch query parameters). */
export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  /** Watch-list: initial ADDED events then a BOOKMARK marking their end. */
  sendInitialEvents?: boolean;
}

/** One delivered watch event (type ADDED, MODIFIED, DELETED, BOOKMARK or ERROR). */
export type WatchEmit = (type: string, object: JsonObject) => void;

/** A running watch. `ended` is set when the server ended it (Expired). */
export interface WatchHandle {
  stop(): void;
  readonly ended: boolean;
}

function translate(event: StoreEvent, matches: Selector): string | undefined {
  const now = matches(event.object);
  if (event.type !== 'MODIFIED') return now ? event.type : undefined;
  const before = event.previous ? matches(event.previous) : false;
  if (now) return before ? 'MODIFIED' : 'ADDED';
  return before ? 'DELETED' : undefined;
}

/**
 * The object an event carries. A change that takes an object out of the selection is a DELETED
 * event with the object as it was (what the client last saw selected) at the change's
 * resourceVersion, as the API server's watch cache sends it.
 */
function shownObject(event: StoreEvent, type: string): JsonObject {
  if (event.type !== 'MODIFIED' || type !== 'DELETED' || !event.previous) return event.object;
  const previous = structuredClone(event.previous);
  const meta = isObject(previous.metadata) ? previous.metadata : (previous.metadata = {});
  meta.resourceVersion = isObject(event.object.metadata) ? event.object.metadata.resourceVersion : String(event.rv);
  return previous;
}

/** Start a watch; events are delivered synchronously through `emit`. Bad selectors throw 400. */
export function startWatch(env: OpsEnv, def: ResourceDef, opts: WatchOptions, emit: WatchEmit): WatchHandle {
  const select = combine(labelSelector(opts.labelSelector), fieldSelector(opts.fieldSelector, def));
  const namespace = def.namespaced ? opts.namespace ?? '' : '';
  const matches: Selector = (obj) => {
    if (namespace && (!isObject(obj.metadata) || obj.metadata.namespace !== namespace)) return false;
    return !select || select(obj);
  };
  const key = resourceKey(def);
  const rv = opts.resourceVersion ?? '';
  let ended = false;

  let backlog: StoreEvent[] = [];
  if (rv !== '' && rv !== '0' && !opts.sendInitialEvents) {
    if (!/^\d+$/.test(rv)) throw statusErrors.badRequest(`invalid resource version: ${rv}`);
    if (Number(rv) > env.objects.revision) throw statusErrors.tooLargeResourceVersion(Number(rv), env.objects.revision);
    const replay = env.objects.hub.replay(key, Number(rv));
    if (replay === 'expired') {
      const oldest = env.objects.hub.oldestResumableRv;
      emit('ERROR', { ...statusErrors.expired(`too old resource version: ${rv} (${oldest + 1})`).status });
      return { stop: () => undefined, ended: true };
    }
    backlog = replay;
  } else {
    for (const [, obj] of env.objects.list(def, namespace)) if (matches(obj)) emit('ADDED', obj);
    if (opts.sendInitialEvents) {
      emit('BOOKMARK', {
        kind: def.kind, apiVersion: apiVersionOf(def),
        metadata: { resourceVersion: String(env.objects.revision),
          annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
    }
  }
  for (const event of backlog) {
    const type = translate(event, matches);
    if (type) emit(type, shownObject(event, type));
  }
  const unsubscribe = env.objects.hub.subscribe((event) => {
    if (event.resource !== key) return;
    const type = translate(event, matches);
    if (type) emit(type, shownObject(event, type));
  });
  return {
    stop: () => {
      ended = true;
      unsubscribe();
    },
    get ended() {
      return ended;
    },
  };
}
