import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { KUBE_REQUEST_TIMEOUT_MS, makeKubeApis, type KubeApis } from './api-clients.js';
import { ClientNodeKube } from './client-node-kube.js';

const AGENTS = { group: 'kagent.dev', version: 'v1alpha2', resource: 'agents', kind: 'Agent' };

/** A loopback TCP server that accepts connections and never says a byte: a hung API server. */
async function silentServer(): Promise<{ url: (scheme: string) => string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'hung', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token-value' }],
    contexts: [{ name: 'hung', cluster: 'hung', user: 'u' }],
    currentContext: 'hung',
  });
  return kc;
}

describe('makeKubeApis', () => {
  let cleanup: (() => Promise<void>) | undefined;
  let apis: KubeApis | undefined;
  afterEach(async () => {
    apis?.close();
    await cleanup?.();
    apis = undefined;
    cleanup = undefined;
  });

  it('gives every request a 30 s deadline unless told otherwise', () => {
    apis = makeKubeApis(kubeConfig('https://127.0.0.1:1'));
    expect(apis.requestTimeoutMs).toBe(KUBE_REQUEST_TIMEOUT_MS);
    expect(KUBE_REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it.each([
    ['https', 'the TLS handshake never completes'],
    ['http', 'the request is never answered'],
  ])('fails a call to a hung API server (%s: %s) as a 504 backend error naming the call', async (scheme) => {
    const server = await silentServer();
    cleanup = server.close;
    apis = makeKubeApis(kubeConfig(server.url(scheme)), { requestTimeoutMs: 150 });
    const kube = new ClientNodeKube(apis);

    const failure = await kube.get(AGENTS, 'kagent', 'sre').then(() => undefined, (err: unknown) => err);

    expect(failure).toMatchObject({ code: 'backend_error', status: 504 });
    const message = (failure as Error).message;
    expect(message).toBe(
      'get agent kagent/sre: the Kubernetes API server did not answer within 0.15s; check that it is reachable and healthy, then retry',
    );
    expect(message).not.toContain('secret-token-value');
  });

  it('fails every verb of the port the same way, not only reads', async () => {
    const server = await silentServer();
    cleanup = server.close;
    apis = makeKubeApis(kubeConfig(server.url('http')), { requestTimeoutMs: 100 });
    const kube = new ClientNodeKube(apis);
    const object = { apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'sre', namespace: 'kagent' } };

    const failures = await Promise.all([
      kube.list(AGENTS, 'kagent').catch((err: Error) => err.message),
      kube.create(AGENTS, object).catch((err: Error) => err.message),
      kube.replace(AGENTS, object).catch((err: Error) => err.message),
      kube.remove(AGENTS, 'kagent', 'sre').catch((err: Error) => err.message),
    ]);

    expect(failures.map((m) => String(m).split(':')[0])).toEqual([
      'list agents in kagent', 'create agent kagent/sre', 'update agent kagent/sre', 'delete agent kagent/sre',
    ]);
    for (const message of failures) expect(message).toContain('did not answer within 0.1s');
  });

  it('reuses pooled TLS connections instead of a handshake per request, with the token on each', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    let connections = 0;
    const authorizations: (string | undefined)[] = [];
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      authorizations.push(req.headers.authorization);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'sre', namespace: 'kagent' } }));
    });
    server.on('secureConnection', () => { connections += 1; });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
    const { port } = server.address() as net.AddressInfo;
    apis = makeKubeApis(kubeConfig(`https://127.0.0.1:${port}`));
    const kube = new ClientNodeKube(apis);

    for (let i = 0; i < 20; i += 1) expect(await kube.get(AGENTS, 'kagent', 'sre')).toMatchObject({ kind: 'Agent' });

    // undici may open a second socket while the first is still being released; a
    // handshake per request would be 20.
    expect(connections).toBeLessThanOrEqual(2);
    expect(authorizations).toEqual(Array(20).fill('Bearer secret-token-value'));
  });

  it('asks the kubeconfig for its headers on every read (a rotated token is sent) but builds a dispatcher only for the first', async () => {
    const authorizations: (string | undefined)[] = [];
    const impersonated: (string | string[] | undefined)[] = [];
    // TLS, as the kept dispatcher exists only for https:// (http:// stays on fetch's own pool).
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', algorithm: 'sha256' });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      authorizations.push(req.headers.authorization);
      impersonated.push(req.headers['impersonate-user']);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'AgentList', items: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
    const { port } = server.address() as net.AddressInfo;
    let token = 'first-token';
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `https://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u', impersonateUser: 'alice', authProvider: { name: 'rotating', config: {} } }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    kc.addAuthenticator({
      isAuthProvider: (user) => user.authProvider?.name === 'rotating',
      applyAuthentication: async (_user, opts) => {
        opts.headers = { ...opts.headers, Authorization: `Bearer ${token}` };
      },
    });
    // The library's full step (which builds a dispatcher) runs for the first read only.
    let dispatchersBuilt = 0;
    const full = kc.applySecurityAuthentication.bind(kc);
    kc.applySecurityAuthentication = (context) => {
      dispatchersBuilt += 1;
      return full(context);
    };
    apis = makeKubeApis(kc);

    await apis.listObjects(AGENTS, 'kagent');
    await apis.readObject(AGENTS, 'kagent', 'sre');
    token = 'second-token';
    await apis.listObjects(AGENTS, 'kagent');

    expect(authorizations).toEqual(['Bearer first-token', 'Bearer first-token', 'Bearer second-token']);
    expect(impersonated).toEqual(['alice', 'alice', 'alice']);
    expect(dispatchersBuilt).toBe(1);
  });

  it('reads a CA file for the dispatcher only, not on every read, and sends a username as Basic', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec', algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const authorizations: (string | undefined)[] = [];
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      authorizations.push(req.headers.authorization);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'AgentList', items: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'am-ca-'));
    cleanup = () => new Promise((resolve) => {
      rmSync(dir, { recursive: true, force: true });
      server.closeAllConnections();
      server.close(() => resolve());
    });
    const caFile = join(dir, 'ca.crt');
    writeFileSync(caFile, pems.cert);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, caFile }],
      users: [{ name: 'u', username: 'admin', password: 'pa55' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    apis = makeKubeApis(kc);

    await apis.listObjects(AGENTS, 'kagent');
    // Gone after the first read: a read that still loaded the TLS material would fail here.
    rmSync(caFile);
    await apis.listObjects(AGENTS, 'kagent');

    expect(authorizations).toEqual(Array(2).fill(`Basic ${Buffer.from('admin:pa55').toString('base64')}`));
  });
});
