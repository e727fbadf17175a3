import { describe, expect, it } from 'vitest';
import { harnessChangeText, harnessOf, harnessUpdateText, missingHarnessText } from './harness.js';

const ready = (status: string) => ({ conditions: [{ type: 'Ready', status }] });

describe('harnesses', () => {
  it('reads the runtime from the spec key and Ready from the conditions', () => {
    expect(harnessOf({ metadata: { name: 'claude' }, spec: { claude: {} }, status: ready('True') }))
      .toEqual({ name: 'claude', runtime: 'claude', ready: true });
    expect(harnessOf({ metadata: { name: 'k' }, spec: { allowedAgentTemplates: {}, kagent: { x: 1 } } }))
      .toEqual({ name: 'k', runtime: 'kagent', ready: null });
  });

  it('refuses a missing Harness with the valid ones sorted, or saying there is none', () => {
    const list = [{ name: 'kagent', runtime: 'kagent', ready: true }, { name: 'claude', runtime: 'claude', ready: true }];
    expect(missingHarnessText('codex', 'kagent', list))
      .toBe('harness "codex" does not exist in namespace kagent; valid: claude, kagent');
    expect(missingHarnessText('claude', 'kagent', []))
      .toBe('harness "claude" does not exist in namespace kagent (no Harness there)');
    expect(missingHarnessText('claude', 'kagent', list)).toBeUndefined();
  });

  it('moves an agent only onto a Ready Harness', () => {
    expect(harnessChangeText('claude', 'agents', [{ name: 'claude', runtime: 'claude', ready: null }]))
      .toContain('is not Ready (Ready is not reported)');
    expect(harnessChangeText('claude', 'agents', [{ name: 'claude', runtime: 'claude', ready: true }])).toBeUndefined();
  });
});

describe('the harness an update sets', () => {
  const harnesses = [{ name: 'kagent', runtime: 'kagent', ready: true }, { name: 'claude', runtime: 'claude', ready: false }];

  it('is judged on chart 2.x only: missing or not Ready refused, a Ready one and no harness let through', () => {
    expect(harnessUpdateText('2.x', 'gone', 'agents', harnesses)).toContain('does not exist in namespace agents');
    expect(harnessUpdateText('2.x', 'claude', 'agents', harnesses)).toContain('is not Ready');
    expect(harnessUpdateText('2.x', 'kagent', 'agents', harnesses)).toBeUndefined();
    expect(harnessUpdateText('2.x', undefined, 'agents', harnesses)).toBeUndefined();
    expect(harnessUpdateText('2.x', ' ', 'agents', harnesses)).toBeUndefined();
  });

  it('is no question on chart 0.x, whose own check refuses the argument naming its line', () => {
    expect(harnessUpdateText('0.x', 'gone', 'kagent', [])).toBeUndefined();
  });
});
