/**
 * Starting one sandbox API server, as named steps: its credentials (generated tokens, the static
 * tokens first in the authenticator chain, then OIDC), its seeded store (and a management cluster's
 * kubeconfig Secrets), the server's configuration, listening on loopback, then the controllers and
 * the A2A endpoint. Closing undoes it in the order that makes the address refuse connections first.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:https';
import { ADMIN_USER, AuthenticatorChain, serviceAccountUser, StaticTokenAuthenticator } from './auth/authenticator.js';
import { alwaysAllow, type Authorizer } from './auth/authorizer.js';
import { ensureBootstrapPolicy } from './auth/bootstrap-policy.js';
import { OidcAuthenticator } from './auth/oidc-authenticator.js';
import { RbacAuthorizer } from './auth/rbac-authorizer.js';
import { startControllers, type RunningControllers } from './controllers/index.js';
import { FaultInjector } from './faults.js';
import { RequestCounters } from './counters.js';
import { HookChain } from './hooks.js';
import { buildKubeconfig, clusterAdminKubeconfig, writeKubeconfigFile, type KubeconfigUser } from './kubeconfig.js';
import { seedFleet } from './fleet.js';
import type { Sandbox, SandboxOptions } from './index.js';
import { SandboxStore } from './ops/sandbox-store.js';
import { DEFAULT_SEED, KAGENT_NAMESPACE, seed } from './seed.js';
import { SAMPLE_SEED } from './seed-samples.js';
import { createApiServer, type ApiServerConfig } from './server/api-server.js';
import { announce } from './server/loopback-network.js';
import { listenTcp } from './tcp-listen.js';
import type { SandboxTls } from './tls.js';
import { startA2AEndpoint, type A2AEndpoint } from './a2a/a2a-server.js';

const newToken = (): string => randomBytes(24).toString('base64url');

/** The sandbox's credentials: its two tokens and the chain that checks bearer tokens. */
interface Credentials {
  adminToken: string;
  serviceAccountToken: string;
  tokens: StaticTokenAuthenticator;
  authenticators: AuthenticatorChain;
}

/** The admin's and agent-manager's tokens (given or generated), then the caller's authenticators, then OIDC. */
function credentials(options: SandboxOptions): Credentials {
  const adminToken = options.adminToken ?? newToken();
  const serviceAccountToken = options.serviceAccountToken ?? newToken();
  const tokens = new StaticTokenAuthenticator([
    [adminToken, ADMIN_USER],
    [serviceAccountToken, serviceAccountUser(KAGENT_NAMESPACE, 'agent-manager')],
  ]);
  const authenticators = new AuthenticatorChain(tokens, ...(options.authenticators ?? []));
  if (options.oidc) authenticators.add(new OidcAuthenticator(options.oidc, { log: options.log }));
  return { adminToken, serviceAccountToken, tokens, authenticators };
}

/** The store with the seed asked for, and a management cluster's kubeconfig Secrets of its workload clusters. */
function seededStore(
  options: SandboxOptions, workloads: ReadonlyMap<string, Sandbox>, organization: string | undefined,
): SandboxStore {
  const store = new SandboxStore({ historyCapacity: options.historyCapacity });
  if (options.seed !== false) {
    seed(store, Array.isArray(options.seed) ? options.seed : options.seed === 'samples' ? SAMPLE_SEED : DEFAULT_SEED);
  }
  if (organization !== undefined) {
    const entries = [...workloads].map(([name, w]) => ({
      name, kubeconfigYaml: clusterAdminKubeconfig(w.url, w.caPem, name, w.adminToken),
    }));
    seedFleet(store, organization, entries, options.seed === 'samples');
  }
  return store;
}

/** The API server's configuration; its serverAddress is filled in once listening. */
function serverConfig(
  options: SandboxOptions, store: SandboxStore, authenticators: AuthenticatorChain, rbac: () => Authorizer,
): ApiServerConfig & { faults: FaultInjector } {
  const faults = new FaultInjector(store);
  const hooks = new HookChain();
  faults.install(hooks);
  return {
    env: store, authenticator: authenticators,
    authorizer: options.authorizer ?? (options.authorization === 'rbac' ? rbac() : alwaysAllow),
    counters: new RequestCounters(), hooks, faults, log: options.log, serverAddress: '',
    timing: {
      defaultTimeoutSeconds: options.watchTimeoutSeconds ?? 1800,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    },
  };
}

/** Listen on loopback; returns the `host:port` clients reach (an IPv6 host in brackets). */
async function listen(server: Server, port: number, host: string): Promise<string> {
  const address = await listenTcp(server, port, host);
  const hostPart = address.family === 'IPv6' || host === '::1' ? `[${address.address}]` : address.address;
  return `${hostPart}:${address.port}`;
}

/** What closing stops, in order. */
interface Running {
  leaveNetwork: () => void;
  controllers: RunningControllers | undefined;
  a2a: A2AEndpoint | undefined;
  server: Server;
  workloads: ReadonlyMap<string, Sandbox>;
}

/** Close once: off the loopback network first (from then on the address refuses connections), then the rest. */
function closer(running: Running): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      running.leaveNetwork();
      running.controllers?.stop();
      await Promise.all([running.a2a?.close(), new Promise<void>((resolve) => {
        running.server.close(() => resolve());
        running.server.closeAllConnections();
      }), ...[...running.workloads.values()].map((w) => w.close())]);
    })();
    return closing;
  };
}

/** Start the API server of one sandbox, its workload clusters already running. */
export async function startServer(
  options: SandboxOptions, tls: SandboxTls, workloads: ReadonlyMap<string, Sandbox>, organization: string | undefined,
  { host, port }: { host: string; port: number },
): Promise<Sandbox> {
  const { adminToken, serviceAccountToken, tokens, authenticators } = credentials(options);
  const store = seededStore(options, workloads, organization);
  const rbac = (): Authorizer => {
    ensureBootstrapPolicy(store);
    return new RbacAuthorizer(store);
  };
  const config = serverConfig(options, store, authenticators, rbac);
  const server: Server = createApiServer(config, { key: tls.keyPem, cert: tls.certPem });
  config.serverAddress = await listen(server, port, host);
  const url = `https://${config.serverAddress}`;
  const leaveNetwork = announce(config.serverAddress, {
    caPem: tls.caPem, store, authenticate: (token) => tokens.authenticate(token),
  });
  const admin: KubeconfigUser = { token: adminToken, name: 'sandbox-admin' };
  const controllers = options.controllers
    ? startControllers(store, { reconcileDelayMs: options.reconcileDelayMs, log: options.log })
    : undefined;
  const a2a = (options.a2a ?? options.controllers === true) ? await startA2AEndpoint(store, host, 0) : undefined;
  return {
    url, caPem: tls.caPem, adminToken, serviceAccountToken, store, counters: config.counters, hooks: config.hooks,
    tokens, authenticators, faults: config.faults, controllers, a2aUrl: a2a?.url, a2aRequests: a2a?.requests ?? [],
    get authorizer() {
      return config.authorizer;
    },
    set authorizer(value: Authorizer) {
      config.authorizer = value;
    },
    enableRbac() {
      config.authorizer = rbac();
    },
    kubeconfigYaml: (user = admin) => buildKubeconfig(url, tls.caPem, user),
    writeKubeconfig: (path, user = admin) => writeKubeconfigFile(path, buildKubeconfig(url, tls.caPem, user)),
    workloads, organization,
    close: closer({ leaveNetwork, controllers, a2a, server, workloads }),
  };
}
