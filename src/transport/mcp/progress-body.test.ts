import { describe, expect, it } from 'vitest';
import { asksForProgress, parseMessage } from './progress-body.js';

const LIMIT = 1024;
const raw = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const body = (v: unknown): unknown => parseMessage(raw(v), LIMIT)?.value;
const call = (meta: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_agent', arguments: {}, _meta: meta } });

describe('asksForProgress', () => {
  it('is true for a request whose _meta carries a progress token, alone or in a batch', () => {
    expect(asksForProgress(body(call({ progressToken: 'p1' })))).toBe(true);
    expect(asksForProgress(body(call({ progressToken: 0 })))).toBe(true);
    expect(asksForProgress(body([{ jsonrpc: '2.0', method: 'notifications/initialized' }, call({ progressToken: 7 })]))).toBe(true);
  });

  it('is false for a request without a token, a notification, or a null token', () => {
    expect(asksForProgress(body(call(undefined)))).toBe(false);
    expect(asksForProgress(body(call({ progressToken: null })))).toBe(false);
    expect(asksForProgress(body({ jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: { progressToken: 1 } } }))).toBe(false);
  });

  it('is false, without throwing, for any other JSON', () => {
    for (const text of ['null', '1', '"x"', 'true', '[]', '[null]', '[1, "a"]', '{"id": 1, "params": null}', '{"id": 1, "params": {"_meta": "s"}}', '{"id":1,"params":{"_meta":null}}']) {
      expect(asksForProgress(JSON.parse(text)), text).toBe(false);
    }
  });
});

describe('parseMessage', () => {
  it('answers the text and its value, null included', () => {
    expect(parseMessage(raw({ a: 1 }), LIMIT)).toEqual({ text: '{"a":1}', value: { a: 1 } });
    expect(parseMessage(raw('null'), LIMIT)).toEqual({ text: 'null', value: null });
  });

  it('leaves to the transport a body that is absent, empty, over the limit or not JSON', () => {
    expect(parseMessage(undefined, LIMIT)).toBeUndefined();
    expect(parseMessage(Buffer.alloc(0), LIMIT)).toBeUndefined();
    expect(parseMessage(raw(`"${'x'.repeat(LIMIT)}"`), LIMIT)).toBeUndefined();
    expect(parseMessage(raw('{not json'), LIMIT)).toBeUndefined();
  });
});
