import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendText } from './exchange.js';
import { runSteps } from '../../../test/support/transport/steps.js';
import {
  DEFAULT_SCOPES,
  oauthMetadataRouter,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  type OAuthMetadataOptions,
} from './oauth-metadata.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

describe('protectedResourceMetadataUrl', () => {
  it.each([
    ['https://am.example.com', '', 'https://am.example.com/.well-known/oauth-protected-resource'],
    ['https://am.example.com/', '/mcp', 'https://am.example.com/.well-known/oauth-protected-resource/mcp'],
    ['https://gw.example.com/agent-manager', '/mcp', 'https://gw.example.com/.well-known/oauth-protected-resource/agent-manager/mcp'],
    ['http://127.0.0.1:8080', '', 'http://127.0.0.1:8080/.well-known/oauth-protected-resource'],
  ])('inserts the well-known path into %s%s', (baseUrl, path, expected) => {
    expect(protectedResourceMetadataUrl(baseUrl, path)).toBe(expected);
  });
});

describe('protectedResourceMetadata', () => {
  const options: OAuthMetadataOptions = { baseUrl: 'https://am.example.com/', issuer: 'https://dex.example.com', scopesSupported: DEFAULT_SCOPES.dex };

  it('names the identity provider as the authorization server of the MCP endpoint', () => {
    expect(protectedResourceMetadata(options, '/mcp')).toEqual({
      resource: 'https://am.example.com/mcp',
      authorization_servers: ['https://dex.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid', 'profile', 'email', 'groups'],
      resource_name: 'agent-manager',
    });
  });

  it('uses the base URL as the resource of the root document and leaves out unknown scopes', () => {
    const doc = protectedResourceMetadata({ baseUrl: 'https://am.example.com', issuer: 'https://accounts.google.com' });
    expect(doc.resource).toBe('https://am.example.com');
    expect(doc).not.toHaveProperty('scopes_supported');
  });
});

describe('oauthMetadataRouter', () => {
  let served: ServedHandler;
  let base: string;
  /** The route each request was answered under, by path; `passed` when the step let it through. */
  const routes = new Map<string, string>();
  beforeAll(async () => {
    const step = oauthMetadataRouter({
      baseUrl: 'https://am.example.com', issuer: 'https://dex.example.com', mcpPath: '/mcp',
      scopesSupported: DEFAULT_SCOPES.google,
    });
    served = await serveHandler(async (req, res) => {
      if (await runSteps([step], req, res)) {
        routes.set(`${req.method} ${req.path}`, req.route ?? 'none');
        return;
      }
      routes.set(`${req.method} ${req.path}`, 'passed');
      sendText(res, 404, 'not found');
    });
    base = served.url;
  });
  afterAll(async () => {
    await served.close();
  });

  it.each([
    ['/.well-known/oauth-protected-resource', 'https://am.example.com'],
    ['/.well-known/oauth-protected-resource/mcp', 'https://am.example.com/mcp'],
  ])('serves %s for the resource %s, readable cross-origin', async (path, resource) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      resource,
      authorization_servers: ['https://dex.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid', 'profile', 'email'],
      resource_name: 'agent-manager',
    });
  });

  it('answers a CORS preflight', async () => {
    const res = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
  });

  it('serves no document for other paths', async () => {
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/api/v1`)).status).toBe(404);
  });

  it('names the document\'s path as the route it answered, and sets the headers a GET gets', async () => {
    const res = await fetch(`${base}/.well-known/oauth-protected-resource/mcp?x=1`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await res.text();
    const mcpDocument = '/.well-known/oauth-protected-resource/mcp';
    expect(routes.get(`GET ${mcpDocument}`)).toBe(mcpDocument);
    const preflight = await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'OPTIONS' });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('*');
    expect(routes.get('OPTIONS /.well-known/oauth-protected-resource')).toBe('/.well-known/oauth-protected-resource');
  });

  it('answers HEAD with the GET\'s headers and no body', async () => {
    const get = await fetch(`${base}/.well-known/oauth-protected-resource`);
    const length = String(Buffer.byteLength(await get.text()));
    const head = await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(length);
    expect(head.headers.get('access-control-allow-origin')).toBe('*');
    expect(await head.text()).toBe('');
  });

  it('matches the paths as express\'s default router did: any case, one optional trailing slash', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/', '/.Well-Known/OAuth-Protected-Resource/MCP']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(routes.get('GET /.Well-Known/OAuth-Protected-Resource/MCP'))
      .toBe('/.well-known/oauth-protected-resource/mcp');
    expect((await fetch(`${base}/.well-known/oauth-protected-resource//`)).status).toBe(404);
  });

  it('lets every other method through, as the router did', async () => {
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'POST' })).status).toBe(404);
    expect(routes.get('POST /.well-known/oauth-protected-resource')).toBe('passed');
  });
});
