import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { serveRouter, type ServedRouter } from '../../../test/support/transport/serve-router.js';

const service = new FakeService();
let api: ServedRouter;
beforeAll(async () => {
  api = await serveRouter(service);
});
afterAll(() => api.close());

const messageOf = async (path: string) => {
  const res = await fetch(`${api.base}${path}`);
  return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
};

describe('REST input refusals name where the value came from', () => {
  it('names a query parameter as one, not as a JSON field', async () => {
    expect(await messageOf('/agents/kagent/sre/wait?until=soon')).toEqual({
      status: 400, message: 'invalid request: the query parameter until: must be one of "ready", "deleted", not "soon"',
    });
  });

  it('names a path segment as one, not as a JSON field', async () => {
    expect(await messageOf('/agents/kagent/sre/revisions/0')).toEqual({
      status: 400, message: 'invalid request: the path segment revision: must be at least 1, not 0',
    });
  });
});

describe('REST preconditions read the current version once', () => {
  class AtVersion44 extends FakeService {
    override async getAgent(...args: Parameters<FakeService['getAgent']>): ReturnType<FakeService['getAgent']> {
      return { ...(await super.getAgent(...args)), version: '44' };
    }
  }

  it('reads it once for an If-Match list and an If-None-Match on the same PATCH', async () => {
    const versioned = new AtVersion44();
    const served = await serveRouter(versioned);
    try {
      const res = await fetch(`${served.base}/agents/kagent/sre`, {
        method: 'PATCH', body: JSON.stringify({ displayName: 'SRE' }),
        headers: { 'content-type': 'application/json', 'if-match': '"41", "44"', 'if-none-match': '"9"' },
      });
      expect(res.status).toBe(200);
      expect(versioned.inputs('getAgent')).toHaveLength(1);
      expect(versioned.inputs('updateAgent')).toEqual([expect.objectContaining({ version: '44' })]);
    } finally {
      await served.close();
    }
  });
});
