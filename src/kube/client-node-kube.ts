/**
 * The Kubernetes port over @kubernetes/client-node. Reads (get, list) of every resource, core or not, are plain
 * JSON GETs through the library's configuration (KubeApis.readObject, listObjects); writes of custom resources go
 * through CustomObjectsApi and the core group's ConfigMaps (migrate's report) through CoreV1Api, as field manager
 * `agent-manager`. Every failure leaves here as an AppError (kube-errors.ts); a 404 on get is `undefined` and on
 * delete `false`, because "absent" is an answer, not an error.
 */
import type { KubeObject, KubePort, Gvr, ListOptions, WriteCallOptions } from '../service/ports.js';
import { FIELD_MANAGER, type KubeApis } from './api-clients.js';
import { fromKube, kubeStatus } from './kube-errors.js';
import { backendError, type AppError } from '../core/errors.js';
import { asList, asObject } from '../core/json.js';
import { kubeObjectOf } from './kube-json.js';

const singular = (gvr: Gvr): string => gvr.kind.toLowerCase();

export class ClientNodeKube implements KubePort {
  constructor(private readonly apis: KubeApis) {}

  /** The object the API answered, or a 502 when it is no Kubernetes object (no API server answers so). */
  private answered(value: unknown, gvr: Gvr, what: string): KubeObject {
    const object = kubeObjectOf(value, gvr);
    if (!object) throw backendError(`${what}: the API server answered something that is not a ${gvr.kind}`);
    return object;
  }

  /** A failed call as an AppError; a deadline that ran out is named with its length. */
  private failure(err: unknown, what: string): AppError {
    return fromKube(err, what, this.apis.requestTimeoutMs);
  }

  async get(gvr: Gvr, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      const object = await this.apis.readObject(gvr, namespace, name);
      return this.answered(object, gvr, `get ${singular(gvr)} ${namespace}/${name}`);
    } catch (err) {
      if (kubeStatus(err) === 404) return undefined;
      throw this.failure(err, `get ${singular(gvr)} ${namespace}/${name}`);
    }
  }

  async list(gvr: Gvr, namespace: string, options: ListOptions = {}): Promise<KubeObject[]> {
    const { labelSelector, fieldSelector } = options;
    try {
      const list = asObject(await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector }));
      // An item without metadata.name (no API server sends one) is left out rather than failing the list.
      return asList(list.items).flatMap((item) => kubeObjectOf(item, gvr) ?? []);
    } catch (err) {
      throw this.failure(err, `list ${gvr.resource} in ${namespace}`);
    }
  }

  async create(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    try {
      const { group, version, resource: plural } = gvr;
      const what = `create ${singular(gvr)} ${namespace}/${object.metadata.name}`;
      if (isConfigMap(gvr)) {
        // safe: migrate's report ConfigMap, composed as a V1ConfigMap's JSON; the typed API only serializes it.
        const body = object as never;
        return this.answered(await this.apis.core.createNamespacedConfigMap({
          namespace, body, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
        }), gvr, what);
      }
      return this.answered(await this.apis.custom.createNamespacedCustomObject({
        group, version, namespace, plural, body: object, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
      }), gvr, what);
    } catch (err) {
      throw this.failure(err, `create ${singular(gvr)} ${namespace}/${object.metadata.name}`);
    }
  }

  async replace(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name;
    try {
      const { group, version, resource: plural } = gvr;
      const what = `update ${singular(gvr)} ${namespace}/${name}`;
      if (isConfigMap(gvr)) {
        return this.answered(await this.apis.core.replaceNamespacedConfigMap({
          // safe: migrate's report ConfigMap, read and written back whole; the typed API only serializes it.
          namespace, name, body: object as never, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
        }), gvr, what);
      }
      return this.answered(await this.apis.custom.replaceNamespacedCustomObject({
        group, version, namespace, plural, name, body: object, dryRun: dryRunOf(options),
        fieldManager: FIELD_MANAGER,
      }), gvr, what);
    } catch (err) {
      throw this.failure(err, `update ${singular(gvr)} ${namespace}/${name}`);
    }
  }

  async remove(
    gvr: Gvr, namespace: string, name: string, options: WriteCallOptions & { resourceVersion?: string } = {},
  ): Promise<boolean> {
    try {
      const { group, version, resource: plural } = gvr;
      const body = options.resourceVersion
        ? { preconditions: { resourceVersion: options.resourceVersion } }
        : undefined;
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

/** A core ConfigMap: the one core-group kind agent-manager writes. */
const isConfigMap = (gvr: Gvr): boolean => gvr.group === '' && gvr.resource === 'configmaps';

/** The `dryRun` query value: `All` is the only one the API defines. */
const dryRunOf = (options: WriteCallOptions): 'All' | undefined => (options.dryRun ? 'All' : undefined);
