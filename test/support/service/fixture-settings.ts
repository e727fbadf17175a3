/**
 * The settings both service fixtures use (the sandbox one in fixture.ts, the in-memory one
 * in fake-fixture.ts), as the Go tests' fixture had them: default namespace kagent, tenant
 * managed too, the chart at CHART_URL. Kept apart from fixture.ts so a suite on the
 * in-memory KubePort imports nothing that starts a sandbox.
 */
import { ManagedNamespaces } from '../../../src/service/namespaces.js';
import { DEFAULT_API_VERSIONS } from '../../../src/service/resources.js';
import type { ServiceSettings } from '../../../src/service/settings.js';

export const CHART_URL = 'oci://gsoci.azurecr.io/charts/giantswarm/agent';

/** The settings of the Go tests' fixture. */
export function fixtureSettings(overrides: Partial<ServiceSettings> = {}): ServiceSettings {
  return {
    version: 'test',
    namespaces: new ManagedNamespaces('kagent', ['tenant']),
    compose: {
      chartOciUrl: CHART_URL,
      chartSemver: '0.x',
      helmReleaseInterval: '10m',
      ociRepositoryInterval: '30m',
      apiVersions: { helmRelease: DEFAULT_API_VERSIONS.helmRelease, ociRepository: DEFAULT_API_VERSIONS.ociRepository },
    },
    apiVersions: DEFAULT_API_VERSIONS,
    ...overrides,
  };
}
