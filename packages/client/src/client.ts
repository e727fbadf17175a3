/**
 * `createAgentManagerClient`: openapi-fetch's `createClient<paths>` over the types generated from
 * api/openapi.yaml, so every operation of /api/v1 is a typed call (path, parameters, body and each
 * answer). The one thing it adds is the bearer: `token` (a string, or a function asked before every
 * request, for an id_token that is refreshed) is sent as `Authorization: Bearer <token>`.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi.generated.js';

/** What the client needs to reach a service. */
export interface AgentManagerClientOptions {
  /** The service's origin, e.g. `http://localhost:8080` (paths start with `/api/v1`). */
  baseUrl: string;
  /** The IdP id_token a server started with `--enable-oauth` asks for; absent: no Authorization header. */
  token?: string | (() => string | Promise<string>);
  /** A fetch of your own (a proxy, a test's recorder); default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** A typed client of agent-manager's REST API: `client.GET('/api/v1/agents')`, `client.POST(...)`. */
export type AgentManagerClient = Client<paths, 'application/json'>;

export function createAgentManagerClient(options: AgentManagerClientOptions): AgentManagerClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const { token } = options;
  if (token !== undefined) {
    client.use({
      async onRequest({ request }) {
        const value = typeof token === 'function' ? await token() : token;
        request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
    });
  }
  return client;
}
