import { describe, expect, it } from 'vitest';
import { invalidParams } from './request-params.js';

describe('invalidParams', () => {
  it('passes the requests this server answers when their params fit, and anything else', () => {
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_info' } })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { cursor: 5 } })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
  });

  it.each([
    [{ jsonrpc: '2.0' as const, id: 1, method: 'initialize' }, 'Invalid params of initialize: params: required'],
    [{ jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: { capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      'Invalid params of initialize: params.protocolVersion: required'],
    [{ jsonrpc: '2.0' as const, id: 1, method: 'tools/call' }, 'Invalid params of tools/call: params: required'],
    [{ jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 5 } },
      'Invalid params of tools/call: params.name: expected string, received number'],
    [{ jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'get_agent', arguments: [1] } },
      'Invalid params of tools/call: params.arguments: expected object, received array'],
    [{ jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: { cursor: 5 } },
      'Invalid params of tools/list: params.cursor: expected string, received number'],
  ])('names what is wrong with %j', (message, reason) => {
    expect(invalidParams(message)).toBe(reason);
  });
});
