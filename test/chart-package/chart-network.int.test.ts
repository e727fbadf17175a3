/**
 * The chart's default posture and its NetworkPolicy, rendered by the real helm: without
 * OAuth the write API must be fenced by a NetworkPolicy (or the risk accepted by name),
 * ingress reaches only the peers the values name, and with allowInternet false every
 * egress rule has a destination (DNS, the API server's CIDRs, egressCIDRs).
 */
import { describe, expect, it } from 'vitest';
import { CHART_DIR } from './chart-files.js';
import { helmLint, one, runHelm } from './helm.js';
import { failure, NS, render } from './render-values.js';

// The session tools' A2A rule and the muster rule are off here (kagent.a2aUrl and muster.url empty) unless a
// case turns them on.
const policy = (values: Record<string, unknown> = {}, a2aUrl = '', musterUrl = '') =>
  (one(render({ networkPolicy: values, kagent: { a2aUrl }, muster: { url: musterUrl } }), 'NetworkPolicy') as any).spec;
const ns = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
const DNS_PORTS = [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }];
const API_PORTS = [{ port: 443, protocol: 'TCP' }, { port: 6443, protocol: 'TCP' }];
const UNAUTHENTICATED = 'oauth.enabled is false, so every caller that reaches the Service creates, changes and deletes agents as the agent-manager ServiceAccount';
const OAUTH = { enabled: true, baseURL: 'https://am.example.io', dex: { issuerURL: 'https://dex.example.io', clientID: 'am' } };

describe('the default posture without OAuth', () => {
  it('renders a NetworkPolicy by default that lets only the release namespace\'s pods reach the API port', () => {
    const spec = (one(render(), 'NetworkPolicy') as any).spec;
    expect(spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'agent-manager', 'app.kubernetes.io/instance': 'agent-manager' });
    expect(spec.ingress[0]).toEqual({ from: [{ podSelector: {} }], ports: [{ port: 8080, protocol: 'TCP' }] });
  });

  it('refuses oauth.enabled false with networkPolicy.enabled false in helm template, saying why and what to set', () => {
    const reason = failure({ networkPolicy: { enabled: false } });
    expect(reason).toContain(UNAUTHENTICATED);
    expect(reason).toContain("at '/networkPolicy/enabled': value must be true");
    expect(reason).toContain("at '/insecure/allowUnauthenticated': value must be true");
  });

  it('refuses it in helm lint too (a schema error, not a template fail lint would only log)', () => {
    const lint = helmLint({ networkPolicy: { enabled: false } });
    expect(lint.status).toBe(1);
    expect(lint.output).toContain(UNAUTHENTICATED);
  });

  it('refuses it in helm install too, and an accepted risk is named in the install notes', () => {
    const install = (values: Record<string, unknown>) => runHelm(['install', 'agent-manager', CHART_DIR, '-n', NS, '--dry-run=client'], values);
    const refused = install({ networkPolicy: { enabled: false } });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('INSTALLATION FAILED');
    expect(refused.stderr).toContain(UNAUTHENTICATED);
    const insecure = install({ networkPolicy: { enabled: false }, insecure: { allowUnauthenticated: true } });
    expect(insecure.status).toBe(0);
    expect(insecure.stdout).toContain('WARNING: no NetworkPolicy either (insecure.allowUnauthenticated)');
    expect(install({}).stdout).toContain('Only the peers the NetworkPolicy names may connect.');
  });

  it('renders without a NetworkPolicy when the risk is accepted with insecure.allowUnauthenticated', () => {
    const rendered = render({ networkPolicy: { enabled: false }, insecure: { allowUnauthenticated: true } });
    expect(rendered.manifests.filter((m) => m.kind === 'NetworkPolicy')).toEqual([]);
  });

  it('needs no NetworkPolicy with OAuth on', () => {
    const rendered = render({ oauth: OAUTH, networkPolicy: { enabled: false } });
    expect(rendered.manifests.filter((m) => m.kind === 'NetworkPolicy')).toEqual([]);
  });
});

describe('NetworkPolicy ingress', () => {
  it('admits only the pods networkPolicy.ingressPods names, by labels and namespace, instead of the whole release namespace', () => {
    const spec = policy({
      ingressPods: [{ namespace: 'muster', podLabels: { 'app.kubernetes.io/name': 'muster' } }, { podLabels: { app: 'portal-backend' } }],
      ingressNamespaces: ['observability'],
    });
    expect(spec.ingress[0]).toEqual({
      from: [
        { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'muster' } }, ...ns('muster') },
        { podSelector: { matchLabels: { app: 'portal-backend' } } },
        ns('observability'),
      ],
      ports: [{ port: 8080, protocol: 'TCP' }],
    });
  });

  it('refuses an ingress pod without labels in the schema', () => {
    expect(failure({ networkPolicy: { ingressPods: [{ namespace: 'muster' }] } })).toContain("at '/networkPolicy/ingressPods/0': missing property 'podLabels'");
  });
});

