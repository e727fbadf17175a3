/**
 * No credential reaches a log line: `serve --enable-oauth` on the sandbox, the production
 * logger at debug, and a verified id_token (plus a client secret and a password) sent
 * every way a client might send one — the Authorization header, `X-Muster-Id-Token`, a
 * cookie, query parameters of REST and MCP requests (which the bearer guard refuses),
 * JSON body fields — on good and bad requests of both surfaces. Then no log line holds
 * any of them, and the access lines keep the path with the query keys but not their values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type AppConfig } from '../../src/config/index.js';
import { startFakeIssuer, type FakeIssuer } from '../support/identity/fake-issuer.js';
import { startServe, type RunningServe } from '../support/start-serve.js';
import { capturedLogger, deadPort, MCP_HEADERS, request, toolsCall } from './helpers.js';

const CLIENT_ID = 'agent-platform';
const SECRET = 'client-secret-value-7f3a9c';
const PASSWORD = 'hunter2-password-b81e';

async function configFor(issuer: FakeIssuer): Promise<AppConfig> {
  const parsed = parseConfig([
    'serve', '--sandbox', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s',
    `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`,
    '--enable-oauth', '--oauth-base-url=http://localhost:8080', `--dex-issuer-url=${issuer.url}`, `--dex-client-id=${CLIENT_ID}`,
    '--allow-private-oauth-urls', '--verbose',
  ], { DEX_CLIENT_SECRET: SECRET });
  if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
  return parsed.config;
}

describe('credentials and the logs', () => {
  let issuer: FakeIssuer;
  let server: RunningServe | undefined;
  let base: string;
  const logs = capturedLogger();

  beforeAll(async () => {
    issuer = await startFakeIssuer({ path: '/dex' });
    server = await startServe(await configFor(issuer), logs.log);
    base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('keeps every token, secret and password out of every log line, however it was sent', async () => {
    const token = await issuer.mint({ aud: CLIENT_ID, sub: 'sub-alice', email: 'alice@lab.local', groups: ['platform-admins'] });
    const q = `access_token=${token}&id_token=${token}&client_secret=${SECRET}&password=${PASSWORD}`;
    const answers = [
      await request(`${base}/api/v1/agents?${q}`),
      await request(`${base}/api/v1/agents?namespace=kagent&${q}`, { token }),
      await request(`${base}/api/v1/info`, { headers: { 'x-muster-id-token': token, cookie: `session=${token}` } }),
      await request(`${base}/api/v1/agents`, { method: 'POST', token, body: { name: 'leak', token, clientSecret: SECRET, password: PASSWORD } }),
      await request(`${base}/api/v1/agents/validate?${q}`, { method: 'POST', token, body: { name: 'x', modelConfig: 'nope', toolset: [token] } }),
      await request(`${base}/mcp?${q}`, { method: 'POST', headers: MCP_HEADERS, body: toolsCall('get_info') }),
      await request(`${base}/mcp?${q}`, { method: 'POST', token, headers: MCP_HEADERS, body: toolsCall('create_agent', { name: 'x', token }) }),
      await request(`${base}/api/v1/agents/kagent/${token.split('.')[0]}?${q}`, { token, authorization: `Bearer ${token}` }),
    ];
    expect(answers.map((a) => a.status)).toContain(401);
    expect(answers.map((a) => a.status)).toContain(400);
    // Each request's access line is written on 'finish', after its client has the answer.
    const accessLines = () => logs.lines.filter((l) => l.req !== undefined && l.res !== undefined).length;
    await logs.waitFor(() => accessLines() >= answers.length, `for ${answers.length} access lines`);
    const text = logs.text();
    for (const part of [token, ...token.split('.').slice(1), SECRET, PASSWORD]) expect(text).not.toContain(part);
  });

  it('logs the path and the query keys of a request, with every query value redacted', async () => {
    const token = await issuer.mint({ aud: CLIENT_ID, sub: 'sub-bob' });
    await request(`${base}/api/v1/agents?access_token=${token}&namespace=kagent&probe=redaction`);
    const line = await logs.waitFor(
      (l) => (l.req as { url?: string } | undefined)?.url?.endsWith('&probe=[redacted]') === true, 'for the request with a token in its query');
    expect(line.req).toEqual({ method: 'GET', url: '/api/v1/agents?access_token=[redacted]&namespace=[redacted]&probe=[redacted]' });
    expect(line).toMatchObject({ res: { statusCode: 401 } });
  });
});
