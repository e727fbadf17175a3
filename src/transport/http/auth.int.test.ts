import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backendError, forbidden, unauthenticated, type AppError } from '../../core/errors.js';
import type { Caller } from '../../identity/caller.js';
import { startFakeIssuer, type FakeIssuer } from '../../../test/support/identity/fake-issuer.js';
import { createTokenVerifier, type TokenVerifier } from '../../identity/token-verifier.js';
import { bearerAuth, bearerChallenge, challengeAfterGuard, headerSafe, resourceServerGuards } from './auth.js';
import { sendCompactJson, sendText, type HttpRequest, type HttpResponse, type Step } from './exchange.js';
import { runSteps } from '../../../test/support/transport/steps.js';
import { encodeJson } from './send-json.js';
import { oauthMetadataRouter } from './oauth-metadata.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

const notFound = (res: HttpResponse) => sendCompactJson(res, 404, { error: 'not found' });

/** A tiny app shaped like the real one: probes and metadata open, /api/v1 and /mcp guarded. */
let issuer: FakeIssuer;
let served: ServedHandler;
let base: string;
let verifyCalls = 0;
let handlerCalls = 0;
const logLines: string[] = [];

beforeAll(async () => {
  issuer = await startFakeIssuer();
  let app: (req: HttpRequest, res: HttpResponse) => Promise<void> = () => Promise.reject(new Error('not ready'));
  // Headers up to 64 KiB reach the app, so the guard (not Node's parser) answers oversized ones.
  served = await serveHandler((req, res) => app(req, res), { maxHeaderSize: 64 * 1024 });
  base = served.url;

  const real = createTokenVerifier({
    provider: 'dex',
    issuerUrl: issuer.url,
    allowPrivateUrls: true,
    trustedAudiences: ['agent-manager', 'dex-k8s-authenticator'],
  });
  const verifier: TokenVerifier = {
    verify: (token) => {
      verifyCalls++;
      return real.verify(token);
    },
  };
  const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, cb) => (logLines.push(String(chunk)), cb()) }));
  const guards = resourceServerGuards({ verifier, log, baseUrl: base });
  const metadata = oauthMetadataRouter({ baseUrl: base, issuer: issuer.url });
  const whoami = (req: HttpRequest, res: HttpResponse) => {
    handlerCalls++;
    sendCompactJson(res, 200, { caller: req.caller, tokenLength: req.callerToken?.length });
  };
  app = async (req, res) => {
    const { method, path } = req;
    if (method === 'GET' && path === '/healthz') return sendText(res, 200, 'ok');
    if (await runSteps([metadata], req, res)) return;
    if (path === '/api/v1' || path.startsWith('/api/v1/')) {
      if (await runSteps([guards.rest], req, res)) return;
      return method === 'GET' && path === '/api/v1/agents' ? whoami(req, res) : notFound(res);
    }
    if (path === '/mcp') {
      if (await runSteps([guards.mcp], req, res)) return;
      return method === 'POST' ? whoami(req, res) : notFound(res);
    }
    notFound(res);
  };
});
afterAll(async () => {
  await served.close();
  await issuer.close();
});
beforeEach(() => {
  verifyCalls = 0;
  handlerCalls = 0;
  logLines.length = 0;
});

const get = (path: string, authorization?: string) =>
  fetch(`${base}${path}`, { headers: authorization === undefined ? {} : { authorization } });

