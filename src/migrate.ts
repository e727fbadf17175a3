/**
 * `agent-manager migrate`, the composition root: the cluster (kubeconfig or in-cluster, as the ServiceAccount or
 * the person running it), API discovery, both chart lines' schemas, skill pinning and commit mode — the same parts
 * `serve` builds — around an AgentService whose `migrate` does the work (service/migration/). The report goes to
 * stdout; the answer is the exit code: 0 done, 3 an operator must act (the reason on the last line), 1 a failure.
 */
import { LineChartSchemaSources } from './chart/line-sources.js';
import type { MigrateCommandConfig } from './config/migrate-config.js';
import { reportYaml, summaryText } from './core/migration/report.js';
import { isAppError } from './core/errors.js';
import { openGitOpsHost } from './github/open-commit-host.js';
import { apiDiscovery, resolveApiVersions } from './kube/discovery.js';
import { loadBaseKubeConfig } from './kube/kubeconfig.js';
import { ServiceAccountProvider } from './kube/providers.js';
import type { Logger } from './log/logger.js';
import { outboundFetch } from './net/proxy.js';
import type { ProxySettings } from './net/proxy-settings.js';
import { AgentService } from './service/agent-service.js';
import { ManagedNamespaces } from './service/namespaces.js';
import { skillResolverFor } from './skills/skill-resolver.js';

/** The exit code of a run an operator must act on. */
export const EXIT_ACTION_NEEDED = 3;

type Config = MigrateCommandConfig & { proxy: ProxySettings };

function serviceFor(config: Config, kube: ServiceAccountProvider, log: Logger, chart: LineChartSchemaSources,
  apiVersions: Awaited<ReturnType<typeof resolveApiVersions>>, gitops: Awaited<ReturnType<typeof openGitOpsHost>>,
): AgentService {
  const { app } = config;
  const fetchFor = () => outboundFetch(config.proxy);
  const skillResolver = skillResolverFor(app, fetchFor);
  const managed = [...app.namespaces.managed, ...config.gitopsNamespaces];
  return new AgentService(
    { kube, chart, gitops, log, skillResolver },
    {
      version: 'migrate',
      namespaces: new ManagedNamespaces(app.namespaces.default, managed),
      compose: {
        chartOciUrl: app.chart.ociUrl, chartSemver: app.chart.semver,
        helmReleaseInterval: app.compose.helmReleaseInterval.text,
        ociRepositoryInterval: app.compose.ociRepositoryInterval.text,
        chartSecretRef: app.chart.secretRef || undefined, chartProvider: app.chart.provider,
        apiVersions: { helmRelease: apiVersions.helmRelease, ociRepository: apiVersions.ociRepository },
      },
      apiVersions, revisionHistoryLimit: app.revisionHistoryLimit,
      line2: { harnessName: app.line2.harnessName, musterUrl: app.line2.musterUrl || undefined },
      gitops: {
        repository: app.gitops.repository || undefined, repositories: app.gitops.repositories,
        branch: app.gitops.branch, path: app.gitops.path,
      },
    },
  );
}

/** Runs the migration; answers the exit code. `write` prints to stdout. */
export async function runMigrate(config: Config, log: Logger, write: (text: string) => void): Promise<number> {
  const { app } = config;
  const cluster = loadBaseKubeConfig({ kubeconfig: app.kube.kubeconfig, context: app.kube.context,
    inCluster: app.kube.inCluster });
  const kube = new ServiceAccountProvider(cluster);
  const chart = new LineChartSchemaSources({
    ociUrl: app.chart.ociUrl, semver: app.chart.semver, refreshMs: app.chart.refresh.ms,
    fetch: outboundFetch(config.proxy), log,
  });
  try {
    const apiVersions = await resolveApiVersions({
      kagent: app.kube.kagentApiVersion, kagentV2: app.kube.kagentV2ApiVersion,
      helmRelease: app.kube.helmReleaseApiVersion, ociRepository: app.kube.ociRepositoryApiVersion,
    }, apiDiscovery(cluster), log);
    const gitops = await openGitOpsHost(app.gitops, outboundFetch(config.proxy));
    const service = serviceFor(config, kube, log, chart, apiVersions, gitops);
    const namespaces = config.namespaces.length > 0 ? config.namespaces : app.namespaces.managed;
    const result = await service.migrate({ requestId: 'migrate', log }, {
      namespaces: [...namespaces, ...config.gitopsNamespaces.filter((n) => !namespaces.includes(n))],
      readOnly: config.gitopsNamespaces.filter((n) => !namespaces.includes(n)),
      to: config.to, phases: config.phases, dryRun: config.dryRun, timeoutMs: config.timeoutMs,
      reportConfigMap: config.reportConfigMap, mapping: {
        ...(config.harnessName ? { harnessName: config.harnessName } : {}),
        ...(app.line2.musterUrl && config.to === '2.x' ? { musterUrl: app.line2.musterUrl } : {}),
      },
    });
    for (const report of result.reports) write(`---\n${reportYaml(report)}`);
    for (const report of result.reports) write(summaryText(report));
    if (result.actions.length === 0) {
      write(`migrate: done${config.dryRun ? ' (dry run: nothing was written)' : ''}\n`);
      return 0;
    }
    const more = result.actions.length > 1 ? ` (and ${result.actions.length - 1} more above)` : '';
    write(`migrate: operator action needed: ${result.actions[0]}${more}\n`);
    return EXIT_ACTION_NEEDED;
  } catch (err) {
    // A refusal before anything was written (the target API not served, a namespace not managed) is the operator's.
    if (isAppError(err, 'invalid_request')) {
      write(`migrate: operator action needed: ${err.detail}\n`);
      return EXIT_ACTION_NEEDED;
    }
    throw err;
  } finally {
    chart.close();
    kube.close();
  }
}
