/**
 * The knobs platform admins expect of a chart (cert-manager's, external-dns', kagent's), rendered
 * by the real helm: the three probes from the values, each switchable; commonLabels on every
 * object; extraObjects rendered through tpl; an Ingress beside the HTTPRoute; and Chart.yaml's
 * kubeVersion, which helm holds a cluster to.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { one, runHelm } from './helm.js';
import { CHART_DIR, readRepoFile } from './chart-files.js';
import { container, failure, NS, podSpec, render, schemaErrors } from './render-values.js';

describe('the probes', () => {
  it('start with a startup probe that holds liveness and readiness back, all three from the values', () => {
    const c = container(render());
    expect(c.startupProbe).toEqual({
      httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 30,
    });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  it('take any field Kubernetes knows, over the defaults, and drop a probe that is switched off', () => {
    const c = container(render({
      startupProbe: { enabled: false },
      livenessProbe: { periodSeconds: 30, failureThreshold: 5, terminationGracePeriodSeconds: 10 },
      readinessProbe: { initialDelaySeconds: 3, successThreshold: 2 },
    }));
    expect(c.startupProbe).toBeUndefined();
    expect(c.livenessProbe).toEqual({
      httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 30, timeoutSeconds: 5, failureThreshold: 5,
      terminationGracePeriodSeconds: 10,
    });
    expect(c.readinessProbe).toMatchObject({ initialDelaySeconds: 3, successThreshold: 2, periodSeconds: 10 });
  });

  it('refuse a field a probe does not have, naming it', () => {
    expect(schemaErrors({ livenessProbe: { periodSecond: 3 } }).join('\n')).toContain("at '/livenessProbe'");
  });
});

/** Every value the chart has an object for, switched on: each template renders something. */
const EVERYTHING = {
  autoscaling: { enabled: true },
  httpRoute: { enabled: true, parentRefs: [{ name: 'gateway' }] },
  ingress: { enabled: true, hosts: [{ host: 'agent-manager.example.com' }] },
  serviceMonitor: { enabled: true },
  prometheusRule: { enabled: true },
  dashboards: { enabled: true },
  muster: { mcpServer: { enabled: true } },
  fleet: { organizations: ['acme'] },
  gitops: { fluxNamespaces: ['flux-system'] },
  extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } }],
  commonLabels: { 'example.com/team': 'platform', cost: 'agents' },
};

describe('commonLabels', () => {
  it('are on every object the chart renders and on the pods, and never in a selector', () => {
    const rendered = render(EVERYTHING);
    expect(rendered.manifests.length).toBeGreaterThan(15);
    for (const m of rendered.manifests) {
      expect(m.metadata.labels, `${m.kind} ${m.metadata.name}`).toMatchObject(EVERYTHING.commonLabels);
    }
    const deployment = one(rendered, 'Deployment') as any;
    expect(deployment.spec.template.metadata.labels).toMatchObject(EVERYTHING.commonLabels);
    expect(Object.keys(deployment.spec.selector.matchLabels)).toEqual(['app.kubernetes.io/name', 'app.kubernetes.io/instance']);
  });

  it('may not redefine a label the chart sets', () => {
    expect(failure({ commonLabels: { 'app.kubernetes.io/name': 'other' } }))
      .toBe('commonLabels may not set app.kubernetes.io/name: the chart sets it on every object');
  });
});

