import { describe, expect, it } from 'vitest';
import { buildValues, type Values } from './compose.js';
import { changedPaths } from '../diff.js';
import type { AgentUpdate } from '../types.js';
import { applyUpdate } from './update-merge.js';

/** A release as create_agent composed it, plus a key someone set by hand. */
const existing = (): Values => ({
  ...buildValues({
    name: 'sre',
    modelConfig: 'default-model-config',
    displayName: 'SRE',
    description: 'Keeps the lights on',
    systemMessage: 'Be brief.',
    runtime: 'go',
    skills: { gitRefs: [{ url: 'https://github.com/o/skills', path: 'runbooks' }] },
    toolset: ['preset:read-only'],
    labels: { team: 'sre' },
  }),
  replicas: 2,
});

const update = (fields: Omit<AgentUpdate, 'name'>): AgentUpdate => ({ name: 'sre', ...fields });

describe('applyUpdate', () => {
  it.each<[string, Omit<AgentUpdate, 'name'>, string[]]>([
    [
      'identity, model config and toolset',
      {
        description: 'Triages incidents',
        displayName: 'SRE Assistant',
        modelConfig: 'qwen3-8-27b',
        toolset: ['preset:read-only', 'workflow:incident-triage'],
      },
      ['agent.description', 'agent.displayName', 'modelConfig.name', 'toolset'],
    ],
    ['clearing the description with ""', { description: '' }, ['agent.description']],
    ['clearing the system message with whitespace', { systemMessage: ' \n ' }, ['agent.systemMessage']],
    ['a new icon', { iconUrl: 'https://example.com/i.png' }, ['agent.iconUrl']],
    ['a new runtime', { runtime: 'python' }, ['agent.runtime']],
    [
      'replacing the skills',
      { skills: { refs: ['ghcr.io/o/s:1'], gitRefs: [{ url: 'https://github.com/o/other.git' }] } },
      ['skills.gitRefs', 'skills.refs'],
    ],
    ['removing the skills with an empty block', { skills: {} }, ['skills.gitRefs']],
    ['replacing the labels', { labels: { team: 'platform', tier: 'a' } }, ['labels.team', 'labels.tier']],
    ['removing the labels with {}', { labels: {} }, ['labels.team']],
    ['new annotations', { annotations: { note: 'x' } }, ['annotations.note']],
    ['nothing', {}, []],
    ['the same values again', { displayName: 'SRE', toolset: ['preset:read-only'], labels: { team: 'sre' } }, []],
    ['clearing a key that is not set', { iconUrl: '' }, []],
  ])('merges %s', (_label, fields, changed) => {
    const before = existing();
    expect(changedPaths(before, applyUpdate(before, update(fields)))).toStrictEqual(changed);
  });

  it('removes a cleared key so the chart default applies again', () => {
    const after = applyUpdate(existing(), update({ description: '', runtime: '  ' }));
    expect(after.agent).toStrictEqual({ name: 'sre', displayName: 'SRE', systemMessage: 'Be brief.' });
  });

  it('keeps strings as given (no trimming)', () => {
    const after = applyUpdate(existing(), update({ systemMessage: '  Be brief.\n' }));
    expect((after.agent as Values).systemMessage).toBe('  Be brief.\n');
  });

  it('shapes replaced skills as create does, git skill names derived', () => {
    const after = applyUpdate(
      existing(),
      update({ skills: { gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b/', ref: 'v1' }], gitAuthSecretName: 'tok' } }),
    );
    expect(after.skills).toStrictEqual({
      gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b/', ref: 'v1', name: 'b' }],
      gitAuthSecretRef: { name: 'tok' },
    });
  });

  it('replaces the whole toolset', () => {
    const after = applyUpdate(existing(), update({ toolset: ['preset:none'] }));
    expect(after.toolset).toStrictEqual(['preset:none']);
  });

  it('gives a release without a toolset its first one', () => {
    const { toolset: _none, ...legacy } = existing();
    const after = applyUpdate(legacy, update({ toolset: ['preset:full'] }));
    expect(changedPaths(legacy, after)).toStrictEqual(['toolset']);
  });

  it('carries keys the request does not speak about over untouched', () => {
    const before = { ...existing(), muster: { toolNames: ['call_tool'] }, modelConfig: { name: 'm', extra: 1 } };
    const after = applyUpdate(before, update({ modelConfig: 'other' }));
    expect(after.replicas).toBe(2);
    expect(after.muster).toStrictEqual({ toolNames: ['call_tool'] });
    expect(after.modelConfig).toStrictEqual({ name: 'other', extra: 1 });
  });

  it('never writes muster.toolNames, even when a caller still passes toolNames', () => {
    const after = applyUpdate(existing(), update({ toolNames: ['x'] }));
    expect(after).not.toHaveProperty('muster');
  });

  it('pins agent.name when the release never did', () => {
    const after = applyUpdate({ modelConfig: { name: 'm' } }, update({ displayName: 'SRE' }));
    expect(after.agent).toStrictEqual({ name: 'sre', displayName: 'SRE' });
  });

  it('keeps an agent.name the release already pins', () => {
    const after = applyUpdate({ agent: { name: 'pinned' } }, update({}));
    expect(after.agent).toStrictEqual({ name: 'pinned' });
  });

  it('never mutates the values it is given', () => {
    const before = deepFreeze(existing());
    const snapshot = structuredClone(before);
    const after = applyUpdate(before, update({ description: '', skills: {}, labels: {}, toolset: ['tool:x'] }));
    expect(before).toStrictEqual(snapshot);
    expect(after.agent).not.toBe(before.agent);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
