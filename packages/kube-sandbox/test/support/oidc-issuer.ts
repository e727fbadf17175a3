/**
 * A minimal OpenID Connect issuer for the package's own tests: discovery and JWKS on
 * loopback HTTPS (a self-signed CA, see `caPem` / `writeCaFile`), one RS256 key, and
 * id_tokens minted on demand — signed, unsigned (`alg: none`) or signed by a key the
 * issuer never published.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base64url, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { generate } from 'selfsigned';

export type Claims = Record<string, unknown>;

export interface TestIssuer {
  /** The issuer URL (`iss`), e.g. `https://127.0.0.1:40123`. */
  readonly url: string;
  /** PEM of the CA that signed the issuer's certificate. */
  readonly caPem: string;
  /** A signed id_token: `iss`, `sub`, `iat` and `exp` (+1 h) merged with `claims`. */
  mint(claims?: Claims): Promise<string>;
  mintAlgNone(claims?: Claims): string;
  mintWithForeignKey(claims?: Claims): Promise<string>;
  /** Write the CA PEM to a file in a fresh temporary directory; returns its path. */
  writeCaFile(): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const kid = 'rs256-1';
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const tls = await tlsMaterial();
  let url = '';
  const made: string[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const body = path === '/.well-known/openid-configuration'
      ? { issuer: url, jwks_uri: `${url}/keys`, response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] }
      : path === '/keys' ? { keys: [jwk] } : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const claimsFor = (claims: Claims = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: url, sub: 'alice-subject', iat: now, exp: now + 3600, ...claims } as JWTPayload;
  };
  return {
    url,
    caPem: tls.caPem,
    mint: (claims) => new SignJWT(claimsFor(claims)).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey),
    mintAlgNone: (claims) =>
      `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid }))}.${base64url.encode(JSON.stringify(claimsFor(claims)))}.`,
    async mintWithForeignKey(claims) {
      const foreign = await generateKeyPair('RS256');
      return new SignJWT(claimsFor(claims)).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(foreign.privateKey);
    },
    async writeCaFile() {
      const folder = await mkdtemp(join(tmpdir(), 'kube-sandbox-issuer-ca-'));
      made.push(folder);
      const target = join(folder, 'ca.pem');
      await writeFile(target, tls.caPem);
      return target;
    },
    // Closing removes the folders writeCaFile made, so test runs leave nothing behind.
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      });
      await Promise.all(made.map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

/** A CA and a certificate for 127.0.0.1 and localhost signed by it. */
async function tlsMaterial(): Promise<{ caPem: string; key: string; cert: string }> {
  const ca = await generate([{ name: 'commonName', value: 'kube-sandbox test issuer CA' }], {
    keyType: 'ec', algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec', algorithm: 'sha256', ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  return { caPem: ca.cert, key: leaf.private, cert: leaf.cert };
}
