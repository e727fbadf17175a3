import { describe, expect, it } from 'vitest';
import { lineOfMajor, lineOfSource, majorOfVersion, unsupportedLineText } from './major-line.js';

describe('chart lines', () => {
  it('reads the major of a version and of an artifact revision', () => {
    expect(majorOfVersion('2.1.0')).toBe(2);
    expect(majorOfVersion('0.6.1@sha256:abc')).toBe(0);
    expect(majorOfVersion('latest@sha256:abc')).toBeUndefined();
    expect(majorOfVersion(undefined)).toBeUndefined();
  });

  it('serves majors 0 and 2 only', () => {
    expect(lineOfMajor(0)).toBe('0.x');
    expect(lineOfMajor(2)).toBe('2.x');
    expect(lineOfMajor(1)).toBeUndefined();
    expect(lineOfMajor(3)).toBeUndefined();
  });

  it('takes the line of a source from the version it resolved, before its range', () => {
    const never = () => '0.x' as const;
    expect(lineOfSource({ revision: '2.0.0@sha256:1', range: '0.x' }, never, '0.x')).toEqual({ line: '2.x' });
    expect(lineOfSource({ revision: '1.5.1@sha256:1' }, never, '2.x')).toEqual({ unsupported: 1 });
  });

  it('falls back to the range, then to the configured line, while nothing resolved', () => {
    expect(lineOfSource({ range: '0.x' }, () => '0.x', '2.x')).toEqual({ line: '0.x' });
    expect(lineOfSource({ range: 'x.x.x' }, () => undefined, '2.x')).toEqual({ line: '2.x' });
    expect(lineOfSource(undefined, () => undefined, '2.x')).toEqual({ line: '2.x' });
  });

  it('names the AgentTemplate line and both supported lines when it refuses one', () => {
    const text = unsupportedLineText(1, 'the OCIRepository kagent/agent');
    expect(text).toContain('1.x (the AgentTemplate line)');
    expect(text).toContain('0.x (a kagent.dev/v1alpha2 Agent');
    expect(text).toContain('2.x (an api.kagent.dev/v1alpha3 Agent on a Harness)');
  });
});
