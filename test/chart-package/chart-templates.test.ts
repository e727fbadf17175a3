/**
 * Static checks of the chart's template text, which a render cannot make. Flags and environment variables must exist in
 * the serve flag table, and every `.Values` path must exist in values.yaml.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { SERVE_FLAGS } from '../../src/config/index.js';
import { defaultValues, templateTexts } from './chart-files.js';

const templates = templateTexts();
const deployment = templates['deployment.yaml']!;
const serveFlags = new Set<string>(SERVE_FLAGS.map((f) => f.name));
const serveEnv = new Set<string>(SERVE_FLAGS.map((f) => f.env));

/** `--name` tokens of the Deployment's args (everything between `args:` and `env:`/`ports:`). */
function passedFlags(): string[] {
  const args = deployment.slice(deployment.indexOf('args:'), deployment.search(/^\s*(\{\{-? \$(google)?[eE]nv|env:|ports:)/m));
  return [...new Set([...args.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!))];
}

/** Environment variable names the Deployment sets. */
function passedEnv(): string[] {
  return [...deployment.matchAll(/^\s*- name: ([A-Z][A-Z0-9_]*)\s*$/gm)].map((m) => m[1]!);
}

/** Does the dotted `path` exist in `values` (open maps such as global excepted)? */
function hasPath(values: unknown, path: string[]): boolean {
  let cur = values;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return false;
    if (!(key in cur)) return false;
    cur = (cur as Record<string, unknown>)[key];
  }
  return true;
}

describe('the Deployment template', () => {
  it('passes only real flags of agent-manager serve', () => {
    const flags = passedFlags();
    expect(flags.length).toBeGreaterThan(25);
    expect(flags.filter((f) => !serveFlags.has(f))).toEqual([]);
  });

  it('sets only environment variables the serve flag table reads', () => {
    const env = passedEnv();
    expect(env).toEqual(expect.arrayContaining(['GOOGLE_CLIENT_ID', 'GITHUB_TOKEN']));
    expect(env.filter((e) => !serveEnv.has(e))).toEqual([]);
  });

  it('covers every serve flag: as an argument, as a secret variable, or named as not applying in a cluster', () => {
    // A new serve flag must be wired into the chart (or added here with the reason it is not).
    // The client secrets are accepted by serve for old deployments, and used by nothing.
    const notInCluster = new Set(['kubeconfig', 'kube-context', 'sandbox', 'sandbox-listen', 'sandbox-kubeconfig', 'sandbox-reconcile-delay', 'dex-client-secret', 'google-client-secret']);
    const flags = new Set(passedFlags());
    const env = new Set(passedEnv());
    const uncovered = SERVE_FLAGS.filter((f) => !flags.has(f.name) && !env.has(f.env) && !notInCluster.has(f.name))
      .map((f) => f.name);
    expect(uncovered).toEqual([]);
  });

  it('starts serve on :8080 in-cluster, with the hardened, probed pod the issue asks for', () => {
    expect(deployment).toMatch(/args:\n\s+- serve\n\s+- --listen=:8080\n\s+- --in-cluster=true\n/);
    expect(deployment).toContain('automountServiceAccountToken: true');
    // The probes come from the values (startupProbe, livenessProbe, readinessProbe), each switchable.
    expect(deployment).toContain('{{- range $name := list "startupProbe" "livenessProbe" "readinessProbe" }}');
    expect(deployment).toContain('- name: tmp\n              mountPath: /tmp');
    expect(deployment).toContain('mountPath: /etc/agent-manager/idp-ca');
    expect(deployment).toContain('--dex-ca-file=/etc/agent-manager/idp-ca/{{ $caKey }}');
    const values = defaultValues() as Record<string, any>;
    expect(values.securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(values.podSecurityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
  });
});

describe('template value references', () => {
  it('name only values that exist in values.yaml', () => {
    const values = defaultValues();
    const missing: string[] = [];
    for (const [file, text] of Object.entries(templates)) {
      for (const m of text.matchAll(/\$?\.Values((?:\.[A-Za-z0-9_]+)+)/g)) {
        const path = m[1]!.slice(1).split('.');
        if (!hasPath(values, path)) missing.push(`${file}: .Values.${path.join('.')}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reach into global only through dig, so an absent global.identity renders', () => {
    for (const text of Object.values(templates)) expect(text).not.toMatch(/\.Values\.global\./);
  });
});

describe('template text (string-level, for machines without a renderer)', () => {
  it('writes the Role\'s rules as plain YAML, so they read the same without a renderer (rbac.int.test.ts checks them against the code)', () => {
    const rbac = templates['rbac.yaml']!;
    const rules = rbac.slice(rbac.indexOf('rules:'), rbac.indexOf('---', rbac.indexOf('rules:')));
    const plain = rules.split('\n').filter((line) => !/^\s*\{\{-? \/\*.*\*\/ ?-?\}\}\s*$/.test(line)).join('\n');
    expect(plain).not.toContain('{{');
    const parsed = parseYaml(plain) as { rules: Array<{ verbs: string[] }> };
    expect(parsed.rules.length).toBeGreaterThan(3);
    for (const rule of parsed.rules) expect(rule.verbs.every((v) => /^[a-z]+$/.test(v))).toBe(true);
    expect(rbac).toContain('{{- range $namespace := include "agent-manager.managedNamespaces" . | fromJsonArray }}');
    expect(templates['_helpers.tpl']).toContain('{{- if and .Values.rbac.create (not .Values.oauth.downstream.enabled) -}}true');
  });

  it('renders the muster MCPServer with its type label, tool group and forwardToken auth', () => {
    const mcp = templates['mcpserver.yaml']!;
    for (const line of [
      'apiVersion: muster.giantswarm.io/v1alpha1',
      'kind: MCPServer',
      'muster.giantswarm.io/type: agent-manager',
      'agent-platform.giantswarm.io/tool-group: agent-platform',
      'type: streamable-http',
      'url: {{ printf "http://%s.%s.svc.cluster.local:%v%s" (include "agent-manager.fullname" .) .Release.Namespace .Values.service.port .Values.mcp.path | quote }}',
      '{{- if .Values.oauth.enabled }}\n  auth:\n    type: oauth\n    forwardToken: {{ .Values.muster.mcpServer.auth.forwardToken }}',
      '{{- with .Values.muster.mcpServer.auth.requiredAudiences }}\n    requiredAudiences:',
    ]) expect(mcp).toContain(line);
  });

  it('unions the trusted audiences with the required audiences, without duplicates', () => {
    const helpers = templates['_helpers.tpl']!;
    expect(helpers).toContain('{{- $own := .Values.oauth.trustedAudiences | default (compact (list (dig "clientId" "" $identity))) -}}');
    expect(helpers).toContain('{{- concat $own .Values.muster.mcpServer.auth.requiredAudiences | uniq | join "," -}}');
  });
});
