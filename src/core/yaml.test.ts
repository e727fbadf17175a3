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

  // Words a YAML 1.1 or a YAML 1.2 reader resolves to something other than a string when plain.
  const WORDS = [
    '0o17', '0O17', '+0o17', '0x1F', '0X1f', '-0x1f', '0b101', '0777', '-017', '1e3', '1E3', '1e-3', '+1e3', '3.', '.5', '+.5', '-1.5e+3',
    '1_000', '1_0.5', '+12', '-0', '0', '12:30', '1:20:30', '-1:20', '190:20:30.15',
    '.inf', '-.inf', '+.INF', '.Inf', '.nan', '.NaN', '.NAN',
    'yes', 'Yes', 'YES', 'no', 'No', 'on', 'On', 'ON', 'off', 'Off', 'y', 'Y', 'n', 'N', 'true', 'True', 'TRUE', 'false', 'FALSE',
    'null', 'Null', 'NULL', '~', '', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '<<', '=',
  ];

  it.each(WORDS)('renders %j so that YAML 1.1 and YAML 1.2 readers both read back the same string', (word) => {
    // As a key too (label and annotation keys), except the 1.1 merge key, which no Kubernetes key can be.
    const key = word === '' || word === '<<' ? 'other' : word;
    const text = toYaml({ displayName: word, labels: { c: word }, [key]: word });
    for (const version of ['1.1', '1.2'] as const) {
      const back = parse(text, { version });
      expect({ version, displayName: back.displayName, label: back.labels.c }).toEqual({
        version, displayName: word, label: word,
      });
      expect(back[key]).toBe(word);
    }
  });

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
