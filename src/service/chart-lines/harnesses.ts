/**
 * list_harnesses and the Harness checks of the writes: a Harness is read in the agent's namespace (the Agent's
 * harnessRef is namespace-local), as the caller reads everything else. A cluster that does not serve
 * api.kagent.dev has no Harnesses: an empty list, not an error.
 */
import { harnessOf } from '../../core/chart-lines/harness.js';
import { isAppError } from '../../core/errors.js';
import type { Harness, HarnessList } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';

/** The namespace's Harnesses, sorted by name. */
export async function readHarnesses(env: OperationEnv, kube: KubePort, namespace: string): Promise<Harness[]> {
  const type = env.types.harness;
  if (!type) return [];
  try {
    const objects = await kube.list(type, namespace);
    return objects.map(harnessOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    // The group or resource is not served (kagent not upgraded): no Harness there.
    if (isAppError(err, 'not_found')) return [];
    throw err;
  }
}

export async function listHarnesses(env: OperationEnv, ctx: RequestContext, namespace?: string): Promise<HarnessList> {
  const ns = env.settings.namespaces.resolve(namespace);
  return { harnesses: await readHarnesses(env, env.reads(ctx), ns) };
}
