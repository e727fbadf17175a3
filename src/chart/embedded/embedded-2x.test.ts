import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildValues2x } from '../../core/chart-lines/values-2x.js';
import { compileValuesSchema, valuesViolations } from '../../core/values-schema.js';
import { EMBEDDED_SCHEMA_2X, EMBEDDED_SCHEMA_2X_VERSION, embeddedSchema } from './embedded-schemas.js';
import { hasShared, needsShared, sharedPath } from '../../../test/support/shared-reference.js';

const REFERENCE = 'reference/agent-chart/values.schema.json';
const label = { version: EMBEDDED_SCHEMA_2X_VERSION, source: 'embedded' };
const check = (schema: Record<string, unknown>, values: Record<string, unknown>) =>
  valuesViolations(schema, values, label).length === 0;
const COMMIT = 'a'.repeat(40);
const DIGEST = `sha256:${'b'.repeat(64)}`;
const base = { agent: { name: 'sre', harness: 'kagent' }, modelConfig: { name: 'default-model-config' } };

/** Values both the chart's own schema and ours must judge alike: [title, values, accepted]. */
const CORPUS: Array<[string, Record<string, unknown>, boolean]> = [
  ['the minimal values', base, true],
  ['no values at all', {}, true],
  ['a git skill pinned to a commit', { ...base, skills: [{ name: 'k8s', git: { url: 'https://github.com/o/r',
    commit: COMMIT }, path: 'skills/k8s' }] }, true],
  ['an OCI skill pinned to a digest', { ...base, skills: [{ name: 'rb', oci: `r.example.io/s/rb@${DIGEST}` }] }, true],
  ['a git skill on a branch', { ...base, skills: [{ name: 'k', git: { url: 'https://github.com/o/r',
    commit: 'main' } }] }, false],
  ['an OCI skill by tag', { ...base, skills: [{ name: 'rb', oci: 'r.example.io/s/rb:1.0' }] }, false],
  ['a skill with both sources', { ...base, skills: [{ name: 'x', oci: `r.io/s@${DIGEST}`,
    git: { url: 'https://x/y', commit: COMMIT } }] }, false],
  ['a skill without a name', { ...base, skills: [{ oci: `r.io/s@${DIGEST}` }] }, false],
  ['a skill path climbing out', { ...base, skills: [{ name: 'x', git: { url: 'https://x/y', commit: COMMIT },
    path: '../up' }] }, false],
  ['51 skills', { ...base, skills: Array.from({ length: 51 }, (_, i) => ({ name: `s${i}`,
    oci: `r.io/s@${DIGEST}` })) }, false],
  ['a plugin', { ...base, plugins: [{ git: { url: 'https://github.com/o/p', commit: COMMIT }, skills: ['a'] }] }, true],
  ['a plugin selecting nothing', { ...base, plugins: [{ oci: `r.io/p@${DIGEST}`, skills: [] }] }, false],
  ['a plugin naming a skill twice', { ...base, plugins: [{ oci: `r.io/p@${DIGEST}`, skills: ['a', 'a'] }] }, false],
  ['the 0.x skills object', { ...base, skills: { gitRefs: [{ url: 'https://github.com/o/r' }] } }, false],
  ['the 0.x runtime', { ...base, agent: { name: 'sre', runtime: 'go' } }, false],
  ['a Harness of capitals', { ...base, agent: { name: 'sre', harness: 'Claude' } }, false],
  ['an empty Harness', { ...base, agent: { name: 'sre', harness: '' } }, false],
  ['a system message of 20000 characters', { ...base, agent: { name: 'sre', systemMessage: 'x'.repeat(20_000) } },
    true],
  ['a system message of 20001 characters', { ...base, agent: { name: 'sre', systemMessage: 'x'.repeat(20_001) } },
    false],
  ['an empty system message', { ...base, agent: { name: 'sre', systemMessage: '' } }, false],
  ['a display name of 64 characters', { ...base, agent: { name: 'sre', displayName: 'd'.repeat(64) } }, false],
  ['muster url, timeout and approval', { ...base, muster: { url: 'http://muster:8090/mcp', timeout: '5m',
    requireApproval: true, tools: ['list_tools'], discovery: { enabled: false } } }, true],
  ['a muster url without a scheme', { ...base, muster: { url: 'muster:8090' } }, false],
  ['a muster timeout without a unit', { ...base, muster: { timeout: '180' } }, false],
  ['the 0.x muster.toolNames', { ...base, muster: { toolNames: ['a'] } }, false],
  ['a toolset', { ...base, toolset: ['preset:read-only'] }, true],
  ['a null toolset', { ...base, toolset: null }, true],
  ['a toolset that is a string', { ...base, toolset: 'preset:full' }, false],
  ['a credential', { ...base, skillsGitAuthSecretRef: { name: 'skills-read' } }, true],
  ['a credential of capitals', { ...base, skillsGitAuthSecretRef: { name: 'Skills' } }, false],
  ['labels, annotations, extraTools and extraAgentSpec', { ...base, labels: { a: 'b' }, annotations: { c: 'd' },
    extraTools: [{ mcp: {} }], extraAgentSpec: { a2aConfig: {} } }, true],
  ['a label that is a number', { ...base, labels: { a: 1 } }, false],
  ['an unknown top-level key', { ...base, replicas: 2 }, false],
  ['an unknown agent key', { ...base, agent: { name: 'sre', egress: [] } }, false],
  ['the kept context block', { ...base, context: { compaction: { enabled: true, tokenThreshold: 24000,
    eventRetentionSize: 4, compactionInterval: null } } }, true],
  ['a context compaction threshold of 0', { ...base, context: { compaction: { tokenThreshold: 0 } } }, false],
  ['global cluster values', { ...base, global: null, clusterID: 'abc', cluster: { x: 1 } }, true],
];

