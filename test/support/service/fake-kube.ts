/**
 * An in-memory KubePort for service tests about decisions, not the wire: it answers as the API server
 * does at the port, with the real adapter's AppErrors: missing gets and removes, lists by namespace and
 * equality label and field selectors in name order, 409 AlreadyExists, generateName, uid and
 * resourceVersion, 404 and 409 on stale replaces and removes, dry runs that store nothing. `failNext`
 * injects faults and `calls` counts round trips; stored and returned objects are copies, so mutating
 * what a test got never changes the store.
 */
import { randomUUID } from 'node:crypto';
import { backendError, conflict, notFound } from '../../../src/core/errors.js';
import type { Gvr, KubeObject, KubePort, KubeProvider, ListOptions, WriteCallOptions } from '../../../src/service/ports.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../../src/service/resources.js';

/**
 * Where a type's objects are kept: by plural name, and for chart 2.x's api.kagent.dev types by plural and group
 * (`agents.api.kagent.dev`), since both kagent groups have `agents` and `modelconfigs`.
 */
const storeName = (gvr: Gvr): string => (gvr.group === 'api.kagent.dev' ? `${gvr.resource}.${gvr.group}` : gvr.resource);

/** The resource types the service uses, by store name (the seeds name them that way). */
const BY_PLURAL = new Map(Object.values(resourceTypes(DEFAULT_API_VERSIONS)).map((gvr) => [storeName(gvr), gvr]));
function gvrOf(resource: string): Gvr {
  const gvr = BY_PLURAL.get(resource);
  if (!gvr) throw new Error(`FakeKube: unknown resource ${resource}`);
  return gvr;
}

/** Objects as the tests read them. */
type Json = Record<string, unknown>;

export type FakeVerb = 'get' | 'list' | 'create' | 'replace' | 'remove';

/** One call the port received. */
export interface FakeCall {
  verb: FakeVerb;
  resource: string;
  namespace: string;
  name?: string;
  dryRun?: boolean;
}

const KUBE_VERB: Record<FakeVerb, string> = { get: 'get', list: 'list', create: 'create', replace: 'update', remove: 'delete' };
const key = (resource: string, namespace: string, name: string): string => `${resource}\u0000${namespace}\u0000${name}`;
const copy = <T>(value: T): T => structuredClone(value);
const singular = (gvr: Gvr): string => gvr.kind.toLowerCase();

export class FakeKube implements KubePort {
  private readonly objects = new Map<string, KubeObject>();
  private readonly faults: Array<{ verb: FakeVerb | '*'; resource?: string; error: Error }> = [];
  private revision = 0;
  private generated = 0;
  /** Every call, in order. */
  readonly calls: FakeCall[] = [];

  /**
   * The seeds' and assertions' view, by plural resource name, with the sandbox store's
   * method names (create, updateStatus, find, get, list), so a suite can switch fixtures.
   */
  readonly store = {
    create: (resource: string, object: unknown): KubeObject => this.seed(gvrOf(resource), object as KubeObject),
    updateStatus: (resource: string, object: unknown): KubeObject => this.seed(gvrOf(resource), object as KubeObject),
    find: (resource: string, namespace: string, name: string): Json | undefined =>
      this.peek(gvrOf(resource), namespace, name) as Json | undefined,
    get: (resource: string, namespace: string, name: string): Json => {
      const found = this.peek(gvrOf(resource), namespace, name);
      if (!found) throw notFound(`${resource} ${namespace}/${name}`);
      return found as Json;
    },
    list: (resource: string, options: { namespace?: string } = {}): { items: Json[] } => ({
      items: [...this.objects.entries()]
        .filter(([k]) => k.startsWith(`${resource}\u0000${options.namespace ?? ''}`))
        .map(([, obj]) => copy(obj) as Json),
    }),
  };

  /** Calls counted by Kubernetes verb (`update` for replace, `delete` for remove), as the sandbox's counters count
   * requests. */
  readonly counters = {
    reset: (): void => void this.calls.splice(0),
    count: (filter: { verb?: string; resource?: string } = {}): number => this.calls.filter((c) =>
      (!filter.verb || KUBE_VERB[c.verb] === filter.verb)
      && (!filter.resource || c.resource === filter.resource)).length,
  };

  /** A provider that hands this port to every request (the ServiceAccount mode). */
  provider(): KubeProvider {
    return { identity: 'serviceAccount', forRequest: () => this };
  }

  /** Put an object in place as it is (tests' seeds); fills what the API server would. */
  seed(gvr: Gvr, object: KubeObject): KubeObject {
    const stored = this.stamp(gvr, copy(object), this.objects.get(key(storeName(gvr), object.metadata.namespace ?? '', object.metadata.name)));
    this.objects.set(key(storeName(gvr), stored.metadata.namespace ?? '', stored.metadata.name), stored);
    return copy(stored);
  }

  /** The stored object, or undefined (no call is recorded). */
  peek(gvr: Gvr, namespace: string, name: string): KubeObject | undefined {
    const found = this.objects.get(key(storeName(gvr), namespace, name));
    return found && copy(found);
  }

  /** The next call of `verb` (on `resource`, when given) throws `error`. */
  failNext(verb: FakeVerb | '*', error: Error, resource?: string): void {
    this.faults.push({ verb, resource, error });
  }

