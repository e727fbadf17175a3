import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log/logger.js';
import { resolveApiVersions, type Discover } from './discovery.js';

const served: Record<string, string> = {
  'kagent.dev/agents': 'v1alpha2',
  'helm.toolkit.fluxcd.io/helmreleases': 'v2',
  'source.toolkit.fluxcd.io/ocirepositories': 'v1beta2',
};
const discover: Discover = async (group, resource) => {
  const version = served[`${group}/${resource}`];
  if (!version) throw new Error('not served');
  return version;
};

describe('resolveApiVersions', () => {
  it('discovers every version when the flags say auto', async () => {
    const versions = await resolveApiVersions({ kagent: 'auto', helmRelease: 'auto', ociRepository: 'auto' }, discover, silentLogger());
    expect(versions).toEqual({
      agent: 'kagent.dev/v1alpha2',
      modelConfig: 'kagent.dev/v1alpha2',
      helmRelease: 'helm.toolkit.fluxcd.io/v2',
      ociRepository: 'source.toolkit.fluxcd.io/v1beta2',
    });
  });

  it('prefixes a bare version with its group and keeps a full one', async () => {
    const versions = await resolveApiVersions(
      { kagent: 'v1alpha1', helmRelease: 'helm.toolkit.fluxcd.io/v2beta2', ociRepository: 'auto' },
      discover, silentLogger(),
    );
    expect(versions.agent).toBe('kagent.dev/v1alpha1');
    expect(versions.helmRelease).toBe('helm.toolkit.fluxcd.io/v2beta2');
  });

  it('falls back to the built-in API versions when discovery fails', async () => {
    const failing: Discover = async () => {
      throw new Error('connection refused');
    };
    const versions = await resolveApiVersions({ kagent: 'auto', helmRelease: 'auto', ociRepository: 'auto' }, failing, silentLogger());
    expect(versions).toEqual({
      agent: 'kagent.dev/v1alpha2',
      modelConfig: 'kagent.dev/v1alpha2',
      helmRelease: 'helm.toolkit.fluxcd.io/v2',
      ociRepository: 'source.toolkit.fluxcd.io/v1',
    });
  });
});
