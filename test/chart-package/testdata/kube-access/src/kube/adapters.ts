import { makeInformer, Watch, type AuthorizationV1Api, type CoreV1Api, type CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { AccessReview, Gvr, KubePort, ReadCache } from '../service/ports.js';

const path = (gvr: Gvr, namespace: string) => `/apis/${gvr.group}/${gvr.version}/namespaces/${namespace}/${gvr.resource}`;

export class Kube implements KubePort {
  constructor(private readonly kc: KubeConfig, private readonly custom: CustomObjectsApi) {}

  get(gvr: Gvr, namespace: string, name: string): Promise<unknown> {
    return this.custom.getNamespacedCustomObject({ ...this.ids(gvr), namespace, name });
  }

  async list(gvr: Gvr, namespace: string): Promise<unknown[]> {
    return ((await this.custom.listNamespacedCustomObject({ ...this.ids(gvr), namespace })) as { items: unknown[] })
      .items;
  }

  create(gvr: Gvr, body: object): Promise<unknown> {
    return this.custom.createNamespacedCustomObject({ ...this.ids(gvr), namespace: 'ns', body });
  }

  async remove(gvr: Gvr, namespace: string, name: string): Promise<boolean> {
    await deleteOne(this.custom, gvr, namespace, name);
    return true;
  }

  async watch(gvr: Gvr, namespace: string, onEvent: (type: string) => void): Promise<() => void> {
    const request = await new Watch(this.kc).watch(path(gvr, namespace), {}, (type) => onEvent(type), () => undefined);
    return () => request.abort();
  }

  private ids(gvr: Gvr) {
    return { group: gvr.group, version: gvr.version, plural: gvr.resource };
  }
}

/** A helper of the adapter: its call is the adapter's. */
function deleteOne(custom: CustomObjectsApi, gvr: Gvr, namespace: string, name: string): Promise<unknown> {
  return custom.deleteNamespacedCustomObject({
    group: gvr.group, version: gvr.version, plural: gvr.resource, namespace, name,
  });
}

export class Cache implements ReadCache {
  constructor(private readonly kc: KubeConfig, private readonly custom: CustomObjectsApi) {}

  async start(gvr: Gvr, namespace: string): Promise<void> {
    const list = () =>
      this.custom.listNamespacedCustomObject({
        group: gvr.group, version: gvr.version, plural: gvr.resource, namespace,
      }) as never;
    await makeInformer(this.kc, path(gvr, namespace), list).start();
  }
}

export class Review implements AccessReview {
  constructor(private readonly authz: AuthorizationV1Api) {}

  async canI(verb: string, resource: string, namespace: string): Promise<boolean> {
    const review = await this.authz.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { verb, resource, namespace } } },
    });
    return review.status?.allowed ?? false;
  }
}

/** Reaches the API outside any adapter: reported. */
export function stray(core: CoreV1Api): Promise<unknown> {
  return core.listNamespacedSecret({ namespace: 'ns' });
}
