import { describe, expect, it } from 'vitest';
import { notJsonRpc, refusesBatches } from './message-shape.js';

describe('notJsonRpc', () => {
  it('passes a request, a notification, a response and a batch of them', () => {
    expect(notJsonRpc({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(notJsonRpc({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get_info' } })).toBeUndefined();
    expect(notJsonRpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(notJsonRpc({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(notJsonRpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }])).toBeUndefined();
  });

  it.each([
    [null, 'a JSON-RPC message is an object, not null'],
    ['hello', 'a JSON-RPC message is an object, not a string'],
    [[], 'the batch is empty; send a JSON-RPC message'],
    [[1], 'batch entry 0: a JSON-RPC message is an object, not a number'],
    [{ foo: 1 }, 'jsonrpc must be "2.0"'],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }, 'jsonrpc must be "2.0"'],
    [{ jsonrpc: '2.0', id: 1, method: 5 }, 'method must be a string'],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, 'id must be a string or a whole number (MCP allows no null id)'],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, 'id must be a string or a whole number (MCP allows no null id)'],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, 'params must be an object (MCP passes parameters by name)'],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_info', _meta: { progressToken: { a: 1 } } } },
      'params._meta.progressToken must be a string or a number'],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_info', _meta: { progressToken: 1.5 } } },
      'params._meta.progressToken 1.5 is not a whole number; send a string or a whole number'],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: 'x' } }, 'params._meta must be an object'],
    [{ jsonrpc: '2.0', id: 1 }, 'a message needs a method (a request or a notification) or a result or an error (a response)'],
    [[{ jsonrpc: '2.0', id: 1, method: 'ping' }, { foo: 1 }], 'batch entry 1: jsonrpc must be "2.0"'],
    [[{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26' } }],
      'batch entry 0: initialize must not be part of a JSON-RPC batch (MCP lifecycle); send it alone'],
    [[{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, method: 'ping' }],
      'batch entries 0 and 1 are requests with the same id 1; give each request of a batch its own id'],
  ])('names what is wrong with %j', (body, reason) => {
    expect(notJsonRpc(body)).toBe(reason);
  });
});

describe('refusesBatches', () => {
  it('refuses batches from 2025-06-18 on, and leaves a version the SDK does not support to the transport', () => {
    expect(refusesBatches('2025-06-18')).toBe(true);
    expect(refusesBatches('2025-11-25')).toBe(true);
    expect(refusesBatches('2025-03-26')).toBe(false);
    expect(refusesBatches(undefined)).toBe(false);
    // Compared as text, "garbage" sorts after every date: it is unsupported, not batch-free.
    expect(refusesBatches('garbage')).toBe(false);
    expect(refusesBatches('2030-01-01')).toBe(false);
  });

  it('lets a batch with an id given once as a number and once as a string through', () => {
    expect(notJsonRpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: '1', method: 'ping' }]))
      .toBeUndefined();
  });
});
