/**
 * The chart rendered by the real helm for the default values and the other shapes an
 * installation takes: the objects and fields each value names, the refusals (helm's own
 * messages), and the rendered arguments parsed by the service's own parseConfig.
 */
import { describe, expect, it } from 'vitest';
import { helmTemplate, one, type Manifest } from './helm.js';
import { container, failure, NS, parsedServe, podEnv, render, schemaErrors } from './render-values.js';

const platformIdentity = {
  domain: 'example.io',
  identity: { issuerUrl: 'https://dex.example.io', clientId: 'platform', existingSecret: 'platform-oauth', ca: { secretName: 'idp-ca', key: 'root.pem' } },
};

const EXPECTED_RULES = [
  { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'] },
  { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['ocirepositories'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
  { apiGroups: ['kagent.dev'], resources: ['agents'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: ['kagent.dev'], resources: ['modelconfigs'], verbs: ['list', 'watch'] },
  { apiGroups: ['api.kagent.dev'], resources: ['agents'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: ['api.kagent.dev'], resources: ['harnesses', 'modelconfigs'], verbs: ['list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['list', 'watch', 'create', 'delete'] },
  { apiGroups: [''], resources: ['pods', 'events'], verbs: ['list', 'watch'] },
  { apiGroups: ['kustomize.toolkit.fluxcd.io'], resources: ['kustomizations'], verbs: ['get'] },
  { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['gitrepositories'], verbs: ['get', 'list'] },
];

describe('the chart with its default values', () => {
  const rendered = render();

  it('renders a Deployment, NetworkPolicy, PodDisruptionBudget, Service, ServiceAccount and one Role/RoleBinding pair in kagent, and nothing optional', () => {
    expect(rendered.manifests.map((m) => `${m.kind}/${m.metadata.namespace}/${m.metadata.name}`).sort()).toEqual([
      `Deployment/${NS}/agent-manager`, `NetworkPolicy/${NS}/agent-manager`, `PodDisruptionBudget/${NS}/agent-manager`,
      'Role/kagent/agent-manager', 'RoleBinding/kagent/agent-manager',
      `Service/${NS}/agent-manager`, `ServiceAccount/${NS}/agent-manager`,
    ]);
  });

  it('grants the Role exactly the rules the service needs, bound to the ServiceAccount', () => {
    expect((one(rendered, 'Role') as any).rules).toEqual(EXPECTED_RULES);
    expect(one(rendered, 'RoleBinding') as any).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent-manager' },
      subjects: [{ kind: 'ServiceAccount', name: 'agent-manager', namespace: NS }],
    });
  });

  it('runs serve with arguments the service parses into the chart defaults', () => {
    const config = parsedServe(rendered);
    expect(config.listen).toBe(':8080');
    expect(config.kube.inCluster).toBe(true);
    expect(config.namespaces).toEqual({ default: 'kagent', managed: ['kagent'] });
    expect(config.chart).toMatchObject({ ociUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', semver: '2.x' });
    expect(config.skills.repositories).toEqual(['https://github.com/giantswarm/agent-skills']);
    expect(config.mcp).toEqual({ enabled: true, path: '/mcp' });
    expect(config.oauth).toEqual({ enabled: false });
    expect(config.metrics).toEqual({ enabled: true, listen: ':9464' });
    expect(config.revisionHistoryLimit).toBe(10);
  });

  it('runs a hardened pod: non-root 1000, read-only root, no capabilities, RuntimeDefault seccomp, a /tmp emptyDir', () => {
    const pod = (one(rendered, 'Deployment') as any).spec.template.spec;
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container(rendered).securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: {} }]);
    expect(container(rendered).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    expect(container(rendered).resources).toEqual({ requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '256Mi' } });
  });

  it('probes /healthz and /readyz and opens the http and metrics ports, on the Service too', () => {
    const c = container(rendered);
    const probe = { port: 'http' };
    expect(c.startupProbe).toEqual({ httpGet: { path: '/healthz', ...probe }, periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 30 });
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/healthz', ...probe }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 });
    expect(c.readinessProbe).toEqual({ httpGet: { path: '/readyz', ...probe }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 });
    expect(c.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { name: 'metrics', containerPort: 9464, protocol: 'TCP' }]);
    expect((one(rendered, 'Service') as any).spec).toMatchObject({
      type: 'ClusterIP',
      ports: [{ name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' }, { name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' }],
    });
  });

  it('labels every object with a helm.sh/chart label and the team', () => {
    for (const m of rendered.manifests) {
      expect(m.metadata.labels).toMatchObject({ 'helm.sh/chart': 'agent-manager-0.1.0', 'application.giantswarm.io/team': 'bumblebee' });
    }
  });
});

describe('agent revisions', () => {
  it('passes agentRevisions.historyLimit as --revision-history-limit, 0 included', () => {
    const rendered = render({ agentRevisions: { historyLimit: 0 } });
    expect(container(rendered).args).toContain('--revision-history-limit=0');
    expect(parsedServe(rendered).revisionHistoryLimit).toBe(0);
  });

  it.each([-1, 2.5, '10'])('refuses a history limit of %j in the values schema', (limit) => {
    expect(schemaErrors({ agentRevisions: { historyLimit: limit } })).not.toEqual([]);
  });
});

describe('browser origins', () => {
  it('passes no --allowed-origins by default', () => {
    const args: string[] = container(render()).args;
    expect(args.some((a) => a.startsWith('--allowed-origins'))).toBe(false);
    expect(parsedServe(render()).allowedOrigins).toEqual([]);
  });

  it('passes the listed origins as one flag the service parses', () => {
    const rendered = render({ allowedOrigins: ['https://portal.example.com', 'https://backstage.example.com:8443'] });
    expect(container(rendered).args).toContain('--allowed-origins=https://portal.example.com,https://backstage.example.com:8443');
    expect(parsedServe(rendered).allowedOrigins).toEqual(['https://portal.example.com', 'https://backstage.example.com:8443']);
  });

  it.each([['a path', 'https://portal.example.com/app'], ['no scheme', 'portal.example.com'], ['a wildcard', 'https://*.example.com']])(
    'refuses an origin with %s in the values schema',
    (_case, origin) => {
      expect(schemaErrors({ allowedOrigins: [origin] })).not.toEqual([]);
    },
  );
});

describe('toolset presets', () => {
  it('passes no --toolset-presets by default, so unknown presets are noted, not refused', () => {
    expect(container(render()).args.some((a: string) => a.startsWith('--toolset-presets'))).toBe(false);
    expect(parsedServe(render()).toolsetPresets).toBeUndefined();
  });

  it('passes toolset.presets as one flag the service parses', () => {
    const rendered = render({ toolset: { presets: ['safe-ops', 'audit'] } });
    expect(container(rendered).args).toContain('--toolset-presets=safe-ops,audit');
    expect(parsedServe(rendered).toolsetPresets).toEqual(['safe-ops', 'audit']);
  });

  it('refuses a preset name muster would refuse in the values schema', () => {
    expect(schemaErrors({ toolset: { presets: ['preset:x'] } })).not.toEqual([]);
  });
});

describe('the muster MCPServer', () => {
  it('registers the in-cluster MCP endpoint over streamable HTTP, with no auth block without OAuth', () => {
    const mcp = one(render({ muster: { mcpServer: { enabled: true } } }), 'MCPServer') as any;
    expect(mcp.apiVersion).toBe('muster.giantswarm.io/v1alpha1');
    expect(mcp.metadata).toMatchObject({ name: 'agent-manager', namespace: NS });
    expect(mcp.metadata.labels).toMatchObject({ 'muster.giantswarm.io/type': 'agent-manager', 'agent-platform.giantswarm.io/tool-group': 'agent-platform' });
    expect(mcp.spec).toEqual({
      type: 'streamable-http',
      url: `http://agent-manager.${NS}.svc.cluster.local:8080/mcp`,
      autoStart: true,
      description: 'Agent lifecycle (create, update, delete, status, skills, model configs) for the Agent Platform',
    });
  });

  it('asks muster to forward the id_token with the required audiences when OAuth is on', () => {
    const mcp = one(render({
      global: platformIdentity,
      oauth: { enabled: true },
      mcp: { path: '/v1/mcp' },
      service: { port: 80 },
      muster: { mcpServer: { enabled: true, name: 'agents', labels: { team: 'bumblebee' }, auth: { requiredAudiences: ['dex-k8s-authenticator'] } } },
    }), 'MCPServer') as any;
    expect(mcp.metadata.name).toBe('agents');
    expect(mcp.metadata.labels.team).toBe('bumblebee');
    expect(mcp.spec.url).toBe(`http://agent-manager.${NS}.svc.cluster.local:80/v1/mcp`);
    expect(mcp.spec.auth).toEqual({ type: 'oauth', forwardToken: true, requiredAudiences: ['dex-k8s-authenticator'] });
  });

  it('leaves requiredAudiences out when there are none', () => {
    const mcp = one(render({ global: platformIdentity, oauth: { enabled: true }, muster: { mcpServer: { enabled: true } } }), 'MCPServer') as any;
    expect(mcp.spec.auth).toEqual({ type: 'oauth', forwardToken: true });
  });
});

describe('OAuth', () => {
  it.each([
    ['the platform client when trustedAudiences is empty, then the required audiences',
      {}, ['dex-k8s-authenticator'], ['platform', 'dex-k8s-authenticator']],
    ['trustedAudiences instead of the platform client, unioned without duplicates',
      { trustedAudiences: ['portal', 'platform'] }, ['platform', 'kubernetes', 'portal'], ['portal', 'platform', 'kubernetes']],
    ['only the platform client when nothing is required (a Google IdP)', {}, [], ['platform']],
  ])('trusts %s', (_name, oauth, required, trusted) => {
    const rendered = render({
      global: platformIdentity, oauth: { enabled: true, ...oauth },
      muster: { mcpServer: { auth: { requiredAudiences: required } } },
    });
    const config = parsedServe(rendered);
    expect(config.oauth.enabled && config.oauth.trustedAudiences).toEqual(trusted);
  });

  it('takes the issuer, client, CA and base URL from global.identity and global.domain', () => {
    const rendered = render({ global: platformIdentity, oauth: { enabled: true } });
    const config = parsedServe(rendered);
    expect(config.oauth).toMatchObject({
      enabled: true,
      baseUrl: 'https://agent-manager.example.io',
      provider: { name: 'dex', issuerUrl: 'https://dex.example.io', clientId: 'platform', caFile: '/etc/agent-manager/idp-ca/root.pem' },
    });
    expect(podEnv(rendered)).toEqual({});
    const pod = (one(rendered, 'Deployment') as any).spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'idp-ca', secret: { secretName: 'idp-ca', items: [{ key: 'root.pem', path: 'root.pem' }] } });
    expect(container(rendered).volumeMounts).toContainEqual({ name: 'idp-ca', mountPath: '/etc/agent-manager/idp-ca', readOnly: true });
    expect(rendered.manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
  });

  it('asks for no client secret: dex renders no Secret and passes no secret to the pod', () => {
    const rendered = render({ oauth: { enabled: true, baseURL: 'https://am.example.io', dex: { issuerURL: 'https://dex.example.io', clientID: 'am' } } });
    expect(rendered.manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
    expect(podEnv(rendered)).toEqual({});
    expect(container(rendered).args.filter((a: string) => /secret|registration/.test(a))).toEqual([]);
    expect(parsedServe(rendered).oauth).toMatchObject({ enabled: true, provider: { name: 'dex', issuerUrl: 'https://dex.example.io', clientId: 'am' } });
  });

  it('passes the Google client ID as a value, or reads it from the existing Secret', () => {
    const fromValue = render({ oauth: { enabled: true, provider: 'google', baseURL: 'https://am.example.io', google: { clientID: 'g-client' } } });
    expect(podEnv(fromValue)).toEqual({ GOOGLE_CLIENT_ID: 'g-client' });
    expect(parsedServe(fromValue).oauth).toMatchObject({ provider: { name: 'google', clientId: 'g-client' } });
    const fromSecret = render({ oauth: { enabled: true, provider: 'google', baseURL: 'https://am.example.io', existingSecret: 'google-oauth' } });
    expect(podEnv(fromSecret)).toEqual({ GOOGLE_CLIENT_ID: 'google-oauth/google-client-id' });
  });

  it('still accepts the unused client secrets in the values, and refuses turning on the removed public client registration', () => {
    expect(schemaErrors({ oauth: { dex: { clientSecret: 'old' }, google: { clientSecret: 'old' } } })).toEqual([]);
    expect(schemaErrors({ oauth: { allowPublicClientRegistration: false } })).toEqual([]);
    expect(schemaErrors({ oauth: { allowPublicClientRegistration: true } }).join('\n')).toContain("at '/oauth/allowPublicClientRegistration': value must be false");
  });

  it('gives the ServiceAccount no Role with downstream OAuth, and the service acts as the caller', () => {
    const rendered = render({ global: platformIdentity, oauth: { enabled: true, downstream: { enabled: true } }, kagent: { additionalNamespaces: ['team-a'] } });
    expect(rendered.manifests.filter((m) => m.kind === 'Role' || m.kind === 'RoleBinding')).toEqual([]);
    expect(parsedServe(rendered).oauth).toMatchObject({ downstream: true });
  });

  it.each([
    ['OAuth without a base URL or global.domain', { oauth: { enabled: true } }, 'oauth.baseURL is required with oauth.enabled'],
    ['dex without an issuer', { oauth: { enabled: true, baseURL: 'https://am.example.io', existingSecret: 's' } }, 'oauth.dex.issuerURL is required'],
    ['google without a client ID or a Secret holding it', { oauth: { enabled: true, provider: 'google', baseURL: 'https://am.example.io' } }, 'oauth.google.clientID is required for the google provider'],
    ['downstream OAuth without OAuth', { oauth: { downstream: { enabled: true } } }, 'oauth.downstream.enabled needs oauth.enabled'],
  ])('refuses %s', (_name, values, message) => {
    expect(failure(values)).toContain(message);
  });
});

describe('namespaces and RBAC', () => {
  it('renders one Role and RoleBinding per managed namespace, without duplicates', () => {
    const rendered = render({ kagent: { namespace: 'agents', additionalNamespaces: ['team-a', 'agents', 'team-b', 'team-a'] } });
    const roles = rendered.manifests.filter((m) => m.kind === 'Role');
    expect(roles.map((r) => r.metadata.namespace)).toEqual(['agents', 'team-a', 'team-b']);
    for (const role of roles) expect((role as any).rules).toEqual(EXPECTED_RULES);
    expect(rendered.manifests.filter((m) => m.kind === 'RoleBinding').map((r) => r.metadata.namespace)).toEqual(['agents', 'team-a', 'team-b']);
    expect(parsedServe(rendered).namespaces).toEqual({ default: 'agents', managed: ['agents', 'team-a', 'team-b'] });
  });

  it('lets the service read Flux HelmReleases, Kustomizations and GitRepositories in gitops.fluxNamespaces, get only', () => {
    const rendered = render({ gitops: { fluxNamespaces: ['flux-system', 'flux-system'] } });
    expect((one(rendered, 'ClusterRole') as any).rules).toEqual([
      { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get'] },
      { apiGroups: ['kustomize.toolkit.fluxcd.io'], resources: ['kustomizations'], verbs: ['get'] },
      { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['gitrepositories'], verbs: ['get'] },
    ]);
    const bindings = rendered.manifests.filter((m) => m.kind === 'RoleBinding' && m.metadata.name === 'agent-manager-flux-sources') as any[];
    expect(bindings.map((b) => [b.metadata.namespace, b.roleRef.kind, b.roleRef.name])).toEqual([['flux-system', 'ClusterRole', 'agent-manager-flux-sources']]);
  });

  it('runs commit mode with the GitHub App key mounted from its Secret and the token from its Secret', () => {
    const rendered = render({ gitops: { repository: 'acme/fleet', repositories: ['acme/tenants', 'acme/labs'], path: 'clusters/prod', github: {
      app: { id: '4242', privateKeySecret: { name: 'gh-app' } }, tokenSecret: { name: 'gh-token' },
    } } });
    const config = parsedServe(rendered);
    expect(config.gitops).toMatchObject({ repository: 'acme/fleet', repositories: ['acme/tenants', 'acme/labs'], branch: 'main', path: 'clusters/prod', appId: '4242', appPrivateKeyFile: '/etc/agent-manager/github-app/private-key.pem' });
    const pod = (one(rendered, 'Deployment') as any).spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'github-app', secret: { secretName: 'gh-app', defaultMode: 0o400 } });
    expect(container(rendered).volumeMounts).toContainEqual({ name: 'github-app', mountPath: '/etc/agent-manager/github-app', readOnly: true });
    expect(container(rendered).env).toContainEqual({ name: 'GITOPS_GITHUB_TOKEN', valueFrom: { secretKeyRef: { name: 'gh-token', key: 'token' } } });
  });

  it('renders no RBAC with rbac.create false', () => {
    expect(render({ rbac: { create: false } }).manifests.filter((m) => m.kind === 'Role')).toEqual([]);
  });
});

describe('HTTPRoute, NetworkPolicy and ServiceMonitor', () => {
  it('routes PathPrefix / to the Service through the given Gateway', () => {
    const route = one(render({ httpRoute: { enabled: true, parentRefs: [{ name: 'gw', namespace: 'envoy' }], hostnames: ['am.example.io'] } }), 'HTTPRoute') as any;
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'gw', namespace: 'envoy' }],
      hostnames: ['am.example.io'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'agent-manager', port: 8080 }] }],
    });
  });

  it('refuses an HTTPRoute without parentRefs', () => {
    expect(failure({ httpRoute: { enabled: true } })).toContain('httpRoute.parentRefs must name at least one Gateway');
  });

  it('opens 8080 to the namespace and ingressNamespaces, metrics to metricsNamespaces, and DNS, the API, kagent\'s A2A port and egressCIDRs out', () => {
    const policy = one(render({ networkPolicy: { enabled: true, ingressNamespaces: ['muster'], egressCIDRs: ['10.0.0.0/8'] } }), 'NetworkPolicy') as any;
    const ns = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
    expect(policy.spec.ingress).toEqual([
      { from: [{ podSelector: {} }, ns('muster')], ports: [{ port: 8080, protocol: 'TCP' }] },
      { from: [ns('kube-system')], ports: [{ port: 9464, protocol: 'TCP' }] },
    ]);
    expect(policy.spec.egress).toEqual([
      { to: [ns('kube-system')], ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
      { ports: [{ port: 443, protocol: 'TCP' }, { port: 6443, protocol: 'TCP' }] },
      { to: [{ namespaceSelector: {} }], ports: [{ port: 8083, protocol: 'TCP' }] },
      { to: [{ ...ns('agent-platform'), podSelector: { matchLabels: { 'app.kubernetes.io/name': 'muster' } } }],
        ports: [{ port: 8090, protocol: 'TCP' }] },
      { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] },
    ]);
  });

  it('passes harness.egress as --harness-egress, Harnesses by name, and nothing when it is empty', () => {
    const args = container(render({ harness: { egress: { codex: ['https://api.openai.com'],
      claude: ['https://github.com', 'https://*.githubusercontent.com'] } } })).args;
    expect(args).toContain('--harness-egress=claude=https://github.com,https://*.githubusercontent.com;codex=https://api.openai.com');
    expect(container(render({})).args.filter((a: string) => a.startsWith('--harness-egress'))).toEqual([]);
  });

  it('refuses a Harness origin the Agent would refuse, in the schema', () => {
    expect(failure({ harness: { egress: { claude: ['https://github.com/org'] } } })).toContain("at '/harness/egress/claude/0'");
  });

  it('mounts muster.tokenSecret as a directory and passes --muster-token-file, and refuses it with OAuth', () => {
    const rendered = render({ muster: { tokenSecret: { name: 'muster-bearer', key: 'token' } } });
    const c = container(rendered);
    expect(c.args).toContain('--muster-token-file=/etc/agent-manager/muster-token/token');
    expect(c.volumeMounts).toContainEqual({ name: 'muster-token', mountPath: '/etc/agent-manager/muster-token', readOnly: true });
    expect((one(rendered, 'Deployment') as any).spec.template.spec.volumes)
      .toContainEqual({ name: 'muster-token', secret: { secretName: 'muster-bearer', defaultMode: 256 } });
    expect(container(render({})).args.filter((a: string) => a.startsWith('--muster-token-file'))).toEqual([]);
    expect(failure({ muster: { tokenSecret: { name: 'muster-bearer' } }, oauth: { enabled: true, baseURL: 'https://am.example.io',
      dex: { issuerURL: 'https://dex.example.io', clientID: 'am' } } })).toContain('muster.tokenSecret is for installations without oauth.enabled');
  });

  it('passes kagent.a2aUrl as --kagent-a2a-url, and opens no A2A port when it is empty', () => {
    expect(container(render({})).args).toContain('--kagent-a2a-url=http://kagent-controller.kagent:8083/api/a2a');
    const off = render({ kagent: { a2aUrl: '' }, muster: { url: '' }, networkPolicy: { enabled: true, allowKubeAPI: false, allowInternet: false } });
    expect(container(off).args).toContain('--kagent-a2a-url=');
    expect((one(off, 'NetworkPolicy') as any).spec.egress).toHaveLength(1);
  });

  it('allows only 443 out without allowKubeAPI, and nothing but DNS without allowInternet either', () => {
    const egress = (values: object) => (one(render({ networkPolicy: { enabled: true, ...values } }), 'NetworkPolicy') as any).spec.egress;
    expect(egress({ allowKubeAPI: false })[1]).toEqual({ ports: [{ port: 443, protocol: 'TCP' }] });
    // DNS, the kagent controller's A2A port the session tools use, and muster's port the claude-Harness guard uses.
    expect(egress({ allowKubeAPI: false, allowInternet: false })).toHaveLength(3);
  });

  it('scrapes /metrics on the metrics port with the given interval and labels', () => {
    const monitor = one(render({ serviceMonitor: { enabled: true, interval: '30s', labels: { 'observability.giantswarm.io/tenant': 'giantswarm' } } }), 'ServiceMonitor') as any;
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels['observability.giantswarm.io/tenant']).toBe('giantswarm');
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
  });

  it('scrapes only the release namespace by default, and takes scrapeTimeout, relabelings, metricRelabelings and namespaceSelector', () => {
    expect((one(render({ serviceMonitor: { enabled: true } }), 'ServiceMonitor') as any).spec.namespaceSelector).toEqual({ matchNames: [NS] });
    const relabelings = [{ action: 'replace', targetLabel: 'team', replacement: 'bumblebee' }];
    const metricRelabelings = [{ action: 'drop', sourceLabels: ['__name__'], regex: 'nodejs_gc_.*' }];
    const monitor = one(render({ serviceMonitor: {
      enabled: true, interval: '30s', scrapeTimeout: '10s', relabelings, metricRelabelings, namespaceSelector: { any: true },
    } }), 'ServiceMonitor') as any;
    expect(monitor.spec.namespaceSelector).toEqual({ any: true });
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s', relabelings, metricRelabelings }]);
    expect(schemaErrors({ serviceMonitor: { scrapeTimeout: '10 seconds' } }).join('\n')).toContain("at '/serviceMonitor/scrapeTimeout'");
  });

  it('turns metrics off everywhere with metrics.enabled false, and refuses a ServiceMonitor then', () => {
    const rendered = render({ metrics: { enabled: false }, networkPolicy: { enabled: true } });
    expect(container(rendered).ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect((one(rendered, 'Service') as any).spec.ports).toHaveLength(1);
    expect((one(rendered, 'NetworkPolicy') as any).spec.ingress).toHaveLength(1);
    expect(parsedServe(rendered).metrics).toEqual({ enabled: false, listen: '' });
    expect(failure({ serviceMonitor: { enabled: true }, metrics: { enabled: false } })).toContain('serviceMonitor.enabled needs metrics.enabled');
  });
});

