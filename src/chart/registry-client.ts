/**
 * A minimal OCI distribution client, enough to read a chart's values schema (tags, a manifest, a blob),
 * hand-written because npm has no well-kept TypeScript OCI client and the pull is four requests. Owns
 * the bearer-token dance (tokens cached per scope), `Link` pagination, size caps, timeouts and the
 * sha256 check of every blob. Trust boundary: all the registry answers is untrusted; credentials go only
 * to the chart's registry and the token endpoint it names (https, or http on loopback), Basic only
 * after the registry asks.
 */
import { createHash } from 'node:crypto';
import { goQuote } from '../core/go-quote.js';
import { asList, asObject, isJsonObject, type JsonObject } from '../core/json.js';
import { isLoopbackRegistry, type OciReference } from './oci-reference.js';
import { basicAuthorization, type CredentialSource, type RegistryCredentials } from './registry-credentials.js';
import { bearerChallenge, CONFIGURE_CREDENTIALS, TokenCache } from './registry-token.js';
import { readCapped, describeFetchError, quotable } from './http-body.js';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const HELM_CHART_LAYER = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
export const HELM_CONFIG = 'application/vnd.cncf.helm.config.v1+json';

const MIB = 1024 * 1024;
const MAX_TAGS_BODY = MIB;
const MAX_MANIFEST_BODY = 4 * MIB;
const MAX_ERROR_BODY = 4 * 1024;
/** Tag pages followed at most; 100 pages of 1000 is far beyond any chart's history. */
const MAX_TAG_PAGES = 100;

/** A content descriptor of a manifest. */
export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

/** An image manifest (OCI or Docker v2), the parts read here. */
export interface Manifest {
  mediaType?: string;
  config?: Descriptor;
  layers: Descriptor[];
}

export interface RegistryClientOptions {
  /** Cap on each request, including reading its body; default 30 s. */
  requestTimeoutMs?: number;
  /** The clock token lifetimes are measured with (ms since the epoch). */
  now?: () => number;
  fetch?: typeof fetch;
  /** Tags asked for per page (`?n=`); default 1000. */
  tagPageSize?: number;
  /** The credentials to present; anonymous pulls when absent. */
  credentials?: CredentialSource;
}

/** A registry's refusal or failure, with the HTTP status it answered (none: it was not reached). */
export class RegistryHttpError extends Error {
  override readonly name = 'RegistryHttpError';

  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** Reads one repository of one registry. */
export class RegistryClient {
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;
  private readonly tagPageSize: number;
  private readonly tokens: TokenCache;
  private readonly credentials: CredentialSource | undefined;
  /** Set once the registry asked for HTTP Basic: the credentials then go with every request. */
  private basicAuth = false;
  /** The scope the registry asked for last; its cached token is sent up front. */
  private scope: string;

  constructor(
    readonly ref: OciReference,
    options: RegistryClientOptions = {},
  ) {
    this.fetchFn = options.fetch ?? fetch;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.tagPageSize = options.tagPageSize ?? 1000;
    this.scope = `repository:${ref.repository}:pull`;
    this.credentials = options.credentials;
    this.tokens = new TokenCache({
      fetch: this.fetchFn, now: options.now ?? Date.now, timeoutMs: this.timeoutMs, credentials: options.credentials,
    });
  }

  /** Every tag of the repository, following `Link: <…>; rel="next"` pages. */
  async listTags(signal?: AbortSignal): Promise<string[]> {
    const tags: string[] = [];
    let url: string | undefined = `${this.ref.baseUrl}/v2/${this.ref.repository}/tags/list?n=${this.tagPageSize}`;
    for (let page = 0; url !== undefined; page++) {
      if (page === MAX_TAG_PAGES) throw new Error(`GET ${url}: more than ${MAX_TAG_PAGES} pages of tags`);
      const res = await this.get(url, 'application/json', signal);
      const body = await this.json(res, url, MAX_TAGS_BODY);
      if (body.tags != null && !Array.isArray(body.tags)) throw new Error(`GET ${url}: tags is not a list`);
      for (const tag of asList(body.tags)) if (typeof tag === 'string') tags.push(tag);
      url = nextLink(res.headers.get('link'), url);
    }
    return tags;
  }

