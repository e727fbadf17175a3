import { describe, expect, it } from 'vitest';
import { notFound } from '../../core/errors.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { serveRouterPerFile } from '../../../test/support/transport/serve-router.js';

const service = new FakeService();
const api = serveRouterPerFile(service);
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe('If-Match on a route whose answers carry no ETag (RFC 9110 §13.1.1)', () => {
  it.each([
    ['GET', '/agents/kagent/sre/status'],
    ['GET', '/agents?namespace=kagent'],
    ['GET', '/agents/kagent/sre/revisions'],
  ])('%s %s with a listed tag is a 412 naming the routes that have versions', async (method, path) => {
    const res = await fetch(`${api.base}${path}`, { method, headers: { 'if-match': '"1-nope"' } });
    expect(res.status).toBe(412);
    const error = await errorOf(res);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('has no versions (its answers carry no ETag), so If-Match "1-nope" matches nothing');
  });

  it('refuses a write that carries one before it runs', async () => {
    service.calls.splice(0);
    const res = await fetch(`${api.base}/agents/validate`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'if-match': '"1-nope"' },
      body: JSON.stringify({ name: 'sre', modelConfig: 'default-model-config' }),
    });
    expect(res.status).toBe(412);
    expect(service.calls).toEqual([]);
  });

  it('passes `*` and no header, and lets a read\'s own 404 answer first', async () => {
    expect((await fetch(`${api.base}/agents/kagent/sre/status`, { headers: { 'if-match': '*' } })).status).toBe(200);
    expect((await fetch(`${api.base}/agents/kagent/sre/status`)).status).toBe(200);
    service.failWith(notFound('agent kagent/gone: no Agent and no HelmRelease of that name'));
    expect((await fetch(`${api.base}/agents/kagent/gone/status`, { headers: { 'if-match': '"1-nope"' } })).status).toBe(404);
  });
});
