/**
 * Who `serve`'s requests act as, and how they prove it. Trust model: with OAuth, a request reaches the
 * service only with an id_token of the configured issuer for a trusted audience; with downstream OAuth,
 * every Kubernetes call of that request presents exactly that token, and a request without one is
 * refused (401), never served as the ServiceAccount. A bad OAuth flag stops start-up here, before
 * anything slow; an identity provider that is down does not (each request retries and says why).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { AppConfig } from './config/index.js';
import { createTokenVerifier } from './identity/token-verifier.js';
import { verifierConfigFrom } from './identity/verifier-config.js';
import { CallerProvider, ServiceAccountProvider } from './kube/providers.js';
import type { Logger } from './log/logger.js';
import type { KubeProvider } from './service/ports.js';
import type { AuthGuard } from './app.js';
import type { Step } from './transport/http/exchange.js';
import { resourceServerGuards } from './transport/http/auth.js';
import { DEFAULT_SCOPES, oauthMetadataRouter } from './transport/http/oauth-metadata.js';
import type { Cleanup } from './serve-shutdown.js';

/** Who requests act as, and how they prove it. */
export interface Identity {
  kube: KubeProvider | CallerProvider;
  /** The bearer guards (OAuth only). */
  auth?: AuthGuard;
  /** The RFC 9728 metadata documents (OAuth only). */
  publicRoutes?: Step;
}

/** The identity wiring: the Kubernetes provider, and with OAuth the verifier, its guards and metadata. */
export function openIdentity(config: AppConfig, cluster: KubeConfig, log: Logger, cleanups: Cleanup[]): Identity {
  const { oauth } = config;
  const downstream = oauth.enabled && oauth.downstream;
  const kube = downstream ? new CallerProvider(cluster, { log }) : new ServiceAccountProvider(cluster);
  cleanups.push(() => kube.close());
  if (!oauth.enabled) return { kube };

  // An unreadable CA file or an unusable issuer URL stops startup here, with its flag named.
  const verifier = createTokenVerifier(verifierConfigFrom(oauth), { proxy: config.proxy });
  const mcpPath = config.mcp.path;
  log.info({
    provider: oauth.provider.name, issuer: verifier.issuer, trustedAudiences: verifier.trustedAudiences,
    baseUrl: oauth.baseUrl, identity: kube.identity,
  }, 'OAuth resource server enabled');
  if (downstream && config.sandbox.enabled) {
    // The in-process sandbox trusts only its own tokens; say so now rather than with a 401 per request.
    log.warn({ issuer: verifier.issuer },
      'the in-process sandbox does not trust the identity provider, so it will refuse callers\' tokens (401); ' +
      'run `agent-manager sandbox --oidc-issuer-url=<issuer> --oidc-client-id=<audience>` and point --kubeconfig at ' +
      'it instead');
  }
  // Warm the discovery document and key set now, so the first caller does not wait; an
  // identity provider that is down is not fatal: each request retries and says why.
  verifier.discover().catch((err: unknown) => {
    log.warn({ err: err instanceof Error ? err.message : String(err), issuer: verifier.issuer },
      'identity provider not reachable yet; bearer tokens cannot be verified until it is');
  });
  return {
    kube,
    auth: resourceServerGuards({ verifier, log, baseUrl: oauth.baseUrl, mcpPath }),
    publicRoutes: oauthMetadataRouter({
      baseUrl: oauth.baseUrl, issuer: verifier.issuer, mcpPath, scopesSupported: DEFAULT_SCOPES[oauth.provider.name],
    }),
  };
}
