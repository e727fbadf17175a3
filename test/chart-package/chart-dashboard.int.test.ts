/**
 * The chart's Grafana dashboard ConfigMap, rendered by the real helm: off by default, labelled
 * for the Grafana sidecar, carrying dashboards/agent-manager.json as it is. test/metrics runs
 * its queries against a real Prometheus.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile } from './chart-files.js';
import { one } from './helm.js';
import { failure, NS, render } from './render-values.js';

const configMaps = (values: Record<string, unknown>) => render(values).manifests.filter((m) => m.kind === 'ConfigMap');

describe('the dashboard ConfigMap', () => {
  it('is not rendered by default', () => {
    expect(configMaps({})).toEqual([]);
  });

  it('carries the dashboard JSON, labelled grafana_dashboard "1" for the sidecar, in the release namespace', () => {
    const cm = one(render({ dashboards: { enabled: true } }), 'ConfigMap') as any;
    expect(cm.metadata).toMatchObject({ name: 'agent-manager-dashboard', namespace: NS });
    expect(cm.metadata.labels.grafana_dashboard).toBe('1');
    expect(JSON.parse(cm.data['agent-manager.json'])).toEqual(JSON.parse(readRepoFile('helm', 'agent-manager', 'dashboards', 'agent-manager.json')));
  });

  it('takes the sidecar\'s label, the namespace it watches and a folder annotation from the values', () => {
    const cm = one(render({ dashboards: { enabled: true, label: 'grafana.io/dashboard', labelValue: 'agents', namespace: 'monitoring', annotations: { grafana_folder: 'Agent Platform' } } }), 'ConfigMap') as any;
    expect(cm.metadata.namespace).toBe('monitoring');
    expect(cm.metadata.labels['grafana.io/dashboard']).toBe('agents');
    expect(cm.metadata.annotations).toEqual({ grafana_folder: 'Agent Platform' });
  });

  it('needs metrics.enabled', () => {
    expect(failure({ dashboards: { enabled: true }, metrics: { enabled: false } })).toBe("dashboards.enabled needs metrics.enabled: the dashboard reads agent-manager's metrics");
  });
});
