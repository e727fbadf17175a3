/**
 * The real kubectl (v1.32) asking the sandbox about access and creating built-in objects
 * with its typed clients, which post protobuf: `kubectl auth can-i` (SelfSubjectAccessReview,
 * exit 0 for yes and 1 for no), `kubectl auth can-i --list` (SelfSubjectRulesReview),
 * `kubectl auth whoami` (SelfSubjectReview), `kubectl create namespace|configmap|secret|
 * serviceaccount|role|rolebinding|deployment` and `kubectl run`. RBAC is on and carol
 * holds one Role in kagent.
 * Skipped, saying so, when kubectl is absent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { KUBECTL, KUBECTL_ABSENT, runKubectl, type KubectlRun } from './support/kubectl.js';

const present = KUBECTL !== undefined;
const title = present
  ? 'kubectl auth and kubectl create against the sandbox'
  : `kubectl auth and kubectl create against the sandbox — SKIPPED: ${KUBECTL_ABSENT}`;

let h: Harness;
let dir: string;

function kubectl(kubeconfig: string, ...args: string[]): Promise<KubectlRun> {
  const env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
  return runKubectl(args, env);
}

const admin = (...args: string[]) => kubectl(join(dir, 'admin'), ...args);
const carol = (...args: string[]) => kubectl(join(dir, 'carol'), ...args);

describe.skipIf(!present)(title, () => {
  beforeAll(async () => {
    h = await startHarness({ authorization: 'rbac' });
    dir = await mkdtemp(join(tmpdir(), 'sandbox-kubectl-auth-'));
    h.sandbox.tokens.set('carol-token', { username: 'carol@lab.local', groups: ['platform', 'system:authenticated'] });
    h.sandbox.store.create('roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'hr-reader', namespace: 'kagent' },
      rules: [{ apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list'] }],
    });
    h.sandbox.store.create('rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'carol-reads', namespace: 'kagent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'hr-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol@lab.local' }],
    });
    await h.sandbox.writeKubeconfig(join(dir, 'admin'));
    await h.sandbox.writeKubeconfig(join(dir, 'carol'), { token: 'carol-token', name: 'carol' });
  });
  afterAll(async () => {
    await h?.sandbox.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers kubectl auth can-i yes for what a Role grants, exiting 0', async () => {
    const run = await carol('auth', 'can-i', 'list', 'helmreleases', '-n', 'kagent');
    expect(run).toMatchObject({ code: 0, stdout: 'yes\n' });
  });

  it.each([
    ['a verb the Role does not grant', ['create', 'hr', '-n', 'kagent']],
    ['another namespace', ['get', 'hr', '-n', 'tenant']],
    ['another resource', ['get', 'agents.kagent.dev', '-n', 'kagent']],
  ])('answers kubectl auth can-i no for %s, exiting 1', async (_name, args) => {
    const run = await carol('auth', 'can-i', ...args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('no\n');
  });

  it('answers yes for everything to a member of system:masters', async () => {
    expect(await admin('auth', 'can-i', 'delete', 'namespaces')).toMatchObject({ code: 0, stdout: 'yes\n' });
    expect(await admin('auth', 'can-i', 'get', '/healthz')).toMatchObject({ code: 0, stdout: 'yes\n' });
  });

  it('lists what the caller may do in a namespace with kubectl auth can-i --list', async () => {
    const run = await carol('auth', 'can-i', '--list', '-n', 'kagent');
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toContainEqual(['helmreleases.helm.toolkit.fluxcd.io', '[]', '[]', '[get list]']);
    expect(rows).toContainEqual(['selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[create]']);
    expect(rows).toContainEqual(['[/version]', '[]', '[get]']);
  });

  it('names the caller and their groups with kubectl auth whoami', async () => {
    const run = await carol('auth', 'whoami', '-o', 'json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1',
      status: { userInfo: { username: 'carol@lab.local', groups: ['platform', 'system:authenticated'] } },
    });
  });

  it('creates built-in objects from kubectl create, which sends them as protobuf', async () => {
    expect((await admin('create', 'namespace', 'team-a')).code).toBe(0);
    expect((await admin('create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=mode=fast', '--from-literal=empty=')).code).toBe(0);
    expect((await admin('create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=hunter2')).code).toBe(0);
    expect((await admin('create', 'serviceaccount', 'bot', '-n', 'team-a')).code).toBe(0);
    expect((await admin('create', 'role', 'core-reader', '-n', 'team-a', '--verb=get,list', '--resource=pods,configmaps')).code).toBe(0);
    expect((await admin('create', 'rolebinding', 'bot-reads', '-n', 'team-a', '--role=core-reader', '--serviceaccount=team-a:bot', '--group=devs')).code).toBe(0);

    const find = (resource: string, name: string) => h.sandbox.store.find(resource, 'team-a', name) as Record<string, any>;
    expect(h.sandbox.store.find('namespaces', '', 'team-a')).toBeDefined();
    expect(find('configmaps', 'settings').data).toEqual({ mode: 'fast', empty: '' });
    expect(find('secrets', 'creds')).toMatchObject({ type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
    expect(find('serviceaccounts', 'bot').metadata.generateName).toBeUndefined();
    expect(find('roles', 'core-reader').rules).toEqual([{ apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] }]);
    expect(find('rolebindings', 'bot-reads')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'core-reader' },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'bot', namespace: 'team-a' },
      ],
    });
  });

  it('creates a Deployment from kubectl create deployment and a pod from kubectl run, both sent as protobuf', async () => {
    const created = await admin('create', 'deployment', 'web', '-n', 'team-a', '--image=nginx:1.27', '--replicas=0', '--port=8080', '--', 'nginx', '-g', 'daemon off;');
    expect(created).toMatchObject({ code: 0, stdout: 'deployment.apps/web created\n' });
    const deployment = h.sandbox.store.find('deployments', 'team-a', 'web') as Record<string, any>;
    expect(deployment.metadata.labels).toEqual({ app: 'web' });
    expect(deployment.spec).toMatchObject({
      replicas: 0, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } } },
    });
    expect(deployment.spec.template.spec.containers).toEqual([
      {
        name: 'nginx', image: 'nginx:1.27', command: ['nginx', '-g', 'daemon off;'], ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: {},
        imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      },
    ]);
    const run = await admin('run', 'shell', '-n', 'team-a', '--image=busybox', '--restart=Never', '--env=MODE=debug', '--', 'sleep', '3600');
    expect(run).toMatchObject({ code: 0, stdout: 'pod/shell created\n' });
    const pod = h.sandbox.store.find('pods', 'team-a', 'shell') as Record<string, any>;
    expect(pod.metadata.labels).toEqual({ run: 'shell' });
    expect(pod.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' });
    expect(pod.spec.containers).toEqual([{
      name: 'shell', image: 'busybox', args: ['sleep', '3600'], env: [{ name: 'MODE', value: 'debug' }], resources: {},
      imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
    }]);
  });
});
