import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startConnectProxy, type TestProxy } from '../../test/support/connect-proxy.js';
import { createIdpFetch, guardedLookup, IdpFetchError, MAX_IDP_RESPONSE_BYTES, readCaFile } from './idp-fetch.js';
import { startFakeIssuer, type FakeIssuer } from '../../test/support/identity/fake-issuer.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    else if (req.url === '/huge') res.writeHead(200).end(Buffer.alloc(MAX_IDP_RESPONSE_BYTES + 1, 'a'));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ua: req.headers['user-agent'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createIdpFetch', () => {
  const fetchImpl = createIdpFetch({ allowPrivate: true });

  it('answers a Response with the status and JSON body', async () => {
    const res = await fetchImpl(`${base}/doc`);
    expect(res.status).toBe(200);
    await expect(res.json()).resolves.toEqual({ ua: 'agent-manager' });
  });

  it('does not follow redirects', async () => {
    await expect(fetchImpl(`${base}/redirect`)).rejects.toThrow(/answered a redirect \(302\); redirects are not followed/);
  });

  it('refuses a body over 1 MiB', async () => {
    await expect(fetchImpl(`${base}/huge`)).rejects.toThrow(IdpFetchError);
  });

  it('refuses loopback URLs unless private addresses are allowed', async () => {
    await expect(createIdpFetch({ allowPrivate: false })(`${base}/doc`)).rejects.toThrow(/--allow-private-oauth-urls/);
  });
});

describe('guardedLookup', () => {
  const resolve = (allowPrivate: boolean, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((done) =>
      guardedLookup(allowPrivate)('localhost', { all, family: 4 }, (err, address) => done({ err, address })),
    );

  it('refuses a host name that resolves to a private address', async () => {
    const { err } = await resolve(false, false);
    expect(err?.message).toMatch(/^localhost resolves to the private address 127\.0\.0\.1; set --allow-private-oauth-urls/);
  });

  it('answers the addresses when private addresses are allowed', async () => {
    expect(await resolve(true, false)).toEqual({ err: null, address: '127.0.0.1' });
    expect(await resolve(true, true)).toEqual({ err: null, address: [{ address: '127.0.0.1', family: 4 }] });
  });
});

describe('readCaFile', () => {
  it('refuses a file without a PEM certificate, naming the flag', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ca-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'ca.pem');
    await writeFile(path, 'not a certificate');
    expect(() => readCaFile(path)).toThrow(`invalid request: --dex-ca-file ${path}: no PEM certificate in it`);
  });
});

describe('createIdpFetch behind a proxy', () => {
  let proxy: TestProxy;
  let issuer: FakeIssuer;
  beforeAll(async () => {
    proxy = await startConnectProxy();
    issuer = await startFakeIssuer({ tls: true });
  });
  afterAll(async () => {
    await issuer?.close();
    await proxy?.close();
  });

  const discovery = (): string => `${issuer.url}/.well-known/openid-configuration`;

  it('tunnels an https identity provider through HTTPS_PROXY, trusting the configured CA inside the tunnel', async () => {
    proxy.tunnels.length = 0;
    const fetchImpl = createIdpFetch({ caPem: issuer.caPem, allowPrivate: true, proxy: { httpsProxy: proxy.url, httpProxy: '', noProxy: '' } });
    const res = await fetchImpl(discovery());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { issuer: string }).issuer).toBe(issuer.url);
    expect(proxy.tunnels).toEqual([new URL(issuer.url).host]);
  });

  it('goes direct to a host NO_PROXY lists', async () => {
    proxy.tunnels.length = 0;
    const fetchImpl = createIdpFetch({ caPem: issuer.caPem, allowPrivate: true, proxy: { httpsProxy: proxy.url, httpProxy: '', noProxy: '127.0.0.1' } });
    expect((await fetchImpl(discovery())).status).toBe(200);
    expect(proxy.tunnels).toEqual([]);
  });

  it('still refuses a private or loopback provider without --allow-private-oauth-urls, before the proxy sees it', async () => {
    proxy.tunnels.length = 0;
    const fetchImpl = createIdpFetch({ caPem: issuer.caPem, allowPrivate: false, proxy: { httpsProxy: proxy.url, httpProxy: '', noProxy: '' } });
    const url = discovery().replace('127.0.0.1', 'localhost');
    await expect(fetchImpl(url)).rejects.toThrow(/refusing to fetch .*private or loopback address; set --allow-private-oauth-urls/);
    expect(proxy.tunnels).toEqual([]);
  });
});
