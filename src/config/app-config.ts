/**
 * The typed configuration of `agent-manager serve`, nested by component. Each component
 * receives only its slice (`cfg.chart`, `cfg.oauth`, …), never the flag set. Secrets
 * (the GitHub token) live here as plain strings: log
 * `redactedSummary(config)`, never the config itself.
 */
import type { HarnessEgress } from '../core/guards/harness-egress.js';
import type { Duration } from './flag-types.js';
import type { ProxySettings } from '../net/proxy-settings.js';
import type { OtelSettings } from '../tracing/otel-settings.js';
import type { ServeSandboxConfig } from './sandbox-cluster-config.js';

export type { Duration };

/** Kubernetes access and API versions. */
export interface KubeConfig {
  /** Kubeconfig file; empty uses the default loading rules or in-cluster access. */
  readonly kubeconfig: string;
  /** Context override; empty uses the current context. */
  readonly context: string;
  /** Force in-cluster access. */
  readonly inCluster: boolean;
  /** Answer the pure reads from a watch-fed cache of the managed namespaces. */
  readonly readCache: boolean;
  /** `--read-cache-clusters`: most workload clusters the read cache covers at once (0: none). */
  readonly readCacheClusters: number;
  /** A kagent.dev version such as `v1alpha2` (a `kagent.dev/` prefix is stripped), or `auto`. */
  readonly kagentApiVersion: string;
  /** `--kagent-v2-api-version`: `auto`, `none`, a version or `api.kagent.dev/<version>`. */
  readonly kagentV2ApiVersion: string;
  /** `helm.toolkit.fluxcd.io/<version>`, or `auto`. */
  readonly helmReleaseApiVersion: string;
  /** `source.toolkit.fluxcd.io/<version>`, or `auto`. */
  readonly ociRepositoryApiVersion: string;
}

/** Which namespaces agents may live in. */
export interface NamespacesConfig {
  /** Where agents go when a request names no namespace. */
  readonly default: string;
  /** Every namespace agents may live in: the default first, then the extras, without duplicates. */
  readonly managed: readonly string[];
}

/** The agent chart and how often its registry is read. */
export interface ChartConfig {
  /** `oci://<registry>/<repository>`. */
  readonly ociUrl: string;
  /** The version range the OCIRepository follows, e.g. `2.x` (one chart line). */
  readonly semver: string;
  /** Registry re-read period; always positive (<= 0 on the command line means 10m). */
  readonly refresh: Duration;
  /** Credentials for the schema reads; at most one form is set (empty strings otherwise). */
  readonly auth: ChartAuthConfig;
  /** OCIRepository `spec.secretRef.name`; empty writes none. */
  readonly secretRef: string;
  /** OCIRepository `spec.provider`: `generic` (written as nothing), `aws`, `azure` or `gcp`. */
  readonly provider: 'generic' | 'aws' | 'azure' | 'gcp';
}

/** How agent-manager itself logs in to the chart registry. Password and token are secrets. */
export interface ChartAuthConfig {
  /** Path of a Docker config JSON file. */
  readonly dockerConfig: string;
  readonly username: string;
  readonly password: string;
  readonly token: string;
}

/** What composition writes into the Flux objects besides the chart. */
export interface ComposeConfig {
  /** HelmRelease `spec.interval`; `text` is what is written. */
  readonly helmReleaseInterval: Duration;
  /** OCIRepository `spec.interval`; `text` is what is written. */
  readonly ociRepositoryInterval: Duration;
  /** HelmRelease `spec.serviceAccountName`; empty omits it. */
  readonly helmReleaseServiceAccount: string;
}

/** The session tools: conversations with agents over A2A through the kagent controller. */
export interface SessionsConfig {
  /** `--kagent-a2a-url`; empty means the session tools are off. */
  readonly a2aUrl: string;
  /** True when the URL was given (flag or environment), not the default: `--sandbox` then keeps it. */
  readonly a2aUrlSet: boolean;
}

/** Skill discovery through the GitHub REST API. */
export interface SkillsConfig {
  /** Repository URLs; empty means the skills capability is off. */
  readonly repositories: readonly string[];
  readonly githubApi: string;
  /** Secret. Empty means anonymous. */
  readonly githubToken: string;
  readonly cacheTtl: Duration;
}

/** Commit mode: pull requests to a GitOps repository on GitHub. */
export interface GitOpsConfig {
  /** `owner/name`; empty means a request must name one (or the release's Kustomization does). */
  readonly repository: string;
  /** `--gitops-repositories`: more repositories the installation's credential may write to. */
  readonly repositories: readonly string[];
  readonly branch: string;
  readonly path: string;
  readonly githubApiUrl: string;
  /** Empty when no GitHub App is configured. */
  readonly appId: string;
  readonly appPrivateKeyFile: string;
  /** Secret. Empty when none. */
  readonly githubToken: string;
}

