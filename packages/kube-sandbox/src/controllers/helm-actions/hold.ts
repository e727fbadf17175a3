/**
 * The reconciles that end without a Helm action: a suspended release (its generation counts as
 * observed), a release waiting for its chart, and one whose cluster cannot be reached (tried again).
 */
import { conditionsIn } from '../helm-release-state.js';
import { MANAGER } from '../helm-apply.js';
import { writeStatus } from '../status-helpers.js';
import { HR, setAll, storageNamespaceOf, UNREACHABLE_RETRY_MS, type Reconcile } from './common.js';

/** A suspended reconcile ends at once without an error: its generation counts as observed. */
export function holdSuspended({ ctx, hr, status, generation }: Reconcile): void {
  writeStatus(ctx.store, HR, hr, { ...status, observedGeneration: generation }, MANAGER);
}

/** helm-controller leaves Reconciling True (it will retry) beside Ready False while it waits for the chart. */
export function waitForSource({ ctx, hr, status, generation }: Reconcile, reason: string, message: string): void {
  let conditions = setAll(conditionsIn(status), ['Reconciling'],
    { status: 'True', reason: 'Progressing', message: 'Fulfilling prerequisites', observedGeneration: generation });
  conditions = setAll(conditions, ['Ready'], { status: 'False', reason, message, observedGeneration: generation });
  writeStatus(ctx.store, HR, hr, { ...status, conditions }, MANAGER);
}

/**
 * As helm-controller reports it: no client is `RESTClientError`; a failed first request fails
 * the lookup of the release's state. Either is tried again later (a Secret change sooner).
 */
export function holdUnreachable({ ctx, hr, status, generation }: Reconcile,
  phase: 'client' | 'request', targetMessage: string): number {
  const [reason, message] = phase === 'client' ? ['RESTClientError', targetMessage]
    : ['StateError', `Could not determine release state: failed to retrieve last release from storage: query: ` +
      `failed to query with labels: ${targetMessage}`];
  const conditions = setAll(conditionsIn(status), ['Ready'],
    { status: 'False', reason, message, observedGeneration: generation });
  // With a client built, helm-controller has recorded the storage namespace before it asks the cluster.
  if (phase === 'request') status.storageNamespace = storageNamespaceOf(hr);
  writeStatus(ctx.store, HR, hr, { ...status, conditions }, MANAGER);
  return UNREACHABLE_RETRY_MS;
}
