/**
 * Builds the `serve` AppConfig from the parsed flag values: normalises API versions,
 * merges the namespaces, applies the chart-refresh floor, and checks the rules that span
 * fields or need more than a type (Flux intervals, the MCP path, skill repository URLs,
 * browser origins, OAuth).
 */
import { branchViolation, parseRepositoryName, pathViolation } from '../core/commit/refs.js';
import type { AppConfig, Duration } from './app-config.js';
import type { FlagDef, FlagSources, FlagValues } from './flag-types.js';
import { DEFAULT_CHART_REFRESH, SERVE_FLAGS, type ServeFlags } from './flags.js';
import { buildHarnessGuardsConfig } from './harness-guards-config.js';
import { buildOAuthConfig } from './oauth-config.js';
import { ConfigError, flagDef, flagLabel, valueError } from './resolve.js';
import { checkHttpUrl, parseBrowserOrigin, parseGoDuration, ValueError } from './values.js';

type V = FlagValues<ServeFlags>;
type S = FlagSources<ServeFlags>;

// The pattern Flux's CRDs give `spec.interval`: anything else is refused by the API server
// on every write, so it is refused here, at startup.
const FLUX_INTERVAL = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;

function def(name: ServeFlags[number]['name']): FlagDef {
  return flagDef(SERVE_FLAGS, name);
}

/** Build and check the serve configuration. Throws ConfigError. */
export function buildServeConfig(v: V, s: S): Omit<AppConfig, 'proxy' | 'otel'> {
  const defaultNs = v['kagent-namespace'];
  if (defaultNs.trim() === '') {
    throw valueError(def('kagent-namespace'), s['kagent-namespace'], defaultNs, 'must name a namespace');
  }
  if (!v['mcp-path'].startsWith('/')) {
    throw valueError(def('mcp-path'), s['mcp-path'], v['mcp-path'], 'must start with /');
  }
  for (const repo of v['skills-repositories']) checkListUrl('skills-repositories', s, repo);
  const oauth = oauthConfig(v);
  // The slices are built in the order of the flags' groups: which bad flag is named first stays the same.
  return {
    listen: v.listen,
    verbose: v.verbose,
    allowedOrigins: browserOrigins(v, s),
    shutdown: shutdownConfig(v, s),
    kube: kubeConfig(v, s),
    namespaces: { default: defaultNs, managed: [...new Set([defaultNs, ...managedNamespaces(v, s)])] },
    revisionHistoryLimit: v['revision-history-limit'],
    chart: {
      ociUrl: v['agent-chart-oci-url'],
      semver: v['agent-chart-semver'],
      // A refresh of zero or less means the default period.
      refresh: v['agent-chart-refresh'].ms > 0 ? v['agent-chart-refresh'] : parseGoDuration(DEFAULT_CHART_REFRESH),
      ...chartCredentials(v, s),
    },
    compose: {
      helmReleaseInterval: fluxInterval('helmrelease-interval', v, s),
      ociRepositoryInterval: fluxInterval('ocirepository-interval', v, s),
      helmReleaseServiceAccount: v['helmrelease-service-account'],
    },
    skills: {
      repositories: v['skills-repositories'],
      githubApi: v['skills-github-api'] === '' ? String(def('skills-github-api').default) : v['skills-github-api'],
      githubToken: v['skills-github-token'],
      cacheTtl: v['skills-cache-ttl'],
    },
    sessions: { a2aUrl: a2aUrl(v, s), a2aUrlSet: s['kagent-a2a-url'] !== 'default' },
    toolsetPresets: toolsetPresets(v, s),
    gitops: gitopsConfig(v, s),
    fleet: { targetMusterUrl: v['target-muster-url'], organizations: v['fleet-organizations'] },
    line2: lineTwoConfig(v),
    harnessGuards: buildHarnessGuardsConfig(v, s),
    mcp: { enabled: v['mcp-enabled'], path: v['mcp-path'] },
    oauth,
    metrics: { enabled: v['metrics-listen'] !== '', listen: v['metrics-listen'] },
    sandbox: {
      enabled: v.sandbox, listen: v['sandbox-listen'], kubeconfigOut: v['sandbox-kubeconfig'],
      reconcileDelayMs: sandboxReconcileDelay(v, s),
    },
  };
}

