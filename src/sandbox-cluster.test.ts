import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Cli from '@agent-manager/kube-sandbox/cli';
import type * as Sandbox from '@agent-manager/kube-sandbox';
import type { SandboxCommandConfig } from './config/sandbox-cluster-config.js';
import type { Logger } from './log/logger.js';
import { importSandbox, loadSandbox, loadSandboxCli, SandboxNotInstalledError, type SandboxCliModule, type SandboxModule } from './sandbox-cluster.js';

describe('loading the sandbox package', () => {
  it('loads both entry points of the installed workspace package', async () => {
    expect(typeof (await loadSandbox()).startSandbox).toBe('function');
    expect(typeof (await loadSandboxCli()).runSandbox).toBe('function');
  });

  it('says in one line that the sandbox is not installed when its package is missing', async () => {
    const err = await loadSandbox('@agent-manager/no-such-sandbox').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxNotInstalledError);
    expect((err as Error).message).toMatch(/^the sandbox is not installed \(package @agent-manager\/no-such-sandbox is missing/);
    expect((err as Error).message).not.toContain('\n');
  });

  it('passes on other failures of the import unchanged', async () => {
    await expect(importSandbox('data:text/javascript,throw new Error("boom")')).rejects.toThrow('boom');
  });

  it('gets from the package a running sandbox with every member the product calls', async () => {
    const sandbox = await (await loadSandbox()).startSandbox({ listen: '127.0.0.1:0', seed: false, controllers: false });
    try {
      expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.serviceAccountToken).not.toBe('');
      expect(sandbox.kubeconfigYaml({ token: 't', name: 'someone' })).toContain(sandbox.url);
      expect(typeof sandbox.writeKubeconfig).toBe('function');
    } finally {
      await sandbox.close();
    }
  });

  // tsc (npm run lint) checks the types: the modules as imported must be assignable to what
  // the product declares; the run checks that each member it calls is there.
  it('declares the part of the package it calls as the package defines it', async () => {
    const sandbox: SandboxModule = await import('@agent-manager/kube-sandbox');
    const cli: SandboxCliModule = await import('@agent-manager/kube-sandbox/cli');
    expect(typeof sandbox.startSandbox).toBe('function');
    expect(typeof sandbox.startMuster).toBe('function');
    expect(typeof cli.runSandbox).toBe('function');
    expectTypeOf<typeof Sandbox.startSandbox>().toExtend<SandboxModule['startSandbox']>();
    expectTypeOf<typeof Sandbox.startMuster>().toExtend<SandboxModule['startMuster']>();
    // The product's parsed flags and logger are what the package's command takes.
    expectTypeOf<SandboxCommandConfig>().toExtend<Cli.SandboxCommandConfig>();
    expectTypeOf<Logger>().toExtend<Cli.CommandLogger>();
  });
});
