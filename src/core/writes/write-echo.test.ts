import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cutLongTexts, cutText, cutYaml, ECHO_LIMIT, echoOfWrite } from './write-echo.js';
import { toYaml } from '../yaml.js';

const long = 'a'.repeat(ECHO_LIMIT + 10);
const marker = `…[cut: ${ECHO_LIMIT + 10} characters in all; get_agent returns it whole]`;

describe('the echo of a write', () => {
  it('keeps a text of exactly 4 KiB whole and cuts a longer one there, naming its full length', () => {
    expect(cutText('a'.repeat(ECHO_LIMIT))).toBe('a'.repeat(ECHO_LIMIT));
    expect(cutText(long)).toBe(`${'a'.repeat(ECHO_LIMIT)}${marker}`);
  });

  it('never ends a cut text on half of a surrogate pair', () => {
    const text = `${'a'.repeat(ECHO_LIMIT - 1)}😀${'b'.repeat(20)}`;
    expect(cutText(text).startsWith(`${'a'.repeat(ECHO_LIMIT - 1)}…[cut: `)).toBe(true);
  });

  it('returns a value without a long text as the same value', () => {
    const agent = { systemMessage: 'short', labels: { a: 'b' } };
    expect(cutLongTexts(agent)).toBe(agent);
  });

  it('cuts the long strings of a manifest and keeps it YAML that reads back', () => {
    const release = { kind: 'HelmRelease', spec: { values: { agent: { systemMessage: long, on: 'yes', since: '2026-01-01' } } } };
    const yaml = cutYaml(toYaml(release));
    expect(parse(yaml, { version: '1.1', schema: 'yaml-1.1' })).toEqual(
      { kind: 'HelmRelease', spec: { values: { agent: { systemMessage: cutText(long), on: 'yes', since: '2026-01-01' } } } });
  });

  it('cuts agent, manifests, before and after, and leaves the rest of the result alone', () => {
    const values = { agent: { systemMessage: long } };
    const result = {
      agent: { name: 'a', systemMessage: long }, before: values, after: values, changed: ['agent.description'],
      manifests: { ociRepository: 'kind: OCIRepository\n', helmRelease: toYaml({ spec: { values } }), values },
      commit: { files: [{ path: 'x.yaml', content: long }] },
    };
    const echo = echoOfWrite(result);
    expect(echo.agent.systemMessage).toBe(cutText(long));
    expect(echo.before.agent.systemMessage).toBe(cutText(long));
    expect(echo.after.agent.systemMessage).toBe(cutText(long));
    expect(echo.manifests.values.agent.systemMessage).toBe(cutText(long));
    expect(echo.manifests.helmRelease.length).toBeLessThan(ECHO_LIMIT + 200);
    expect(echo.manifests.ociRepository).toBe('kind: OCIRepository\n');
    // A dry run of commit mode returns every file whole: that is what it is for.
    expect(echo.commit.files[0]!.content).toBe(long);
    expect(result.agent.systemMessage).toBe(long);
  });
});