/** The OAuth flags, checked together by buildOAuthConfig. */
function oauthConfig(v: V): AppConfig['oauth'] {
  return buildOAuthConfig({
    enabled: v['enable-oauth'],
    downstream: v['downstream-oauth'],
    baseUrl: v['oauth-base-url'],
    provider: v['oauth-provider'],
    dexIssuerUrl: v['dex-issuer-url'],
    dexClientId: v['dex-client-id'],
    dexCaFile: v['dex-ca-file'],
    allowPrivateOAuthUrls: v['allow-private-oauth-urls'],
    googleClientId: v['google-client-id'],
    trustedAudiences: v['oauth-trusted-audiences'],
    ssoAllowPrivateIps: v['sso-allow-private-ips'],
  });
}

/** The cluster flags: the kubeconfig, the read cache, and the API versions (pinned, or `auto`). */
function kubeConfig(v: V, s: S): AppConfig['kube'] {
  return {
    kubeconfig: v.kubeconfig,
    context: v['kube-context'],
    inCluster: v['in-cluster'],
    readCache: readCacheOn(v, s),
    readCacheClusters: v['read-cache-clusters'],
    kagentApiVersion: kagentVersion(v['kagent-api-version']),
    kagentV2ApiVersion: v['kagent-v2-api-version'].trim() || 'auto',
    helmReleaseApiVersion: fluxVersion('flux-helmrelease-api-version', 'helm.toolkit.fluxcd.io', v, s),
    ociRepositoryApiVersion: fluxVersion('flux-ocirepository-api-version', 'source.toolkit.fluxcd.io', v, s),
  };
}

/** `--sandbox-reconcile-delay` slows the sandbox's own controllers: without `--sandbox` there are none to slow. */
function sandboxReconcileDelay(v: V, s: S): number {
  const delay = v['sandbox-reconcile-delay'];
  if (!v.sandbox && s['sandbox-reconcile-delay'] !== 'default') {
    const label = flagLabel(def('sandbox-reconcile-delay'), s['sandbox-reconcile-delay']);
    throw new ConfigError(`${label} needs --sandbox: ` +
      'it slows the stand-in controllers of the in-process sandbox, and a real cluster\'s controllers are its own; ' +
      'add --sandbox (npm start does) or drop the flag');
  }
  if (delay.ms < 0) {
    throw valueError(def('sandbox-reconcile-delay'), s['sandbox-reconcile-delay'], delay.text,
      'must not be negative (0 reconciles at once)');
  }
  return delay.ms;
}

/**
 * `--shutdown-delay` may be 0 (stop accepting at once); `--shutdown-timeout` must leave requests
 * some time. With `--sandbox` the delay defaults to 0: it exists for endpoints and load
 * balancers, and a local run has none, so Ctrl-C stops at once unless a delay is asked for.
 */
function shutdownConfig(v: V, s: S): AppConfig['shutdown'] {
  const delay = v.sandbox && s['shutdown-delay'] === 'default' ? { text: '0s', ms: 0 } : v['shutdown-delay'];
  const timeout = v['shutdown-timeout'];
  if (delay.ms < 0) {
    throw valueError(def('shutdown-delay'), s['shutdown-delay'], delay.text,
      'must not be negative (0 stops accepting at once)');
  }
  if (timeout.ms <= 0) {
    throw valueError(def('shutdown-timeout'), s['shutdown-timeout'], timeout.text,
      'must be positive: in-flight requests need time to finish');
  }
  return { delay, timeout };
}

