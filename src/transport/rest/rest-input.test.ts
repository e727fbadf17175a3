import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeService } from '../testing/fake-service.js';
import { serveRouter, type ServedRouter } from './testing/serve-router.js';

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
      status: 400, message: 'invalid request: the query parameter until: Invalid option: expected one of "ready"|"deleted"',
    });
  });

  it('names a path segment as one, not as a JSON field', async () => {
    expect(await messageOf('/agents/kagent/sre/revisions/0')).toEqual({
      status: 400, message: 'invalid request: the path segment revision: Too small: expected number to be >=1',
    });
  });
});
