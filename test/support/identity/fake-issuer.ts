/**
 * A loopback OpenID Connect issuer for tests, standing in for Dex (and for the sandbox apiserver's
 * OIDC): RSA and EC keys, discovery and JWKS on 127.0.0.1 (http, or https with a self-signed CA for
 * `--dex-ca-file`), key rotation, and the forged tokens of the attack table (alg none, HS256 keyed
 * with the public key, an unpublished key). Tests only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { generate } from 'selfsigned';

export type SigningAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512';

/** One signing key of the issuer. */
export interface IssuerKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export interface FakeIssuerOptions {
  /** Serve https with a self-signed CA (see `caPem`, `writeCaFile`). Default: plain http. */
  tls?: boolean;
  /** Algorithms of the initial keys; default one RS256 and one ES256 key. */
  algs?: SigningAlg[];
  /** Path of the issuer under the origin (Dex commonly serves `/dex`); default none. */
  path?: string;
}

export interface MintOptions {
  /** Key to sign with, by kid; default the first published key. */
  kid?: string;
  /** Key to sign with, itself (for two keys that share a kid). */
  key?: IssuerKey;
  /** Extra or overriding protected-header fields (e.g. a `kid` the JWKS does not have). */
  header?: Record<string, unknown>;
}

/** Claims of a typical Dex id_token for a person; a claim set to `undefined` is left out. */
export type Claims = Record<string, unknown>;

export interface FakeIssuer {
  /** The issuer URL (`iss`), e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly jwksUri: string;
  /** PEM of the CA that signed the https certificate (tls only). */
  readonly caPem?: string;
  /** The served discovery document; tests may change it (e.g. a wrong `issuer`). */
  discovery: Record<string, unknown>;
  /** The published keys, in JWKS order. */
  keys(): IssuerKey[];
  /** Generate and publish a new key; returns it. A repeated kid publishes two keys with one kid. */
  addKey(alg?: SigningAlg, kid?: string): Promise<IssuerKey>;
  /** Stop publishing a key (rotation: add the new key, then drop the old one). */
  removeKey(kid: string): void;
  /** A signed id_token: defaults `iss`, `sub`, `iat`, `exp` (+1 h) merged with `claims`. */
  mint(claims?: Claims, options?: MintOptions): Promise<string>;
  /** An unsigned token with `alg: none`. */
  mintAlgNone(claims?: Claims): string;
  /** The alg-confusion attack: HS256 with the published public key's PEM as the secret. */
  mintHs256WithPublicKey(claims?: Claims, kid?: string): Promise<string>;
  /** Signed by a key the issuer never published, under a published kid. */
  mintWithForeignKey(claims?: Claims, kid?: string): Promise<string>;
  /** How many requests reached a path under the issuer (`/keys`, `/.well-known/openid-configuration`). */
  requestCount(path: string): number;
  /** Write the CA PEM to a file (a fresh temp dir when none is given); returns the path. */
  writeCaFile(dir?: string): Promise<string>;
  close(): Promise<void>;
}

/** Start an issuer on 127.0.0.1 with a random port. Close it in afterAll/afterEach. */
export async function startFakeIssuer(options: FakeIssuerOptions = {}): Promise<FakeIssuer> {
  const keys: IssuerKey[] = [];
  const counts = new Map<string, number>();
  const basePath = (options.path ?? '').replace(/\/+$/, '');
  const tlsMaterial = options.tls ? await testTlsMaterial() : undefined;

  const handler: http.RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    let body: unknown;
    if (path === `${basePath}/.well-known/openid-configuration`) body = issuer.discovery;
    else if (path === `${basePath}/keys`) body = { keys: keys.map((k) => k.publicJwk) };
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  /** Folders writeCaFile made, removed on close. */
  const made: string[] = [];
  const server = tlsMaterial
    ? https.createServer({ key: tlsMaterial.key, cert: tlsMaterial.cert }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `${tlsMaterial ? 'https' : 'http'}://127.0.0.1:${port}${basePath}`;

  const addKey = async (alg: SigningAlg = 'RS256', kid?: string): Promise<IssuerKey> => {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const id = kid ?? `${alg.toLowerCase()}-${keys.length + 1}-${Math.random().toString(36).slice(2, 8)}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid: id, alg, use: 'sig' };
    const key = { kid: id, alg, privateKey, publicKey, publicJwk };
    keys.push(key);
    return key;
  };
  const keyFor = (kid?: string): IssuerKey => {
    const key = kid ? keys.find((k) => k.kid === kid) : keys[0];
    if (!key) throw new Error(`fake issuer: no key ${kid ?? '(none published)'}`);
    return key;
  };
  const claimsFor = (claims: Claims = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    const merged: Claims = { iss: url, sub: 'alice-subject', iat: now, exp: now + 3600, ...claims };
    for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
    return merged as JWTPayload;
  };

  const issuer: FakeIssuer = {
    url,
    jwksUri: `${url}/keys`,
    caPem: tlsMaterial?.caPem,
    discovery: {
      issuer: url,
      authorization_endpoint: `${url}/auth`,
      token_endpoint: `${url}/token`,
      jwks_uri: `${url}/keys`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    },
    keys: () => [...keys],
    addKey,
    removeKey(kid) {
      const index = keys.findIndex((k) => k.kid === kid);
      if (index >= 0) keys.splice(index, 1);
    },
    async mint(claims, mintOptions = {}) {
      const key = mintOptions.key ?? keyFor(mintOptions.kid);
      return new SignJWT(claimsFor(claims))
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...mintOptions.header })
        .sign(key.privateKey);
    },
    mintAlgNone(claims) {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: keys[0]?.kid }));
      return `${header}.${base64url.encode(JSON.stringify(claimsFor(claims)))}.`;
    },
    async mintHs256WithPublicKey(claims, kid) {
      const key = keyFor(kid);
      const secret = new TextEncoder().encode(await exportSPKI(key.publicKey));
      return new SignJWT(claimsFor(claims)).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' }).sign(secret);
    },
    async mintWithForeignKey(claims, kid) {
      const key = keyFor(kid);
      const { privateKey } = await generateKeyPair(key.alg);
      return new SignJWT(claimsFor(claims)).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(privateKey);
    },
    requestCount: (path) => counts.get(`${basePath}${path}`) ?? 0,
    async writeCaFile(dir) {
      if (!tlsMaterial) throw new Error('fake issuer: writeCaFile needs { tls: true }');
      let folder = dir;
      if (!folder) made.push((folder = await mkdtemp(join(tmpdir(), 'fake-issuer-ca-'))));
      const target = join(folder, 'ca.pem');
      await writeFile(target, tlsMaterial.caPem);
      return target;
    },
    // Closing removes the folders writeCaFile made, so test runs leave nothing in the temporary directory.
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      });
      await Promise.all(made.map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
  for (const alg of options.algs ?? (['RS256', 'ES256'] as const)) await addKey(alg);
  return issuer;
}

/** A CA and a server certificate for 127.0.0.1/localhost signed by it. */
async function testTlsMaterial(): Promise<{ caPem: string; key: string; cert: string }> {
  const ca = await generate([{ name: 'commonName', value: 'agent-manager test issuer CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  return { caPem: ca.cert, key: leaf.private, cert: leaf.cert };
}
