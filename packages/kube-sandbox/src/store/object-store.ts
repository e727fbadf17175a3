/**
 * The in-memory object store: a sorted map per resource keyed `namespace/name` like etcd's keys, one
 * resourceVersion counter for every write as in a real cluster, deep-frozen objects (readers need no
 * copy, writers build new objects), every commit published on the watch hub. It knows nothing of
 * validation or HTTP; ../ops does.
 */
import { isObject, type JsonObject } from '../api/json.js';
import { resourceKey, type ResourceDef } from '../resources/resource-def.js';
import { WatchHub, type WatchEventType } from './watch-hub.js';

class Table {
  readonly objects = new Map<string, JsonObject>();
  private sorted: string[] | undefined;

  sortedKeys(): string[] {
    if (!this.sorted) this.sorted = [...this.objects.keys()].sort();
    return this.sorted;
  }

  set(key: string, obj: JsonObject): void {
    if (!this.objects.has(key)) this.sorted = undefined;
    this.objects.set(key, obj);
  }

  delete(key: string): void {
    if (this.objects.delete(key)) this.sorted = undefined;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A window of sorted keys: `keys[from]` up to (not including) `keys[to]`. */
export interface KeyRange {
  readonly keys: readonly string[];
  readonly from: number;
  readonly to: number;
  object(key: string): JsonObject;
}

/** First index whose key is >= `bound` (and not equal to `exclude`). */
function lowerBound(keys: readonly string[], bound: string, exclude: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < bound || keys[mid] === exclude) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const nameOf = (obj: JsonObject): string => (isObject(obj.metadata) ? String(obj.metadata.name ?? '') : '');
const namespaceOf = (obj: JsonObject): string => (isObject(obj.metadata) ? String(obj.metadata.namespace ?? '') : '');

/** The storage key of an object: `namespace/name`, or `name` for cluster-scoped objects. */
export function storageKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class ObjectStore {
  private rv = 0;
  private readonly tables = new Map<string, Table>();
  readonly hub: WatchHub;

  constructor(historyCapacity = 10_000) {
    this.hub = new WatchHub(historyCapacity);
  }

  /** The resourceVersion of the newest write (what a list reports). */
  get revision(): number {
    return this.rv;
  }

  get(def: ResourceDef, namespace: string, name: string): JsonObject | undefined {
    return this.table(def).objects.get(storageKey(def.namespaced ? namespace : '', name));
  }

  /**
   * The stored keys of a namespace (all namespaces when empty) after `afterKey`, as
   * bounds into the shared sorted key array: no copying, so paging 2,000 objects is cheap.
   */
  range(def: ResourceDef, namespace: string, afterKey = ''): KeyRange {
    const table = this.table(def);
    const keys = table.sortedKeys();
    const prefix = def.namespaced && namespace ? `${namespace}/` : '';
    const from = lowerBound(keys, afterKey > prefix ? afterKey : prefix, afterKey);
    const to = prefix ? lowerBound(keys, `${namespace}/\uffff`, '') : keys.length;
    return { keys, from, to: Math.max(from, to), object: (key: string) => table.objects.get(key)! };
  }

  /** Objects in key order; all namespaces when `namespace` is empty. `afterKey` pages on. */
  list(def: ResourceDef, namespace: string, afterKey = ''): Array<[string, JsonObject]> {
    const { keys, from, to, object } = this.range(def, namespace, afterKey);
    const out: Array<[string, JsonObject]> = [];
    for (let i = from; i < to; i++) out.push([keys[i]!, object(keys[i]!)]);
    return out;
  }

  /** Count of objects of a resource in one namespace. */
  countIn(def: ResourceDef, namespace: string): number {
    return this.list(def, namespace).length;
  }

  /** Store a new or changed object: stamps the next resourceVersion, freezes it, publishes. */
  put(def: ResourceDef, obj: JsonObject, type: Exclude<WatchEventType, 'DELETED'>, previous?: JsonObject): JsonObject {
    const stored = this.stamp(obj);
    const namespace = def.namespaced ? namespaceOf(stored) : '';
    this.table(def).set(storageKey(namespace, nameOf(stored)), stored);
    this.hub.publish({ type, rv: this.rv, resource: resourceKey(def), namespace, object: stored, previous });
    return stored;
  }

  /** Remove an object; the DELETED event carries it at a new resourceVersion, as etcd reports. */
  remove(def: ResourceDef, obj: JsonObject): JsonObject {
    const namespace = def.namespaced ? namespaceOf(obj) : '';
    const key = storageKey(namespace, nameOf(obj));
    const previous = this.table(def).objects.get(key);
    this.table(def).delete(key);
    const gone = this.stamp(obj);
    this.hub.publish({ type: 'DELETED', rv: this.rv, resource: resourceKey(def), namespace, object: gone, previous });
    return gone;
  }

  private stamp(obj: JsonObject): JsonObject {
    this.rv++;
    const metadata = { ...(isObject(obj.metadata) ? obj.metadata : {}), resourceVersion: String(this.rv) };
    return deepFreeze({ ...obj, metadata });
  }

  private table(def: ResourceDef): Table {
    const key = resourceKey(def);
    let table = this.tables.get(key);
    if (!table) {
      table = new Table();
      this.tables.set(key, table);
    }
    return table;
  }
}