/** The parameters of a `Bearer k="v", …` challenge. */
function challenge(res: Response): Record<string, string> {
  const value = res.headers.get('www-authenticate') ?? '';
  expect(value).toMatch(/^Bearer /);
  return Object.fromEntries([...value.slice(7).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('bearerAuth', () => {
  it('passes a trusted token and attaches the caller and the token to the request', async () => {
    const token = await issuer.mint({ aud: 'agent-manager', email: 'alice@example.com', groups: ['platform-admins'] });
    const res = await get('/api/v1/agents', `Bearer ${token}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { caller: Caller; tokenLength: number };
    expect(body.caller).toEqual({ subject: 'alice-subject', email: 'alice@example.com', groups: ['platform-admins'], source: 'sso' });
    expect(body.tokenLength).toBe(token.length);
  });

  it('refuses two Authorization headers with 400 invalid_request, whichever comes first, before verifying either', async () => {
    const token = await issuer.mint({ aud: 'agent-manager' });
    for (const pair of [[`Bearer ${token}`, 'Bearer garbage'], ['Bearer garbage', `Bearer ${token}`]]) {
      const answer = await new Promise<{ status: number; challenge: string; body: string }>((resolve, reject) => {
        const req = httpRequest(`${base}/api/v1/agents`, { headers: ['Host', new URL(base).host, ...pair.flatMap((value) => ['Authorization', value])] }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
          res.on('end', () => resolve({ status: res.statusCode!, challenge: String(res.headers['www-authenticate']), body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(400);
      expect(answer.challenge).toBe('Bearer error="invalid_request", error_description="the request carries more than one ' +
        'Authorization header; send exactly one"');
      expect(JSON.parse(answer.body).error.code).toBe('invalid_request');
    }
    expect(verifyCalls).toBe(0);
    expect(handlerCalls).toBe(0);
  });

  it('accepts the scheme name in any case', async () => {
    const token = await issuer.mint({ aud: 'agent-manager' });
    expect((await get('/api/v1/agents', `bearer ${token}`)).status).toBe(200);
  });

  it.each([
    ['/api/v1/agents', '/.well-known/oauth-protected-resource'],
    ['/mcp', '/.well-known/oauth-protected-resource/mcp'],
  ])('answers a request to %s without a token 401 naming %s and no error code', async (path, metadataPath) => {
    const res = path === '/mcp' ? await fetch(`${base}/mcp`, { method: 'POST' }) : await get(path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}${metadataPath}"`);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unauthenticated');
    expect(body.error.message).toMatch(/^unauthenticated: this endpoint acts as the caller: send the identity provider's id_token/);
    expect(handlerCalls).toBe(0);
  });

  it('treats another authentication scheme like no token', async () => {
    const res = await get('/api/v1/agents', 'Basic YWxpY2U6c2VjcmV0');
    expect(res.status).toBe(401);
    expect(challenge(res)).toEqual({ resource_metadata: `${base}/.well-known/oauth-protected-resource` });
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/\(got the Basic scheme\)/);
    expect(verifyCalls).toBe(0);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const attacks: [string, () => Promise<string> | string, RegExp][] = [
    ['garbage', () => 'Bearer garbage', /^token is not a JWT/],
    ['an empty bearer', () => 'Bearer', /must be the word Bearer followed by exactly one token/],
    ['two tokens', () => 'Bearer a.b.c d.e.f', /must be the word Bearer followed by exactly one token/],
    ['alg none', () => `Bearer ${issuer.mintAlgNone({ aud: 'agent-manager' })}`, /^token algorithm none is not allowed/],
    ['HS256 signed with the public key', async () => `Bearer ${await issuer.mintHs256WithPublicKey({ aud: 'agent-manager' })}`, /^token algorithm HS256 is not allowed/],
    ['a wrong signature', async () => `Bearer ${await issuer.mintWithForeignKey({ aud: 'agent-manager' })}`, /^token signature is invalid$/],
    ['an unknown kid', async () => `Bearer ${await issuer.mint({ aud: 'agent-manager' }, { header: { kid: 'rotated-away' } })}`, /^token key id rotated-away is not in/],
    ['an expired token', async () => `Bearer ${await issuer.mint({ aud: 'agent-manager', iat: now() - 7200, exp: now() - 3600 })}`, /^token expired at /],
    ['nbf in the future', async () => `Bearer ${await issuer.mint({ aud: 'agent-manager', nbf: now() + 3600 })}`, /^token is not valid yet/],
    ['a wrong issuer', async () => `Bearer ${await issuer.mint({ aud: 'agent-manager', iss: 'https://evil.example' })}`, /^token issuer https:\/\/evil\.example is not the trusted issuer/],
    ['an untrusted audience', async () => `Bearer ${await issuer.mint({ aud: 'kubernetes' })}`, /^token audience \[kubernetes\] matches none of the trusted audiences \[agent-manager, dex-k8s-authenticator\] \(--oauth-trusted-audiences\)$/],
    ['a token for another client id', async () => `Bearer ${await issuer.mint({ aud: 'portal', azp: 'portal' })}`, /^token audience \[portal\] matches none/],
    ['an oversized header', () => `Bearer ${'a'.repeat(20_000)}`, /^the Authorization header is too large \(20007 bytes; the limit is 16391\)$/],
  ];

  it.each(attacks)('answers %s 401 invalid_token with a safe description, never reaching the handler', async (_name, header, description) => {
    const res = await get('/api/v1/agents', await header());
    expect(res.status).toBe(401);
    const params = challenge(res);
    expect(params['resource_metadata']).toBe(`${base}/.well-known/oauth-protected-resource`);
    expect(params['error']).toBe('invalid_token');
    expect(params['error_description']).toMatch(description);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unauthenticated');
    expect(body.error.message).toMatch(/^unauthenticated: /);
    expect(handlerCalls).toBe(0);
  });

  it('refuses an oversized header without asking the verifier', async () => {
    await get('/api/v1/agents', `Bearer ${'a'.repeat(20_000)}`);
    expect(verifyCalls).toBe(0);
  });

  it('writes its 401 as every REST answer: application/json, indented, with no body-hash ETag', async () => {
    const res = await get('/api/v1/agents');
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toBeNull();
    expect(text).toBe(encodeJson(JSON.parse(text)));
  });

  it('keeps the full description, quotes included, in the JSON body', async () => {
    const token = await issuer.mint({ aud: 'say "hi" \\o/' });
    const res = await get('/mcp', `Bearer ${token}`);
    expect(challenge(res)['error_description']).toContain('[say hi o/]');
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('[say "hi" \\o/]');
  });

  it('logs the refusal with its reason and never the token', async () => {
    const token = await issuer.mint({ aud: 'kubernetes' });
    await get('/api/v1/agents', `Bearer ${token}`);
    const line = JSON.parse(logLines.find((l) => l.includes('request refused'))!);
    expect(line).toMatchObject({ level: 30, path: '/api/v1/agents', msg: expect.stringMatching(/^request refused: token audience \[kubernetes\]/) });
    expect(logLines.join('')).not.toContain(token);
    expect(logLines.join('')).not.toContain(token.split('.')[2]);
  });

  it('logs a request without a token at debug only', async () => {
    await get('/api/v1/agents');
    expect(JSON.parse(logLines[0]!).level).toBe(20);
  });

  it('leaves the probes and the metadata open', async () => {
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/.well-known/oauth-protected-resource/mcp')).status).toBe(200);
  });

  it('points each 401 at a metadata document whose resource is the refused endpoint', async () => {
    for (const [path, resource] of [
      ['/api/v1/agents', base],
      ['/mcp', `${base}/mcp`],
    ] as const) {
      const refused = await get(path);
      const metadata = (await (await fetch(challenge(refused)['resource_metadata']!)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource, authorization_servers: [issuer.url] });
    }
  });
});

describe('bearerAuth without requireToken', () => {
  const failing: TokenVerifier = { verify: () => Promise.reject(backendError('cannot verify tokens: the identity provider is down')) };

  async function withApp(guard: Step, run: (url: string) => Promise<void>) {
    const app = await serveHandler(async (req, res) => {
      if (await runSteps([guard], req, res)) return;
      if (req.method === 'GET' && req.path === '/x') sendCompactJson(res, 200, { caller: req.caller ?? null });
      else notFound(res);
    });
    try {
      await run(`${app.url}/x`);
    } finally {
      await app.close();
    }
  }

  it('lets a request without a token pass with no caller, but still refuses a bad token', async () => {
    const guard = bearerAuth({ verifier: { verify: () => Promise.reject(new Error('unused')) }, resourceMetadataUrl: 'https://am.example/.well-known/oauth-protected-resource', log: pino({ level: 'silent' }), requireToken: false });
    await withApp(guard, async (url) => {
      const open = await fetch(url);
      expect(open.status).toBe(200);
      expect(await open.json()).toEqual({ caller: null });
      expect((await fetch(url, { headers: { authorization: 'Bearer nope' } })).status).toBe(502);
    });
  });

  it('answers an identity provider failure with its own status and no challenge', async () => {
    const guard = bearerAuth({ verifier: failing, resourceMetadataUrl: 'https://am.example/.well-known/oauth-protected-resource', log: pino({ level: 'silent' }) });
    await withApp(guard, async (url) => {
      const res = await fetch(url, { headers: { authorization: 'Bearer a.b.c' } });
      expect(res.status).toBe(502);
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(await res.json()).toEqual({ error: { code: 'backend_error', message: 'cannot verify tokens: the identity provider is down' } });
    });
  });
});

describe('challengeAfterGuard', () => {
  const metadata = 'https://am.example/.well-known/oauth-protected-resource';

  async function refusal(guarded: boolean, error: Error) {
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) }));
    const steps: Step[] = [(req) => {
      req.ctx = { requestId: 'r1', log: log.child({ caller: 'alice@lab.local' }) };
    }];
    if (guarded) {
      const verifier = { verify: () => Promise.reject(new Error('unused')) };
      steps.push(bearerAuth({ verifier, resourceMetadataUrl: metadata, log, requireToken: false }));
    }
    const app = await serveHandler(async (req, res) => {
      try {
        if (await runSteps(steps, req, res)) return;
        if (req.method === 'GET' && req.path === '/x') throw error;
        notFound(res);
      } catch (err) {
        challengeAfterGuard(req, res, err as AppError);
        sendCompactJson(res, (err as AppError).status, {});
      }
    });
    try {
      const res = await fetch(`${app.url}/x`);
      return { status: res.status, challenge: res.headers.get('www-authenticate'), lines };
    } finally {
      await app.close();
    }
  }

  it('gives a 401 raised behind the guard the invalid_token challenge and logs it with the caller', async () => {
    const { status, challenge, lines } = await refusal(true, unauthenticated('the API server refused the caller\'s token (401): Unauthorized'));
    expect(status).toBe(401);
    expect(challenge).toBe(`Bearer resource_metadata="${metadata}", error="invalid_token", error_description="the API server refused the caller's token (401): Unauthorized"`);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => String(l.msg).startsWith('request refused'));
    expect(line).toMatchObject({ level: 30, caller: 'alice@lab.local', path: '/x' });
  });

  it('leaves other errors alone', async () => {
    expect((await refusal(true, forbidden('no'))).challenge).toBeNull();
  });

  it('does nothing without a guard (no OAuth: nobody to send to a sign-in)', async () => {
    expect((await refusal(false, unauthenticated('x'))).challenge).toBeNull();
  });
});

describe('bearerChallenge', () => {
  it.each([
    [undefined, 'Bearer resource_metadata="https://am.example/.well-known/oauth-protected-resource"'],
    ['token expired', 'Bearer resource_metadata="https://am.example/.well-known/oauth-protected-resource", error="invalid_token", error_description="token expired"'],
    ['a "quoted" \\ back\nslash', 'Bearer resource_metadata="https://am.example/.well-known/oauth-protected-resource", error="invalid_token", error_description="a quoted  back?slash"'],
  ])('renders description %j as %s', (description, expected) => {
    expect(bearerChallenge('https://am.example/.well-known/oauth-protected-resource', description)).toBe(expected);
  });

  it('clips very long descriptions', () => {
    expect(headerSafe('x'.repeat(2000))).toHaveLength(515);
  });
});