describe('the embedded 2.x agent chart schema', () => {
  it('belongs to chart 2.0.0, compiles frozen, and is the 2.x line\'s fallback', () => {
    expect(Object.isFrozen(EMBEDDED_SCHEMA_2X)).toBe(true);
    expect(compileValuesSchema(EMBEDDED_SCHEMA_2X, label).validate).toBeTypeOf('function');
    expect(embeddedSchema('2.x').version).toBe('2.0.0');
    expect(embeddedSchema('0.x').version).toBe('0.5.2');
  });

  it('accepts what agent-manager composes on 2.x', () => {
    const values = buildValues2x({
      name: 'sre', modelConfig: 'default-model-config', displayName: 'SRE', description: 'd', iconUrl: 'https://i',
      systemMessage: 'Be brief.', harness: 'claude', toolset: ['preset:read-only'], requireApproval: true,
      skills: { gitRefs: [{ url: 'https://github.com/o/r', commit: COMMIT, path: 'a' }], refs: [`r.io/s/x@${DIGEST}`] },
      plugins: [{ oci: `r.io/p@${DIGEST}`, skills: ['a'] }], labels: { a: 'b' }, annotations: { c: 'd' },
    }, { harnessName: 'kagent', musterUrl: 'http://muster:8090/mcp', skillsGitAuthSecretName: 'skills-read' });
    expect(valuesViolations(EMBEDDED_SCHEMA_2X as Record<string, unknown>, values, label)).toEqual([]);
  });

  it.each(CORPUS)('judges %s as the contract says', (_title, values, accepted) => {
    expect(check(EMBEDDED_SCHEMA_2X as Record<string, unknown>, values)).toBe(accepted);
  });

  it.skipIf(!hasShared(REFERENCE))(needsShared('judges every case of the corpus as the chart\'s published schema does',
    REFERENCE), () => {
    const reference = JSON.parse(readFileSync(sharedPath(REFERENCE), 'utf8')) as Record<string, unknown>;
    const disagreements = CORPUS.filter(([, values, accepted]) => check(reference, values) !== accepted)
      .map(([title]) => title);
    expect(disagreements).toEqual([]);
  });
});
