import { describe, expect, it } from 'vitest';
import { EMBEDDED_SCHEMA_2X } from '../../chart/embedded/embedded-schemas.js';
import { valuesViolations } from '../values-schema.js';
import { mapTo2x } from './map-to-2x.js';

const COMMIT = 'a'.repeat(40);
const OCI = `ghcr.io/acme/skills/runbooks@sha256:${'b'.repeat(64)}`;

const every0x = {
  agent: { name: 'sre', displayName: 'SRE', description: 'on call', systemMessage: 'be kind', runtime: 'go' },
  modelConfig: { name: 'default-model-config' },
  skills: {
    gitRefs: [{ url: 'https://github.com/acme/skills', path: 'k8s', ref: COMMIT, name: 'k8s' }],
    refs: [OCI],
    gitAuthSecretRef: { name: 'skills-token' },
  },
  muster: { enabled: true, toolNames: ['x_list'], serverRef: { name: 'muster' } },
  toolset: ['preset:read-only', 'x_kubernetes_get'],
  labels: { team: 'sre' },
  annotations: { 'acme.io/owner': 'sre' },
  replicas: 2,
  extraAgentSpec: { systemPrompt: 'from extra', tools: [] },
};

describe('mapping 0.x values to 2.x', () => {
  it('keeps identity, model, toolset, labels and annotations exactly and pins skills as the list', () => {
    const { values, notes, refusals } = mapTo2x(every0x);
    expect(refusals).toEqual([]);
    expect(values).toEqual({
      agent: { name: 'sre', displayName: 'SRE', description: 'on call', systemMessage: 'be kind', harness: 'kagent' },
      modelConfig: { name: 'default-model-config' },
      skills: [
        { name: 'k8s', git: { url: 'https://github.com/acme/skills', commit: COMMIT }, path: 'k8s' },
        { name: 'runbooks', oci: OCI },
      ],
      skillsGitAuthSecretRef: { name: 'skills-token' },
      muster: { enabled: true },
      toolset: ['preset:read-only', 'x_kubernetes_get'],
      labels: { team: 'sre' },
      annotations: { 'acme.io/owner': 'sre' },
      extraAgentSpec: { systemPrompt: 'from extra', tools: [] },
    });
    expect(notes).toEqual(expect.arrayContaining([
      'runtime go → Harness kagent', expect.stringMatching(/^muster\.toolNames dropped/),
      expect.stringMatching(/^muster\.serverRef dropped/), expect.stringMatching(/^replicas dropped/),
    ]));
    expect(valuesViolations(EMBEDDED_SCHEMA_2X as Record<string, unknown>, values!)).toEqual([]);
  });

  it('refuses runtime python with the reason, unless --harness-name maps every runtime with a note', () => {
    const python = { agent: { name: 'py', runtime: 'python' }, modelConfig: { name: 'm' } };
    const refused = mapTo2x(python);
    expect(refused.values).toBeUndefined();
    expect(refused.refusals[0]).toMatch(/^runtime python has no Harness .*--harness-name/);
    const named = mapTo2x(python, { harnessName: 'claude' });
    expect(named.values?.agent).toEqual({ name: 'py', harness: 'claude' });
    expect(named.notes).toContain('runtime python → Harness claude (--harness-name)');
  });

  it('refuses extraAgentSpec keys that are not template fields, naming them', () => {
    const { refusals } = mapTo2x({ agent: { name: 'a' }, extraAgentSpec: { declarative: {}, type: 'x', tools: [] } });
    expect(refusals).toEqual([expect.stringMatching(/^extraAgentSpec names declarative, type, which are not fields/)]);
  });

  it('refuses extraTools naming them, and an over-long system prompt', () => {
    const { refusals } = mapTo2x({
      agent: { name: 'a', systemMessage: 'x'.repeat(20_001) }, extraTools: [{ type: 'McpServer', name: 'gh' }],
    });
    expect(refusals).toEqual([
      expect.stringMatching(/^systemMessage is 20001 characters/),
      expect.stringMatching(/^extraTools \(\{"type":"McpServer","name":"gh"\}\)/),
    ]);
  });

  it('refuses a skill that is not pinned, naming it', () => {
    const { refusals } = mapTo2x({
      agent: { name: 'a' }, skills: { gitRefs: [{ url: 'https://github.com/o/r', ref: 'main', name: 'r' }],
        refs: ['ghcr.io/o/s:1'] },
    });
    expect(refusals).toEqual([
      expect.stringMatching(/^skills\.gitRefs\[0\] \(https:\/\/github\.com\/o\/r\) is not pinned/),
      expect.stringMatching(/^skills\.refs\[0\] \(ghcr\.io\/o\/s:1\) is not pinned/),
    ]);
  });

  it('drops the read credential with a note when no git skill needs it', () => {
    const { values, notes } = mapTo2x({ agent: { name: 'a' }, skills: { refs: [OCI], gitAuthSecretRef: { name: 's' } } });
    expect(values?.skillsGitAuthSecretRef).toBeUndefined();
    expect(notes).toContain('skills.gitAuthSecretRef dropped: the agent has no git skill to read with it');
  });
});
