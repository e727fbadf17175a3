import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { requestKind } from './http-metrics.js';

const req = (path: string, query: Record<string, string> = {}) => ({ path, query }) as unknown as Request;

describe('requestKind', () => {
  it.each([
    ['/mcp', {}, 'mcp'],
    ['/api/v1/agents/kagent/sre/wait', {}, 'wait'],
    ['/api/v1/agents/kagent/sre/status', { watch: 'true' }, 'status_stream'],
    ['/api/v1/agents/kagent/sre/status', {}, 'other'],
    ['/api/v1/agents/kagent/sre', {}, 'other'],
    ['/x/mcp', {}, 'other'],
  ])('takes %s %j for %s', (path, query, kind) => {
    expect(requestKind(req(path, query), '/mcp')).toBe(kind);
  });
});
