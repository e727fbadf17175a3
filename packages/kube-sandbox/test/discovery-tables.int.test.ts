/**
 * What kubectl reads besides objects: discovery documents in the legacy form (also when
 * aggregated discovery is asked for first), the OpenAPI v3 stubs that let kubectl
 * validate on the server, and server-side tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { HR, helmRelease, raw, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('tabled') });
});
afterAll(async () => {
  await h.sandbox.close();
});

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('sandbox discovery', () => {
  it('reports the version kubectl expects', async () => {
    const res = await raw(h.sandbox, 'GET', '/version');
    expect(res.json).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.0+sandbox' });
  });

  it('answers aggregated-discovery requests with the legacy group list as plain JSON', async () => {
    const res = await raw(h.sandbox, 'GET', '/apis', { headers: { accept: AGGREGATED } });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json.kind).toBe('APIGroupList');
    expect(res.json.groups.map((g: any) => g.name)).toEqual([
      'apps', 'apiextensions.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'rbac.authorization.k8s.io', 'helm.toolkit.fluxcd.io',
      'source.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io', 'kagent.dev', 'api.kagent.dev',
    ]);
    expect(res.json.groups[5]).toEqual({
      name: 'helm.toolkit.fluxcd.io',
      versions: [{ groupVersion: 'helm.toolkit.fluxcd.io/v2', version: 'v2' }],
      preferredVersion: { groupVersion: 'helm.toolkit.fluxcd.io/v2', version: 'v2' },
    });
  });

  it('lists core resources with verbs, short names and subresources', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1');
    const byName = Object.fromEntries(res.json.resources.map((r: any) => [r.name, r]));
    expect(byName.namespaces).toMatchObject({ namespaced: false, kind: 'Namespace', shortNames: ['ns'] });
    expect(byName.pods).toMatchObject({ namespaced: true, singularName: 'pod', categories: ['all'] });
    expect(byName['pods/status']).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(byName.configmaps.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('lists custom resources with their kinds, short names and categories', async () => {
    const res = await raw(h.sandbox, 'GET', '/apis/kagent.dev/v1alpha2');
    expect(res.json.groupVersion).toBe('kagent.dev/v1alpha2');
    const mc = res.json.resources.find((r: any) => r.name === 'modelconfigs');
    expect(mc).toMatchObject({ kind: 'ModelConfig', singularName: 'modelconfig', shortNames: ['mc'], categories: ['kagent'], namespaced: true });
    expect((await raw(h.sandbox, 'GET', '/apis/kagent.dev')).json).toMatchObject({ kind: 'APIGroup', name: 'kagent.dev' });
  });

  it('answers 404 for OpenAPI v2 and serves OpenAPI v3 with the fieldValidation parameter', async () => {
    expect((await raw(h.sandbox, 'GET', '/openapi/v2')).code).toBe(404);
    const root = await raw(h.sandbox, 'GET', '/openapi/v3');
    const url = root.json.paths['apis/helm.toolkit.fluxcd.io/v2'].serverRelativeURL as string;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/helm.toolkit.fluxcd.io\/v2\?hash=/);
    const doc = await raw(h.sandbox, 'GET', url);
    const patch = doc.json.paths['/apis/helm.toolkit.fluxcd.io/v2/namespaces/{namespace}/helmreleases/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'helm.toolkit.fluxcd.io', version: 'v2', kind: 'HelmRelease' });
    expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  });

  it('refuses protobuf-only responses with 406', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.code).toBe(406);
    expect(res.json.reason).toBe('NotAcceptable');
  });

  it('answers in YAML when Accept asks for application/yaml, errors included, but never streams a watch in it', async () => {
    const yaml = { accept: 'application/yaml' };
    const one = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent', { headers: yaml });
    expect(one.code).toBe(200);
    expect(one.headers['content-type']).toBe('application/yaml');
    expect(parseYaml(one.text)).toMatchObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'kagent' } });
    const list = await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', { headers: yaml });
    expect(parseYaml(list.text)).toMatchObject({ kind: 'HelmReleaseList', items: [{ metadata: { name: 'tabled' } }] });
    const missing = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/configmaps/absent', { headers: yaml });
    expect(missing.code).toBe(404);
    expect(parseYaml(missing.text)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    expect(parseYaml((await raw(h.sandbox, 'GET', '/version', { headers: yaml })).text)).toMatchObject({ major: '1' });
    const watch = await raw(h.sandbox, 'GET', '/api/v1/namespaces?watch=true', { headers: yaml });
    expect(watch.code).toBe(406);
    expect(watch.json.message).toBe('only the following media types are accepted: application/json, application/json;stream=watch');
  });
});

describe('sandbox server-side tables', () => {
  it('renders a list as a meta.k8s.io/v1 Table with the CRD printer columns', async () => {
    const res = await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', { headers: { accept: TABLE } });
    expect(res.json.kind).toBe('Table');
    expect(res.json.apiVersion).toBe('meta.k8s.io/v1');
    expect(res.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Age', 'Ready', 'Status']);
    expect(res.json.rows).toHaveLength(1);
    expect(res.json.rows[0].cells[0]).toBe('tabled');
    expect(res.json.rows[0].cells[1]).toMatch(/^\d+s$/);
    expect(res.json.rows[0].cells[2]).toBeNull();
    expect(res.json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'tabled', namespace: 'kagent' } });
  });

  it('renders the Ready condition of a CRD row', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'tabled' });
    current.status = { conditions: [{ type: 'Ready', status: 'True', reason: 'InstallSucceeded', message: 'Helm install succeeded', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
    await h.custom.replaceNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'tabled', body: current });
    const res = await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases/tabled', { headers: { accept: TABLE } });
    expect(res.json.rows[0].cells.slice(2)).toEqual(['True', 'Helm install succeeded']);
  });

  it('renders built-in kinds with kubectl\'s columns', async () => {
    const ns = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { headers: { accept: TABLE } });
    expect(ns.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(ns.json.rows.map((r: any) => r.cells.slice(0, 2))).toContainEqual(['kagent', 'Active']);
    const mc = await raw(h.sandbox, 'GET', '/apis/kagent.dev/v1alpha2/namespaces/kagent/modelconfigs', { headers: { accept: TABLE } });
    expect(mc.json.rows.map((r: any) => r.cells)).toEqual([
      ['default-model-config', 'Anthropic', 'claude-sonnet-4-6'],
      ['qwen3-8-27b', 'OpenAI', 'qwen3-8-27b'],
    ]);
  });

  it('adds kubectl\'s -o wide columns for Deployments, ReplicaSets, pods, events and bindings', async () => {
    await h.apps.createNamespacedDeployment({
      namespace: 'tenant',
      body: {
        metadata: { name: 'wide-web' },
        spec: {
          selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] },
          template: {
            metadata: { labels: { app: 'web', tier: 'front' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1' }, { name: 'proxy', image: 'envoy:2' }] },
          },
        },
      },
    });
    const names = async (path: string) => (await raw(h.sandbox, 'GET', path, { headers: { accept: TABLE } })).json;
    const deployments = await names('/apis/apps/v1/namespaces/tenant/deployments');
    expect(deployments.columnDefinitions.map((c: any) => [c.name, c.priority])).toEqual([
      ['Name', 0], ['Ready', 0], ['Up-to-date', 0], ['Available', 0], ['Age', 0],
      ['Containers', 1], ['Images', 1], ['Selector', 1],
    ]);
    expect(deployments.rows[0].cells.slice(5)).toEqual(['web,proxy', 'nginx:1,envoy:2', 'app=web,tier in (edge,front)']);
    expect((await names('/apis/apps/v1/replicasets')).columnDefinitions.map((c: any) => c.name))
      .toEqual(['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    expect((await names('/api/v1/pods')).columnDefinitions.map((c: any) => c.name))
      .toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect((await names('/api/v1/events')).columnDefinitions.map((c: any) => c.name))
      .toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    expect((await names('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings')).columnDefinitions.map((c: any) => c.name))
      .toEqual(['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
  });

  it('includes whole objects with includeObject=Object and none with None', async () => {
    const full = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/serviceaccounts?includeObject=Object', { headers: { accept: TABLE } });
    expect(full.json.rows[0].object.kind).toBe('ServiceAccount');
    const none = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/serviceaccounts?includeObject=None', { headers: { accept: TABLE } });
    expect(none.json.rows[0].object).toBeUndefined();
  });

  it('serves partial object metadata lists', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { headers: { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' } });
    expect(res.json.kind).toBe('PartialObjectMetadataList');
    expect(res.json.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'agents' } });
    expect(res.json.items[0].spec).toBeUndefined();
  });
});