describe('the Deployment with other values', () => {
  it('passes every value-driven flag, the GitHub token, extra args and env', () => {
    const rendered = render({
      agentChart: { semver: '>=0.5.0 <1.0.0', refresh: '1h' },
      flux: { helmReleaseServiceAccount: 'flux-tenant', helmReleaseApiVersion: 'v2', helmReleaseInterval: '5m' },
      skills: { repositories: ['https://github.com/a/b', 'https://github.com/c/d'], github: { tokenSecret: { name: 'gh', key: 'pat' } } },
      mcp: { enabled: false },
      logging: { verbose: true },
      extraArgs: ['--kagent-api-version=v1alpha2'],
      extraEnv: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=192' }],
    });
    const config = parsedServe(rendered);
    expect(config.chart.semver).toBe('>=0.5.0 <1.0.0');
    expect(config.compose).toMatchObject({ helmReleaseServiceAccount: 'flux-tenant', helmReleaseInterval: { text: '5m' } });
    expect(config.kube).toMatchObject({ helmReleaseApiVersion: 'helm.toolkit.fluxcd.io/v2', kagentApiVersion: 'v1alpha2' });
    expect(config.skills).toMatchObject({ repositories: ['https://github.com/a/b', 'https://github.com/c/d'], githubToken: 'gh/pat' });
    expect(config.mcp.enabled).toBe(false);
    expect(config.verbose).toBe(true);
    expect(podEnv(rendered)).toMatchObject({ GITHUB_TOKEN: 'gh/pat', NODE_OPTIONS: '--max-old-space-size=192' });
  });

  it('uses the image tag (or digest), full name override and pod metadata from values', () => {
    const rendered = render({ image: { tag: '1.2.3' }, fullnameOverride: 'am', podAnnotations: { a: 'b' }, podLabels: { c: 'd' } });
    const deployment = one(rendered, 'Deployment') as any;
    expect(deployment.metadata.name).toBe('am');
    expect(container(rendered).image).toBe('gsoci.azurecr.io/giantswarm/agent-manager:1.2.3');
    const digest = `sha256:${'ab12'.repeat(16)}`;
    expect(container(render({ image: { tag: '1.2.3', digest } })).image).toBe(`gsoci.azurecr.io/giantswarm/agent-manager@${digest}`);
    expect(schemaErrors({ image: { digest: 'sha256:short' } }).join('\n')).toContain("at '/image/digest'");
    expect(deployment.spec.template.metadata.annotations).toEqual({ a: 'b' });
    expect(deployment.spec.template.metadata.labels.c).toBe('d');
  });

  it.each([
    ['a cut that lands on a dot', `0.1.0-${'x'.repeat(42)}.${'y'.repeat(9)}`, `agent-manager-0.1.0-${'x'.repeat(42)}`],
    ['a cut that lands on a run of separators from "+"', `0.1.0-${'x'.repeat(40)}.-+build`, `agent-manager-0.1.0-${'x'.repeat(40)}`],
    ['a short version', '0.1.0+abc', 'agent-manager-0.1.0_abc'],
  ])('cuts the helm.sh/chart label to 63 characters and trims separators: %s', (_name, version, label) => {
    const rendered = helmTemplate({}, { namespace: NS, chartVersion: version });
    const labels = (one(rendered, 'Deployment') as Manifest).metadata.labels!;
    expect(labels['helm.sh/chart']).toBe(label);
    expect(label.length).toBeLessThanOrEqual(63);
  });
});
