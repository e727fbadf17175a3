/**
 * Least privilege: the chart's Role grants exactly the Kubernetes access the production
 * code can ask for, no verb more and none less, as kube-access.ts derives it from the
 * code paths. A feature that adds a call (a watch, a new resource, a cache) fails here
 * until the chart grants it; a call that goes away fails here until the grant does.
 *
 * Access every authenticated user already has is not the Role's to grant: creating
 * SelfSubjectAccessReviews, SelfSubjectRulesReviews and SelfSubjectReviews (the
 * `system:basic-user` ClusterRole), and API discovery (`system:discovery`).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANAGED_NAMESPACES, startSandbox } from '@agent-manager/kube-sandbox';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../src/service/resources.js';
import { ROOT } from './chart-files.js';
import { one } from './helm.js';
import type { Access, Derived } from './kube-access.js';
import { deriveKubeAccessApart } from './kube-access-apart.js';
import { render } from './render-values.js';

/** Reading the code with the compiler takes seconds, more on a busy machine. */
const DERIVE_MS = 180_000;

const EVERY_USER = new Set([
  'authorization.k8s.io/selfsubjectaccessreviews:create',
  'authorization.k8s.io/selfsubjectrulesreviews:create',
  'authentication.k8s.io/selfsubjectreviews:create',
]);

/**
 * Access granted by a ClusterRole of its own, not the namespaced Role: asking about the
 * caller (a SubjectAccessReview, cluster-scoped), only with OAuth while the ServiceAccount
 * makes the calls (rbac-gitops.yaml).
 */
const CLUSTER_WIDE = new Set(['authorization.k8s.io/subjectaccessreviews:create']);

/**
 * Access granted by the fleet Role in `org-<organization>` (rbac-fleet.yaml), only for the
 * organizations `fleet.organizations` lists: reading Cluster API's kubeconfig Secrets.
 */
const FLEET_ONLY = new Set(['/secrets:get', '/secrets:list']);

const key = (a: Access) => `${a.group}/${a.resource}:${a.verb}`;

/** The Role's rules as one `group/resource:verb` entry per grant, duplicates kept. */
function grants(rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>): string[] {
  return rules.flatMap((r) =>
    r.apiGroups.flatMap((group) =>
      r.resources.flatMap((resource) => r.verbs.map((verb) => key({ group, resource, verb }))),
    ),
  );
}

/**
 * Started at once, each in its own process, so the derivations run beside each other and the
 * renders: the suites reading one are concurrent, and only their tests that read it wait for it.
 */
function started(derivation: Promise<Derived>): Promise<Derived> {
  derivation.catch(() => undefined); // awaited by the tests, which report the failure
  return derivation;
}

/** The code's access, derived once for the two suites that read it. */
const codeAccess = started(deriveKubeAccessApart(
  ROOT, resourceTypes(DEFAULT_API_VERSIONS) as unknown as Record<string, Access>,
));

