/**
 * The flag tables: one row per flag with its environment variable, default and help.
 * `--help`, `parseConfig` and the operations docs all read these rows, so a flag exists
 * exactly when it has a row here. The `serve` names, variables and defaults are the Go
 * service's, so its Helm chart can drive this implementation unchanged.
 */
import type { FlagDef, RetiredFlag } from './flag-types.js';

/** Default namespace agents live in when a request names none. */
export const DEFAULT_KAGENT_NAMESPACE = 'kagent';

/** Default OCI URL of the agent chart. */
export const DEFAULT_CHART_OCI_URL = 'oci://gsoci.azurecr.io/charts/giantswarm/agent';

/** Default A2A base of the kagent controller: its HTTP port (8083) serves `/api/a2a/{namespace}/{name}`. */
export const DEFAULT_KAGENT_A2A_URL = 'http://kagent-controller.kagent:8083/api/a2a';

/** What `--agent-chart-refresh` <= 0 stands for: the default period. */
export const DEFAULT_CHART_REFRESH = '10m';

/** Flags of `agent-manager serve`. */
export const SERVE_FLAGS = [
  // Server
  { name: 'listen', env: 'AGENT_MANAGER_LISTEN', default: ':8080', type: 'address', group: 'Server',
    help: 'Address the REST API, the MCP endpoint and the health probes listen on.' },
  { name: 'verbose', short: 'v', env: 'AGENT_MANAGER_VERBOSE', default: false, type: 'bool', group: 'Server',
    help: 'Log at debug level.' },
  { name: 'allowed-origins', env: 'AGENT_MANAGER_ALLOWED_ORIGINS', default: '', type: 'list', group: 'Server',
    help: 'Comma-separated browser origins (https://host[:port], no path) allowed to call /api/v1 and the MCP '
      + 'endpoint, besides loopback origins and the --oauth-base-url origin, and answered CORS (preflights '
      + 'included); requests without an Origin header are not affected.' },
  { name: 'shutdown-delay', env: 'AGENT_MANAGER_SHUTDOWN_DELAY', default: '5s', type: 'duration', group: 'Server',
    help: 'On SIGTERM, how long /readyz answers 503 while the server keeps serving, so endpoints and load balancers '
      + 'stop sending before it stops accepting; 0 stops accepting at once (the default with --sandbox, which has '
      + 'no load balancer).' },
  { name: 'shutdown-timeout', env: 'AGENT_MANAGER_SHUTDOWN_TIMEOUT', default: '15s', type: 'duration', group: 'Server',
    help: 'Then how long in-flight requests and streams may take to finish; connections still open '
      + 'after it are closed.' },
  // Kubernetes
  { name: 'kubeconfig', env: 'KUBECONFIG', default: '', type: 'string', group: 'Kubernetes',
    help: 'Kubeconfig file; empty uses the default loading rules, or in-cluster access when '
      + 'KUBERNETES_SERVICE_HOST is set.' },
  { name: 'kube-context', env: 'KUBE_CONTEXT', default: '', type: 'string', group: 'Kubernetes',
    help: 'Kubeconfig context to use instead of the current one.' },
  { name: 'in-cluster', env: 'KUBERNETES_IN_CLUSTER', default: false, type: 'bool', group: 'Kubernetes',
    help: "Use the pod's ServiceAccount and the in-cluster API address, whatever the kubeconfig says." },
  { name: 'kagent-namespace', env: 'KAGENT_NAMESPACE', default: DEFAULT_KAGENT_NAMESPACE, type: 'string',
    group: 'Kubernetes',
    help: 'Namespace agents are created in and listed from when a request names none.' },
  { name: 'managed-namespaces', env: 'AGENT_MANAGER_MANAGED_NAMESPACES', default: '', type: 'list', group: 'Kubernetes',
    help: 'Comma-separated further namespaces agents may live in (the service needs RBAC there).' },
  { name: 'read-cache', env: 'AGENT_MANAGER_READ_CACHE', default: true, type: 'bool', group: 'Kubernetes',
    help: 'Answer list, get, status, model-config and revision reads from a watch-fed cache of the managed namespaces, '
      + 'filled as the ServiceAccount (it needs get, list and watch there); --read-cache=false reads from the API '
      + 'server every time. Writes always go to the API server. With --downstream-oauth it is on only when set '
      + 'explicitly, and each cached read is first authorized as the caller.' },
  { name: 'read-cache-clusters', env: 'AGENT_MANAGER_READ_CACHE_CLUSTERS', default: '50', type: 'count',
    group: 'Kubernetes',
    help: 'Most workload clusters the read cache covers at once: a cluster\'s stores start on its first read and stop '
      + 'after 10 minutes without one, the least recently read stopped first; 0 reads workload clusters from their API '
      + 'servers. Only with the read cache on and without --downstream-oauth (the service has no identity of its own '
      + 'there to fill it).' },
  { name: 'kagent-api-version', env: 'KAGENT_API_VERSION', default: 'auto', type: 'string', group: 'Kubernetes',
    help: 'kagent.dev API version of Agents and ModelConfigs; auto asks the API server and falls back to v1alpha2.' },
  { name: 'kagent-v2-api-version', env: 'KAGENT_V2_API_VERSION', default: 'auto', type: 'string', group: 'Kubernetes',
    help: 'api.kagent.dev API version of chart 2.x objects (Agents, Harnesses, ModelConfigs); auto asks the API '
      + 'server, none turns the 2.x reads off.' },
  // Flux
  { name: 'flux-helmrelease-api-version', env: 'FLUX_HELMRELEASE_API_VERSION', default: 'auto', type: 'string',
    group: 'Flux',
    help: 'helm.toolkit.fluxcd.io version of composed HelmReleases (v2 or helm.toolkit.fluxcd.io/v2); auto '
      + 'asks the API server.' },
  { name: 'flux-ocirepository-api-version', env: 'FLUX_OCIREPOSITORY_API_VERSION', default: 'auto', type: 'string',
    group: 'Flux',
    help: 'source.toolkit.fluxcd.io version of the OCIRepository (v1 or source.toolkit.fluxcd.io/v1); auto '
      + 'asks the API server.' },
  { name: 'helmrelease-interval', env: 'HELMRELEASE_INTERVAL', default: '10m', type: 'duration', group: 'Flux',
    help: 'spec.interval of every composed HelmRelease.' },
  { name: 'ocirepository-interval', env: 'OCIREPOSITORY_INTERVAL', default: '30m', type: 'duration', group: 'Flux',
    help: 'spec.interval of the OCIRepository each namespace shares.' },
  { name: 'helmrelease-service-account', env: 'HELMRELEASE_SERVICE_ACCOUNT', default: '', type: 'string', group: 'Flux',
    help: 'spec.serviceAccountName of composed HelmReleases (Flux multi-tenancy); empty leaves it out.' },
  { name: 'revision-history-limit', env: 'AGENT_MANAGER_REVISION_HISTORY_LIMIT', default: '10', type: 'count',
    group: 'Kubernetes',
    help: 'How many revisions (ControllerRevisions) of each agent are kept; older ones are deleted, 0 keeps none.' },
  // Agent chart
  { name: 'agent-chart-oci-url', env: 'AGENT_CHART_OCI_URL', default: DEFAULT_CHART_OCI_URL, type: 'ociUrl',
    group: 'Agent chart',
    help: 'OCI URL of the agent chart every agent is rendered from.' },
  { name: 'agent-chart-semver', env: 'AGENT_CHART_SEMVER', default: '2.x', type: 'semverRange', group: 'Agent chart',
    help: "Version range a namespace's new OCIRepository follows, within one chart line (0.x or 2.x; a range "
      + 'admitting two majors is refused); pre-releases only when the range names one. Namespaces whose source '
      + 'exists keep its line.' },
  { name: 'harness-name', env: 'AGENT_HARNESS_NAME', default: 'kagent', type: 'string', group: 'Agent chart',
    help: 'The platform Harness an agent of chart 2.x runs on when create names none (agent.harness).' },
  { name: 'muster-url', env: 'AGENT_MUSTER_URL', default: '', type: 'string', group: 'Agent chart',
    help: "muster's MCP URL, written as muster.url of agents of chart 2.x on the management cluster; empty leaves "
      + "the chart's default." },
  { name: 'skills-git-auth-secret-name', env: 'AGENT_MANAGER_SKILLS_GIT_AUTH_SECRET_NAME', default: '', type: 'string',
    group: 'Agent chart',
    help: 'The installation\'s read credential for private git skills and plugins of chart 2.x agents: a Secret in '
      + 'each agent namespace with the key token, written as skillsGitAuthSecretRef where an agent names none.' },
  { name: 'agent-chart-refresh', env: 'AGENT_CHART_REFRESH', default: DEFAULT_CHART_REFRESH, type: 'duration',
    group: 'Agent chart',
    help: 'How often the chart registry is read again for the newest version and its values schema; 0 '
      + 'or less means 10m.' },
  { name: 'agent-chart-docker-config', env: 'AGENT_CHART_DOCKER_CONFIG', default: '', type: 'string',
    group: 'Agent chart',
    help: "Docker config JSON file (a kubernetes.io/dockerconfigjson Secret's .dockerconfigjson, as Flux reads it) "
      + "whose entry for the chart's registry authenticates the schema reads; re-read when it changes." },
  { name: 'agent-chart-username', env: 'AGENT_CHART_USERNAME', default: '', type: 'string', group: 'Agent chart',
    help: 'User name for the chart registry (HTTP Basic, or at its token endpoint); needs --agent-chart-password.' },
  { name: 'agent-chart-password', env: 'AGENT_CHART_PASSWORD', default: '', type: 'string', group: 'Agent chart',
    secret: true,
    help: 'Password for the chart registry; set it through the environment.' },
  { name: 'agent-chart-token', env: 'AGENT_CHART_TOKEN', default: '', type: 'string', group: 'Agent chart',
    secret: true,
    help: 'Bearer token presented to the chart registry as it is; set it through the environment.' },
  { name: 'agent-chart-secret-ref', env: 'AGENT_CHART_SECRET_REF', default: '', type: 'string', group: 'Agent chart',
    help: 'Name of a kubernetes.io/dockerconfigjson Secret in each agent namespace, written into the composed '
      + 'OCIRepository as spec.secretRef so Flux pulls the chart with it; empty writes none.' },
  { name: 'agent-chart-provider', env: 'AGENT_CHART_PROVIDER', default: 'generic', type: 'enum',
    choices: ['generic', 'aws', 'azure', 'gcp'], group: 'Agent chart',
    help: "spec.provider of the composed OCIRepository: aws, azure or gcp let Flux's source-controller log in with its "
      + 'cloud identity; generic writes none.' },
  { name: 'toolset-presets', env: 'AGENT_MANAGER_TOOLSET_PRESETS', default: '', type: 'list', group: 'Agent chart',
    help: "Comma-separated names of the gateway's toolset presets beyond read-only, none, full, infrastructure and "
      + 'agent-platform (muster toolsetPresets); when set, a toolset naming any other preset is refused, else it is '
      + 'accepted with a note.' },
  // Sessions
  { name: 'target-muster-url', env: 'AGENT_MANAGER_TARGET_MUSTER_URL', default: '', type: 'string',
    group: 'Agent chart',
    help: 'The muster URL agents on workload clusters reach (written as muster.url where the chart declares it); '
      + 'empty refuses creating agents on workload clusters, except with --sandbox, where it is a placeholder on '
      + "the sandbox's loopback address (https://127.0.0.1:<port>/muster/mcp)." },
  { name: 'fleet-organizations', env: 'AGENT_MANAGER_FLEET_ORGANIZATIONS', default: '', type: 'list',
    group: 'Agent chart',
    help: 'Comma-separated organizations whose workload clusters this installation was granted (the chart\'s '
      + 'fleet.organizations); get_info lists them. Empty with --sandbox: the sandbox fleet\'s acme.' },
  { name: 'kagent-a2a-url', env: 'KAGENT_A2A_URL', default: DEFAULT_KAGENT_A2A_URL, type: 'url', group: 'Sessions',
    help: "The kagent controller's A2A base URL; the session tools talk to <url>/<namespace>/<name>/ as the caller. "
      + 'Empty turns the session tools off (501). With --sandbox and the default, the sandbox\'s endpoint is used.' },
  // Skills
  { name: 'skills-repositories', env: 'AGENT_MANAGER_SKILLS_REPOSITORIES', default: '', type: 'list', group: 'Skills',
    help: 'Comma-separated GitHub repository URLs (https://github.com/<owner>/<repo>) whose skills list_skills offers; '
      + 'empty turns skills off.' },
  { name: 'skills-github-api', env: 'AGENT_MANAGER_SKILLS_GITHUB_API', default: 'https://api.github.com', type: 'url',
    group: 'Skills',
    help: 'GitHub REST API base URL used to discover skills and to pin git skills to commits.' },
  { name: 'skills-github-token', env: 'GITHUB_TOKEN', default: '', type: 'string', group: 'Skills', secret: true,
    help: 'GitHub token for private skill repositories (discovery and pinning) and a higher rate limit; set it through '
      + 'the environment.' },
  { name: 'skills-cache-ttl', env: 'AGENT_MANAGER_SKILLS_CACHE_TTL', default: '5m', type: 'duration', group: 'Skills',
    help: "How long a repository's discovered skills are reused." },
  // GitOps commit mode
  { name: 'gitops-repository', env: 'AGENT_MANAGER_GITOPS_REPOSITORY', default: '', type: 'string', group: 'GitOps',
    help: 'Commit mode: the GitOps repository (owner/name) new agents are proposed to when a request names none; a '
      + 'GitOps-owned release always uses its Kustomization\'s.' },
  { name: 'gitops-repositories', env: 'AGENT_MANAGER_GITOPS_REPOSITORIES', default: '', type: 'list', group: 'GitOps',
    help: 'Commit mode: comma-separated repositories (owner/name) the installation\'s GitHub App or token may open '
      + 'pull requests in, besides --gitops-repository and those a GitRepository in the cluster names; any other needs '
      + 'the caller\'s X-GitHub-Token.' },
  { name: 'gitops-branch', env: 'AGENT_MANAGER_GITOPS_BRANCH', default: 'main', type: 'string', group: 'GitOps',
    help: 'Commit mode: the base branch of pull requests when a request names none.' },
  { name: 'gitops-path', env: 'AGENT_MANAGER_GITOPS_PATH', default: '', type: 'string', group: 'GitOps',
    help: 'Commit mode: the directory (a Kustomization\'s path) new agents are laid out below, in '
      + '<path>/agent-manager/; empty is the repository root.' },
  { name: 'github-api-url', env: 'AGENT_MANAGER_GITHUB_API_URL', default: 'https://api.github.com', type: 'url',
    group: 'GitOps',
    help: 'GitHub REST API base URL of commit mode; GitHub Enterprise uses https://<host>/api/v3.' },
  { name: 'github-app-id', env: 'AGENT_MANAGER_GITHUB_APP_ID', default: '', type: 'string', group: 'GitOps',
    help: 'Commit mode: the GitHub App whose installation on each repository opens the pull requests (with '
      + '--github-app-private-key-file).' },
  { name: 'github-app-private-key-file', env: 'AGENT_MANAGER_GITHUB_APP_PRIVATE_KEY_FILE', default: '', type: 'string',
    group: 'GitOps',
    help: 'Commit mode: the GitHub App\'s private key (PEM), read at startup; mount it from a Secret.' },
  { name: 'gitops-github-token', env: 'GITOPS_GITHUB_TOKEN', default: '', type: 'string', group: 'GitOps', secret: true,
    help: 'Commit mode: a GitHub token that may push branches and open pull requests, used when no GitHub App is '
      + 'configured; set it through the environment.' },
  // Claude Harness guards
  { name: 'harness-egress', env: 'AGENT_MANAGER_HARNESS_EGRESS', default: '', type: 'string', group: 'Claude Harness',
    help: "The platform's origins per Harness as <harness>=<origin>[,<origin>…] entries separated by ';' "
      + "(the chart's harness.egress): an agent on a claude Harness gets its Harness's list as its egress, and an "
      + 'origin asked for outside it is refused; a Harness not listed reaches no other origin.' },
  { name: 'muster-token-file', env: 'AGENT_MANAGER_MUSTER_TOKEN_FILE', default: '', type: 'string',
    group: 'Claude Harness',
    help: 'Without --enable-oauth: a file holding the bearer token the claude-Harness toolset check presents to '
      + "muster, read at every check (with OAuth the caller's own token is presented). Empty without OAuth: the check "
      + 'cannot be made, and claude-Harness writes are refused.' },
  // MCP
  { name: 'mcp-enabled', env: 'AGENT_MANAGER_MCP_ENABLED', default: true, type: 'bool', group: 'MCP',
    help: 'Serve the MCP streamable-HTTP endpoint.' },
  { name: 'mcp-path', env: 'AGENT_MANAGER_MCP_PATH', default: '/mcp', type: 'string', group: 'MCP',
    help: 'Path of the MCP endpoint.' },
  // OAuth
  { name: 'enable-oauth', env: 'AGENT_MANAGER_OAUTH_ENABLED', default: false, type: 'bool', group: 'OAuth',
    help: 'Require an OAuth bearer token on the REST API and the MCP endpoint, validated against the '
      + 'identity provider.' },
  { name: 'oauth-base-url', env: 'AGENT_MANAGER_OAUTH_BASE_URL', default: '', type: 'string', group: 'OAuth',
    help: 'Public base URL of this server, the issuer of its OAuth metadata: https, or http on loopback only.' },
  { name: 'oauth-provider', env: 'AGENT_MANAGER_OAUTH_PROVIDER', default: 'dex', type: 'string', group: 'OAuth',
    help: 'Identity provider: dex or google.' },
  { name: 'dex-issuer-url', env: 'DEX_ISSUER_URL', default: '', type: 'url', group: 'OAuth',
    help: 'Dex issuer URL; bearer tokens are checked against its keys.' },
  { name: 'dex-client-id', env: 'DEX_CLIENT_ID', default: '', type: 'string', group: 'OAuth',
    help: 'OAuth client ID of this server at Dex: the audience bearer tokens must carry when '
      + '--oauth-trusted-audiences is empty.' },
  { name: 'dex-client-secret', env: 'DEX_CLIENT_SECRET', default: '', type: 'string', group: 'OAuth', secret: true,
    help: 'Not used and not required: agent-manager only verifies bearer tokens and never calls the token endpoint; '
      + 'accepted so deployments that set it keep starting.' },
  { name: 'dex-ca-file', env: 'DEX_CA_FILE', default: '', type: 'string', group: 'OAuth',
    help: 'PEM CA bundle trusted for a Dex with a private certificate, in addition to the system roots.' },
  { name: 'allow-private-oauth-urls', env: 'AGENT_MANAGER_OAUTH_ALLOW_PRIVATE_URLS', default: false, type: 'bool',
    group: 'OAuth',
    help: 'Let the Dex issuer resolve to a private or loopback address (an in-cluster Dex).' },
  { name: 'google-client-id', env: 'GOOGLE_CLIENT_ID', default: '', type: 'string', group: 'OAuth',
    help: 'OAuth client ID of this server at Google: the audience bearer tokens must carry when '
      + '--oauth-trusted-audiences is empty.' },
  { name: 'google-client-secret', env: 'GOOGLE_CLIENT_SECRET', default: '', type: 'string', group: 'OAuth',
    secret: true,
    help: 'Not used and not required: agent-manager only verifies bearer tokens and never calls the token endpoint; '
      + 'accepted so deployments that set it keep starting.' },
  { name: 'oauth-trusted-audiences', env: 'OAUTH_TRUSTED_AUDIENCES', default: '', type: 'list', group: 'OAuth',
    help: 'Comma-separated client IDs whose identity-provider id_tokens are accepted as bearer tokens.' },
  { name: 'sso-allow-private-ips', env: 'SSO_ALLOW_PRIVATE_IPS', default: false, type: 'bool', group: 'OAuth',
    help: "Let the identity provider's JWKS endpoint resolve to a private address." },
  { name: 'downstream-oauth', env: 'AGENT_MANAGER_DOWNSTREAM_OAUTH', default: false, type: 'bool', group: 'OAuth',
    help: "Call the Kubernetes API with the caller's token for everything a request does; needs --enable-oauth." },
  // Metrics
  { name: 'metrics-listen', env: 'AGENT_MANAGER_METRICS_LISTEN', default: ':9464', type: 'address', allowEmpty: true,
    group: 'Metrics',
    help: 'Address of the Prometheus /metrics listener; --metrics-listen= (empty) turns metrics off.' },
  // Sandbox
  { name: 'sandbox', env: 'AGENT_MANAGER_SANDBOX', default: false, type: 'bool', group: 'Sandbox',
    help: 'Run against an in-process sandbox Kubernetes API instead of a cluster.' },
  { name: 'sandbox-listen', env: 'AGENT_MANAGER_SANDBOX_LISTEN', default: '127.0.0.1:0', type: 'address',
    group: 'Sandbox',
    help: 'Address of the in-process sandbox API server; port 0 picks a free port.' },
  { name: 'sandbox-kubeconfig', env: 'AGENT_MANAGER_SANDBOX_KUBECONFIG', default: '', type: 'string', group: 'Sandbox',
    help: 'Write a kubeconfig for kubectl to reach the sandbox to this file; empty writes none.' },
  { name: 'sandbox-reconcile-delay', env: 'AGENT_MANAGER_SANDBOX_RECONCILE_DELAY', default: '100ms', type: 'duration',
    group: 'Sandbox',
    help: 'How long the sandbox\'s stand-in Flux and kagent controllers wait after a change before they act on it; '
      + 'a few seconds (5s) shows a rollout step by step. Needs --sandbox.' },
] as const satisfies readonly FlagDef[];

