/**
 * Where a resource request goes, decided from the kind and the parsed URL alone, in the order the
 * API server's routes answer: the container subresources of pods (the sandbox runs no containers),
 * the scale subresource, then 404 for a subresource or namespace the kind has no route for and 405
 * for a verb it does not serve. Pure, so each rule is tested on plain objects.
 */
import type { WriteScope } from '../fields/managed-fields.js';
import type { ResourceDef } from '../resources/resource-def.js';
import type { RequestInfo } from './request-info.js';

/** Pod subresources that need a running container; the sandbox's kubelet runs none. */
const CONTAINER_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);

/** What serves a resource request, or which error refuses it. */
export type ResourceRoute =
  | { kind: 'container' }
  | { kind: 'scale' }
  | { kind: 'path-not-found' }
  | { kind: 'method-not-allowed' }
  | { kind: 'verb'; scope: WriteScope };

type RouteFacts = Pick<ResourceDef, 'resource' | 'group' | 'namespaced' | 'verbs' | 'statusSubresource'
  | 'scaleSubresource'>;
type RequestFacts = Pick<RequestInfo, 'verb' | 'namespace' | 'name' | 'subresource'>;

/** Whether the route allows the verb. */
function routeAllows(def: RouteFacts, info: RequestFacts): boolean {
  if (info.subresource) return ['get', 'update', 'patch'].includes(info.verb);
  if (def.namespaced && !info.namespace && !info.name) return info.verb === 'list' || info.verb === 'watch';
  return def.verbs.includes(info.verb);
}

/** Decide where a request for `def` goes. */
export function resourceRoute(def: RouteFacts, info: RequestFacts): ResourceRoute {
  if (def.resource === 'pods' && !def.group && info.name && CONTAINER_SUBRESOURCES.has(info.subresource)) {
    return { kind: 'container' };
  }
  if (info.subresource === 'scale' && def.scaleSubresource && info.name) return { kind: 'scale' };
  if (info.subresource && (info.subresource !== 'status' || !def.statusSubresource)) return { kind: 'path-not-found' };
  // A cluster-scoped kind has no route under a namespace (the API server registers none there).
  if (!def.namespaced && info.namespace) return { kind: 'path-not-found' };
  if (!routeAllows(def, info)) return { kind: 'method-not-allowed' };
  return { kind: 'verb', scope: info.subresource === 'status' ? 'status' : 'main' };
}
