import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOciReference } from './oci-reference.js';
import { readChartSchema } from './read-chart-schema.js';
import { RegistryClient } from './registry-client.js';
import { schemaWithToolset, schemaWithoutToolset } from '../../test/support/chart/chart-schemas.js';
import { pushChart } from '../../test/support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../../test/support/chart/registry-server.js';

const REPO = 'charts/agent';
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED registry-client suites against a real registry: ${registry.reason}`);

const requireRegistry = (): void => {
  if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
};

describe.skipIf(registry.mode === 'skip')('RegistryClient against docker-registry', () => {
  let server: RegistryServer;
  let client: RegistryClient;
  let tamperedDigest: string;

  beforeAll(async () => {
    requireRegistry();
    server = await startRegistry();
    const push = (tag: string, extra: Partial<Parameters<typeof pushChart>[0]> = {}) =>
      pushChart({ registryUrl: server.url, repository: REPO, tag, ...extra });
    await push('0.5.2', { chart: { version: '0.5.2', schema: schemaWithoutToolset('0.5.2') } });
    await push('0.6.0', { chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
    await push('0.7.0-rc.1', { chart: { version: '0.7.0-rc.1', schema: schemaWithToolset('0.7.0-rc.1') } });
    await push('artifacthub.io', { chart: { version: '0.0.1', schema: {} } });
    await push('no-layer', { layerMediaType: 'application/vnd.oci.image.layer.v1.tar+gzip' });
    await push('no-schema', { chart: { version: '0.0.2' } });
    await push('dot-slash', { chart: { version: '0.0.3', schema: schemaWithToolset('0.0.3'), dotSlash: true } });
    tamperedDigest = (await push('tampered', { chart: { version: '0.0.4', schema: schemaWithToolset('0.0.4') } })).layerDigest;
    client = new RegistryClient(parseOciReference(server.ociUrl(REPO)));
  });
  afterAll(async () => {
    await server?.close();
  });

  const ALL_TAGS = ['0.5.2', '0.6.0', '0.7.0-rc.1', 'artifacthub.io', 'dot-slash', 'no-layer', 'no-schema', 'tampered'];

  it('lists every tag of the repository', async () => {
    expect((await client.listTags()).sort()).toEqual(ALL_TAGS);
  });

  it('follows Link pagination page by page', async () => {
    const paged = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { tagPageSize: 3 });
    expect((await paged.listTags()).sort()).toEqual(ALL_TAGS);
  });

  it('reads the values schema of a chart version through manifest, layer and blob', async () => {
    const schema = await readChartSchema(client, '0.6.0');
    expect(schema.title).toBe('agent chart 0.6.0 values (test registry)');
    expect(schema.properties).toHaveProperty('toolset');
  });

  it('finds the schema under a leading ./ in the archive', async () => {
    expect((await readChartSchema(client, 'dot-slash')).title).toBe('agent chart 0.0.3 values (test registry)');
  });

  it('refuses a manifest without a Helm chart layer with the documented text', async () => {
    await expect(readChartSchema(client, 'no-layer')).rejects.toThrow(
      'charts/agent:no-layer has no Helm chart layer (application/vnd.oci.image.layer.v1.tar+gzip)',
    );
  });

  it('says when the chart has no values.schema.json', async () => {
    await expect(readChartSchema(client, 'no-schema')).rejects.toThrow('agent/values.schema.json not found in chart archive');
  });

  it('reports a registry error as METHOD url: HTTP n: body', async () => {
    await expect(client.manifest('9.9.9')).rejects.toThrow(
      new RegExp(`^GET ${server.url}/v2/charts/agent/manifests/9\\.9\\.9: HTTP 404: \\{"errors":\\[\\{"code":"MANIFEST_UNKNOWN"`),
    );
    const missing = new RegistryClient(parseOciReference(server.ociUrl('charts/none')));
    await expect(missing.listTags()).rejects.toThrow(/: HTTP 404: .*NAME_UNKNOWN/);
  });

  it('refuses a blob whose bytes do not hash to its digest', async () => {
    const path = server.blobDataPath(tamperedDigest);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 0xff; // same length, different content
    writeFileSync(path, bytes);
    await expect(readChartSchema(client, 'tampered')).rejects.toThrow(
      new RegExp(`content digest sha256:[0-9a-f]{64} does not match ${tamperedDigest}`),
    );
  });

  it('refuses a blob larger than the cap before reading it', async () => {
    const manifest = await client.manifest('0.6.0');
    await expect(client.blob(manifest.layers[0]!, 10)).rejects.toThrow(/is \d+ bytes, more than the 10 allowed/);
    await expect(client.blob({ digest: manifest.layers[0]!.digest }, 10)).rejects.toThrow(/answer larger than 10 bytes/);
  });

  it('refuses a digest that is not sha256', async () => {
    await expect(client.blob({ digest: 'md5:abc' }, 100)).rejects.toThrow('blob digest "md5:abc" is not sha256:<64 hex digits>');
  });

  it('names the connection failure when the registry is down', async () => {
    const down = await startRegistry();
    const url = down.ociUrl(REPO);
    await down.close();
    await expect(new RegistryClient(parseOciReference(url)).listTags()).rejects.toThrow(
      new RegExp(`^GET http://${down.host}/v2/charts/agent/tags/list\\?n=1000: connect ECONNREFUSED`),
    );
  });
});

