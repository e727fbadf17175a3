/**
 * The rollout waiter's list and watch (the service's WatchPort) over the same
 * @kubernetes/client-node list and watch calls the read cache uses, for one identity:
 * the ServiceAccount's, or with downstream OAuth the caller's own token. Failures leave
 * here translated once: a failed list is the AppError of any other Kubernetes call, and
 * a watch that ended with an error carries its HTTP status (410 Gone: resume by listing
 * again) beside the AppError that words it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Gvr, KubeObject, WatchEventHandlers, WatchFailure, WatchPort, WatchSelectors } from '../service/ports.js';
import type { KubeApis } from './api-clients.js';
import { fromKube } from './kube-errors.js';
import { ClientNodeListWatch, watchStatus } from './list-watch.js';
import { backendError, forbidden, unauthenticated } from '../core/errors.js';

/** A watch's end as the waiter sees it: the status, and the error in the service's words. */
export function watchFailure(err: unknown, what: string): WatchFailure {
  const status = watchStatus(err);
  const message = err instanceof Error ? err.message : String(err);
  if (status === 401) {
    return { status, error: unauthenticated(`${what}: the API server refused the caller's token (401)`, err) };
  }
  if (status === 403) {
    return { status,
      error: forbidden(`${what}: the identity may not watch this resource (403); grant the watch verb on it`, err) };
  }
  return { status, error: backendError(`${what}: ${message}`, err) };
}

export class ClientNodeWatches implements WatchPort {
  private readonly inner: ClientNodeListWatch;

  constructor(kc: KubeConfig, private readonly apis: KubeApis) {
    this.inner = new ClientNodeListWatch(kc, apis);
  }

  async list(
    gvr: Gvr, namespace: string, selectors: WatchSelectors,
  ): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    try {
      return await this.inner.list(gvr, namespace, selectors);
    } catch (err) {
      throw fromKube(err, `list ${gvr.resource} in ${namespace}`, this.apis.requestTimeoutMs);
    }
  }

  async watch(
    gvr: Gvr, namespace: string, selectors: WatchSelectors, resourceVersion: string, handlers: WatchEventHandlers,
  ): Promise<{ stop(): void }> {
    const what = `watch ${gvr.resource} in ${namespace}`;
    try {
      return await this.inner.watch(gvr, namespace, selectors, resourceVersion, {
        onEvent: (type, object) => handlers.onEvent(type, object),
        onEnd: (err) => handlers.onEnd(err === undefined || err === null ? undefined : watchFailure(err, what)),
      });
    } catch (err) {
      // The request could not even be sent (no cluster, bad credentials): as an end, so the waiter decides.
      handlers.onEnd(watchFailure(err, what));
      return { stop() {} };
    }
  }
}