  async get(gvr: Gvr, namespace: string, name: string): Promise<KubeObject | undefined> {
    this.record({ verb: 'get', resource: storeName(gvr), namespace, name });
    return this.peek(gvr, namespace, name);
  }

  async list(gvr: Gvr, namespace: string, options: ListOptions = {}): Promise<KubeObject[]> {
    this.record({ verb: 'list', resource: storeName(gvr), namespace });
    const labels = selector(options.labelSelector ?? '');
    const fields = selector(options.fieldSelector ?? '');
    return [...this.objects.entries()]
      .filter(([k, obj]) => k.startsWith(`${storeName(gvr)}\u0000${namespace}\u0000`) && labels(obj.metadata.labels ?? {}) && fields(fieldsOf(obj)))
      .map(([, obj]) => obj)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .map(copy);
  }

  async create(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    const body = copy(object);
    if (!body.metadata.name && body.metadata.generateName) body.metadata.name = `${body.metadata.generateName}${(++this.generated).toString(36).padStart(5, 'x')}`;
    const name = body.metadata.name;
    this.record({ verb: 'create', resource: storeName(gvr), namespace, name, dryRun: options.dryRun });
    const what = `create ${singular(gvr)} ${namespace}/${name}`;
    // The API server's storage refuses this with a 500, which the adapter reports as a backend error.
    if (body.metadata.resourceVersion) throw backendError(`${what}: resourceVersion should not be set on objects to be created`);
    if (this.objects.has(key(storeName(gvr), namespace, name))) {
      throw conflict(`${what}: ${gvr.resource}.${gvr.group} "${name}" already exists`);
    }
    const stored = this.stamp(gvr, body, undefined);
    if (!options.dryRun) this.objects.set(key(storeName(gvr), namespace, name), stored);
    return copy(stored);
  }

  async replace(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name;
    this.record({ verb: 'replace', resource: storeName(gvr), namespace, name, dryRun: options.dryRun });
    const what = `update ${singular(gvr)} ${namespace}/${name}`;
    const current = this.objects.get(key(storeName(gvr), namespace, name));
    if (!current) throw notFound(what);
    const wanted = object.metadata.resourceVersion;
    if (wanted && wanted !== current.metadata.resourceVersion) {
      throw conflict(`${what}: Operation cannot be fulfilled on ${gvr.resource}.${gvr.group} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    const stored = this.stamp(gvr, copy(object), current);
    if (!options.dryRun) this.objects.set(key(storeName(gvr), namespace, name), stored);
    return copy(stored);
  }

  async remove(
    gvr: Gvr, namespace: string, name: string, options: WriteCallOptions & { resourceVersion?: string } = {},
  ): Promise<boolean> {
    this.record({ verb: 'remove', resource: storeName(gvr), namespace, name, dryRun: options.dryRun });
    const current = this.objects.get(key(storeName(gvr), namespace, name));
    if (!current) return false;
    if (options.resourceVersion && options.resourceVersion !== current.metadata.resourceVersion) {
      throw conflict(`delete ${singular(gvr)} ${namespace}/${name}: Operation cannot be fulfilled on ${gvr.resource}.${gvr.group} "${name}": ` +
        `Precondition failed: ResourceVersion in precondition: ${options.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`);
    }
    if (!options.dryRun) this.objects.delete(key(storeName(gvr), namespace, name));
    return true;
  }

  private record(call: FakeCall): void {
    this.calls.push(call);
    const at = this.faults.findIndex((f) => (f.verb === '*' || f.verb === call.verb) && (!f.resource || f.resource === call.resource));
    if (at >= 0) throw this.faults.splice(at, 1)[0]!.error;
  }

  /** What the API server fills on a write: apiVersion and kind, uid, creation time, a new resourceVersion. */
  private stamp(gvr: Gvr, object: KubeObject, current: KubeObject | undefined): KubeObject {
    object.apiVersion ??= gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
    object.kind ??= gvr.kind;
    object.metadata.uid = current?.metadata.uid ?? object.metadata.uid ?? randomUUID();
    object.metadata.creationTimestamp = current?.metadata.creationTimestamp ?? object.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    object.metadata.resourceVersion = String(++this.revision);
    return object;
  }
}

/** An equality-based label selector (`a=b`, `a==b`, `a!=b`, `a`, `!a`), as the API server reads it. */
function selector(text: string): (labels: Record<string, string>) => boolean {
  const terms = text.split(',').map((t) => t.trim()).filter(Boolean).map((term) => {
    const ne = /^([^!=]+)!=(.*)$/.exec(term);
    if (ne) return (l: Record<string, string>) => l[ne[1]!.trim()] !== ne[2]!.trim();
    const eq = /^([^!=]+)==?(.*)$/.exec(term);
    if (eq) return (l: Record<string, string>) => l[eq[1]!.trim()] === eq[2]!.trim();
    if (term.startsWith('!')) return (l: Record<string, string>) => !Object.hasOwn(l, term.slice(1).trim());
    return (l: Record<string, string>) => Object.hasOwn(l, term);
  });
  return (labels) => terms.every((t) => t(labels));
}

/** Every scalar field of an object by its dotted path (`metadata.name`, `involvedObject.uid`), for field selectors. */
function fieldsOf(object: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof object === 'object' && object !== null && !Array.isArray(object)) {
    for (const [k, v] of Object.entries(object)) fieldsOf(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (typeof object === 'string' || typeof object === 'number' || typeof object === 'boolean') {
    out[prefix] = String(object);
  }
  return out;
}
