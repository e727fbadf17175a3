/**
 * The sandbox's own copy of the agent chart 2.x values contract (written from the chart's values.yaml)
 * held to the chart's generated schema in ../shared/reference: both accept and refuse the same corpus,
 * validated as Helm validates (draft 2020-12, formats off). Skipped, saying so, when ../shared is absent.
 * 2.1's `agent.egress` is checked on its own: the reference is the 2.0 contract, which has no egress.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { needsShared, sharedPath } from '../../../test/support/shared-reference.js';
import { helmSchemaError } from './values-check.js';
import { MAX_EGRESS, valuesSchemaV2, VALUES_V2_0, VALUES_V2_1 } from './values-v2.js';

const REFERENCE = 'reference/agent-chart/values.schema.json';
const present = existsSync(sharedPath(REFERENCE));
const reference: object = present ? JSON.parse(readFileSync(sharedPath(REFERENCE), 'utf8')) : {};

const accepts = (schema: object, values: unknown): boolean => helmSchemaError('agent', schema, values) === undefined;

const SHA1 = 'a'.repeat(40);
const SHA256 = 'b'.repeat(64);
const DIGEST = `sha256:${'c'.repeat(64)}`;
const URL = 'https://github.com/giantswarm/skills';
const skill = (extra: Record<string, unknown>) => ({ skills: [{ name: 'runbooks', ...extra }] });
const plugin = (extra: Record<string, unknown>) => ({ plugins: [extra] });

const CORPUS: Array<[string, unknown, boolean]> = [
  ['empty values', {}, true],
  ['the minimal values agent-manager composes', { agent: { name: 'sre', harness: 'kagent' }, modelConfig: { name: 'default-model-config' } }, true],
  ['every identity field', { agent: { name: 'sre', displayName: 'SRE ✓', description: 'd', iconUrl: 'https://i/x.png', systemMessage: 'Hi.', harness: 'claude' } }, true],
  ['a git skill pinned to a 40-hex commit, with a path', skill({ git: { url: URL, commit: SHA1 }, path: 'skills/runbooks/' }), true],
  ['a git skill pinned to a 64-hex commit', skill({ git: { url: URL, commit: SHA256 } }), true],
  ['an OCI skill pinned to a digest', skill({ oci: `gsoci.azurecr.io/skills/runbooks@${DIGEST}` }), true],
  ['a git plugin with its skills', plugin({ git: { url: URL, commit: SHA1 }, path: 'bundle', skills: ['a', 'b'] }), true],
  ['an OCI plugin', plugin({ oci: `r.example/p@${DIGEST}`, skills: ['a'] }), true],
  ['muster url, timeout, tools, approval and discovery', { muster: { enabled: true, url: 'https://muster.example/mcp', timeout: '5m', tools: ['list_tools', 'call_tool'], requireApproval: true, discovery: { enabled: true } } }, true],
  ['toolset null', { toolset: null }, true],
  ['a toolset list', { toolset: ['preset:read-only', 'tool:x'] }, true],
  ['a skills credential', { skillsGitAuthSecretRef: { name: 'skills-git.token' } }, true],
  ['labels, annotations, extraTools and extraAgentSpec', { labels: { team: 'x' }, annotations: { a: 'b' }, extraTools: [{ subAgent: { name: 'b' } }], extraAgentSpec: { anything: { goes: [1] } } }, true],
  ['the inert context tree', { context: { compaction: { enabled: false, tokenThreshold: null, eventRetentionSize: 2, compactionInterval: 3, overlapSize: 0, summarizer: { modelConfig: '', promptTemplate: 'p' } } } }, true],
  ['a system prompt of 20000 characters', { agent: { systemMessage: 'x'.repeat(20_000) } }, true],
  ['global set to null', { global: null }, true],
  ['a skill on a branch', skill({ git: { url: URL, commit: 'main' } }), false],
  ['a skill on a short SHA', skill({ git: { url: URL, commit: 'abc1234' } }), false],
  ['a skill given a tag as ref', skill({ git: { url: URL, ref: 'v1.0.0' } }), false],
  ['an OCI skill on a tag', skill({ oci: 'gsoci.azurecr.io/skills/runbooks:1.4.0' }), false],
  ['a skill with both sources', skill({ git: { url: URL, commit: SHA1 }, oci: `r.example/s@${DIGEST}` }), false],
  ['a skill with no source', skill({}), false],
  ['a skill without a name', { skills: [{ git: { url: URL, commit: SHA1 } }] }, false],
  ['a skill at an absolute path', skill({ git: { url: URL, commit: SHA1 }, path: '/skills' }), false],
  ['a skill path climbing out', skill({ git: { url: URL, commit: SHA1 }, path: 'a/../../b' }), false],
  ['a skill on a non-http URL', skill({ git: { url: 'git@github.com:o/r.git', commit: SHA1 } }), false],
  ['a plugin selecting no skill', plugin({ git: { url: URL, commit: SHA1 }, skills: [] }), false],
  ['a plugin without skills', plugin({ oci: `r.example/p@${DIGEST}` }), false],
  ['a plugin naming a skill twice', plugin({ oci: `r.example/p@${DIGEST}`, skills: ['a', 'a'] }), false],
  ['a plugin with a name', plugin({ name: 'p', oci: `r.example/p@${DIGEST}`, skills: ['a'] }), false],
  ['a muster url that is not http(s)', { muster: { url: 'ftp://muster/mcp' } }, false],
  ['a muster timeout without a unit', { muster: { timeout: '180' } }, false],
  ['a muster tool with whitespace', { muster: { tools: ['list tools'] } }, false],
  ['muster tools named twice', { muster: { tools: ['a', 'a'] } }, false],
  ['a toolset string', { toolset: 'preset:full' }, false],
  ['a toolset of numbers', { toolset: [1] }, false],
  ['a system prompt of 20001 characters', { agent: { systemMessage: 'x'.repeat(20_001) } }, false],
  ['an empty system prompt', { agent: { systemMessage: '' } }, false],
  ['a harness name with capitals', { agent: { harness: 'Kagent' } }, false],
  ['an empty harness name', { agent: { harness: '' } }, false],
  ['an agent name with capitals', { agent: { name: 'SRE' } }, false],
  ['a display name of 64 characters', { agent: { displayName: 'd'.repeat(64) } }, false],
  ['a credential name with an underscore', { skillsGitAuthSecretRef: { name: 'git_token' } }, false],
  ['a label value that is not a string', { labels: { replicas: 2 } }, false],
  ['a compaction threshold of 0', { context: { compaction: { tokenThreshold: 0 } } }, false],
  ['an empty model config name', { modelConfig: { name: '' } }, false],
  ['an unknown top-level key', { unknownKey: true }, false],
  ['an unknown agent key', { agent: { color: 'blue' } }, false],
  ['agent.egress (2.1 only)', { agent: { egress: ['https://github.com'] } }, false],
  ['the 0.x skills map', { skills: { gitRefs: [] } }, false],
  ['the 0.x agent.runtime', { agent: { runtime: 'go' } }, false],
  ['the 0.x muster.toolNames', { muster: { toolNames: ['x'] } }, false],
  ['the 0.x replicas', { replicas: 1 }, false],
  ['the 0.x muster.serverRef', { muster: { serverRef: { name: 'muster' } } }, false],
];

describe(needsShared('the sandbox\'s 2.x values contract against the chart\'s own schema', REFERENCE), () => {
  it('has a corpus of at least 25 cases, both kinds', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(25);
    expect(CORPUS.filter(([, , ok]) => ok).length).toBeGreaterThan(10);
    expect(CORPUS.filter(([, , ok]) => !ok).length).toBeGreaterThan(10);
  });

  it.skipIf(!present).each(CORPUS)('%s: the chart\'s schema and ours agree', (_title, values, ok) => {
    expect(accepts(reference, values)).toBe(ok);
    expect(accepts(VALUES_V2_0, values)).toBe(ok);
  });
});

describe('the 2.x contract of the sandbox\'s chart versions', () => {
  it('picks 2.0 for 2.0.x and 2.1 from 2.1.0 on', () => {
    expect(valuesSchemaV2('2.0.0')).toBe(VALUES_V2_0);
    expect(valuesSchemaV2('2.1.0')).toBe(VALUES_V2_1);
    expect(valuesSchemaV2('2.3.1')).toBe(VALUES_V2_1);
  });

  it('2.1 accepts what 2.0 accepts', () => {
    for (const [, values, ok] of CORPUS.filter(([title]) => !title.startsWith('agent.egress'))) {
      expect(accepts(VALUES_V2_1, values)).toBe(ok);
    }
  });

  const egress = (origins: unknown) => ({ agent: { egress: origins } });
  it.each([
    ['https://github.com', true], ['https://github.com:443', true], ['http://localhost:8080', true],
    ['https://*.githubusercontent.com', true], ['https://api.example.co.uk:65535', true],
    ['https://*.com', false], ['github.com', false], ['https://github.com/path', false], ['https://github.com:0', false],
    ['https://github.com:65536', false], ['ftp://files.example.com', false], ['https://*', false],
    ['https://a.*.example.com', false], ['https://GitHub.com', false], [`https://${'a.'.repeat(133)}com`, false],
  ])('2.1 judges the origin %s (accepted: %s)', (origin, ok) => {
    expect(accepts(VALUES_V2_1, egress([origin]))).toBe(ok);
  });

  it('2.1 takes at most 64 origins, and a list only', () => {
    const origins = Array.from({ length: MAX_EGRESS + 1 }, (_, i) => `https://h${i}.example.com`);
    expect(accepts(VALUES_V2_1, egress(origins.slice(0, MAX_EGRESS)))).toBe(true);
    expect(helmSchemaError('agent', VALUES_V2_1, egress(origins))).toContain("- at '/agent/egress': maxItems: got 65, want 64");
    expect(accepts(VALUES_V2_1, egress('https://github.com'))).toBe(false);
  });

  it('2.0 refuses agent.egress in Helm\'s words', () => {
    expect(helmSchemaError('agent', VALUES_V2_0, egress(['https://github.com']))).toBe(
      "values don't meet the specifications of the schema(s) in the following chart(s):\nagent:\n" +
      "- at '/agent': additional properties 'egress' not allowed");
  });
});
