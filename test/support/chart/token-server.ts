/**
 * A small loopback token server for a registry in `auth.token` mode (the ghcr/ACR flow):
 * `GET /token?service=&scope=` (or a refresh-token grant POSTed as a form) answers `{token, access_token, expires_in}`
 * with an RS256 JWT whose header carries the signing certificate (`x5c`), which the registry checks against
 * its `rootcertbundle`. Every request is recorded so tests can count token fetches. It
 * grants any scope: it exists only for tests.
 */
import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { generate } from 'selfsigned';

export interface TokenServer {
  /** `http://127.0.0.1:<port>/token`. */
  readonly realm: string;
  readonly service: string;
  readonly issuer: string;
  /** PEM of the signing certificate, for the registry's rootcertbundle. */
  readonly certificatePem: string;
  /** Every token request, oldest first. */
  readonly requests: { service: string | null; scope: string | null; method: string; authorization: string | null }[];
  /** Lifetime put into `expires_in` (seconds); 0 leaves it out. */
  expiresIn: number;
  /** When set, every request answers this HTTP status instead of a token. */
  failWith: number | undefined;
  close(): Promise<void>;
}

/** Starts the token server on a free 127.0.0.1 port. */
export async function startTokenServer(options: { service?: string; issuer?: string } = {}): Promise<TokenServer> {
  const service = options.service ?? 'agent-manager-test-registry';
  const issuer = options.issuer ?? 'agent-manager-test-issuer';
  const pems = await generate([{ name: 'commonName', value: issuer }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 3600_000),
    notAfterDate: new Date(Date.now() + 7 * 24 * 3600_000),
  });
  const key = createPrivateKey(pems.private);
  const x5c = [new X509Certificate(pems.cert).raw.toString('base64')];
  const requests: TokenServer['requests'] = [];

  const state = { expiresIn: 300, failWith: undefined as number | undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/token') {
        res.writeHead(404).end();
        return;
      }
      // GET carries the parameters in the query; the OAuth2 refresh-token grant POSTs them as a form.
      let params = url.searchParams;
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        if (params.get('grant_type') !== 'refresh_token' || !params.get('refresh_token')) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"unsupported_grant_type"}');
          return;
        }
      }
      requests.push({
        service: params.get('service'), scope: params.get('scope'),
        method: req.method ?? 'GET', authorization: req.headers.authorization ?? null,
      });
      if (state.failWith !== undefined) {
        res.writeHead(state.failWith, { 'content-type': 'text/plain' }).end('token service unavailable');
        return;
      }
      const token = await new SignJWT({ access: accessFor(params.getAll('scope')) })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', x5c })
        .setIssuer(issuer)
        .setSubject('')
        .setAudience(service)
        .setIssuedAt()
        .setNotBefore(Math.floor(Date.now() / 1000) - 60)
        .setExpirationTime(Math.floor(Date.now() / 1000) + Math.max(state.expiresIn, 60) + 60)
        .setJti(randomUUID())
        .sign(key);
      const body: Record<string, unknown> = { token, access_token: token, issued_at: new Date().toISOString() };
      if (state.expiresIn > 0) body.expires_in = state.expiresIn;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    realm: `http://127.0.0.1:${port}/token`,
    service,
    issuer,
    certificatePem: pems.cert,
    requests,
    get expiresIn() {
      return state.expiresIn;
    },
    set expiresIn(v: number) {
      state.expiresIn = v;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(v: number | undefined) {
      state.failWith = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `repository:charts/agent:pull,push` scopes as the registry's `access` claim. */
function accessFor(scopes: string[]): { type: string; name: string; actions: string[] }[] {
  return scopes.flatMap((scope) => scope.split(' ')).flatMap((scope) => {
    const parts = scope.split(':');
    if (parts.length < 3) return [];
    const actions = parts.pop()!.split(',');
    const type = parts.shift()!;
    return [{ type, name: parts.join(':'), actions }];
  });
}
