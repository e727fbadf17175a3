import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCOPES,
  oauthMetadataRouter,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  type OAuthMetadataOptions,
} from './oauth-metadata.js';

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
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(oauthMetadataRouter({ baseUrl: 'https://am.example.com', issuer: 'https://dex.example.com', mcpPath: '/mcp', scopesSupported: DEFAULT_SCOPES.google }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
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
});
