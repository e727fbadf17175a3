/**
 * How the sandbox's OIDC authenticator reaches its issuer, as kube-apiserver does:
 * a plain GET over http(s) that trusts the `--oidc-ca-file` PEM besides the public
 * roots, follows no redirect, gives up after 5 s and reads at most 1 MiB; and OpenID
 * Connect discovery (`<issuer>/.well-known/openid-configuration`, OIDC Discovery 1.0),
 * whose document must name exactly the configured issuer and a `jwks_uri`.
 */
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';

/** A fetch restricted to what the authenticator needs (and a seam for tests). */
export type IssuerFetch = (url: string, init?: { headers?: Headers; signal?: AbortSignal }) => Promise<Response>;

const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 5_000;

/** A GET-only fetch that trusts `caPem` besides the public roots. */
export function issuerFetch(caPem?: string): IssuerFetch {
  const ca = caPem ? [...rootCertificates, caPem] : undefined;
  return (href, init) => {
    const url = new URL(href);
    const signal = init?.signal ?? AbortSignal.timeout(TIMEOUT_MS);
    const headers: Record<string, string> = { accept: 'application/json' };
    init?.headers?.forEach((value, key) => (headers[key] = value));
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(url, { method: 'GET', headers, signal, ...(ca ? { ca } : {}) }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return reject(new Error(`${url.href} answered a redirect (${status}); redirects are not followed`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) {
            res.destroy();
            reject(new Error(`${url.href} answered more than ${MAX_BYTES} bytes`));
          } else chunks.push(chunk);
        });
        res.on('error', (err) => reject(new Error(`${url.href}: ${err.message}`)));
        res.on('end', () => {
          const type = res.headers['content-type'];
          resolve(new Response(Buffer.concat(chunks),
            { status: status || 502, headers: type ? { 'content-type': type } : {} }));
        });
      });
      req.on('error', (err) => reject(new Error(`${url.href}: ${signal.aborted ? 'no answer in time' : err.message}`)));
      req.end();
    });
  };
}

/** The issuer's JWKS URL from its discovery document; throws with what is wrong. */
export async function discoverJwksUri(issuer: string, fetchImpl: IssuerFetch): Promise<URL> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const res = await fetchImpl(url);
  if (res.status !== 200) throw new Error(`OIDC discovery at ${url} answered HTTP ${res.status}`);
  const doc: unknown = await res.json().catch(() => undefined);
  if (typeof doc !== 'object' || doc === null) throw new Error(`OIDC discovery at ${url} did not answer a JSON object`);
  const named = 'issuer' in doc ? doc.issuer : undefined;
  if (named !== issuer) {
    throw new Error(`OIDC discovery at ${url} names the issuer ${JSON.stringify(named)}, not ` +
      `${JSON.stringify(issuer)}`);
  }
  const jwksUri = 'jwks_uri' in doc ? doc.jwks_uri : undefined;
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) {
    throw new Error(`OIDC discovery at ${url} has no valid jwks_uri`);
  }
  return new URL(jwksUri);
}