/** Flags `serve` had and no longer has, with what to do instead. */
export const RETIRED_SERVE_FLAGS = [
  { name: 'allow-public-client-registration', env: 'AGENT_MANAGER_OAUTH_ALLOW_PUBLIC_REGISTRATION',
    reason: 'agent-manager is an OAuth resource server only: it verifies bearer tokens from the identity provider and '
      + 'offers no client registration endpoint (MCP clients register with the identity provider); drop the flag' },
] as const satisfies readonly RetiredFlag[];

/** Flags of `agent-manager sandbox`. */
export const SANDBOX_FLAGS = [
  { name: 'listen', env: 'SANDBOX_LISTEN', default: '127.0.0.1:0', type: 'address', group: 'Server',
    help: 'Address the sandbox Kubernetes API server listens on; port 0 picks a free port.' },
  { name: 'kubeconfig-out', env: 'SANDBOX_KUBECONFIG_OUT', default: '', type: 'string', group: 'Server',
    help: 'Write a kubeconfig for kubectl to reach the sandbox to this file; empty writes none.' },
  { name: 'verbose', short: 'v', env: 'SANDBOX_VERBOSE', default: false, type: 'bool', group: 'Server',
    help: 'Log at debug level.' },
  { name: 'seed', env: 'SANDBOX_SEED', default: true, type: 'bool', group: 'Contents',
    help: 'Create the namespaces, CRDs and sample objects agent-manager expects; --no-seed starts empty.' },
  { name: 'controllers', env: 'SANDBOX_CONTROLLERS', default: true, type: 'bool', group: 'Contents',
    help: 'Run the stand-in Flux and kagent controllers that move objects to Ready; --no-controllers leaves '
      + 'them as written.' },
  { name: 'reconcile-delay', env: 'SANDBOX_RECONCILE_DELAY', default: '100ms', type: 'duration', group: 'Contents',
    help: 'How long the stand-in controllers wait after a change before they act on it.' },
  { name: 'workload-clusters', env: 'SANDBOX_WORKLOAD_CLUSTERS', default: '0', type: 'count', group: 'Contents',
    help: 'Also run this many workload clusters (cluster-1..cluster-N), each an API server of its own; this one holds '
      + 'their Cluster API kubeconfig Secrets in org-<organization>. At most 50.' },
  { name: 'organization', env: 'SANDBOX_ORGANIZATION', default: 'acme', type: 'string', group: 'Contents',
    help: 'Organization of the workload clusters of --workload-clusters (their kubeconfig Secrets are in namespace '
      + 'org-<organization>).' },
  { name: 'authorization', env: 'SANDBOX_AUTHORIZATION', default: 'rbac', type: 'enum',
    choices: ['rbac', 'always-allow'], group: 'Access',
    help: 'rbac enforces Roles and RoleBindings; always-allow lets every authenticated user do everything.' },
  { name: 'oidc-issuer-url', env: 'SANDBOX_OIDC_ISSUER_URL', default: '', type: 'url', group: 'Access',
    help: 'Accept OIDC id_tokens from this issuer as bearer tokens (like kube-apiserver --oidc-issuer-url); needs '
      + '--oidc-client-id.' },
  { name: 'oidc-client-id', env: 'SANDBOX_OIDC_CLIENT_ID', default: '', type: 'string', group: 'Access',
    help: 'Audience an accepted id_token must carry.' },
  { name: 'oidc-username-claim', env: 'SANDBOX_OIDC_USERNAME_CLAIM', default: 'sub', type: 'string', group: 'Access',
    help: 'id_token claim used as the user name.' },
  { name: 'oidc-username-prefix', env: 'SANDBOX_OIDC_USERNAME_PREFIX', default: '', type: 'string', group: 'Access',
    help: 'Prefix of OIDC user names; empty prefixes every claim but email with the issuer URL and "#", "-" '
      + 'turns prefixing off.' },
  { name: 'oidc-groups-claim', env: 'SANDBOX_OIDC_GROUPS_CLAIM', default: '', type: 'string', group: 'Access',
    help: "id_token claim listing the user's groups; empty reads no groups." },
  { name: 'oidc-ca-file', env: 'SANDBOX_OIDC_CA_FILE', default: '', type: 'string', group: 'Access',
    help: "PEM CA bundle trusted for the issuer's discovery and JWKS endpoints." },
] as const satisfies readonly FlagDef[];