  /** The image manifest a tag points at (OCI or Docker v2 media type). */
  async manifest(tag: string, signal?: AbortSignal): Promise<Manifest> {
    const url = `${this.ref.baseUrl}/v2/${this.ref.repository}/manifests/${encodeURIComponent(tag)}`;
    const res = await this.get(url, `${OCI_MANIFEST}, ${DOCKER_MANIFEST}`, signal);
    const body = await this.json(res, url, MAX_MANIFEST_BODY);
    const layers = asList(body.layers).filter(isDescriptor);
    const mediaType = typeof body.mediaType === 'string' ? body.mediaType
      : res.headers.get('content-type') ?? undefined;
    return { mediaType, config: isDescriptor(body.config) ? body.config : undefined, layers };
  }

  /**
   * The digest a tag points at now: `HEAD /v2/<repo>/manifests/<tag>` accepting image
   * indexes and manifest lists as well as image manifests (so a multi-platform image pins
   * to its index, as a pull would), taking `Docker-Content-Digest`; a registry that sends
   * no sha256 digest there gets a GET, and the digest is the sha256 of the manifest bytes
   * as served (the OCI distribution spec's definition).
   */
  async manifestDigest(tag: string, signal?: AbortSignal): Promise<string> {
    const url = `${this.ref.baseUrl}/v2/${this.ref.repository}/manifests/${encodeURIComponent(tag)}`;
    const accept = [OCI_INDEX, DOCKER_MANIFEST_LIST, OCI_MANIFEST, DOCKER_MANIFEST].join(', ');
    const head = await this.get(url, accept, signal, 'HEAD');
    await head.body?.cancel();
    const digest = head.headers.get('docker-content-digest')?.trim();
    if (digest && /^sha256:[0-9a-f]{64}$/.test(digest)) return digest;
    const bytes = await readCapped(await this.get(url, accept, signal), MAX_MANIFEST_BODY, `GET ${url}`);
    return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  }

  /** A blob's bytes, refused unless they hash to `digest` (sha256 only) and fit in `maxBytes`. */
  async blob(descriptor: Pick<Descriptor, 'digest'> & { size?: number }, maxBytes: number,
    signal?: AbortSignal): Promise<Buffer> {
    const { digest } = descriptor;
    const m = /^sha256:([0-9a-f]{64})$/.exec(digest);
    if (!m) throw new Error(`blob digest ${goQuote(digest)} is not sha256:<64 hex digits>`);
    if (descriptor.size !== undefined && descriptor.size > maxBytes) {
      throw new Error(`blob ${digest} is ${descriptor.size} bytes, more than the ${maxBytes} allowed`);
    }
    const url = `${this.ref.baseUrl}/v2/${this.ref.repository}/blobs/${digest}`;
    const res = await this.get(url, '*/*', signal);
    const bytes = await readCapped(res, maxBytes, `GET ${url}`);
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== m[1]) throw new Error(`GET ${url}: content digest sha256:${actual} does not match ${digest}`);
    return bytes;
  }

  /**
   * GET with what the registry took last (a cached token, or Basic credentials once it asked
   * for them), answering one challenge; non-2xx becomes a registry error that names the URL and status, and a refusal
   * says whether anonymous access or the configured credentials were refused.
   */
  private async get(url: string, accept: string, signal?: AbortSignal,
    method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
    const creds = this.credentials?.();
    let authorization = this.authorization(creds);
    let res = await this.send(url, accept, authorization, signal, method);
    if (res.status === 401 && creds?.kind !== 'bearer') {
      const header = res.headers.get('www-authenticate') ?? '';
      await res.body?.cancel();
      authorization = await this.answerChallenge(header, creds, authorization, signal);
      res = await this.send(url, accept, authorization, signal, method);
    }
    if (res.status === 401 || (res.status === 403 && creds)) {
      await res.body?.cancel();
      throw new RegistryHttpError(creds
        ? `registry ${this.ref.registry} refused the configured credentials (HTTP ${res.status})`
        : `registry ${this.ref.registry} refused anonymous access (HTTP ${res.status}): ${CONFIGURE_CREDENTIALS}`,
      res.status);
    }
    if (!res.ok) {
      const body = (await readCapped(res, MAX_ERROR_BODY, `${method} ${url}`, true)).toString('utf8').trim();
      throw new RegistryHttpError(`${method} ${url}: HTTP ${res.status}: ${quotable(body, 4096)}`, res.status);
    }
    return res;
  }