/** The MCP endpoint. */
export interface McpConfig {
  readonly enabled: boolean;
  /** Starts with `/`. */
  readonly path: string;
}

/** Dex as identity provider. */
export interface DexProviderConfig {
  readonly name: 'dex';
  readonly issuerUrl: string;
  /** The audience bearer tokens must carry when no trusted audiences are configured; may be empty then. */
  readonly clientId: string;
  /** PEM CA bundle added to the system roots; empty means system roots only. */
  readonly caFile: string;
  /** Let the issuer resolve to a private or loopback address. */
  readonly allowPrivateUrls: boolean;
}

/** Google as identity provider. */
export interface GoogleProviderConfig {
  readonly name: 'google';
  /** The audience bearer tokens must carry when no trusted audiences are configured; may be empty then. */
  readonly clientId: string;
}

/** OAuth resource server settings, present only when `--enable-oauth` is on and valid. */
export interface OAuthEnabledConfig {
  readonly enabled: true;
  /** Public base URL: https, or http on loopback. */
  readonly baseUrl: string;
  readonly provider: DexProviderConfig | GoogleProviderConfig;
  readonly trustedAudiences: readonly string[];
  readonly ssoAllowPrivateIps: boolean;
  /** Call the Kubernetes API with the caller's token. */
  readonly downstream: boolean;
}

/** Either no authentication at all (everything runs as the ServiceAccount), or OAuth. */
export type OAuthConfig = { readonly enabled: false } | OAuthEnabledConfig;

/** The Prometheus listener. */
export interface MetricsConfig {
  readonly enabled: boolean;
  /** host:port; empty when disabled. */
  readonly listen: string;
}

/**
 * How the server stops on SIGTERM: `/readyz` answers 503 at once and everything is still
 * served for `delay` (while endpoints and load balancers drop the pod), then the listener
 * stops accepting and in-flight requests and streams get `timeout` to finish.
 */
export interface ShutdownConfig {
  readonly delay: Duration;
  /** Always positive. */
  readonly timeout: Duration;
}

/** Everything `agent-manager serve` runs with. */
export interface AppConfig {
  /**
   * HTTPS_PROXY, HTTP_PROXY and NO_PROXY (lower-case spellings win), for the chart registry,
   * GitHub and the identity provider. The Kubernetes API follows the kubeconfig's `proxy-url`.
   */
  readonly proxy: ProxySettings;
  /** The OTEL_* environment: traces are exported only when an OTLP endpoint is set. */
  readonly otel: OtelSettings;
  /** host:port of the main listener. */
  readonly listen: string;
  readonly verbose: boolean;
  /**
   * `--allowed-origins`: browser origins accepted on `/api/v1` and MCP besides loopback
   * ones, normalised (`https://host[:port]`) and without duplicates. The OAuth base URL's
   * origin is not in here: the composition root adds it.
   */
  readonly allowedOrigins: readonly string[];
  readonly shutdown: ShutdownConfig;
  readonly kube: KubeConfig;
  readonly namespaces: NamespacesConfig;
  /** `--revision-history-limit`: revisions kept per agent (0 keeps none). */
  readonly revisionHistoryLimit: number;
  readonly chart: ChartConfig;
  readonly compose: ComposeConfig;
  readonly skills: SkillsConfig;
  readonly sessions: SessionsConfig;
  /**
   * `--toolset-presets`: the gateway's preset names beyond the five every installation has,
   * without duplicates; undefined when not set (unknown presets are then only noted).
   */
  readonly toolsetPresets?: readonly string[];
  readonly gitops: GitOpsConfig;
  /** Agents on workload clusters: `--target-muster-url` and `--fleet-organizations`. */
  readonly fleet: FleetConfig;
  /** Agents of chart 2.x: `--harness-name`, `--muster-url`, `--skills-git-auth-secret-name`. */
  readonly line2: Line2Config;
  /** The claude-Harness guards: `--harness-egress` and `--muster-token-file`. */
  readonly harnessGuards: HarnessGuardsConfig;
  readonly mcp: McpConfig;
  readonly oauth: OAuthConfig;
  readonly metrics: MetricsConfig;
  readonly sandbox: ServeSandboxConfig;
}

/** The claude-Harness guards' settings. */
export interface HarnessGuardsConfig {
  /** `--harness-egress`: origins by Harness name; a Harness not named has none. */
  readonly egress: HarnessEgress;
  /** `--muster-token-file`; empty when not set. Read at every check (a mounted token may rotate). */
  readonly musterTokenFile: string;
}

/** Agents on workload clusters. */
export interface FleetConfig {
  readonly targetMusterUrl: string;
  readonly organizations: readonly string[];
}

/** What agents of chart 2.x are composed with. */
export interface Line2Config {
  readonly harnessName: string;
  /** Empty: the chart's default muster URL. */
  readonly musterUrl: string;
  /** Empty: no installation credential. */
  readonly skillsGitAuthSecretName: string;
}
