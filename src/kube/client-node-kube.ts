/**
 * The Kubernetes port over @kubernetes/client-node. Custom resources and every
 * non-core group (apps Deployments included) go through CustomObjectsApi, which
 * answers plain JSON; the two core resources the service reads (pods, events) go
 * through CoreV1Api, whose typed objects are turned back into plain JSON.
 *
 * Every failure leaves here as an AppError (kube-errors.ts); a 404 on get is
 * `undefined` and on delete `false`, because "absent" is an answer, not an error.
 */
import type { KubeObject, KubePort, Gvr, ListOptions, WriteCallOptions } from '../service/ports.js';
import type { KubeApis } from './api-clients.js';
import { fromKube, kubeStatus } from './kube-errors.js';
import { backendError, type AppError } from '../core/errors.js';

const singular = (gvr: Gvr): string => gvr.kind.toLowerCase();

/** Plain Kubernetes JSON: Dates back to RFC 3339 at second precision, undefined dropped. */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) out[key] = toPlainJson(inner);
    }
    return out;
  }
  return value;
}

export class ClientNodeKube implements KubePort {
  constructor(private readonly apis: KubeApis) {}

  /** A failed call as an AppError; a deadline that ran out is named with its length. */
  private failure(err: unknown, what: string): AppError {
    return fromKube(err, what, this.apis.requestTimeoutMs);
  }

  async get(gvr: Gvr, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      if (gvr.group) {
        const { group, version, resource: plural } = gvr;
        return (await this.apis.custom.getNamespacedCustomObject({ group, version, namespace, plural, name })) as KubeObject;
      }
      if (gvr.resource === 'pods') {
        return withKind(toPlainJson(await this.apis.core.readNamespacedPod({ namespace, name })), gvr);
      }
      throw backendError(`get ${singular(gvr)}: core resource ${gvr.resource} is not supported by this port`);
    } catch (err) {
      if (kubeStatus(err) === 404) return undefined;
      throw this.failure(err, `get ${singular(gvr)} ${namespace}/${name}`);
    }
  }

  async list(gvr: Gvr, namespace: string, options: ListOptions = {}): Promise<KubeObject[]> {
    const { labelSelector, fieldSelector } = options;
    try {
      if (gvr.group) {
        const { group, version, resource: plural } = gvr;
        const list = (await this.apis.custom.listNamespacedCustomObject({
          group, version, namespace, plural, labelSelector, fieldSelector,
        })) as { items?: KubeObject[] };
        return (list.items ?? []).map((item) => withKind(item, gvr));
      }
      const request = { namespace, labelSelector, fieldSelector };
      if (gvr.resource === 'pods') return plainItems(await this.apis.core.listNamespacedPod(request), gvr);
      if (gvr.resource === 'events') return plainItems(await this.apis.core.listNamespacedEvent(request), gvr);
      throw backendError(`list ${gvr.resource}: core resource ${gvr.resource} is not supported by this port`);
    } catch (err) {
      throw this.failure(err, `list ${gvr.resource} in ${namespace}`);
    }
  }

  async create(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    try {
      const { group, version, resource: plural } = gvr;
      return (await this.apis.custom.createNamespacedCustomObject({
        group, version, namespace, plural, body: object, dryRun: dryRunOf(options),
      })) as KubeObject;
    } catch (err) {
      throw this.failure(err, `create ${singular(gvr)} ${namespace}/${object.metadata.name}`);
    }
  }

  async replace(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name;
    try {
      const { group, version, resource: plural } = gvr;
      return (await this.apis.custom.replaceNamespacedCustomObject({
        group, version, namespace, plural, name, body: object, dryRun: dryRunOf(options),
      })) as KubeObject;
    } catch (err) {
      throw this.failure(err, `update ${singular(gvr)} ${namespace}/${name}`);
    }
  }

  async remove(
    gvr: Gvr, namespace: string, name: string, options: WriteCallOptions & { resourceVersion?: string } = {},
  ): Promise<boolean> {
    try {
      const { group, version, resource: plural } = gvr;
      const body = options.resourceVersion ? { preconditions: { resourceVersion: options.resourceVersion } } : undefined;
      await this.apis.custom.deleteNamespacedCustomObject({
        group, version, namespace, plural, name, dryRun: dryRunOf(options), body,
      });
      return true;
    } catch (err) {
      if (kubeStatus(err) === 404) return false;
      throw this.failure(err, `delete ${singular(gvr)} ${namespace}/${name}`);
    }
  }
}

/** The `dryRun` query value: `All` is the only one the API defines. */
const dryRunOf = (options: WriteCallOptions): 'All' | undefined => (options.dryRun ? 'All' : undefined);

function withKind(object: unknown, gvr: Gvr): KubeObject {
  const obj = object as KubeObject;
  obj.apiVersion ??= gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
  obj.kind ??= gvr.kind;
  return obj;
}

function plainItems(list: { items: unknown[] }, gvr: Gvr): KubeObject[] {
  return list.items.map((item) => withKind(toPlainJson(item), gvr));
}
