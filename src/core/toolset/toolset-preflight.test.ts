import { describe, expect, it } from 'vitest';
import { knownPresets, toolsetNotes, unknownPresetViolation, validatePresets } from './toolset-preflight.js';

const UNCONFIGURED = {};
const CONFIGURED = { configured: ['safe-ops', 'agent-platform'] };

describe('knownPresets', () => {
  it('lists the built-ins first, then the platform and configured presets sorted by name, once each', () => {
    expect(knownPresets(UNCONFIGURED)).toEqual(['read-only', 'none', 'full', 'agent-platform', 'infrastructure']);
    expect(knownPresets({ configured: ['safe-ops', 'none', 'agent-platform', 'audit'] }))
      .toEqual(['read-only', 'none', 'full', 'agent-platform', 'audit', 'infrastructure', 'safe-ops']);
  });

  it('answers a list of its own each time, so a caller changing one changes no later answer', () => {
    const policy = { configured: ['audit'] };
    const first = knownPresets(policy);
    first.push('changed');
    expect(knownPresets(policy)).toEqual(['read-only', 'none', 'full', 'agent-platform', 'audit', 'infrastructure']);
  });
});

describe('the unknown-preset refusal', () => {
  it("uses muster's own text, naming the toolset, the preset and the known presets", () => {
    expect(unknownPresetViolation(['preset:foo'], CONFIGURED)).toBe(
      'toolset [preset:foo] names unknown preset "foo"; known presets: read-only, none, full, agent-platform, infrastructure, safe-ops',
    );
    expect(unknownPresetViolation(['tool:x', 'preset:safe-ops', 'preset:bar', 'preset:baz'], CONFIGURED))
      .toMatch(/^toolset \[tool:x,preset:safe-ops,preset:bar,preset:baz\] names unknown preset "bar"; /);
  });

  it('accepts known presets and every other kind of selector', () => {
    expect(unknownPresetViolation(['preset:safe-ops', 'preset:read-only', 'server:x', 'tool:preset:foo'], CONFIGURED)).toBeUndefined();
  });

  it('is off when the installation does not say which presets it has', () => {
    expect(unknownPresetViolation(['preset:foo'], UNCONFIGURED)).toBeUndefined();
    expect(() => validatePresets(['preset:foo'], UNCONFIGURED)).not.toThrow();
  });

  it('is a 400 invalid_request when thrown', () => {
    expect(() => validatePresets(['preset:foo'], CONFIGURED)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('toolsetNotes', () => {
  it('says nothing about an ordinary toolset', () => {
    expect(toolsetNotes(['preset:read-only', 'server:mcp-kubernetes'], UNCONFIGURED)).toEqual([]);
    expect(toolsetNotes(['preset:none'], UNCONFIGURED)).toEqual([]);
    expect(toolsetNotes(['preset:full'], UNCONFIGURED)).toEqual([]);
    expect(toolsetNotes(undefined, UNCONFIGURED)).toEqual([]);
  });

  it('notes a preset outside the shipped five when the installation presets are not configured, once', () => {
    const notes = toolsetNotes(['preset:foo', 'preset:foo'], UNCONFIGURED);
    expect(notes[0]).toMatch(/^preset:foo is not one of the presets every installation has \(read-only, none, full, agent-platform, infrastructure\); muster refuses every tool call of this agent unless the gateway defines a preset "foo"/);
    expect(notes.filter((n) => n.startsWith('preset:foo is not'))).toHaveLength(1);
  });

  it('does not note a configured preset (an unknown one is refused instead)', () => {
    expect(toolsetNotes(['preset:safe-ops'], CONFIGURED)).toEqual([]);
  });

  it('notes a selector given twice, once per selector', () => {
    expect(toolsetNotes(['tool:a', 'tool:a', 'tool:a', 'server:b'], UNCONFIGURED))
      .toEqual(['tool:a is given more than once; a toolset is a union, so the repeats add nothing']);
  });

  it('notes preset:none beside other selectors', () => {
    expect(toolsetNotes(['preset:none', 'server:x'], UNCONFIGURED)).toEqual([
      'preset:none selects nothing, so beside other selectors it changes nothing: the agent gets what the others select (use ["preset:none"] alone for an agent without tools)',
    ]);
  });

  it('notes preset:full beside other selectors', () => {
    expect(toolsetNotes(['preset:full', 'tool:x'], UNCONFIGURED)).toEqual([
      'preset:full already selects every tool the gateway exposes, so the other selectors add nothing',
    ]);
  });

  it('gives every note that applies, in a stable order', () => {
    expect(toolsetNotes(['preset:full', 'preset:none', 'preset:zzz', 'preset:full'], UNCONFIGURED).map((n) => n.slice(0, 20))).toEqual([
      'preset:zzz is not on', 'preset:full is given', 'preset:none selects ', 'preset:full already ',
    ]);
  });
});
