/**
 * Reading a request line the way kube-apiserver's RequestInfoFactory does: whether it is
 * a resource request, and if so its verb (get, list, watch, create, update, patch,
 * delete, deletecollection), API group and version, namespace, resource, name and
 * subresource. Authorization, counters, hooks and routing all read this one value.
 */

/** What a request is about. Non-resource requests (discovery, /version) carry only path and verb. */
export interface RequestInfo {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly isResourceRequest: boolean;
  /** Kubernetes verb for resource requests; lowercase HTTP method otherwise. */
  readonly verb: string;
  readonly apiPrefix: '' | 'api' | 'apis';
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Go's strconv.ParseBool truthy forms, as query flags accept them. */
export function isTrue(value: string | null): boolean {
  return value !== null && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}

/** Parse method and URL into a RequestInfo. */
export function parseRequestInfo(method: string, rawUrl: string): RequestInfo {
  const url = new URL(rawUrl, 'https://sandbox.invalid');
  const path = url.pathname;
  const query = url.searchParams;
  const base = { path, query, apiPrefix: '' as const, group: '', version: '', namespace: '', resource: '',
    subresource: '', name: '' };
  const nonResource = { ...base, isResourceRequest: false, verb: method.toLowerCase() };
  const parts = path.split('/').filter((p) => p.length > 0).map(decodeURIComponent);
  let rest: string[];
  let apiPrefix: 'api' | 'apis';
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    apiPrefix = 'api';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    apiPrefix = 'apis';
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return nonResource;
  }

  let verb: string;
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  let scoped = false;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
      rest = rest.slice(2);
      scoped = true;
    }
  }
  const [resource = '', name = '', subresource = ''] = rest;
  // Namespaces live in no namespace: `/namespaces/<ns>/namespaces/...` is no route (404), as on a cluster.
  if (rest.length > 3 || resource === '' || (resource === 'namespaces' && scoped)) {
    return { ...nonResource, isResourceRequest: true, verb: 'unknown', apiPrefix, group, version };
  }
  // `/api/v1/namespaces/<name>` names the namespace itself, not a namespace scope.
  if (resource === 'namespaces') namespace = '';

  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = watchPath || isTrue(query.get('watch')) ? 'watch' : name ? 'get' : 'list';
      break;
    case 'POST': verb = 'create'; break;
    case 'PUT': verb = 'update'; break;
    case 'PATCH': verb = 'patch'; break;
    case 'DELETE': verb = name ? 'delete' : 'deletecollection'; break;
    default: verb = method.toLowerCase();
  }
  return {
    path, query, isResourceRequest: true, verb, apiPrefix, group, version, namespace, resource, subresource, name,
  };
}
