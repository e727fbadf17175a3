/**
 * The one way identity code talks to the identity provider: a small GET-only `fetch` over node:https,
 * because Node's global fetch cannot take a CA (an in-cluster Dex uses a cluster CA, `--dex-ca-file`).
 * Trust boundary: what it fetches decides which signatures are accepted, so it trusts the public roots
 * plus that CA only, refuses private and loopback addresses at connect time (no DNS rebinding) unless
 * allowed, never follows redirects, caps bodies at 1 MiB and honours the abort signal. Behind a proxy
 * (`HTTPS_PROXY`, `NO_PROXY`) it tunnels through undici's proxy agent after checking our own resolution.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { request as undiciRequest } from 'undici';
import { invalid } from '../core/errors.js';
import { proxyDispatcher, type ProxySettings } from '../net/proxy.js';
import { isPrivateAddress, refuseUrl } from './address-guard.js';

/** The largest document the identity provider may answer with. */
export const MAX_IDP_RESPONSE_BYTES = 1024 * 1024;

/** A fetch failure that is the identity provider's (or the network's), never the caller's. */
export class IdpFetchError extends Error {
  override readonly name = 'IdpFetchError';
}

export interface IdpFetchOptions {
  /** PEM of an extra CA to trust for the provider's TLS (read from `--dex-ca-file`). */
  caPem?: string;
  /** `--allow-private-oauth-urls`: accept private and loopback addresses. */
  allowPrivate: boolean;
  /** Per-request timeout when the caller gives no signal; default 5 s. */
  timeoutMs?: number;
  /** The proxy variables; requests go direct when none is set. */
  proxy?: ProxySettings;
}

/** The fetch shape jose's `customFetch` and the discovery code call. */
export type IdpFetch = (url: string, init?: { headers?: Headers; signal?: AbortSignal }) => Promise<Response>;

/** Read the CA file named by `--dex-ca-file`, with an error that says which flag to fix. */
export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (err) {
    throw invalid(`--dex-ca-file ${path}: cannot read it: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw invalid(`--dex-ca-file ${path}: no PEM certificate in it`);
  }
  return pem;
}

/** Build the guarded fetch. */
export function createIdpFetch(options: IdpFetchOptions): IdpFetch {
  // The extra CA is added to the public roots, so a CA file never breaks a provider
  // whose certificate is publicly trusted.
  const ca = options.caPem ? [...rootCertificates, options.caPem] : undefined;
  const lookup = guardedLookup(options.allowPrivate);
  const timeoutMs = options.timeoutMs ?? 5_000;
  const proxied = options.proxy ? proxyDispatcher(options.proxy, { ca, lookup }) : undefined;

  return (href, init) => {
    const url = new URL(href);
    const refused = refuseUrl(url, options.allowPrivate);
    if (refused) return Promise.reject(new IdpFetchError(`refusing to fetch ${refused}`));
    const signal = init?.signal ?? AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'agent-manager' };
    init?.headers?.forEach((value, key) => (headers[key] = value));
    if (proxied) return viaDispatcher(url, headers, signal, proxied, options.allowPrivate);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(url, { method: 'GET', headers, signal, lookup, ...(ca ? { ca } : {}) }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          reject(new IdpFetchError(`${url.href} answered a redirect (${status}); redirects are not followed`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_IDP_RESPONSE_BYTES) {
            res.destroy();
            reject(new IdpFetchError(`${url.href} answered more than ${MAX_IDP_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(new IdpFetchError(`${url.href}: ${err.message}`)));
        res.on('end', () => {
          const responseHeaders = new Headers();
          const contentType = res.headers['content-type'];
          if (contentType) responseHeaders.set('content-type', contentType);
          resolve(new Response(Buffer.concat(chunks), { status: status || 502, headers: responseHeaders }));
        });
      });
      req.on('error', (err) => {
        if (signal.aborted) reject(new IdpFetchError(`${url.href}: no answer in time (request aborted)`));
        else reject(new IdpFetchError(`${url.href}: ${err.message}`));
      });
      req.end();
    });
  };
}

/** The same GET through an undici dispatcher (the proxy agent), with the same rules. */
async function viaDispatcher(
  url: URL, headers: Record<string, string>, signal: AbortSignal,
  dispatcher: NonNullable<ReturnType<typeof proxyDispatcher>>, allowPrivate: boolean,
): Promise<Response> {
  if (!allowPrivate) await refusePrivateName(url.hostname);
  let answer: Awaited<ReturnType<typeof undiciRequest>>;
  try {
    answer = await undiciRequest(url, { method: 'GET', headers, signal, dispatcher });
  } catch (err) {
    if (signal.aborted) throw new IdpFetchError(`${url.href}: no answer in time (request aborted)`);
    throw new IdpFetchError(`${url.href}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { statusCode: status, body } = answer;
  if (status >= 300 && status < 400) {
    await body.dump();
    throw new IdpFetchError(`${url.href} answered a redirect (${status}); redirects are not followed`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = Buffer.from(chunk);
      size += bytes.length;
      if (size > MAX_IDP_RESPONSE_BYTES) {
        body.destroy();
        throw new IdpFetchError(`${url.href} answered more than ${MAX_IDP_RESPONSE_BYTES} bytes`);
      }
      chunks.push(bytes);
    }
  } catch (err) {
    if (err instanceof IdpFetchError) throw err;
    throw new IdpFetchError(`${url.href}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const responseHeaders = new Headers();
  const contentType = answer.headers['content-type'];
  if (typeof contentType === 'string') responseHeaders.set('content-type', contentType);
  return new Response(Buffer.concat(chunks), { status: status || 502, headers: responseHeaders });
}

/** Refuses a host name that resolves to a private address (the proxy will resolve it again). */
async function refusePrivateName(hostname: string): Promise<void> {
  let addresses: { address: string }[];
  try {
    addresses = await dnsLookupAll(hostname.replace(/^\[|\]$/g, ''), { all: true });
  } catch {
    return; // The proxy may resolve names we cannot; its answer decides.
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) {
    throw new IdpFetchError(`refusing to fetch via the proxy: ${hostname} resolves to the private address `
      + `${bad.address}; `
      + 'set --allow-private-oauth-urls for an identity provider inside the cluster');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup that refuses private addresses unless they are allowed (exported for tests). */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!allowPrivate) {
        const bad = addresses.find((a) => isPrivateAddress(a.address));
        if (bad) {
          const refusal: NodeJS.ErrnoException = new Error(
            `${hostname} resolves to the private address ${bad.address}; set --allow-private-oauth-urls for an `
            + `identity provider inside the cluster`,
          );
          refusal.code = 'EPRIVATEADDRESS';
          return callback(refusal, []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
