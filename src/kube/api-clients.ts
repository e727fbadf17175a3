/**
 * Builds @kubernetes/client-node's API objects for one KubeConfig with one keep-alive pool: client-node
 * 2.x makes a new undici dispatcher per request while applying authentication, so every call paid a TCP
 * and TLS handshake. A promise middleware (the library's extension point) keeps the first dispatcher and
 * reuses it; the library still chooses it (TLS, `tls-server-name`, `proxy-url`) and applies auth per
 * request, so rotated tokens are picked up. Each request has a deadline (`requestTimeoutMs`, 30 s: a
 * silent API server would hold it forever) and is sent again when the server asks (retry-after.ts).
 */
import {
  ApiException, AuthorizationV1Api, CoreV1Api, CustomObjectsApi, HttpMethod, ServerConfiguration, createConfiguration,
  type KubeConfig, type Middleware, type RequestContext,
} from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import type { Gvr } from '../service/ports.js';
import { sendRequest, undiciRequestLibrary } from './http-library.js';
import { DEFAULT_RETRY_POLICY, sendWithRetries, type RetryPolicy } from './retry-after.js';

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** The collection path of a resource in a namespace, e.g.
 * `/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases`. */
export function collectionPath(gvr: Gvr, namespace: string): string {
  const { group, version, resource } = gvr;
  const prefix = group ? `/apis/${group}/${version}` : `/api/${version}`;
  // No namespace: the collection across every namespace (GET /apis/<group>/<version>/<resource>).
  if (namespace === '') return `${prefix}/${resource}`;
  return `${prefix}/namespaces/${encodeURIComponent(namespace)}/${resource}`;
}

/** KubeConfig's (private) step that puts the user's credentials into request options' headers. */
interface AuthorizationHeaders {
  applyAuthorizationHeader?(options: RequestOptions): Promise<void>;
}

/**
 * The field manager of every write this service sends (create, replace, and their dry runs; the
 * access reviews too), as `managedFields` and `kubectl get --show-managed-fields` name it, so an
 * operator sees which fields agent-manager set rather than the client library's default
 * (`unknown`, or client-node's own name). A delete has no field manager in the API.
 */
export const FIELD_MANAGER = 'agent-manager';

/** How long one Kubernetes request may take, from connecting to the last body byte. */
export const KUBE_REQUEST_TIMEOUT_MS = 30_000;

/** The API objects one identity uses. */
export interface KubeApis {
  custom: CustomObjectsApi;
  /** Writes of the core group, which CustomObjectsApi cannot address (`/api/v1`, not `/apis/<group>`). */
  core: CoreV1Api;
  /** SelfSubjectAccessReviews (what this identity may do). */
  authorization: AuthorizationV1Api;
  /**
   * One object, or one list of a namespace (with the selectors), as plain JSON: the reads
   * of the Kubernetes port and the read cache's lists. The same steps as a generated API call (the library's
   * request context, its kubeconfig authentication, the middleware below, the HTTP
   * library) without the typed models: the answer stays plain Kubernetes JSON, where
   * CoreV1Api builds V1Pod and CoreV1Event objects only for them to be turned back into
   * JSON, and every generated call adds its checks, converters and wrappers around
   * the same request. A non-2xx answer rejects with the library's ApiException, as a
   * generated call does (without a body for a 401, as the library drops it).
   */
  readObject(gvr: Gvr, namespace: string, name: string): Promise<unknown>;
  /** See readObject. */
  listObjects(
    gvr: Gvr, namespace: string, selectors?: { labelSelector?: string; fieldSelector?: string },
  ): Promise<unknown>;
  /** The deadline of each request, for error messages. */
  readonly requestTimeoutMs: number;
  /** Close idle pooled connections (shutdown, cache eviction). */
  close(): void;
}

export interface KubeApisOptions {
  /** Deadline of each request; default KUBE_REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** How an answer the API server asked to have repeated is sent again; default DEFAULT_RETRY_POLICY. */
  retry?: Partial<RetryPolicy>;
}

