/**
 * The browser-origin check as `serve` wires it: `--allowed-origins` and, with OAuth, the
 * origin of `--oauth-base-url` reach the app's check in front of `/api/v1` and MCP. Runs
 * the composition root against its in-process sandbox (`--sandbox`), everything on
 * loopback; the chart registry is a loopback port nothing listens on, so the embedded
 * schema answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadPort, deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../test/support/start-serve.js';

/** A running `serve --sandbox` with `args`. */
async function startSandboxServe(args: string[]): Promise<RunningServe> {
  return startServe(serveConfig(['--sandbox', '--listen=127.0.0.1:0', '--metrics-listen=', await deadRegistryFlag(), ...args]));
}

const SPEC = { name: 'origin-check', description: 'Checks origins', modelConfig: 'default-model-config', toolset: ['preset:none'] };

/** A validate answer, or an error body. */
interface ValidateBody {
  valid?: boolean;
  error?: { code: string; message: string };
}

/** POST /api/v1/agents/validate, with an Origin header when one is given. */
async function validate(base: string, origin?: string): Promise<{ status: number; body: ValidateBody }> {
  const res = await fetch(`${base}/api/v1/agents/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(SPEC),
  });
  return { status: res.status, body: (await res.json()) as ValidateBody };
}

describe('serve --allowed-origins', () => {
  let server: RunningServe;

  beforeAll(async () => {
    server = await startSandboxServe(['--allowed-origins=https://portal.example.com']);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers a browser request from a listed origin', async () => {
    const { status, body } = await validate(server.base, 'https://portal.example.com');
    expect(status).toBe(200);
    expect(body.valid).toBe(true);
  });

  it('refuses a browser request from any other origin with 403 forbidden', async () => {
    const { status, body } = await validate(server.base, 'https://evil.example.com');
    expect(status).toBe(403);
    expect(body.error?.code).toBe('forbidden');
    expect(body.error?.message).toContain('"https://evil.example.com"');
  });

  it('still answers requests without an Origin header and from loopback origins', async () => {
    expect((await validate(server.base)).status).toBe(200);
    expect((await validate(server.base, 'http://localhost:3000')).status).toBe(200);
  });

  it('applies the same list to the MCP endpoint', async () => {
    const mcp = (origin: string) => fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const refused = await mcp('https://evil.example.com');
    expect(refused.status).toBe(403);
    await refused.text();
    const allowed = await mcp('https://portal.example.com');
    expect(allowed.status).toBe(200);
    await allowed.text();
  });
});

describe('serve --enable-oauth: the public base URL is an allowed origin', () => {
  let server: RunningServe;

  beforeAll(async () => {
    // The identity provider is a dead loopback port: no request here gets as far as it.
    server = await startSandboxServe([
      '--enable-oauth', '--oauth-base-url=https://agent-manager.example.com', `--dex-issuer-url=http://127.0.0.1:${await deadPort()}/dex`,
      '--allow-private-oauth-urls', '--dex-client-id=agent-manager', '--dex-client-secret=not-a-secret',
    ]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lets a page from the base URL through to the bearer guard (401, not 403)', async () => {
    const { status, body } = await validate(server.base, 'https://agent-manager.example.com');
    expect(status).toBe(401);
    expect(body.error?.code).not.toBe('forbidden');
  });

  it('refuses a page from another origin with 403 before sign-in is asked for', async () => {
    expect((await validate(server.base, 'https://evil.example.com')).status).toBe(403);
  });
});
