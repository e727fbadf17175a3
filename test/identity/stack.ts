/**
 * The whole identity stack of the suites, on loopback: a local OIDC issuer, the sandbox
 * API server trusting it (OIDC, RBAC on, see `sandbox-identity.ts`), and the real service
 * app (createApp, AgentService, the bearer guards and metadata documents, a
 * CallerProvider built from the sandbox's address and CA only: no ServiceAccount token
 * anywhere) on 127.0.0.1:0 through the production listener (`startHttpServer`).
 */
import { startFakeIssuer, type FakeIssuer } from '../support/identity/fake-issuer.js';
import { createTokenVerifier, type OidcTokenVerifier } from '../../src/identity/token-verifier.js';
import { CallerProvider } from '../../src/kube/providers.js';
import { sandboxSessions, startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { createApp } from '../../src/app.js';
import { resourceServerGuards } from '../../src/transport/http/auth.js';
import { oauthMetadataRouter } from '../../src/transport/http/oauth-metadata.js';
import { startHttpServer, type RunningServer } from '../../src/transport/http/http-server.js';
import { capturedLogger } from './helpers.js';
import { anonymousBase, APISERVER_AUDIENCE, trustIssuerWithRbac, type Witness } from './sandbox-identity.js';

/** The public base URL the metadata documents and challenges name. */
export const BASE_URL = 'http://localhost:8080';
/** Our OAuth client id: the one trusted audience. */
export const CLIENT_ID = 'agent-platform';
export const HR = 'helmreleases.helm.toolkit.fluxcd.io';
export const SERVICE_ACCOUNT = 'system:serviceaccount:kagent:agent-manager';

/** A create body the service accepts. */
export const spec = (name: string) => ({ name, modelConfig: 'default-model-config', toolset: ['preset:read-only'] });

export interface IdentityStack {
  issuer: FakeIssuer;
  fixture: ServiceFixture;
  witness: Witness;
  verifier: OidcTokenVerifier;
  /** `http://127.0.0.1:<port>` */
  base: string;
  logs: ReturnType<typeof capturedLogger>;
  /** A Dex id_token as muster forwards it (our client and the apiserver's audience); `claims` override. */
  tokenFor(who: 'alice' | 'bob', claims?: Record<string, unknown>): Promise<string>;
  /** Whether the HelmRelease kagent/<name> exists. */
  hrExists(name: string): boolean;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Let requests without a token through the guard (to reach the CallerProvider without one). */
  requireToken?: boolean;
  /** Run the sandbox's simulated controllers (Flux, kagent, the garbage collector); default off. */
  controllers?: boolean;
  /** Offer the session tools over the sandbox's kagent A2A endpoint (needs controllers). */
  sessions?: boolean;
}

/** Start the stack; close it in afterAll. */
export async function startIdentityStack(options: StackOptions = {}): Promise<IdentityStack> {
  const logs = capturedLogger();
  const issuer = await startFakeIssuer();
  let witness: Witness | undefined;
  const fixture = await startServiceFixture({
    log: logs.log,
    sandbox: options.controllers ? { controllers: true, reconcileDelayMs: 10 } : undefined,
    sessions: options.sessions ? sandboxSessions(true) : undefined,
    provider: (sandbox) => {
      witness = trustIssuerWithRbac(sandbox, issuer);
      return new CallerProvider(anonymousBase(sandbox), { log: logs.log });
    },
  });
  // A zero cooldown lets every unknown kid refetch the key set, so suites can count refetches.
  const verifier = createTokenVerifier(
    { provider: 'dex', issuerUrl: issuer.url, allowPrivateUrls: true, trustedAudiences: [CLIENT_ID] },
    { jwksCooldownMs: 0 },
  );
  const app = createApp({
    service: fixture.service, log: logs.log, version: 'test',
    auth: resourceServerGuards({ verifier, log: logs.log, baseUrl: BASE_URL, requireToken: options.requireToken }),
    publicRoutes: oauthMetadataRouter({ baseUrl: BASE_URL, issuer: issuer.url }),
  });
  const served: RunningServer = await startHttpServer(app, '127.0.0.1:0');
  return {
    issuer, fixture, witness: witness!, verifier, base: served.url, logs,
    tokenFor: (who, claims = {}) => issuer.mint({
      aud: [CLIENT_ID, APISERVER_AUDIENCE], sub: `sub-${who}`, email: `${who}@lab.local`, email_verified: true,
      groups: who === 'alice' ? ['platform-admins'] : ['everyone'], ...claims,
    }),
    hrExists: (name) => fixture.sandbox.store.find('helmreleases', 'kagent', name) !== undefined,
    async close() {
      await served.close(0);
      await fixture.close();
      await issuer.close();
    },
  };
}
