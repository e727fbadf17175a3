import { A2A_ERROR_CODE, JsonRpcTransportError, fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { a2aError } from './a2a-errors.js';

const rpc = (code: number, message: string) => fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: 1, error: { code, message } } as never);

describe('a2aError', () => {
  it.each([
    ['a task the agent does not know', A2A_ERROR_CODE.TASK_NOT_FOUND, 404],
    ['bad parameters', A2A_ERROR_CODE.INVALID_PARAMS, 400],
    ['a content type the agent does not take', A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, 400],
    ['an operation the agent does not support', A2A_ERROR_CODE.UNSUPPORTED_OPERATION, 409],
    ['a task it cannot cancel', A2A_ERROR_CODE.TASK_NOT_CANCELABLE, 409],
    ['an internal error', A2A_ERROR_CODE.INTERNAL_ERROR, 502],
  ])('maps %s (JSON-RPC %i) to %i with the agent\'s words', (_name, code, status) => {
    const error = a2aError(rpc(code, 'the agent says no'), 'kagent/sre', 'http://kagent/api/a2a/kagent/sre/');
    expect(error.status).toBe(status);
    expect(error.message).toContain('agent kagent/sre answered: the agent says no');
  });

  it('names the URL tried when the endpoint cannot be reached', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
    const error = a2aError(refused, 'kagent/sre', 'http://127.0.0.1:9/api/a2a/kagent/sre/');
    expect(error.status).toBe(502);
    expect(error.message).toBe('kagent: agent kagent/sre is not reachable over A2A at http://127.0.0.1:9/api/a2a/kagent/sre/: ECONNREFUSED');
  });

  it('keeps a vendor code as a 502 naming it', () => {
    const error = a2aError(new JsonRpcTransportError({ jsonrpc: '2.0', id: 1, error: { code: -32099, message: 'odd' } } as never), 'kagent/sre', 'u');
    expect(error.status).toBe(502);
    expect(error.message).toContain('(A2A error -32099)');
  });
});
