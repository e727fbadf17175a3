/**
 * Builds the `sandbox` command's configuration from its parsed flags. OIDC follows
 * kube-apiserver: an issuer URL and a client ID go together, or neither is set.
 */
import type { FlagValues } from './flag-types.js';
import type { SandboxFlags } from './flags.js';
import { ConfigError } from './resolve.js';
import type { SandboxCommandConfig } from './sandbox-cluster-config.js';

/** Build and check the sandbox command configuration. Throws ConfigError. */
export function buildSandboxConfig(v: FlagValues<SandboxFlags>): SandboxCommandConfig {
  const issuerUrl = v['oidc-issuer-url'];
  const clientId = v['oidc-client-id'];
  if ((issuerUrl === '') !== (clientId === '')) {
    throw new ConfigError('--oidc-issuer-url and --oidc-client-id go together: set both to accept OIDC ' +
      'id_tokens, or neither');
  }
  if (issuerUrl === '' && v['oidc-ca-file'] !== '') {
    throw new ConfigError('--oidc-ca-file needs --oidc-issuer-url: the CA bundle is only used to reach an OIDC issuer');
  }
  if (issuerUrl === '' && v['oidc-username-prefix'] !== '') {
    throw new ConfigError('--oidc-username-prefix needs --oidc-issuer-url: it only applies to OIDC user names');
  }
  if (v['workload-clusters'] > 50) {
    throw new ConfigError(`--workload-clusters ${v['workload-clusters']}: the sandbox runs at most 50 ` +
      `workload clusters`);
  }
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v.organization) || v.organization.length > 59) {
    throw new ConfigError(`--organization "${v.organization}" must be a DNS-1123 label of at most 59 characters (it ` +
      `names namespace org-<organization>)`);
  }
  if (v['oidc-username-claim'].trim() === '') {
    throw new ConfigError('--oidc-username-claim must name a claim, e.g. sub or email');
  }
  return {
    listen: v.listen,
    kubeconfigOut: v['kubeconfig-out'],
    seed: v.seed,
    authorization: v.authorization,
    controllers: v.controllers,
    reconcileDelayMs: v['reconcile-delay'].ms,
    workloadClusters: v['workload-clusters'],
    organization: v.organization,
    oidc: issuerUrl === ''
      ? undefined
      : {
          issuerUrl,
          clientId,
          usernameClaim: v['oidc-username-claim'],
          usernamePrefix: v['oidc-username-prefix'],
          groupsClaim: v['oidc-groups-claim'],
          caFile: v['oidc-ca-file'],
        },
    verbose: v.verbose,
  };
}
