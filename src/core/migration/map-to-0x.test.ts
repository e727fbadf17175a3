import { describe, expect, it } from 'vitest';
import { EMBEDDED_SCHEMA } from '../../chart/embedded/embedded-schemas.js';
import { valuesViolations } from '../values-schema.js';
import { mapTo0x } from './map-to-0x.js';
import { mapTo2x } from './map-to-2x.js';

const COMMIT = 'c'.repeat(40);
const OCI = `ghcr.io/acme/skills/runbooks@sha256:${'d'.repeat(64)}`;

describe('mapping 2.x values back to 0.x', () => {
  it('brings a migrated agent back to the values it had (runtime go becomes 0.x\'s default)', () => {
    const before = {
      agent: { name: 'sre', description: 'on call' }, modelConfig: { name: 'm' },
      skills: { refs: [OCI], gitRefs: [{ url: 'https://github.com/acme/skills', path: 'k8s', ref: COMMIT, name: 'k8s' }],
        gitAuthSecretRef: { name: 'tok' } },
      toolset: ['preset:none'], labels: { a: 'b' },
    };
    const there = mapTo2x(before).values!;
    const back = mapTo0x(there);
    expect(back.refusals).toEqual([]);
    expect(back.values).toEqual(before);
    expect(back.notes).toContain('Harness kagent → runtime unset (0.x\'s default, go)');
    expect(valuesViolations(EMBEDDED_SCHEMA as Record<string, unknown>, back.values!)).toEqual([]);
  });

  it('refuses 2.x-only features, naming each: another Harness, plugins, approval', () => {
    const { values, refusals } = mapTo0x({
      agent: { name: 'a', harness: 'claude' }, modelConfig: { name: 'm' },
      plugins: [{ oci: OCI, skills: ['x'] }], muster: { url: 'https://muster', requireApproval: true },
    });
    expect(values).toBeUndefined();
    expect(refusals).toEqual([
      expect.stringMatching(/^the agent runs on Harness claude, which chart 0\.x cannot express/),
      expect.stringMatching(/^plugins is a 2\.x feature/),
      expect.stringMatching(/^muster\.requireApproval is a 2\.x feature/),
    ]);
  });
});
