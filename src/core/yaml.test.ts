import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toYaml } from './yaml.js';

describe('toYaml', () => {
  it('sorts keys alphabetically at every level, as sigs.k8s.io/yaml does', () => {
    expect(toYaml({ spec: { values: { b: 1, a: 2 }, interval: '10m' }, kind: 'X', apiVersion: 'v1' })).toBe(
      ['apiVersion: v1', 'kind: X', 'spec:', '  interval: 10m', '  values:', '    a: 2', '    b: 1', ''].join('\n'),
    );
  });

  it('writes sequences at their key’s indentation', () => {
    expect(toYaml({ toolset: ['preset:read-only', 'tool:x'] })).toBe('toolset:\n- preset:read-only\n- tool:x\n');
  });

  it.each(['on', 'yes', 'y', 'off', 'no', 'true', '0755', '1:20', 'null', '', '1.0'])(
    'quotes the string %j so YAML 1.1 readers (kubectl, Flux) keep it a string',
    (value) => {
      const text = toYaml({ labels: { team: value } });
      expect(text).toMatch(/team: (".*"|'.*')\n/);
      expect(parse(text, { version: '1.1' }).labels.team).toBe(value);
    },
  );

  it('writes a multi-line system message as a literal block, never folded', () => {
    const message = `${'word '.repeat(40)}\nsecond line\n`;
    const text = toYaml({ systemMessage: message });
    expect(text.startsWith('systemMessage: |')).toBe(true);
    expect(parse(text).systemMessage).toBe(message);
  });

  it('writes an object used twice twice, never as an anchor and alias', () => {
    const labels = { a: 'b' };
    const text = toYaml({ one: labels, two: labels });
    expect(text).not.toMatch(/[&*]/);
    expect(text).toBe('one:\n  a: b\ntwo:\n  a: b\n');
  });
});
