import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { valueLeaves, valuesTable, withTable } from '../../hack/chart-readme.mjs';
import { defaultValues, readRepoFile, valuesSchema, valuesValidator } from './chart-files.js';

const validate = valuesValidator();

/** Deep-set `path` (dotted) in a copy of the default values. */
function withValue(path: string, value: unknown): Record<string, unknown> {
  const values = defaultValues();
  const keys = path.split('.');
  let cur = values as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) cur = cur[key] as Record<string, unknown>;
  cur[keys.at(-1)!] = value;
  return values;
}

describe('Chart.yaml', () => {
  const chart = parseYaml(readRepoFile('helm', 'agent-manager', 'Chart.yaml')) as Record<string, any>;

  it('is an apiVersion v2 chart named agent-manager owned by team bumblebee', () => {
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'agent-manager', type: 'application' });
    expect(chart.annotations['io.giantswarm.application.team']).toBe('bumblebee');
  });

  it('has the package.json version as its version and appVersion (chart and image are released together)', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as { version: string };
    expect(chart.appVersion).toBe(pkg.version);
    expect(chart.version).toBe(pkg.version);
  });
});

describe('values.schema.json', () => {
  it('accepts values.yaml', () => {
    expect(validate(defaultValues())).toEqual([]);
  });

  it('refuses unknown keys at the root and in the objects the chart defines, but keeps global open', () => {
    expect(validate({ ...defaultValues(), replicas: 2 })).toEqual(['(root) must NOT have additional properties']);
    expect(validate(withValue('oauth.dexx', {}))).toEqual(['/oauth must NOT have additional properties']);
    expect(validate(withValue('muster.mcpServer.auth.forwardTokens', true))).toEqual(['/muster/mcpServer/auth must NOT have additional properties']);
    expect(validate(withValue('global', { identity: { clientId: 'x', anything: { deep: 1 } }, domain: 'example.io' }))).toEqual([]);
  });

  it.each([
    ['a string replica count', 'replicaCount', '2', '/replicaCount must be integer'],
    ['an unknown OAuth provider', 'oauth.provider', 'github', '/oauth/provider must be equal to one of the allowed values'],
    ['a non-boolean switch', 'oauth.enabled', 'yes', '/oauth/enabled must be boolean'],
    ['a bad Go duration', 'agentChart.refresh', '10 minutes', '/agentChart/refresh must match pattern'],
    ['a chart URL that is not oci://', 'agentChart.ociUrl', 'https://example.io/agent', '/agentChart/ociUrl must match pattern'],
    ['a metrics port out of range', 'metrics.port', 70000, '/metrics/port must be <= 65535'],
    ['an audience with a space', 'muster.mcpServer.auth.requiredAudiences', ['dex k8s'], '/muster/mcpServer/auth/requiredAudiences/0 must match pattern'],
    ['a namespace list given as a string', 'kagent.additionalNamespaces', 'team-a', '/kagent/additionalNamespaces must be array'],
    ['an MCP path without a slash', 'mcp.path', 'mcp', '/mcp/path must match pattern'],
    ['a non-GitHub skills repository', 'skills.repositories', ['https://gitlab.com/a/b'], '/skills/repositories/0 must match pattern'],
  ])('refuses %s', (_name, path, value, error) => {
    const errors = validate(withValue(path, value));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain(error);
  });

  it('says in replicaCount what a replica reads from while the read cache is on by default', () => {
    const schema = valuesSchema() as { properties: Record<string, { description: string }> };
    expect((defaultValues().readCache as { enabled: boolean }).enabled).toBe(true);
    const replicas = schema.properties.replicaCount!.description;
    expect(replicas).not.toMatch(/every read goes to the Kubernetes API/);
    expect(replicas).toMatch(/read cache \(readCache\.enabled, on by default/);
  });

  it('describes every value of values.yaml', () => {
    const undescribed = valueLeaves(defaultValues(), valuesSchema())
      .filter((leaf) => !leaf.node?.description)
      .map((leaf) => leaf.path);
    expect(undescribed).toEqual([]);
  });
});

describe('the chart README', () => {
  const readme = readRepoFile('helm', 'agent-manager', 'README.md');

  it('carries the values table generated from values.yaml and the schema (node hack/chart-readme.mjs)', () => {
    const table = valuesTable(readRepoFile('helm', 'agent-manager', 'values.yaml'), valuesSchema());
    expect(withTable(readme, table)).toBe(readme);
  });

  it('names every value of values.yaml, nested ones by their full path', () => {
    const paths = valueLeaves(defaultValues(), valuesSchema()).map((leaf) => leaf.path);
    expect(paths.length).toBeGreaterThan(80);
    expect(paths.filter((p) => !readme.includes(`| \`${p}\` |`))).toEqual([]);
  });

  it('lists in its Role rules table exactly what templates/rbac.yaml grants, watch verbs included', () => {
    const template = readRepoFile('helm', 'agent-manager', 'templates', 'rbac.yaml');
    const quoted = (list: string): string[] => [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const granted = [...template.matchAll(
      /- apiGroups: \[([^\]]*)\]\s+resources: \[([^\]]*)\]\s+verbs: \[([^\]]*)\]/g,
    )].flatMap(([, groups, resources, verbs]) => quoted(groups!).flatMap((g) =>
      quoted(resources!).flatMap((r) => quoted(verbs!).map((v) => `${g}/${r}:${v}`))));
    const table = readme.slice(readme.indexOf('Role rules:'), readme.indexOf('\n\n', readme.indexOf('| API group |')));
    const documented = [...table.matchAll(/^\| (`[^`]*`|core) \| ([^|]+) \| ([^|]+) \|/gm)].flatMap(([, group, resources, verbs]) => {
      const g = group === 'core' ? '' : group!.replace(/`/g, '');
      return [...resources!.matchAll(/`([^`]+)`/g)].flatMap(([, r]) =>
        verbs!.split(',').map((v) => `${g}/${r}:${v.trim()}`));
    });
    expect(granted.length).toBeGreaterThan(10);
    expect(documented.sort()).toEqual(granted.sort());
  });

  it('says which checks run with the real helm, and that CI runs hack/helm-checks.sh', () => {
    expect(readme).toMatch(/rendered by the real helm/);
    expect(readme).toContain('hack/helm-checks.sh');
  });
});