describe.skipIf(registry.mode === 'skip')('RegistryClient against a bearer-token registry', () => {
  let server: RegistryServer;

  beforeAll(async () => {
    requireRegistry();
    server = await startRegistry({ auth: 'token' });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the challenge with one anonymous token and reuses it for every request', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)));
    expect(await client.listTags()).toEqual(['0.6.0']);
    expect((await readChartSchema(client, '0.6.0')).title).toBe('agent chart 0.6.0 values (test registry)');
    expect(await client.listTags()).toEqual(['0.6.0']);
    expect(tokens.requests).toEqual([{ service: tokens.service, scope: `repository:${REPO}:pull`, method: 'GET', authorization: null }]);
  });

  it('fetches a new token once the cached one is within 10 s of expiring', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    tokens.expiresIn = 30;
    let now = 1_000_000;
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { now: () => now });
    try {
      await client.listTags();
      now += 19_000;
      await client.listTags();
      expect(tokens.requests).toHaveLength(1);
      now += 2_000; // 21 s: inside the 10 s margin of a 30 s token
      await client.listTags();
      expect(tokens.requests).toHaveLength(2);
    } finally {
      tokens.expiresIn = 300;
    }
  });

  it('uses 60 s when the token endpoint gives no expires_in', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    tokens.expiresIn = 0;
    let now = 1_000_000;
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { now: () => now });
    try {
      await client.listTags();
      now += 49_000;
      await client.listTags();
      expect(tokens.requests).toHaveLength(1);
      now += 2_000;
      await client.listTags();
      expect(tokens.requests).toHaveLength(2);
    } finally {
      tokens.expiresIn = 300;
    }
  });

  it('reports a failing token endpoint as token endpoint <realm>: HTTP n', async () => {
    const tokens = server.tokens!;
    tokens.failWith = 503;
    try {
      const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)));
      await expect(client.listTags()).rejects.toThrow(`token endpoint ${tokens.realm}: HTTP 503`);
    } finally {
      tokens.failWith = undefined;
    }
  });
});

