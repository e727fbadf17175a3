/**
 * The observability hooks the composition root threads through the service: around each
 * Kubernetes call (kube/instrumented.ts), each request to the chart registry and GitHub
 * (net/instrumented-fetch.ts) and each service operation (service/instrumented-service.ts).
 * Metrics and tracing each contribute theirs; with both off the lists are empty and
 * nothing is wrapped.
 */
import type { KubeCallHook } from '../kube/instrumented.js';
import type { FetchHook } from '../net/instrumented-fetch.js';
import type { OperationHook } from '../service/instrumented-service.js';

export interface ObservabilityHooks {
  readonly kube: KubeCallHook[];
  readonly fetch: FetchHook[];
  readonly operation: OperationHook[];
}

/** One contributor's hooks; any may be absent. */
export type HookSource = Partial<{ kubeHook: KubeCallHook; fetchHook: FetchHook; operationHook: OperationHook }>;

/** The hooks of every contributor present, in the order given (the first is outermost). */
export function collectHooks(...sources: (HookSource | undefined)[]): ObservabilityHooks {
  const present = sources.filter((s): s is HookSource => s !== undefined);
  return {
    kube: present.flatMap((s) => (s.kubeHook ? [s.kubeHook] : [])),
    fetch: present.flatMap((s) => (s.fetchHook ? [s.fetchHook] : [])),
    operation: present.flatMap((s) => (s.operationHook ? [s.operationHook] : [])),
  };
}