/** API objects for `kc` sharing one keep-alive agent, each request with a deadline. */
export function makeKubeApis(kc: KubeConfig, options: KubeApisOptions = {}): KubeApis {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const requestTimeoutMs = options.requestTimeoutMs ?? KUBE_REQUEST_TIMEOUT_MS;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  // The dispatcher the library built for the first request; undefined for a plain
  // http:// server, where the library leaves fetch's own keep-alive pool in place.
  let dispatcher: Dispatcher | undefined;
  const keepAlive: Middleware = {
    async pre(context: RequestContext): Promise<RequestContext> {
      dispatcher ??= context.getDispatcher();
      if (dispatcher) context.setDispatcher(dispatcher);
      return context;
    },
    async post(response) {
      return response;
    },
  };
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [keepAlive],
    httpApi: undiciRequestLibrary(requestTimeoutMs, retry),
  });
  const applyHeaders = kubeconfigHeaders(kc);
  /** GET `path` with `query`, the answer parsed. */
  async function getJson(path: string, query: Readonly<Record<string, string | undefined>> = {}): Promise<unknown> {
    const context = configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) context.setQueryParam(key, value);
    }
    context.setHeaderParam('Accept', 'application/json');
    if (dispatcher) await applyHeaders(context);
    else await kc.applySecurityAuthentication(context);
    const ready = await keepAlive.pre(context);
    const response = await sendWithRetries(() => sendRequest(ready, requestTimeoutMs), retry, ready.getSignal());
    const status = response.httpStatusCode;
    if (status >= 200 && status <= 299) {
      const parsed: unknown = JSON.parse(await response.body.text());
      return parsed;
    }
    const body = status === 401 ? undefined : await response.body.text();
    throw new ApiException(status, status === 401 ? 'Unauthorized' : 'Unknown API Status Code!', body,
      response.headers);
  }
  return {
    readObject: (gvr, namespace, name) => getJson(`${collectionPath(gvr, namespace)}/${encodeURIComponent(name)}`),
    listObjects: (gvr, namespace, selectors = {}) => getJson(collectionPath(gvr, namespace), selectors),
    custom: new CustomObjectsApi(configuration),
    core: new CoreV1Api(configuration),
    authorization: new AuthorizationV1Api(configuration),
    requestTimeoutMs,
    close() {
      void dispatcher?.close().catch(() => undefined);
    },
  };
}

/**
 * The kubeconfig's authentication headers for a read on the kept dispatcher, as
 * applySecurityAuthentication sets them: impersonation's, then the authenticators' and the
 * token's, then Basic for a username. The library's own step builds a dispatcher only for the
 * pool to throw it away, and `applyToHTTPSOptions` still decodes (or, in a pod, reads from disk)
 * the CA, certificate and key on every call; `applyAuthorizationHeader`, the part of both that
 * makes the headers, is called alone when the library has it. Still per request, so an exec
 * plugin's, an OIDC provider's or a token file's fresh token is sent.
 */
function kubeconfigHeaders(kc: KubeConfig): (context: RequestContext) => Promise<void> {
  // safe: applyAuthorizationHeader is a method of KubeConfig its typings keep private (2.0.x); in a version
  // without it, the optional call finds none and the whole applyToHTTPSOptions step runs instead.
  const authorize = (kc as unknown as AuthorizationHeaders).applyAuthorizationHeader?.bind(kc);
  return async function applyHeaders(context: RequestContext): Promise<void> {
    const options: RequestOptions & { headers: Record<string, unknown> } = { headers: {} };
    const user = kc.getCurrentUser();
    if (authorize) {
      if (user?.impersonateUser != null) options.headers['Impersonate-User'] = user.impersonateUser;
      await authorize(options);
      if (user?.username) options.auth = `${user.username}:${user.password}`;
    } else {
      await kc.applyToHTTPSOptions(options);
    }
    if (typeof options.auth === 'string') {
      context.setHeaderParam('Authorization', `Basic ${Buffer.from(options.auth).toString('base64')}`);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) context.setHeaderParam(name, String(value));
  };
}