/** A Kubernetes object name (RFC 1123 subdomain), what `spec.secretRef.name` must be. */
const SECRET_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The chart registry credentials and what the OCIRepository names; one credential form at most. */
function chartCredentials(v: V, s: S): Pick<AppConfig['chart'], 'auth' | 'secretRef' | 'provider'> {
  const auth = {
    dockerConfig: v['agent-chart-docker-config'],
    username: v['agent-chart-username'],
    password: v['agent-chart-password'],
    token: v['agent-chart-token'],
  };
  const forms = [
    auth.dockerConfig !== '' && '--agent-chart-docker-config',
    (auth.username !== '' || auth.password !== '') && '--agent-chart-username/--agent-chart-password',
    auth.token !== '' && '--agent-chart-token',
  ].filter((f): f is string => typeof f === 'string');
  if (forms.length > 1) {
    throw new ConfigError(`${forms.join(' and ')} are each a way to log in to the chart registry: set only one`);
  }
  if (auth.username !== '' && auth.password === '') {
    throw new ConfigError('--agent-chart-username needs --agent-chart-password (set AGENT_CHART_PASSWORD)');
  }
  if (auth.password !== '' && auth.username === '') {
    throw new ConfigError('--agent-chart-password needs --agent-chart-username');
  }
  const secretRef = v['agent-chart-secret-ref'];
  if (secretRef !== '' && (secretRef.length > 253 || !SECRET_NAME.test(secretRef))) {
    throw valueError(def('agent-chart-secret-ref'), s['agent-chart-secret-ref'], secretRef,
      'not a Secret name (lower-case letters, digits, "-" and ".", starting and ending with a letter or digit)');
  }
  return { auth, secretRef, provider: v['agent-chart-provider'] };
}

/** The commit-mode flags; an App id needs its key file (and the other way round), a repository is owner/name. */
function gitopsConfig(v: V, s: S): AppConfig['gitops'] {
  const repository = v['gitops-repository'].trim();
  const repositoryRule = repository === '' ? undefined : parseRepositoryName(repository);
  if (typeof repositoryRule === 'string') {
    throw valueError(def('gitops-repository'), s['gitops-repository'], repository,
      `want a GitHub repository as owner/name: ${repositoryRule}`);
  }
  const repositories = v['gitops-repositories'].map((r) => r.trim()).filter((r) => r !== '');
  for (const listed of repositories) {
    const rule = parseRepositoryName(listed);
    if (typeof rule === 'string') {
      throw valueError(def('gitops-repositories'), s['gitops-repositories'], listed,
        `want GitHub repositories as owner/name: ${rule}`);
    }
  }
  const branch = v['gitops-branch'].trim() || 'main';
  const branchRule = branchViolation(branch);
  if (branchRule) throw valueError(def('gitops-branch'), s['gitops-branch'], branch, branchRule);
  const pathRule = pathViolation(v['gitops-path'].trim());
  if (pathRule) throw valueError(def('gitops-path'), s['gitops-path'], v['gitops-path'], pathRule);
  const appId = v['github-app-id'].trim();
  const keyFile = v['github-app-private-key-file'].trim();
  if (appId !== '' && !/^[0-9]+$/.test(appId)) {
    throw valueError(def('github-app-id'), s['github-app-id'], appId, 'a GitHub App id is a number');
  }
  if ((appId === '') !== (keyFile === '')) {
    const missing = appId === '' ? 'github-app-id' : 'github-app-private-key-file';
    const given = appId === '' ? 'github-app-private-key-file' : 'github-app-id';
    throw valueError(def(given), s[given], appId || keyFile, `needs --${missing} as well`);
  }
  return {
    repository, repositories, branch, path: v['gitops-path'].trim(),
    githubApiUrl: v['github-api-url'] === '' ? String(def('github-api-url').default) : v['github-api-url'],
    appId, appPrivateKeyFile: keyFile, githubToken: v['gitops-github-token'].trim(),
  };
}

/**
 * The read cache is on unless turned off, except with downstream OAuth, where the
 * ServiceAccount otherwise makes no request at all (the chart grants it nothing then):
 * there it fills a cache only when `--read-cache` is set explicitly.
 */
function readCacheOn(v: V, s: S): boolean {
  if (s['read-cache'] !== 'default') return v['read-cache'];
  return !(v['enable-oauth'] && v['downstream-oauth']);
}

/**
 * `--kagent-a2a-url` without credentials in it: the session tools present the caller's own
 * token, and a password in a URL would end up in logs.
 */
function a2aUrl(v: V, s: S): string {
  const url = v['kagent-a2a-url'];
  if (url !== '' && (new URL(url).username !== '' || new URL(url).password !== '')) {
    throw valueError(def('kagent-a2a-url'), s['kagent-a2a-url'], url.replace(/\/\/[^@/]*@/, '//***@'),
      'must not carry credentials: the session tools present the caller\'s own token');
  }
  return url;
}

