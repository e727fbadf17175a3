import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Cli from '@agent-manager/kube-sandbox/cli';
import type * as Sandbox from '@agent-manager/kube-sandbox';
import type { SandboxCommandConfig } from './config/sandbox-cluster-config.js';
import type { Logger } from './log/logger.js';
import { parseConfig } from './config/parse-config.js';
import {
  importSandbox, loadSandbox, loadSandboxCli, sandboxFleetConfig, SandboxNotInstalledError, serveSandboxOptions,
  type SandboxCliModule, type SandboxModule,
} from './sandbox-cluster.js';

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

describe('sandboxFleetConfig', () => {
  it('fills what the flags leave empty from the fleet the sandbox starts: organization acme, its muster double', () => {
    expect(sandboxFleetConfig({ organizations: [], targetMusterUrl: '' }, 'http://127.0.0.1:7000/mcp')).toEqual({
      organizations: ['acme'], targetMusterUrl: 'http://127.0.0.1:7000/mcp',
    });
  });

  it('keeps what the flags set', () => {
    const given = { organizations: ['globex'], targetMusterUrl: 'https://muster.example.com/mcp' };
    expect(sandboxFleetConfig(given, 'http://127.0.0.1:7000/mcp')).toEqual(given);
  });
});

describe('the sandbox serve --sandbox starts', () => {
  const options = (...args: string[]) => {
    const parsed = parseConfig(['serve', '--sandbox', ...args], {});
    if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
    return serveSandboxOptions(parsed.config.sandbox);
  };

  it('runs the controllers with the delay of --sandbox-reconcile-delay (100ms unless given)', () => {
    expect(options('--sandbox-reconcile-delay', '5s')).toMatchObject({ controllers: true, reconcileDelayMs: 5_000 });
    expect(options()).toMatchObject({ controllers: true, reconcileDelayMs: 100 });
  });

  it('is the seeded fleet, with RBAC, on --sandbox-listen', () => {
    expect(options('--sandbox-listen', '127.0.0.1:7443')).toMatchObject({
      listen: '127.0.0.1:7443', seed: 'samples', authorization: 'rbac', organization: 'acme',
      workloadClusters: ['alpha', 'beta'],
    });
  });
});
