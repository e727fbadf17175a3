/**
 * `agent-manager sandbox` as a function: it serves until stopped, writes the kubeconfig
 * it was asked for, and that kubeconfig works with client-node.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { SandboxCommandConfig } from '../config/sandbox-config.js';
import { silentLogger } from '../log/logger.js';
import { runSandbox } from './cli.js';
import type { Sandbox } from './index.js';

describe('runSandbox', () => {
  it('serves with the written kubeconfig until it is stopped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const kubeconfigOut = join(dir, 'kubeconfig');
      const config: SandboxCommandConfig = {
        listen: '127.0.0.1:0', kubeconfigOut, seed: true, authorization: 'always-allow', controllers: false, oidc: undefined, verbose: false,
      };
      const stop = new AbortController();
      let ready!: (s: Sandbox) => void;
      const started = new Promise<Sandbox>((resolve) => {
        ready = resolve;
      });
      const running = runSandbox(config, silentLogger(), { signal: stop.signal, onReady: ready });
      const sandbox = await started;
      expect(write.mock.calls.map((c) => String(c[0])).join('')).toContain(`Sandbox Kubernetes API server: ${sandbox.url}`);
      const kc = new KubeConfig();
      kc.loadFromString(await readFile(kubeconfigOut, 'utf8'));
      const names = (await kc.makeApiClient(CoreV1Api).listNamespace()).items.map((n) => n.metadata!.name);
      expect(names).toContain('kagent');
      stop.abort();
      await running;
      await expect(kc.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow();
    } finally {
      write.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
