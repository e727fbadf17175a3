/**
 * The OCI half of skill pinning against a real docker-registry: a tag's digest from a HEAD,
 * an image index pinned as the index, the sha256 of the manifest when the registry sends no
 * digest header, and the chart registry's credentials presented to that registry only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OCI_INDEX, OCI_MANIFEST } from '../chart/registry-client.js';
import { pushChart, sha256 } from '../../test/support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../../test/support/chart/registry-server.js';
import { OciDigestResolver } from './oci-digest-resolver.js';

const registry = registryTestMode();

/** A fetch that records each request's method and Authorization, and can drop the digest header. */
function recording(options: { dropDigest?: boolean } = {}) {
  const calls: Array<{ method: string; authorization: string | null }> = [];
  const wrapped = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    calls.push({ method: init?.method ?? 'GET', authorization: new Headers(init?.headers).get('authorization') });
    const res = await fetch(input, init);
    if (!options.dropDigest) return res;
    const headers = new Headers(res.headers);
    headers.delete('docker-content-digest');
    return new Response(res.body, { status: res.status, headers });
  }) as typeof fetch;
  return { calls, fetch: wrapped };
}

describe.skipIf(registry.mode === 'skip')('OciDigestResolver against docker-registry', () => {
  let server: RegistryServer;
  let manifestDigest: string;
  let indexDigest: string;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry();
    ({ manifestDigest } = await pushChart({ registryUrl: server.url, repository: 'skills/runbooks', tag: '1.4.0', chart: { version: '1.4.0' } }));
    const index = Buffer.from(JSON.stringify({
      schemaVersion: 2, mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: manifestDigest, size: 1, platform: { architecture: 'amd64', os: 'linux' } }],
    }));
    const put = await fetch(`${server.url}/v2/skills/runbooks/manifests/multi`, { method: 'PUT', headers: { 'content-type': OCI_INDEX }, body: index });
    expect(put.status).toBe(201);
    indexDigest = sha256(index);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes a tag\'s digest from one HEAD', async () => {
    const rec = recording();
    const digest = await new OciDigestResolver({ fetch: rec.fetch }).ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: '1.4.0' });
    expect(digest).toBe(manifestDigest);
    expect(rec.calls.map((c) => c.method)).toEqual(['HEAD']);
  });

  it('pins a multi-platform tag to its image index, as a pull resolves it', async () => {
    expect(await new OciDigestResolver().ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: 'multi' })).toBe(indexDigest);
  });

  it('hashes the manifest when the registry sends no digest header', async () => {
    const rec = recording({ dropDigest: true });
    const digest = await new OciDigestResolver({ fetch: rec.fetch }).ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: '1.4.0' });
    expect(digest).toBe(manifestDigest);
    expect(rec.calls.map((c) => c.method)).toEqual(['HEAD', 'GET']);
  });

  it('presents the chart registry credentials only to the chart registry', async () => {
    const source = () => ({ kind: 'bearer' as const, token: 'chart-token' });
    const same = recording();
    await new OciDigestResolver({ fetch: same.fetch, credentials: { registry: server.host, source } })
      .ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: '1.4.0' });
    expect(same.calls.map((c) => c.authorization)).toEqual(['Bearer chart-token']);
    const other = recording();
    await new OciDigestResolver({ fetch: other.fetch, credentials: { registry: 'gsoci.azurecr.io', source } })
      .ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: '1.4.0' });
    expect(other.calls.map((c) => c.authorization)).toEqual([null]);
  });

  it('answers a missing tag as the caller\'s to fix (400) and an unreachable registry as a backend error (502)', async () => {
    await expect(new OciDigestResolver().ociDigest({ registry: server.host, repository: 'skills/runbooks', tag: 'nope' }))
      .rejects.toMatchObject({ code: 'invalid_request' });
    const down = await startRegistry();
    const host = down.host;
    await down.close();
    await expect(new OciDigestResolver().ociDigest({ registry: host, repository: 'skills/runbooks', tag: '1.4.0' }))
      .rejects.toMatchObject({ code: 'backend_error' });
  });
});