/** `kagent.dev/v1alpha2` and `v1alpha2` both mean `v1alpha2`; empty means auto. */
function kagentVersion(text: string): string {
  const version = text.startsWith('kagent.dev/') ? text.slice('kagent.dev/'.length) : text;
  return version === '' ? 'auto' : version;
}

/** `auto`, or `<group>/<version>`; a bare version gets the group prefixed. */
function fluxVersion(name: 'flux-helmrelease-api-version' | 'flux-ocirepository-api-version', group: string, v: V,
  s: S): string {
  const text = v[name];
  if (text === '' || text === 'auto') return 'auto';
  const version = text.startsWith(`${group}/`) ? text.slice(group.length + 1) : text;
  if (!/^v[0-9]+((alpha|beta)[0-9]+)?$/.test(version)) {
    throw valueError(def(name), s[name], text, `want auto, a version such as v1 or v2, or ${group}/<version>`);
  }
  return `${group}/${version}`;
}

function fluxInterval(name: 'helmrelease-interval' | 'ocirepository-interval', v: V, s: S): Duration {
  const d = v[name];
  if (!FLUX_INTERVAL.test(d.text) || d.ms <= 0) {
    throw valueError(def(name), s[name], d.text,
      'Flux needs a positive interval such as 10m or 1h30m (units ms, s, m, h)');
  }
  return d;
}

function checkListUrl(name: 'skills-repositories', s: S, item: string): void {
  try {
    checkHttpUrl(item);
  } catch (err) {
    if (err instanceof ValueError) {
      throw valueError(def(name), s[name], item, `${err.message}; want https://github.com/<owner>/<repo>`);
    }
    throw err;
  }
}

// muster's rule for preset names: letters, digits, '.', '_' and '-', starting alphanumeric.
const PRESET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `--toolset-presets`: preset names as muster allows them; undefined when the flag is empty. */
function toolsetPresets(v: V, s: S): string[] | undefined {
  const names = v['toolset-presets'];
  if (names.length === 0) return undefined;
  for (const name of names) {
    const bare = name.startsWith('preset:') ? ` (give the name without "preset:")` : '';
    if (!PRESET_NAME.test(name)) {
      throw valueError(def('toolset-presets'), s['toolset-presets'], name,
        `is not a preset name: letters, digits, '.', '_' and '-', starting with a letter or digit${bare}`);
    }
  }
  return [...new Set(names)];
}

/** `--allowed-origins`, each item a normalised origin; the first bad item stops startup. */
function browserOrigins(v: V, s: S): string[] {
  const origins = v['allowed-origins'].map((item) => {
    try {
      return parseBrowserOrigin(item);
    } catch (err) {
      if (err instanceof ValueError) throw valueError(def('allowed-origins'), s['allowed-origins'], item, err.message);
      throw err;
    }
  });
  return [...new Set(origins)];
}

/** What agents of chart 2.x are composed with: the platform Harness, muster's URL, the skills credential. */
function lineTwoConfig(v: V): AppConfig['line2'] {
  const harnessName = v['harness-name'].trim() || 'kagent';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(harnessName) || harnessName.length > 63) {
    throw new ConfigError(`--harness-name ${JSON.stringify(harnessName)} is not a Harness name: lowercase letters, ` +
      'digits and "-", at most 63 characters');
  }
  const musterUrl = v['muster-url'].trim();
  if (musterUrl !== '' && !/^https?:\/\/\S+$/.test(musterUrl)) {
    throw new ConfigError(`--muster-url ${JSON.stringify(musterUrl)} must be an http(s) URL (the chart's muster.url)`);
  }
  const secret = v['skills-git-auth-secret-name'].trim();
  if (secret !== '' && (secret.length > 253 || !SECRET_NAME.test(secret))) {
    throw new ConfigError(`--skills-git-auth-secret-name ${JSON.stringify(secret)} must be a Secret name`);
  }
  return { harnessName, musterUrl, skillsGitAuthSecretName: secret };
}

/**
 * `--managed-namespaces`; with `--sandbox` and the flag unset, the sandbox's namespace of chart 2.x agents too
 * (`agents`, seeded beside `kagent` on 0.x), so `npm start` shows both chart lines.
 */
function managedNamespaces(v: V, s: S): readonly string[] {
  if (v.sandbox && s['managed-namespaces'] === 'default') return ['agents', ...v['managed-namespaces']];
  return v['managed-namespaces'];
}