/** `agent-manager version` takes no flags besides `--help`. */
export const VERSION_FLAGS = [] as const satisfies readonly FlagDef[];

/** The serve flags `migrate` shares (inventory 3.3): the cluster, the chart, the Harness, skills and commit mode. */
const MIGRATE_SHARED = new Set([
  'verbose', 'kubeconfig', 'kube-context', 'in-cluster', 'kagent-namespace', 'managed-namespaces', 'kagent-api-version',
  'kagent-v2-api-version', 'flux-helmrelease-api-version', 'flux-ocirepository-api-version', 'ocirepository-interval',
  'revision-history-limit', 'agent-chart-oci-url', 'agent-chart-semver', 'harness-name', 'muster-url',
  'agent-chart-refresh', 'agent-chart-docker-config', 'agent-chart-username', 'agent-chart-password',
  'agent-chart-token', 'agent-chart-secret-ref', 'agent-chart-provider', 'skills-repositories', 'skills-github-api',
  'skills-github-token', 'gitops-repository', 'gitops-repositories', 'gitops-branch', 'gitops-path', 'github-api-url',
  'github-app-id', 'github-app-private-key-file', 'gitops-github-token',
]);

/** The flags only `agent-manager migrate` has. */
export const MIGRATE_OWN_FLAGS = [
  { name: 'namespaces', env: 'AGENT_MANAGER_MIGRATE_NAMESPACES', default: '', type: 'list', group: 'Migration',
    help: 'Comma-separated managed namespaces to migrate; empty migrates every managed namespace.' },
  { name: 'phase', env: 'AGENT_MANAGER_MIGRATE_PHASE', default: 'all', type: 'enum', group: 'Migration',
    choices: ['all', 'expand', 'wait', 'contract'],
    help: 'The phase to run: expand (move each release\'s values and chart source together), wait (every moved agent '
      + 'ready), contract (delete what the old chart line left behind); all runs the three in order.' },
  { name: 'timeout', env: 'AGENT_MANAGER_MIGRATE_TIMEOUT', default: '10m', type: 'duration', group: 'Migration',
    help: 'How long wait waits, for the whole run, for the moved agents to be ready.' },
  { name: 'dry-run', env: 'AGENT_MANAGER_MIGRATE_DRY_RUN', default: false, type: 'bool', group: 'Migration',
    help: 'Plan and report (stdout only) without writing anything, the report ConfigMap included.' },
  { name: 'gitops-namespaces', env: 'AGENT_MANAGER_MIGRATE_GITOPS_NAMESPACES', default: '', type: 'list',
    group: 'Migration',
    help: 'Comma-separated further namespaces searched read-only for GitOps-owned releases: their releases are '
      + 'proposed as pull requests (or reported), never written.' },
  { name: 'report-configmap', env: 'AGENT_MANAGER_MIGRATE_REPORT_CONFIGMAP', default: 'agent-manager-migrate-report',
    type: 'string', group: 'Migration',
    help: 'The ConfigMap each migrated namespace gets the report in (keys phase, summary, report.yaml, '
      + '<agent>.diff).' },
] as const satisfies readonly FlagDef[];

/** Flags of `agent-manager migrate`: the shared serve rows, then its own. */
export const MIGRATE_FLAGS: readonly FlagDef[] = [
  ...SERVE_FLAGS.filter((d) => MIGRATE_SHARED.has(d.name)), ...MIGRATE_OWN_FLAGS,
];

export type ServeFlags = typeof SERVE_FLAGS;
export type SandboxFlags = typeof SANDBOX_FLAGS;

/** The commands and their flag tables, for `--help` and a docs generator. */
export const COMMANDS = {
  serve: { summary: 'Run the REST API and the MCP endpoint.', flags: SERVE_FLAGS },
  sandbox: { summary: 'Run the embedded sandbox Kubernetes API server on its own.', flags: SANDBOX_FLAGS },
  migrate: { summary: 'Move the agents of managed namespaces to another chart line (expand, wait, contract).',
    flags: MIGRATE_FLAGS },
  version: { summary: 'Print the version, commit and build date.', flags: VERSION_FLAGS },
} as const satisfies Record<string, { summary: string; flags: readonly FlagDef[] }>;

export type CommandName = keyof typeof COMMANDS;
