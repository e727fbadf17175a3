/**
 * The service settings serve derives from the configuration beside the flags it passes on as they are: what
 * composition writes into the Flux objects, and what agents of chart 2.x are composed with.
 */
import type { AppConfig } from './config/index.js';
import type { ComposeConfig } from './core/compose.js';
import type { ApiVersions } from './service/resources.js';

/**
 * What agents of chart 2.x are composed with; empty flags write nothing, but under `--sandbox` an empty
 * `--muster-url` is the sandbox's muster double, so its agents reach the muster that answers.
 */
export function line2Settings({ line2 }: AppConfig, sandboxMusterUrl?: string) {
  const { harnessName, skillsGitAuthSecretName } = line2;
  const musterUrl = line2.musterUrl || sandboxMusterUrl || undefined;
  return { harnessName, musterUrl, skillsGitAuthSecretName: skillsGitAuthSecretName || undefined };
}

/** What composition writes, from the configuration and the discovered Flux versions. */
export function composeConfig(config: AppConfig, apiVersions: ApiVersions): ComposeConfig {
  return {
    chartOciUrl: config.chart.ociUrl, chartSemver: config.chart.semver,
    helmReleaseInterval: config.compose.helmReleaseInterval.text,
    ociRepositoryInterval: config.compose.ociRepositoryInterval.text,
    helmReleaseServiceAccount: config.compose.helmReleaseServiceAccount || undefined,
    chartSecretRef: config.chart.secretRef || undefined,
    chartProvider: config.chart.provider,
    apiVersions: { helmRelease: apiVersions.helmRelease, ociRepository: apiVersions.ociRepository },
  };
}