describe.skipIf(registry.mode === 'skip')('RegistryClient against a Basic-auth registry', () => {
  const account = { username: 'puller', password: 'pull-secret-1' };
  let server: RegistryServer;
  beforeAll(async () => {
    requireRegistry();
    server = await startRegistry({ auth: 'htpasswd', users: [account] });
    await pushChart({
      registryUrl: server.url, repository: REPO, tag: '0.6.0', basicAuth: account,
      chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads tags and the schema with the configured user name and password', async () => {
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { credentials: () => ({ kind: 'basic', ...account }) });
    expect(await client.listTags()).toEqual(['0.6.0']);
    expect((await readChartSchema(client, '0.6.0')).properties).toHaveProperty('toolset');
  });

  it('says the registry refused anonymous access, and which flags configure credentials', async () => {
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)));
    await expect(client.listTags()).rejects.toThrow(
      `registry ${server.host} refused anonymous access (HTTP 401, Basic challenge): configure credentials with --agent-chart-docker-config`);
  });

  it('says the registry refused the configured credentials, without quoting them', async () => {
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), {
      credentials: () => ({ kind: 'basic', username: 'puller', password: 'wrong-password' }),
    });
    const error = await client.listTags().then(() => undefined, (err: Error) => err.message);
    expect(error).toBe(`registry ${server.host} refused the configured credentials (HTTP 401)`);
  });

  it('says a bearer token the registry does not take was refused', async () => {
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { credentials: () => ({ kind: 'bearer', token: 'not-for-this-registry' }) });
    await expect(client.listTags()).rejects.toThrow(`registry ${server.host} refused the configured credentials (HTTP 401)`);
  });
});

describe.skipIf(registry.mode === 'skip')('RegistryClient against a token-auth registry with credentials', () => {
  let server: RegistryServer;
  beforeAll(async () => {
    requireRegistry();
    server = await startRegistry({ auth: 'token' });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('logs in at the token endpoint with the user name and password as HTTP Basic', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { credentials: () => ({ kind: 'basic', username: 'ci', password: 'pw' }) });
    expect(await client.listTags()).toEqual(['0.6.0']);
    expect(tokens.requests).toEqual([{
      service: tokens.service, scope: `repository:${REPO}:pull`, method: 'GET', authorization: `Basic ${Buffer.from('ci:pw').toString('base64')}`,
    }]);
  });

  it('exchanges an identity token by the OAuth2 refresh-token grant', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { credentials: () => ({ kind: 'identityToken', refreshToken: 'refresh-me' }) });
    expect(await client.listTags()).toEqual(['0.6.0']);
    expect(tokens.requests).toMatchObject([{ method: 'POST', authorization: null }]);
  });

  it('says the token endpoint refused the configured credentials', async () => {
    const tokens = server.tokens!;
    tokens.failWith = 401;
    try {
      const client = new RegistryClient(parseOciReference(server.ociUrl(REPO)), { credentials: () => ({ kind: 'basic', username: 'ci', password: 'bad' }) });
      await expect(client.listTags()).rejects.toThrow(`token endpoint ${tokens.realm} refused the configured credentials (HTTP 401)`);
    } finally {
      tokens.failWith = undefined;
    }
  });
});

describe('RegistryClient against misbehaving loopback servers', () => {
  let fake: Server;
  let base: string;
  beforeAll(async () => {
    fake = createServer((req, res) => {
      if (req.url?.startsWith('/v2/hang/')) return; // never answers
      // A registry whose challenge names a plain-http realm on another host.
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="http://auth.example.com/token",service="x"' }).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    fake.closeAllConnections();
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });

  it('gives up on a request that gets no answer within its timeout', async () => {
    const client = new RegistryClient(parseOciReference(`oci://${base}/hang/agent`), { requestTimeoutMs: 100 });
    await expect(client.listTags()).rejects.toThrow(`GET http://${base}/v2/hang/agent/tags/list?n=1000: no answer within 0.1s`);
  });

  it('stops when the caller aborts', async () => {
    const client = new RegistryClient(parseOciReference(`oci://${base}/hang/agent`));
    const controller = new AbortController();
    const pending = client.listTags(controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow(`GET http://${base}/v2/hang/agent/tags/list?n=1000: aborted`);
  });

  it('never asks a plain-http token endpoint off loopback', async () => {
    const client = new RegistryClient(parseOciReference(`oci://${base}/${REPO}`));
    await expect(client.listTags()).rejects.toThrow('token endpoint http://auth.example.com/token: only https is allowed (plain http only on loopback)');
  });
});
