/**
 * Test harness for the sandbox API server: starts a sandbox on a free loopback port and
 * builds the real @kubernetes/client-node clients from the kubeconfig it writes, so every
 * suite drives the server exactly as agent-manager will.
 */
import {
  ApiException, AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, KubernetesObjectApi,
} from '@kubernetes/client-node';
import { request } from 'node:https';
import { generateTls, startSandbox, type Sandbox, type SandboxOptions, type SandboxTls } from '../src/index.js';

export interface Harness {
  sandbox: Sandbox;
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  objects: KubernetesObjectApi;
}

// One CA for the sandboxes a test worker starts (each would generate its own, ~30 ms of CPU).
let harnessTls: Promise<SandboxTls> | undefined;

/** Start a sandbox and the clients; close it with `harness.sandbox.close()`. */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  harnessTls ??= generateTls();
  const sandbox = await startSandbox({ tls: await harnessTls, ...options });
  const kc = new KubeConfig();
  kc.loadFromString(sandbox.kubeconfigYaml());
  return {
    sandbox, kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}

/** A KubeConfig for the sandbox with another bearer token. */
export function kubeConfigFor(sandbox: Sandbox, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(sandbox.kubeconfigYaml({ token, name: 'other' }));
  return kc;
}

/** The Status body and HTTP code of a rejected client-node call (fails the test if it resolved). */
export async function rejection(promise: Promise<unknown>): Promise<{ code: number; status: Record<string, any> }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiException) {
      const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
      return { code: err.code, status: body as Record<string, any> };
    }
    throw err;
  }
  throw new Error('expected the call to be rejected, but it succeeded');
}

/** A HelmRelease of the agent chart as agent-manager composes it. */
export function helmRelease(name: string, namespace = 'kagent', extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: {
      interval: '10m',
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace },
      values: { agent: { name } },
      ...extra,
    },
  };
}

export const HR = { group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases' } as const;

/** A raw HTTPS exchange with the sandbox (for what client-node cannot express). */
export interface RawResponse {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** Send one request to the sandbox, trusting its CA; the admin token unless `token` is given ('' for none). */
export function raw(
  sandbox: Sandbox, method: string, path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; token?: string } = {},
): Promise<RawResponse> {
  const token = options.token ?? sandbox.adminToken;
  const url = new URL(path, sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method, ca: sandbox.caPem,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(options.headers ?? {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ code: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * Poll `probe` until it returns a value other than undefined (or stops throwing), or
 * fail after `timeoutMs` with the last error. For controllers that converge over time:
 * a deadline, never a timing assertion.
 */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} did not hold within ${timeoutMs} ms${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
