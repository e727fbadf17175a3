/**
 * A real OCI registry for tests: Debian's `docker-registry` (CNCF distribution 2.8) on loopback port 0
 * (it logs the port it got) with temp storage, optionally behind our token server or htpasswd; it can stop and start on
 * the same port (an outage) and expose blobs for tampering. `registryTestMode()` skips suites (saying why)
 * when the binary is absent locally and fails them in CI (`CI=true`), where it must be installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTool, toolTestMode } from '../test-tools.js';
import { startTokenServer, type TokenServer } from './token-server.js';

const BINARY = 'docker-registry';

/** `run`, `skip` (binary absent, not CI) or `fail` (binary absent in CI), with the reason. */
export function registryTestMode(): { mode: 'run' | 'skip' | 'fail'; reason: string } {
  return toolTestMode([BINARY], 'apt-get install -y docker-registry');
}

export interface RegistryServer {
  /** `127.0.0.1:<port>`. */
  readonly host: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The token server in `token` mode. */
  readonly tokens?: TokenServer;
  /** `oci://127.0.0.1:<port>/<repository>`. */
  ociUrl(repository: string): string;
  /** Where the registry keeps a blob's bytes. */
  blobDataPath(digest: string): string;
  /** Stops the process, keeping port and storage. */
  stop(): Promise<void>;
  /** Starts it again after `stop()`; does nothing while it runs. */
  start(): Promise<void>;
  /** Stops everything and removes the storage. */
  close(): Promise<void>;
}

export interface RegistryServerOptions {
  /** `token`: bearer tokens from a loopback token server; `htpasswd`: a Basic challenge. */
  auth?: 'none' | 'token' | 'htpasswd';
  /** `htpasswd` mode: the accounts, written with bcrypt by `htpasswd -Bbn` (apache2-utils). */
  users?: readonly { username: string; password: string }[];
}

/** Starts `docker-registry serve` and waits until `/v2/` answers. */
export async function startRegistry(options: RegistryServerOptions = {}): Promise<RegistryServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-manager-registry-'));
  // Port 0 until the first start reports the port it got; a restart reuses that port.
  let host = '127.0.0.1:0';
  const tokens = options.auth === 'token' ? await startTokenServer() : undefined;
  if (options.auth === 'htpasswd' && options.users?.length) writeHtpasswd(join(dir, 'htpasswd'), options.users);
  const configPath = join(dir, 'config.yml');

  let child: ChildProcess | undefined;
  let output = '';
  const running = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = async (): Promise<void> => {
    if (running()) return;
    writeFileSync(configPath, registryConfig(dir, host, options.auth ?? 'none', tokens));
    output = '';
    const proc = spawn(testTool(BINARY) ?? BINARY, ['serve', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    // A test worker that dies without close() must not leave a registry behind.
    const killOnExit = (): void => {
      proc.kill('SIGKILL');
    };
    process.once('exit', killOnExit);
    proc.once('exit', () => process.off('exit', killOnExit));
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8192);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    host = await listeningAddress(proc, () => output);
    await waitUntilReady(`http://${host}/v2/`, proc, () => output);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (err) {
    await stop();
    await tokens?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    get host() {
      return host;
    },
    get url() {
      return `http://${host}`;
    },
    tokens,
    ociUrl: (repository) => `oci://${host}/${repository}`,
    blobDataPath: (digest) => {
      const hex = digest.replace(/^sha256:/, '');
      return join(dir, 'storage/docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data');
    },
    stop,
    start,
    close: async () => {
      await stop();
      await tokens?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function registryConfig(dir: string, host: string, auth: 'none' | 'token' | 'htpasswd', tokens?: TokenServer): string {
  const lines = [
    'version: 0.1',
    'log:',
    // info: the line `listening on 127.0.0.1:<port>` says which port it got.
    '  level: info',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(dir, 'storage')}`,
    '  maintenance:',
    '    uploadpurging:',
    '      enabled: false',
    'http:',
    `  addr: ${host}`,
    `  secret: ${randomBytes(16).toString('hex')}`,
  ];
  if (auth === 'token' && tokens) {
    const bundle = join(dir, 'token-signer.pem');
    writeFileSync(bundle, tokens.certificatePem);
    lines.push('auth:', '  token:', `    realm: ${tokens.realm}`, `    service: ${tokens.service}`, `    issuer: ${tokens.issuer}`, `    rootcertbundle: ${bundle}`);
  }
  if (auth === 'htpasswd') {
    // distribution creates the file with a random password for user "docker" when it is missing.
    lines.push('auth:', '  htpasswd:', '    realm: agent-manager-test', `    path: ${join(dir, 'htpasswd')}`);
  }
  return `${lines.join('\n')}\n`;
}

function writeHtpasswd(path: string, users: readonly { username: string; password: string }[]): void {
  const lines = users.map(({ username, password }) => {
    const made = spawnSync(testTool('htpasswd') ?? 'htpasswd', ['-Bbn', username, password], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`htpasswd -Bbn failed (${made.status}): ${made.stderr}`);
    return made.stdout.trim();
  });
  writeFileSync(path, `${lines.join('\n')}\n`);
}

async function waitUntilReady(url: string, proc: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`${BINARY} exited (${proc.exitCode ?? proc.signalCode}) before it was ready: ${output()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.status === 200 || res.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${BINARY} did not answer ${url} within 15s: ${output()}`);
}

/** The `127.0.0.1:<port>` the registry logs once it listens (distribution's `listening on`). */
function listeningAddress(proc: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      proc.stdout?.off('data', look);
      proc.stderr?.off('data', look);
      proc.off('exit', exited);
    };
    const look = (): void => {
      const match = /listening on (127\.0\.0\.1:\d+)/.exec(output());
      if (!match?.[1]) return;
      done();
      resolve(match[1]);
    };
    const exited = (): void => {
      done();
      reject(new Error(`${BINARY} exited (${proc.exitCode ?? proc.signalCode}) before it listened: ${output()}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${BINARY} did not say where it listens within 15s: ${output()}`));
    }, 15_000);
    proc.stdout?.on('data', look);
    proc.stderr?.on('data', look);
    proc.once('exit', exited);
    look();
  });
}
