import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../core/frozen.js';
import { encodeJson } from './send-json.js';

const whole = (value: unknown): string =>
  `${JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

const agent = (name: string) => ({
  name, namespace: 'kagent', exists: true, description: 'answers <questions> & more\u2028', toolset: ['preset:read-only'],
  values: { agent: { name }, nested: { list: [1, { a: null }], empty: {}, none: [] } }, skipped: undefined,
});

describe('encodeJson', () => {
  it('writes two-space JSON with a trailing newline and escapes <, >, &, U+2028 and U+2029', () => {
    expect(encodeJson({ a: '<b>&\u2028\u2029' })).toBe('{\n  "a": "\\u003cb\\u003e\\u0026\\u2028\\u2029"\n}\n');
  });

  it('gives a list of frozen items exactly the bytes of encoding it whole, on the first answer and on reuse', () => {
    const items = [deepFreeze(agent('a')), deepFreeze(agent('b&c'))];
    const value = { agents: items, '<note>': 'x', count: 2, gone: undefined, fn: () => 1, more: [{ x: '&' }] };
    expect(encodeJson(value)).toBe(whole(value));
    expect(encodeJson({ ...value, count: 3 })).toBe(whole({ ...value, count: 3 }));
    expect(encodeJson({ agents: [items[1]] })).toBe(whole({ agents: [items[1]] }));
  });

  it('encodes lists that are empty, mixed or not frozen as a whole', () => {
    const frozen = deepFreeze(agent('a'));
    for (const value of [{ agents: [] }, { agents: [frozen, agent('b')] }, { agents: [agent('c')] }, [frozen], deepFreeze({ agents: [frozen] }), 'text', null]) {
      expect(encodeJson(value)).toBe(whole(value));
    }
  });
});

describe('sendJson', () => {
  it('answers a frozen value with the bytes it encoded the first time, and an unfrozen one anew', async () => {
    const { serveHandler } = await import('../../../test/support/transport/serve-handler.js');
    const { sendJson } = await import('./send-json.js');
    const answer = deepFreeze({ version: '1', chart: { schemaVersion: '0.5.2' } });
    const open = { count: 0 };
    const served = await serveHandler((req, res) => {
      open.count++;
      sendJson(res, 200, req.path === '/frozen' ? answer : { count: open.count });
    });
    try {
      const frozen = [await (await fetch(`${served.url}/frozen`)).text(), await (await fetch(`${served.url}/frozen`)).text()];
      expect(frozen).toEqual([whole(answer), whole(answer)]);
      expect(await (await fetch(`${served.url}/open`)).json()).toEqual({ count: 3 });
      expect(await (await fetch(`${served.url}/open`)).json()).toEqual({ count: 4 });
    } finally {
      await served.close();
    }
  });
});
