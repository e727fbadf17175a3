import { describe, expect, it } from 'vitest';
import { parseHelmRelease, releaseSource } from './helm-release-view.js';

const release = (spec: unknown, status?: unknown) =>
  ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'sre', namespace: 'kagent' },
    spec, status });

describe('parseHelmRelease', () => {
  it('reads the chart source, values, placement and helm-controller status of a valid release', () => {
    const view = parseHelmRelease(release(
      {
        chartRef: { kind: 'OCIRepository', name: 'agent', namespace: '' }, releaseName: 'sre', targetNamespace: 'ns',
        suspend: true, kubeConfig: { secretRef: { name: 'c' } }, values: { agent: { name: 'sre' } },
      },
      {
        conditions: [{ type: 'Ready', status: 'True' }], observedGeneration: 2, lastAttemptedGeneration: 2,
        lastAttemptedRevision: '0.6.1', history: [{ chartVersion: '0.6.1' }],
      },
    ));
    expect(view).toMatchObject({
      meta: { name: 'sre', namespace: 'kagent' },
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace: '' }, releaseName: 'sre', targetNamespace: 'ns',
      suspended: true, remote: true, values: { agent: { name: 'sre' } },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }], observedGeneration: 2, lastAttemptedGeneration: 2,
        lastAttemptedRevision: '0.6.1', history: [{ chartVersion: '0.6.1' }],
      },
    });
    expect(view.valuesProblem).toBeUndefined();
    expect(releaseSource(view)).toEqual({ namespace: 'kagent', name: 'agent' });
  });

  it('a partial release (no spec, no status) reads as one with nothing set', () => {
    const view = parseHelmRelease({ metadata: { name: 'sre' } });
    expect(view).toEqual({
      meta: { name: 'sre', labels: {}, annotations: {}, ownerReferences: [] },
      suspended: false, remote: false, rawValues: undefined, values: {}, status: { conditions: [], history: [] },
    });
    expect(releaseSource(view)).toBeUndefined();
  });

  it('values that are no object are a recorded problem and read as none, their raw form kept', () => {
    const view = parseHelmRelease(release({ values: 'agent: x' }));
    expect(view.valuesProblem).toBe('spec.values is a string, not an object of Helm values');
    expect(view.values).toEqual({});
    expect(view.rawValues).toBe('agent: x');
  });

  it('forged field types read as absent instead of throwing', () => {
    const view = parseHelmRelease(release(
      { chartRef: { kind: 1, name: ['agent'], namespace: {} }, releaseName: 2, targetNamespace: null, suspend: 'yes' },
      { conditions: 'Ready', observedGeneration: '2', lastAttemptedRevision: 3, history: [null, 'x'] },
    ));
    expect(view.chartRef).toEqual({});
    expect(view.releaseName).toBeUndefined();
    expect(view.targetNamespace).toBeUndefined();
    expect(view.suspended).toBe(false);
    expect(view.status).toEqual({ conditions: [], history: [{}, {}] });
    expect(releaseSource(view)).toBeUndefined();
    expect(parseHelmRelease(release('not a spec', 'not a status')).chartRef).toBeUndefined();
  });

  it("a chartRef's namespace, when set, is where the source lives", () => {
    const view = parseHelmRelease(release({ chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'flux' } }));
    expect(releaseSource(view)).toEqual({ namespace: 'flux', name: 'agent' });
    expect(releaseSource(parseHelmRelease(release({ chartRef: { kind: 'HelmChart', name: 'agent' } })))).toBeUndefined();
  });
});