  /** The Authorization header to send up front, if any. */
  private authorization(creds: RegistryCredentials | undefined): string | undefined {
    if (creds?.kind === 'bearer') return `Bearer ${creds.token}`;
    if (this.basicAuth && creds?.kind === 'basic') return basicAuthorization(creds);
    const token = this.tokens.cached(this.scope);
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  /** The Authorization header that answers a 401's challenge (Basic with the credentials, or a fresh token). */
  private async answerChallenge(
    header: string, creds: RegistryCredentials | undefined, sent: string | undefined, signal?: AbortSignal,
  ): Promise<string> {
    if (/^\s*basic\b/i.test(header)) {
      if (creds?.kind !== 'basic') {
        throw new Error(creds
          ? `registry ${this.ref.registry} asks for a user name and password (HTTP Basic); the configured ` +
            `credentials have none`
          : `registry ${this.ref.registry} refused anonymous access (HTTP 401, Basic challenge): ` +
            `${CONFIGURE_CREDENTIALS}`);
      }
      this.basicAuth = true;
      return basicAuthorization(creds);
    }
    const challenge = bearerChallenge(header);
    if (!challenge) throw new Error(`registry answered 401 without a bearer realm (${goQuote(header)})`);
    checkRealm(challenge.realm, this.ref.registry);
    this.scope = challenge.scope ?? `repository:${this.ref.repository}:pull`;
    // A token that was just refused is dropped, so a revoked one is not sent again.
    const refused = sent?.startsWith('Bearer ') ? sent.slice('Bearer '.length) : undefined;
    return `Bearer ${await this.tokens.fetch(challenge.realm, challenge.service, this.scope, refused, signal)}`;
  }

  private async send(url: string, accept: string, authorization: string | undefined, signal?: AbortSignal,
    method = 'GET'): Promise<Response> {
    const headers: Record<string, string> = { accept, 'user-agent': 'agent-manager' };
    if (authorization) headers.authorization = authorization;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      return await this.fetchFn(url, {
        method, headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new Error(`${method} ${url}: ${describeFetchError(err, this.timeoutMs)}`, { cause: err });
    }
  }

  private async json(res: Response, url: string, maxBytes: number): Promise<JsonObject> {
    const text = (await readCapped(res, maxBytes, `GET ${url}`)).toString('utf8');
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null) throw new Error('not a JSON object');
      // A JSON list is let through as before, with no fields (asObject reads it as {}).
      return asObject(parsed);
    } catch (err) {
      throw new Error(`GET ${url}: answer is not JSON: ${quotable(err instanceof Error ? err.message : String(err))}`,
        { cause: err });
    }
  }
}

/** The first layer carrying a packaged Helm chart, or an error saying there is none. */
export function helmChartLayer(manifest: Manifest, repository: string, tag: string): Descriptor {
  const layer = manifest.layers.find((l) => l.mediaType === HELM_CHART_LAYER);
  if (layer) return layer;
  const seen = manifest.layers.map((l) => l.mediaType).join(', ') || 'no layers';
  throw new Error(`${repository}:${tag} has no Helm chart layer (${seen})`);
}

/** The absolute URL of a `Link: <…>; rel="next"` header, resolved against the current page. */
export function nextLink(header: string | null, current: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const [, target, params] = /^\s*<([^>]*)>\s*;(.*)$/.exec(part) ?? [];
    if (target !== undefined && params !== undefined && /(?:^|;)\s*rel="?next"?\s*(?:;|$)/i.test(params)) {
      const next = new URL(target, current);
      // Pagination stays on the registry it started on.
      return next.origin === new URL(current).origin ? next.href : undefined;
    }
  }
  return undefined;
}

function isDescriptor(value: unknown): value is Descriptor {
  return isJsonObject(value) && typeof value.mediaType === 'string' && typeof value.digest === 'string';
}

/** A token endpoint is spoken to over HTTPS, or plain HTTP when it is on loopback too. */
function checkRealm(realm: string, registry: string): void {
  let url: URL;
  try {
    url = new URL(realm);
  } catch {
    throw new Error(`registry ${registry} named a token endpoint that is not a URL: ${goQuote(realm)}`);
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackRegistry(url.host)) return;
  throw new Error(`token endpoint ${realm}: only https is allowed (plain http only on loopback)`);
}
