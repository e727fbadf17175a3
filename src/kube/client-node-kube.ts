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
import type { AppError } from '../core/errors.js';

const singular = (gvr: Gvr): string => gvr.kind.toLowerCase();

export class ClientNodeKube implements KubePort {
  constructor(private readonly apis: KubeApis) {}

  /** A failed call as an AppError; a deadline that ran out is named with its length. */
  private failure(err: unknown, what: string): AppError {
    return fromKube(err, what, this.apis.requestTimeoutMs);
  }

  async get(gvr: Gvr, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      return withKind(await this.apis.readObject(gvr, namespace, name), gvr);
    } catch (err) {
      if (kubeStatus(err) === 404) return undefined;
      throw this.failure(err, `get ${singular(gvr)} ${namespace}/${name}`);
    }
  }

  async list(gvr: Gvr, namespace: string, options: ListOptions = {}): Promise<KubeObject[]> {
    const { labelSelector, fieldSelector } = options;
    try {
      const list = (await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector })) as {
        items?: KubeObject[];
      };
      return (list.items ?? []).map((item) => withKind(item, gvr));
    } catch (err) {
      throw this.failure(err, `list ${gvr.resource} in ${namespace}`);
    }
  }

  async create(gvr: Gvr, object: KubeObject, options: WriteCallOptions = {}): Promise<KubeObject> {
    const namespace = object.metadata.namespace ?? '';
    try {
      const { group, version, resource: plural } = gvr;
      if (isConfigMap(gvr)) {
        const body = object as never;
        return await this.apis.core.createNamespacedConfigMap({
          namespace, body, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
        }) as unknown as KubeObject;
      }
      return (await this.apis.custom.createNamespacedCustomObject({
        group, version, namespace, plural, body: object, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
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
      if (isConfigMap(gvr)) {
        return await this.apis.core.replaceNamespacedConfigMap({
          namespace, name, body: object as never, dryRun: dryRunOf(options), fieldManager: FIELD_MANAGER,
        }) as unknown as KubeObject;
      }
      return (await this.apis.custom.replaceNamespacedCustomObject({
        group, version, namespace, plural, name, body: object, dryRun: dryRunOf(options),
        fieldManager: FIELD_MANAGER,
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

function withKind(object: unknown, gvr: Gvr): KubeObject {
  const obj = object as KubeObject;
  obj.apiVersion ??= gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
  obj.kind ??= gvr.kind;
  return obj;
}