describe.concurrent('the chart\'s Role and the code\'s Kubernetes calls', () => {
  it('can tell the access of every Kubernetes call the production code makes', async ({ expect }) => {
    const derived = await codeAccess;
    expect(derived.problems).toEqual([]);
    expect(derived.portMethods.length).toBeGreaterThanOrEqual(5);
  }, DERIVE_MS);

  it('grants exactly the verbs the code calls, on exactly the resources it calls them on, once each', async ({ expect }) => {
    const derived = await codeAccess;
    const needed = derived.accesses.filter(
      (a) => !EVERY_USER.has(key(a)) && !CLUSTER_WIDE.has(key(a)) && !FLEET_ONLY.has(key(a)),
    );
    const role = grants((one(render(), 'Role') as any).rules);
    const missing = needed.filter((a) => !role.includes(key(a))).map((a) => `${key(a)} (called at ${a.where})`);
    const unused = role.filter((g) => !needed.some((a) => key(a) === g));
    expect({ missing, unused }).toEqual({ missing: [], unused: [] });
    expect(new Set(role).size).toBe(role.length);
  }, DERIVE_MS);

  it('is the Role the sandbox seeds for the service, so every suite on the sandbox runs with exactly these grants', async ({ expect }) => {
    const sandbox = await startSandbox({ seed: true });
    try {
      for (const namespace of MANAGED_NAMESPACES) {
        const role = sandbox.store.get('roles', namespace, 'agent-manager') as { rules?: unknown } | undefined;
        expect(role?.rules, namespace).toEqual((one(render(), 'Role') as any).rules);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('grants the same rules in every managed namespace', ({ expect }) => {
    const roles = render({ kagent: { additionalNamespaces: ['team-a'] } }).manifests.filter((m) => m.kind === 'Role') as any[];
    expect(roles.map((r) => r.metadata.namespace)).toEqual(['kagent', 'team-a']);
    expect(roles[1].rules).toEqual(roles[0].rules);
  });
});

describe.concurrent('the fleet Role in org-<organization>', () => {
  const fleetRoles = (values: Record<string, unknown>) =>
    render(values).manifests.filter((m) => m.kind === 'Role' && (m as any).metadata.namespace.startsWith('org-')) as any[];

  it('is rendered only for the organizations fleet.organizations lists', ({ expect }) => {
    expect(fleetRoles({})).toEqual([]);
    expect(fleetRoles({ fleet: { organizations: ['acme', 'globex'] } }).map((r) => r.metadata.namespace)).toEqual(['org-acme', 'org-globex']);
  });

  it('grants the Secret reads the code makes, and release-side verbs the code calls, nothing else', async ({ expect }) => {
    const derived = await codeAccess;
    const [role] = fleetRoles({ fleet: { organizations: ['acme'] } });
    const granted = grants(role.rules);
    const called = new Set(derived.accesses.map(key));
    expect(granted.filter((g) => FLEET_ONLY.has(g)).sort()).toEqual(
      [...FLEET_ONLY].filter((g) => called.has(g)).sort(),
    );
    expect(granted.filter((g) => !called.has(g))).toEqual([]);
    expect(granted).toEqual(expect.arrayContaining(['helm.toolkit.fluxcd.io/helmreleases:create', 'apps/controllerrevisions:create']));
  }, DERIVE_MS);

  it('keeps only the Secret reads with downstream OAuth, where the caller writes the releases', ({ expect }) => {
    const oauth = { enabled: true, baseURL: 'https://am.example.com', dex: { issuerURL: 'https://dex.example.com', clientID: 'am' }, downstream: { enabled: true } };
    const [role] = fleetRoles({ fleet: { organizations: ['acme'] }, oauth });
    expect(grants(role.rules)).toEqual(['/secrets:get', '/secrets:list']);
  });
});

describe('the cluster-wide grants of commit mode', () => {
  const clusterRoles = (values: Record<string, unknown>) =>
    render(values).manifests.filter((m) => m.kind === 'ClusterRole').map((r: any) => ({ name: r.metadata.name, rules: grants(r.rules) }));

  it('grants create on subjectaccessreviews only with OAuth while the ServiceAccount makes the calls', () => {
    const reviews = (values: Record<string, unknown>) => clusterRoles(values).filter((r) => r.rules.includes('authorization.k8s.io/subjectaccessreviews:create'));
    expect(reviews({})).toEqual([]);
    expect(reviews({ oauth: { enabled: true, baseURL: 'https://am.example.com', dex: { issuerURL: 'https://dex.example.com', clientID: 'am' } } })).toEqual([{ name: 'agent-manager-access-reviews', rules: ['authorization.k8s.io/subjectaccessreviews:create'] }]);
    expect(reviews({ oauth: { enabled: true, baseURL: 'https://am.example.com', dex: { issuerURL: 'https://dex.example.com', clientID: 'am' }, downstream: { enabled: true } } })).toEqual([]);
  });

  it('lets the ServiceAccount list GitRepositories across namespaces only when an installation credential is configured', () => {
    const lists = (values: Record<string, unknown>) => clusterRoles(values).filter((r) => r.rules.includes('source.toolkit.fluxcd.io/gitrepositories:list'));
    expect(lists({})).toEqual([]);
    expect(lists({ gitops: { github: { tokenSecret: { name: 'gh' } } } })).toEqual([{ name: 'agent-manager-gitrepositories', rules: ['source.toolkit.fluxcd.io/gitrepositories:list'] }]);
  });
});

// A project in miniature with the calls later features add (testdata/kube-access).
const miniatureAccess = started(deriveKubeAccessApart(join(ROOT, 'test', 'chart-package', 'testdata', 'kube-access'), {
  agent: { group: 'kagent.dev', resource: 'agents' },
  controllerRevision: { group: 'apps', resource: 'controllerrevisions' },
  kustomization: { group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations' },
  gitRepository: { group: 'source.toolkit.fluxcd.io', resource: 'gitrepositories' },
}));

describe('the derivation', () => {
  let derived: Derived;
  beforeAll(async () => {
    derived = await miniatureAccess;
  }, DERIVE_MS);

  it('picks up a watch, ControllerRevision writes through a helper, Flux source reads, a list/watch cache and an access review', () => {
    expect(derived.accesses.map(key)).toEqual([
      'apps/controllerrevisions:create', 'apps/controllerrevisions:delete', 'apps/controllerrevisions:list',
      'authorization.k8s.io/selfsubjectaccessreviews:create',
      'kagent.dev/agents:list', 'kagent.dev/agents:watch',
      'kustomize.toolkit.fluxcd.io/kustomizations:get',
      'source.toolkit.fluxcd.io/gitrepositories:get',
    ]);
    expect(derived.portMethods).toEqual([
      'AccessReview.canI: create', 'KubePort.create: create', 'KubePort.get: get', 'KubePort.list: list',
      'KubePort.remove: delete', 'KubePort.watch: watch', 'ReadCache.start: list, watch',
    ]);
  });

  it('reports a call whose resource it cannot tell, and an API call outside any port adapter', () => {
    expect(derived.problems).toEqual([
      expect.stringMatching(/^src\/service\/use\.ts:\d+: KubePort\.get\(…\): its resource comes from a parameter of a function never called directly/),
      expect.stringMatching(/^src\/kube\/adapters\.ts:\d+: listNamespacedSecret reaches the Kubernetes API outside a port adapter/),
    ]);
  });
});
