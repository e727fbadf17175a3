/**
 * Builds the @kubernetes/client-node API objects for one KubeConfig, with one
 * keep-alive connection pool per KubeConfig.
 *
 * Why: client-node 1.x creates a new https.Agent for every request (see
 * KubeConfig.applySecurityAuthentication), so every call would pay a TCP and TLS
 * handshake. A promise middleware, the library's own extension point, swaps in one
 * keep-alive agent built from the same TLS material; authentication headers are still
 * applied by the library on every request.
 */
import http from 'node:http';
import https from 'node:https';
import {
  CoreV1Api, CustomObjectsApi, ServerConfiguration, createConfiguration,
  type KubeConfig, type Middleware, type RequestContext,
} from '@kubernetes/client-node';

/** The API objects one identity uses. */
export interface KubeApis {
  custom: CustomObjectsApi;
  core: CoreV1Api;
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

/** API objects for `kc` sharing one keep-alive agent. */
export function makeKubeApis(kc: KubeConfig): KubeApis {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  let agent: Promise<http.Agent | https.Agent> | undefined;
  const keepAlive: Middleware = {
    async pre(context: RequestContext): Promise<RequestContext> {
      agent ??= agentFor(kc);
      context.setAgent(await agent);
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
    close() {
      void agent?.then((a) => a.destroy());
    },
  };
}
