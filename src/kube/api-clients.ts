/**
 * Builds the @kubernetes/client-node API objects for one KubeConfig, with one
 * keep-alive connection pool per KubeConfig.
 *
 * Why: client-node 1.x creates a new https.Agent for every request (see
 * KubeConfig.applySecurityAuthentication), so every call would pay a TCP and TLS
 * handshake. A promise middleware, the library's own extension point, swaps in one
 * keep-alive agent built from the same TLS material; authentication headers are still
 * applied by the library on every request.
 *
 * Every request also carries a deadline (`requestTimeoutMs`, default 30 s) through the
 * same middleware. Why: client-node sets none, and the agent's socket `timeout` only
 * emits an event nobody acts on, so an API server that accepts the connection and never
 * answers would hold the caller's request (and a pooled socket) forever. The deadline
 * covers connecting, the TLS handshake and reading the body; kube-errors.ts turns the
 * abort into a `backend_error` (502) naming the call.
 */
import http from 'node:http';
import https from 'node:https';
import {
  CoreV1Api, CustomObjectsApi, ServerConfiguration, createConfiguration,
  type KubeConfig, type Middleware, type RequestContext,
} from '@kubernetes/client-node';

/** How long one Kubernetes request may take, from connecting to the last body byte. */
export const KUBE_REQUEST_TIMEOUT_MS = 30_000;

/** The API objects one identity uses. */
export interface KubeApis {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  /** The deadline of each request, for error messages. */
  readonly requestTimeoutMs: number;
  /** Close idle pooled connections (shutdown, cache eviction). */
  close(): void;
}

async function agentFor(kc: KubeConfig): Promise<http.Agent | https.Agent> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const common = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 60_000 };
  if (cluster.server.startsWith('http:')) return new http.Agent(common);
  return new https.Agent({
    ...common,
    ca: opts.ca,
    cert: opts.cert,
    key: opts.key,
    pfx: opts.pfx,
    passphrase: opts.passphrase,
    rejectUnauthorized: opts.rejectUnauthorized ?? !cluster.skipTLSVerify,
    servername: cluster.tlsServerName,
  });
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
  let agent: Promise<http.Agent | https.Agent> | undefined;
  const keepAlive: Middleware = {
    async pre(context: RequestContext): Promise<RequestContext> {
      agent ??= agentFor(kc);
      context.setAgent(await agent);
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
  });
  return {
    custom: new CustomObjectsApi(configuration),
    core: new CoreV1Api(configuration),
    requestTimeoutMs,
    close() {
      void agent?.then((a) => a.destroy());
    },
  };
}