describe('extraObjects', () => {
  it('renders maps and strings of YAML through tpl, with commonLabels beside their own labels', () => {
    const rendered = render({
      commonLabels: { team: 'platform', cost: 'agents' },
      extraObjects: [
        {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: '{{ include "agent-manager.fullname" . }}-extra', labels: { team: 'mine' } },
          data: { namespace: '{{ .Release.Namespace }}' },
        },
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-token\nstringData:\n  token: "{{ .Values.service.port }}"\n',
      ],
    });
    expect(one(rendered, 'ConfigMap', 'agent-manager-extra')).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'agent-manager-extra', labels: { team: 'mine', cost: 'agents' } },
      data: { namespace: NS },
    });
    expect(one(rendered, 'Secret', 'agent-manager-token')).toMatchObject({
      metadata: { labels: { team: 'platform', cost: 'agents' } }, stringData: { token: '8080' },
    });
  });

  it('refuses an entry that is not one Kubernetes object, saying which', () => {
    expect(failure({ extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap' }, { metadata: { name: 'x' } }] }))
      .toBe('extraObjects[1] needs apiVersion and kind');
  });
});

describe('the Ingress', () => {
  it('is off by default; the HTTPRoute and the Ingress can be rendered side by side', () => {
    expect(render().manifests.filter((m) => m.kind === 'Ingress')).toEqual([]);
    const both = render(EVERYTHING);
    expect(one(both, 'HTTPRoute')).toBeDefined();
    expect(one(both, 'Ingress')).toBeDefined();
  });

  it('sends every host\'s paths to the Service, with the class, annotations, labels and TLS given', () => {
    const ingress = one(render({
      ingress: {
        enabled: true, className: 'nginx',
        annotations: { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '600' }, labels: { exposure: 'public' },
        hosts: [
          { host: 'agent-manager.example.com' },
          { host: 'api.example.com', paths: [{ path: '/api', pathType: 'Exact' }, { path: '/mcp' }] },
        ],
        tls: [{ secretName: 'agent-manager-tls', hosts: ['agent-manager.example.com', 'api.example.com'] }],
      },
    }), 'Ingress') as any;
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.metadata).toMatchObject({
      name: 'agent-manager', namespace: NS, labels: { exposure: 'public', 'app.kubernetes.io/name': 'agent-manager' },
      annotations: { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '600' },
    });
    const backend = { service: { name: 'agent-manager', port: { number: 8080 } } };
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'agent-manager-tls', hosts: ['agent-manager.example.com', 'api.example.com'] }],
      rules: [
        { host: 'agent-manager.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } },
        { host: 'api.example.com', http: { paths: [
          { path: '/api', pathType: 'Exact', backend }, { path: '/mcp', pathType: 'Prefix', backend },
        ] } },
      ],
    });
  });

  it('needs a host when enabled, and a path that starts with /', () => {
    expect(failure({ ingress: { enabled: true } })).toBe('ingress.hosts must name at least one host when ingress.enabled is true');
    expect(schemaErrors({ ingress: { hosts: [{ host: 'a.example.com', paths: [{ path: 'api' }] }] } }).join('\n'))
      .toContain("at '/ingress/hosts/0/paths/0/path'");
  });
});

describe('Chart.yaml', () => {
  const chart = parseYaml(readRepoFile('helm', 'agent-manager', 'Chart.yaml')) as Record<string, any>;

  it('names its icon, sources and maintainers, as the charts beside it do', () => {
    expect(chart.icon).toMatch(/^https:\/\/\S+\.svg$/);
    expect(chart.sources).toEqual(['https://github.com/giantswarm/agent-manager']);
    expect(chart.maintainers).toEqual([expect.objectContaining({ name: expect.stringMatching(/\S/), url: expect.stringMatching(/^https:\/\//) })]);
  });

  it('states the Kubernetes it needs, which helm holds a cluster to', () => {
    expect(chart.kubeVersion).toBe('>=1.27.0-0');
    expect(podSpec(render()).topologySpreadConstraints[0].matchLabelKeys).toEqual(['pod-template-hash']);
    const older = runHelm(['template', 'agent-manager', CHART_DIR, '-n', NS, '--kube-version', '1.26.9']);
    expect(older.status).not.toBe(0);
    expect(older.stderr).toContain('chart requires kubeVersion: >=1.27.0-0 which is incompatible with Kubernetes v1.26.9');
    expect(runHelm(['template', 'agent-manager', CHART_DIR, '-n', NS, '--kube-version', '1.30.2-gke.1']).status).toBe(0);
  });
});
