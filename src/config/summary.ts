/**
 * What may be logged about the configuration at startup: everything an operator needs
 * to see which mode the service runs in, and for secrets only whether they are set.
 */
import { describeProxy } from '../net/proxy-settings.js';
import { describeOtel } from '../tracing/otel-settings.js';
import type { AppConfig } from './app-config.js';

/** The startup summary, free of secrets (the GitHub token). */
export function redactedSummary(config: AppConfig): Record<string, unknown> {
  const { oauth } = config;
  return {
    listen: config.listen,
    allowedOrigins: config.allowedOrigins,
    shutdownDelay: config.shutdown.delay.text,
    shutdownTimeout: config.shutdown.timeout.text,
    rest: '/api/v1',
    mcp: config.mcp.path,
    mcpEnabled: config.mcp.enabled,
    oauth: oauth.enabled,
    oauthProvider: oauth.enabled ? oauth.provider.name : undefined,
    oauthBaseUrl: oauth.enabled ? oauth.baseUrl : undefined,
    oauthIssuer: oauth.enabled && oauth.provider.name === 'dex' ? oauth.provider.issuerUrl : undefined,
    oauthClientId: oauth.enabled ? oauth.provider.clientId : undefined,
    trustedAudiences: oauth.enabled ? oauth.trustedAudiences : undefined,
    downstreamOAuth: oauth.enabled && oauth.downstream,
    identity: oauth.enabled && oauth.downstream ? 'caller' : 'serviceAccount',
    namespaces: config.namespaces.managed,
    defaultNamespace: config.namespaces.default,
    kubeconfig: config.kube.kubeconfig || undefined,
    kubeContext: config.kube.context || undefined,
    inCluster: config.kube.inCluster,
    readCache: config.kube.readCache,
    readCacheClusters: config.kube.readCacheClusters,
    kagentAPI: config.kube.kagentApiVersion,
    helmReleaseAPI: config.kube.helmReleaseApiVersion,
    ociRepositoryAPI: config.kube.ociRepositoryApiVersion,
    chart: config.chart.ociUrl,
    chartSemver: config.chart.semver,
    chartRefresh: config.chart.refresh.text,
    chartCredentials: chartCredentials(config),
    chartSecretRef: config.chart.secretRef || undefined,
    chartProvider: config.chart.provider,
    helmReleaseInterval: config.compose.helmReleaseInterval.text,
    ociRepositoryInterval: config.compose.ociRepositoryInterval.text,
    helmReleaseServiceAccount: config.compose.helmReleaseServiceAccount || undefined,
    toolsetPresets: config.toolsetPresets ?? 'not set (unknown presets are noted, not refused)',
    kagentA2aUrl: config.sessions.a2aUrl || 'off (the session tools answer 501)',
    harnessEgress: config.harnessGuards.egress,
    musterTokenFile: config.harnessGuards.musterTokenFile || undefined,
    skillsRepositories: config.skills.repositories,
    skillsGithubApi: config.skills.githubApi,
    skillsGithubToken: presence(config.skills.githubToken),
    httpsProxy: describeProxy(config.proxy.httpsProxy),
    httpProxy: describeProxy(config.proxy.httpProxy),
    noProxy: config.proxy.noProxy || undefined,
    traces: describeOtel(config.otel) ?? 'off',
    gitopsRepository: config.gitops.repository || undefined,
    gitopsBranch: config.gitops.branch,
    gitopsPath: config.gitops.path || undefined,
    githubApiUrl: config.gitops.githubApiUrl,
    githubAppId: config.gitops.appId || undefined,
    gitopsGithubToken: presence(config.gitops.githubToken),
    metrics: config.metrics.enabled ? config.metrics.listen : 'off',
    sandbox: config.sandbox.enabled,
  };
}

/** Which credential form logs in to the chart registry (never the credential). */
function chartCredentials(config: AppConfig): string {
  const { auth } = config.chart;
  if (auth.dockerConfig !== '') return `docker config ${auth.dockerConfig}`;
  if (auth.username !== '') return 'username and password';
  if (auth.token !== '') return 'token';
  return 'anonymous';
}

function presence(secret: string): 'set' | 'unset' {
  return secret === '' ? 'unset' : 'set';
}
