/**
 * Test helpers that make agent charts in code and push them to a real registry the way
 * `helm push` does: a chart archive (`<name>/Chart.yaml`, `values.yaml`, optionally
 * `values.schema.json`) as tar+gzip, two blobs uploaded monolithically (POST then PUT with
 * the digest), then an OCI manifest whose config is `application/vnd.cncf.helm.config.v1+json`.
 * Plain fetch, answering the registry's bearer challenge like any client.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { stringify } from 'yaml';
import { HELM_CHART_LAYER, HELM_CONFIG, OCI_MANIFEST } from '../../../src/chart/registry-client.js';
import { basicAuthorization } from '../../../src/chart/registry-credentials.js';
import { bearerChallenge } from '../../../src/chart/registry-token.js';

/** One file of an archive; `type` other than File makes a directory or a symlink. */
export interface ArchiveEntry {
  path: string;
  content?: string | Buffer;
  type?: 'File' | 'Directory' | 'SymbolicLink';
  linkpath?: string;
}

/** A tar+gzip archive of the entries, built in memory with tar's header encoder. */
export function tarGz(entries: ArchiveEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? 'File';
    const data = type === 'File' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
    const header = new Header({
      path: entry.path,
      mode: type === 'Directory' ? 0o755 : 0o644,
      size: data.length,
      type,
      linkpath: entry.linkpath,
      mtime: new Date('2025-01-01T00:00:00Z'),
      uid: 0,
      gid: 0,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export interface ChartSpec {
  name?: string;
  version: string;
  /** The values.schema.json; left out of the archive when undefined. */
  schema?: Record<string, unknown>;
  /** Prefix every path with `./`, as some packagers do. */
  dotSlash?: boolean;
}

/** A packaged chart: `<name>/Chart.yaml`, `<name>/values.yaml` and the schema when given. */
export function chartArchive(spec: ChartSpec): Buffer {
  const name = spec.name ?? 'agent';
  const prefix = `${spec.dotSlash ? './' : ''}${name}`;
  const entries: ArchiveEntry[] = [
    { path: `${prefix}/Chart.yaml`, content: stringify(chartMetadata(name, spec.version)) },
    { path: `${prefix}/values.yaml`, content: stringify({ agent: { name: '', runtime: 'python' } }) },
  ];
  if (spec.schema) entries.push({ path: `${prefix}/values.schema.json`, content: JSON.stringify(spec.schema, null, 2) });
  return tarGz(entries);
}

function chartMetadata(name: string, version: string): Record<string, string> {
  return { apiVersion: 'v2', name, version, appVersion: version, description: 'agent chart built by a test', type: 'application' };
}

export interface PushOptions {
  /** `http://127.0.0.1:<port>`. */
  registryUrl: string;
  repository: string;
  tag: string;
  /** The layer bytes (default: a chart archive of `chart`). */
  layer?: Buffer;
  chart?: ChartSpec;
  /** Default: the Helm chart layer type. */
  layerMediaType?: string;
  /** HTTP Basic credentials for a registry in htpasswd mode, sent with every request. */
  basicAuth?: { username: string; password: string };
}

/** Pushes one chart version; returns the layer's digest. */
export async function pushChart(options: PushOptions): Promise<{ layerDigest: string; manifestDigest: string }> {
  const client = new PushClient(options.registryUrl, options.repository, options.basicAuth);
  const version = options.chart?.version ?? options.tag;
  const layer = options.layer ?? chartArchive(options.chart ?? { version });
  const config = Buffer.from(JSON.stringify(chartMetadata(options.chart?.name ?? 'agent', version)));
  const configDigest = await client.uploadBlob(config);
  const layerDigest = await client.uploadBlob(layer);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: HELM_CONFIG, digest: configDigest, size: config.length },
      layers: [{ mediaType: options.layerMediaType ?? HELM_CHART_LAYER, digest: layerDigest, size: layer.length }],
    }),
  );
  await client.send('PUT', `/manifests/${encodeURIComponent(options.tag)}`, manifest, OCI_MANIFEST, 201);
  return { layerDigest, manifestDigest: sha256(manifest) };
}

/** `sha256:<hex>` of the bytes. */
export function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

class PushClient {
  private token: string | undefined;

  constructor(
    private readonly registryUrl: string,
    private readonly repository: string,
    private readonly basicAuth?: { username: string; password: string },
  ) {}

  async uploadBlob(bytes: Buffer): Promise<string> {
    const digest = sha256(bytes);
    const started = await this.send('POST', '/blobs/uploads/', undefined, undefined, 202);
    const location = new URL(started.headers.get('location') ?? '', this.registryUrl);
    location.searchParams.set('digest', digest);
    await this.send('PUT', location.href, bytes, 'application/octet-stream', 201);
    return digest;
  }

  /** A request to `/v2/<repo><path>` (or an absolute URL), with one bearer challenge answered. */
  async send(
    method: string, path: string, body: Buffer | undefined, contentType: string | undefined, expected: number,
  ): Promise<Response> {
    const url = path.startsWith('http') ? path : `${this.registryUrl}/v2/${this.repository}${path}`;
    const request = (): Promise<Response> => {
      const headers: Record<string, string> = {};
      if (contentType) headers['content-type'] = contentType;
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      else if (this.basicAuth) headers.authorization = basicAuthorization(this.basicAuth);
      return fetch(url, { method, headers, body });
    };
    let res = await request();
    if (res.status === 401) {
      await res.body?.cancel();
      this.token = await this.fetchToken(res.headers.get('www-authenticate') ?? '');
      res = await request();
    }
    if (res.status !== expected) {
      throw new Error(`push: ${method} ${url}: HTTP ${res.status} (wanted ${expected}): ${await res.text()}`);
    }
    await res.body?.cancel();
    return res;
  }

  private async fetchToken(header: string): Promise<string> {
    const challenge = bearerChallenge(header);
    if (!challenge) throw new Error(`push: registry answered 401 without a bearer challenge: ${header}`);
    const url = new URL(challenge.realm);
    if (challenge.service) url.searchParams.set('service', challenge.service);
    url.searchParams.set('scope', challenge.scope ?? `repository:${this.repository}:pull,push`);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`push: token endpoint: HTTP ${res.status}`);
    const body = (await res.json()) as { token?: string; access_token?: string };
    return body.token ?? body.access_token ?? '';
  }
}