describe('NetworkPolicy egress', () => {
  it('limits the Kubernetes API rule to networkPolicy.kubeAPI.cidrs and keeps 443 to anywhere only with allowInternet', () => {
    expect(policy({ kubeAPI: { cidrs: ['172.18.0.2/32', '10.0.0.1/32'] } }).egress).toEqual([
      { to: [ns('kube-system')], ports: DNS_PORTS },
      { to: [{ ipBlock: { cidr: '172.18.0.2/32' } }, { ipBlock: { cidr: '10.0.0.1/32' } }], ports: API_PORTS },
      { ports: [{ port: 443, protocol: 'TCP' }] },
    ]);
  });

  it('with allowInternet false allows nothing but DNS, the API server and egressCIDRs: every rule has a destination', () => {
    const egress = policy({ kubeAPI: { cidrs: ['172.18.0.2/32'] }, allowInternet: false, egressCIDRs: ['10.20.0.0/16'] }).egress;
    expect(egress).toEqual([
      { to: [ns('kube-system')], ports: DNS_PORTS },
      { to: [{ ipBlock: { cidr: '172.18.0.2/32' } }], ports: API_PORTS },
      { to: [{ ipBlock: { cidr: '10.20.0.0/16' } }] },
    ]);
    expect(egress.filter((rule: { to?: unknown[] }) => !rule.to?.length)).toEqual([]);
  });

  it('refuses allowInternet false without the API server\'s CIDRs, which would leave 443 and 6443 open to every address', () => {
    const reason = failure({ networkPolicy: { allowInternet: false } });
    expect(reason).toContain("at '/networkPolicy/kubeAPI/cidrs': minItems: got 0, want 1");
    expect(reason).toContain('networkPolicy.allowInternet is false, but with networkPolicy.kubeAPI.cidrs empty the Kubernetes API rule would allow every address on 443 and 6443');
  });

  it('lets the session tools reach kagent\'s A2A port on the cluster\'s pods only, even with allowInternet false', () => {
    const egress = policy({ allowInternet: false, kubeAPI: { cidrs: ['172.18.0.2/32'] } }, 'http://kagent-controller.kagent:8083/api/a2a').egress;
    expect(egress).toContainEqual({ to: [{ namespaceSelector: {} }], ports: [{ port: 8083, protocol: 'TCP' }] });
    for (const rule of egress) expect(rule.to, JSON.stringify(rule)).toBeDefined();
  });

  it('lets the claude-Harness toolset check reach the port of muster.url on muster\'s pods only, even with allowInternet false', () => {
    const egress = policy({ allowInternet: false, kubeAPI: { cidrs: ['172.18.0.2/32'] } }, '', 'http://muster.agent-platform.svc.cluster.local:8090/mcp').egress;
    expect(egress).toContainEqual({
      to: [{ ...ns('agent-platform'), podSelector: { matchLabels: { 'app.kubernetes.io/name': 'muster' } } }],
      ports: [{ port: 8090, protocol: 'TCP' }],
    });
    for (const rule of egress) expect(rule.to, JSON.stringify(rule)).toBeDefined();
  });

  it.each([
    ['http://muster.example.com/mcp', 80], ['https://muster.example.com/mcp', 443], ['https://muster.example.com:8443/mcp', 8443],
  ])('takes the muster port from %s (the scheme\'s port when the URL names none)', (url, port) => {
    const rule = policy({}, '', url).egress.at(-1);
    expect(rule.ports).toEqual([{ port, protocol: 'TCP' }]);
  });

  it('selects muster\'s pods by networkPolicy.muster: any namespace when it names none', () => {
    const rule = policy({ muster: { namespace: '', podLabels: { 'app.kubernetes.io/name': 'gateway' } } }, '', 'http://muster:8090/mcp')
      .egress.at(-1);
    expect(rule.to).toEqual([{ namespaceSelector: {}, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
  });

  it('allows only DNS without allowKubeAPI and allowInternet', () => {
    expect(policy({ allowKubeAPI: false, allowInternet: false }).egress).toEqual([{ to: [ns('kube-system')], ports: DNS_PORTS }]);
  });

  it.each([['169.254.20.10', '169.254.20.10/32'], ['fd00::10', 'fd00::10/128']])(
    'allows DNS to the node-local cache at %s besides kube-system\'s pods',
    (address, cidr) => {
      expect(policy({ dns: { nodeLocalAddress: address } }).egress[0]).toEqual({ to: [ns('kube-system'), { ipBlock: { cidr } }], ports: DNS_PORTS });
    },
  );

  it('refuses a node-local DNS address that is not an IP address', () => {
    expect(failure({ networkPolicy: { dns: { nodeLocalAddress: 'node-local-dns.kube-system' } } })).toContain("at '/networkPolicy/dns/nodeLocalAddress'");
  });

  it('renders in the release namespace', () => {
    expect(one(render(), 'NetworkPolicy').metadata.namespace).toBe(NS);
  });
});
