/**
 * The wrapper's own options, seen at the fetch it is given: the bearer (a string, or a function
 * asked before each request) and the base URL, with or without a trailing slash. The answers come
 * from the running service, so what is checked is what would go over the wire.
 */
import { describe, expect, it } from 'vitest';
import { createAgentManagerClient, unwrap } from '../src/index.js';
import { serviceUrl } from './service.js';

function recording(): { seen: Request[]; fetch: (request: Request) => Promise<Response> } {
  const seen: Request[] = [];
  return { seen, fetch: async (request) => { seen.push(request.clone()); return fetch(request); } };
}

describe('createAgentManagerClient', () => {
  it('sends the token as a bearer on every call', async () => {
    const { seen, fetch } = recording();
    const client = createAgentManagerClient({ baseUrl: serviceUrl(), token: 'id-token-1', fetch });
    unwrap(await client.GET('/api/v1/info'));
    unwrap(await client.GET('/api/v1/modelconfigs'));
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer id-token-1', 'Bearer id-token-1']);
  });

  it('asks a token function before each request, so a refreshed id_token is used at once', async () => {
    const { seen, fetch } = recording();
    let n = 0;
    const client = createAgentManagerClient({ baseUrl: serviceUrl(), token: async () => `id-token-${++n}`, fetch });
    await client.GET('/api/v1/info');
    await client.GET('/api/v1/info');
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer id-token-1', 'Bearer id-token-2']);
  });

  it('sends no Authorization header without a token, and takes a base URL ending in a slash', async () => {
    const { seen, fetch } = recording();
    const client = createAgentManagerClient({ baseUrl: `${serviceUrl()}/`, fetch });
    const info = unwrap(await client.GET('/api/v1/info'));
    expect(info.namespaces.default).toBe('kagent');
    expect(seen[0]!.headers.get('authorization')).toBeNull();
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/info');
  });
});
