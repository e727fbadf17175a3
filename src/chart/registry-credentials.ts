/**
 * Credentials for the agent chart's registry in the forms an operator has: a Docker config JSON (the
 * `.dockerconfigjson` Flux's OCIRepository `secretRef` takes: `auth`, `username`/`password`,
 * `identitytoken`, `registrytoken`), a user name and password, or a bearer token. The file is re-read
 * when it changes, so a rotated mounted Secret needs no restart. Credentials never reach an error or a
 * log line; errors name the file and the registry only (docs/operations.md "Private chart registries").
 */
import { readFileSync, statSync } from 'node:fs';
import { asObject, isJsonObject, optionalString, stringOr } from '../core/json.js';

/** What the registry client presents. */
export type RegistryCredentials =
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'identityToken'; readonly refreshToken: string };

/** Hands the client the credentials to present now; undefined means anonymous. */
export type CredentialSource = () => RegistryCredentials | undefined;

/** The configured credentials (from the `--agent-chart-*` flags); at most one form is set. */
export interface ChartAuthSettings {
  /** Path of a Docker config JSON file; empty when unset. */
  readonly dockerConfig: string;
  readonly username: string;
  readonly password: string;
  readonly token: string;
}

/**
 * The credential source for `registry` (`host[:port]`) from the settings, or undefined for
 * anonymous pulls. A Docker config is read now, so a missing file or a file without an entry
 * for the registry stops startup; later reads follow changes to the file.
 */
export function credentialSource(settings: ChartAuthSettings, registry: string): CredentialSource | undefined {
  if (settings.dockerConfig !== '') return dockerConfigSource(settings.dockerConfig, registry);
  if (settings.username !== '') {
    const creds: RegistryCredentials = { kind: 'basic', username: settings.username, password: settings.password };
    return () => creds;
  }
  if (settings.token !== '') {
    const creds: RegistryCredentials = { kind: 'bearer', token: settings.token };
    return () => creds;
  }
  return undefined;
}

/** Reads the file when its modification time or size changes; the last good entry otherwise. */
function dockerConfigSource(path: string, registry: string): CredentialSource {
  let stamp = '';
  let current = readEntry(path, registry);
  stamp = fileStamp(path);
  return () => {
    const now = fileStamp(path);
    if (now !== '' && now !== stamp) {
      try {
        current = readEntry(path, registry);
        stamp = now;
      } catch {
        // A file caught half-written (or removed for a moment) keeps the last good entry.
      }
    }
    return current;
  };
}

function fileStamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '';
  }
}

function readEntry(path: string, registry: string): RegistryCredentials {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = optionalString(asObject(err).code);
    throw new Error(`cannot read ${path}: ${code ?? (err instanceof Error ? err.message : String(err))}`,
      { cause: err });
  }
  return dockerConfigCredentials(text, registry, path);
}

/**
 * The credentials a Docker config JSON holds for `registry`. Keys of `auths` are matched by
 * host the way Docker and Flux do: `host`, `https://host`, `http://host/v1/` all name `host`,
 * and Docker Hub's `https://index.docker.io/v1/` also stands for `registry-1.docker.io`.
 * Throws a message naming `where` and the registry, never a credential.
 */
export function dockerConfigCredentials(text: string, registry: string,
  where = 'the Docker config'): RegistryCredentials {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not JSON (want a Docker config: {"auths": {"<registry>": {"auth": "<base64 ` +
      `user:password>"}}})`);
  }
  const auths = asObject(doc).auths;
  if (!isJsonObject(auths)) {
    throw new Error(`${where} has no "auths" object (want a Docker config: {"auths": {"<registry>": {...}}})`);
  }
  const want = normaliseHost(registry);
  const keys = Object.keys(auths);
  const key = keys.find((k) => normaliseHost(k) === want);
  if (key === undefined) {
    throw new Error(`${where} has no entry for registry ${registry} (it has ` +
      `${keys.length > 0 ? keys.map(normaliseHost).join(', ') : 'none'})`);
  }
  const entry = asObject(auths[key]);
  const str = (name: string): string => stringOr(entry[name], '');
  if (str('registrytoken') !== '') return { kind: 'bearer', token: str('registrytoken') };
  if (str('identitytoken') !== '') return { kind: 'identityToken', refreshToken: str('identitytoken') };
  if (str('username') !== '' || str('password') !== '') {
    return { kind: 'basic', username: str('username'), password: str('password') };
  }
  if (str('auth') !== '') {
    const decoded = Buffer.from(str('auth'), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw new Error(`${where}: the "auth" of registry ${registry} is not base64 of user:password`);
    return { kind: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  throw new Error(`${where}: the entry for registry ${registry} has no auth, username/password, identitytoken ` +
    `or registrytoken`);
}

const DOCKER_HUB = new Set(['index.docker.io', 'registry-1.docker.io', 'docker.io']);

/** `https://Host:5000/v1/` → `host:5000`; the Docker Hub aliases → `docker.io`. */
function normaliseHost(key: string): string {
  const host = key.replace(/^[a-z]+:\/\//i, '').split('/')[0]!.toLowerCase();
  return DOCKER_HUB.has(host) ? 'docker.io' : host;
}

/** `Basic base64(user:password)`. */
export function basicAuthorization(creds: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${creds.username}:${creds.password}`, 'utf8').toString('base64')}`;
}
