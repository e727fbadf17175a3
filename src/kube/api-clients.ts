/**
 * Builds the @kubernetes/client-node API objects for one KubeConfig, with one
 * keep-alive connection pool per KubeConfig.
 *
 * Why: client-node 2.x builds a new undici dispatcher for every request while it applies
 * the kubeconfig's authentication (KubeConfig.applySecurityAuthentication), so every call
 * would pay a TCP and TLS handshake. A promise middleware, the library's own extension
 * point, runs after that step: it keeps the first dispatcher the library built for this
 * KubeConfig and hands the same one to every later request. The library still decides
 * what the dispatcher is (TLS material, `tls-server-name`, a kubeconfig's `proxy-url`),
 * and still applies the authentication headers on every request, so a rotated token is
 * picked up.
 *
 * Every request also carries a deadline (`requestTimeoutMs`, default 30 s) through the
 * same middleware. Why: client-node sets none, so an API server that accepts the
 * connection and never answers would hold the caller's request (and a pooled socket)
 * forever. The deadline covers connecting, the TLS handshake and reading the body;
 * kube-errors.ts turns the abort into a `backend_error` (502) naming the call.
 */
import {
  AuthorizationV1Api, CoreV1Api, CustomObjectsApi, ServerConfiguration, createConfiguration,
  type KubeConfig, type Middleware, type RequestContext,
} from '@kubernetes/client-node';
import { undiciRequestLibrary } from './http-library.js';

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** How long one Kubernetes request may take, from connecting to the last body byte. */
export const KUBE_REQUEST_TIMEOUT_MS = 30_000;

/** The API objects one identity uses. */
export interface KubeApis {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  /** SelfSubjectAccessReviews (what this identity may do). */
  authorization: AuthorizationV1Api;
  /** The deadline of each request, for error messages. */
  readonly requestTimeoutMs: number;
  /** Close idle pooled connections (shutdown, cache eviction). */
  close(): void;
}

export interface KubeApisOptions {
  /** Deadline of each request; default KUBE_REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
}

/** API objects for `kc` sharing one keep-alive agent, each request with a deadline. */
export function makeKubeApis(kc: KubeConfig, options: KubeApisOptions = {}): KubeApis {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const requestTimeoutMs = options.requestTimeoutMs ?? KUBE_REQUEST_TIMEOUT_MS;
  // The dispatcher the library built for the first request; undefined for a plain
  // http:// server, where the library leaves fetch's own keep-alive pool in place.
  let dispatcher: Dispatcher | undefined;
  const keepAlive: Middleware = {
    async pre(context: RequestContext): Promise<RequestContext> {
      dispatcher ??= context.getDispatcher();
      if (dispatcher) context.setDispatcher(dispatcher);
      const deadline = AbortSignal.timeout(requestTimeoutMs);
      const own = context.getSignal();
      context.setSignal(own ? AbortSignal.any([own, deadline]) : deadline);
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
    httpApi: undiciRequestLibrary,
  });
  return {
    custom: new CustomObjectsApi(configuration),
    core: new CoreV1Api(configuration),
    authorization: new AuthorizationV1Api(configuration),
    requestTimeoutMs,
    close() {
      void dispatcher?.close().catch(() => undefined);
    },
  };
}
