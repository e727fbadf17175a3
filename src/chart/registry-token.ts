/**
 * Registry tokens (the distribution token flow): parsing the `WWW-Authenticate: Bearer …`
 * challenge and a cache of the tokens its realm hands out, one per scope, kept until 10 s
 * before they expire (`expires_in`, 60 s when absent). A token is asked for anonymously, with
 * the configured user and password as HTTP Basic (what `docker login` does), or, for an
 * identity token, by the OAuth2 refresh-token grant (`POST`, as Azure Container Registry
 * wants). Tokens and credentials are secrets: they never reach an error message or a log line.
 */
import { asObject, type JsonObject } from '../core/json.js';
import { describeFetchError, readCapped } from './http-body.js';
import { basicAuthorization, type RegistryCredentials } from './registry-credentials.js';

/** What a `Bearer` challenge asks for. */
export interface BearerChallenge {
  realm: string;
  service?: string;
  scope?: string;
}

const DEFAULT_EXPIRES_IN_S = 60;
const EXPIRY_MARGIN_MS = 10_000;
const MAX_TOKEN_BODY = 1024 * 1024;

/** The challenge's realm, service and scope; undefined unless it is `Bearer` with a realm. */
export function bearerChallenge(header: string): BearerChallenge | undefined {
  const m = /^\s*bearer\s+(.*)$/is.exec(header);
  if (!m) return undefined;
  const [, list = ''] = m;
  const params: Record<string, string> = {};
  const re = /([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let p = re.exec(list); p; p = re.exec(list)) {
    const [, key = '', quoted, bare = ''] = p;
    params[key.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : bare;
  }
  if (!params.realm) return undefined;
  return { realm: params.realm, service: params.service || undefined, scope: params.scope || undefined };
}

interface Entry {
  token: string;
  /** ms since the epoch after which the token is not sent any more. */
  until: number;
}

export interface TokenCacheOptions {
  fetch: typeof fetch;
  /** The credentials to ask with; anonymous when absent or undefined. */
  credentials?: () => RegistryCredentials | undefined;
  now: () => number;
  timeoutMs: number;
}

/** Tokens per scope, each fetched once and reused until shortly before it expires. */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  /** One token request per scope at a time. */
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly options: TokenCacheOptions) {}

  /** A token for `scope` that is still good, if one is cached. */
  cached(scope: string): string | undefined {
    const entry = this.entries.get(scope);
    if (!entry) return undefined;
    if (this.options.now() < entry.until) return entry.token;
    this.entries.delete(scope);
    return undefined;
  }

  /**
   * A fresh token from `GET <realm>?service=&scope=`; `refused` (a token the registry just
   * answered 401 to) is forgotten first. Errors: `token endpoint <realm>: HTTP <n>`.
   */
  async fetch(
    realm: string, service: string | undefined, scope: string, refused?: string, signal?: AbortSignal,
  ): Promise<string> {
    const entry = this.entries.get(scope);
    if (entry && refused !== undefined && entry.token === refused) this.entries.delete(scope);
    const good = this.cached(scope);
    if (good !== undefined && good !== refused) return good;
    let pending = this.pending.get(scope);
    if (!pending) {
      pending = this.request(realm, service, scope, signal).finally(() => this.pending.delete(scope));
      this.pending.set(scope, pending);
    }
    return pending;
  }

  private async request(
    realm: string, service: string | undefined, scope: string, signal?: AbortSignal,
  ): Promise<string> {
    const creds = this.options.credentials?.();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let res: Response;
    try {
      res = await this.options.fetch(
        ...tokenRequest(realm, service, scope, creds, signal ? AbortSignal.any([signal, timeout]) : timeout),
      );
    } catch (err) {
      throw new Error(`token endpoint ${realm}: ${describeFetchError(err, this.options.timeoutMs)}`, { cause: err });
    }
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status === 401 || res.status === 403) {
        throw new Error(creds
          ? `token endpoint ${realm} refused the configured credentials (HTTP ${res.status})`
          : `token endpoint ${realm} refused anonymous access (HTTP ${res.status}): ${CONFIGURE_CREDENTIALS}`);
      }
      throw new Error(`token endpoint ${realm}: HTTP ${res.status}`);
    }
    const body = parseTokenBody((await readCapped(res, MAX_TOKEN_BODY, `token endpoint ${realm}`)).toString('utf8'));
    if (!body) throw new Error(`token endpoint ${realm}: the answer carries no token`);
    const expiresIn = body.expiresIn > 0 ? body.expiresIn : DEFAULT_EXPIRES_IN_S;
    this.entries.set(scope, { token: body.token, until: this.options.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS });
    return body.token;
  }
}

/** What to tell an operator whose registry wants credentials. */
export const CONFIGURE_CREDENTIALS =
  'configure credentials with --agent-chart-docker-config, --agent-chart-username and --agent-chart-password, or ' +
  '--agent-chart-token';

/** The token request for one credential form: GET (anonymous or Basic) or the refresh-token POST. */
function tokenRequest(
  realm: string, service: string | undefined, scope: string, creds: RegistryCredentials | undefined,
  signal: AbortSignal,
): [URL, RequestInit] {
  const url = new URL(realm);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'agent-manager' };
  if (creds?.kind === 'identityToken') {
    const form = new URLSearchParams({
      grant_type: 'refresh_token', client_id: 'agent-manager', refresh_token: creds.refreshToken, scope,
    });
    if (service) form.set('service', service);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return [url, { method: 'POST', headers, body: form.toString(), signal }];
  }
  if (service) url.searchParams.set('service', service);
  url.searchParams.set('scope', scope);
  if (creds?.kind === 'basic') headers.authorization = basicAuthorization(creds);
  return [url, { headers, signal }];
}

function parseTokenBody(text: string): { token: string; expiresIn: number } | undefined {
  let body: JsonObject;
  try {
    body = asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
  const token = typeof body.token === 'string' && body.token ? body.token : body.access_token;
  if (typeof token !== 'string' || !token) return undefined;
  return { token, expiresIn: typeof body.expires_in === 'number' ? body.expires_in : 0 };
}
