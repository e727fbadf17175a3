/**
 * Loads the embedded sandbox Kubernetes API server (`@agent-manager/kube-sandbox`, an npm workspace the
 * production image leaves out) for `serve --sandbox` and `agent-manager sandbox`. The product never
 * imports it statically: a dynamic import here, and a missing package is a one-line configuration error
 * (exit 2), not a stack trace. The interfaces below are the part of the package's API the product calls;
 * a type test keeps them in step with the package. The fleet the sandbox starts fills the fleet settings
 * the flags leave empty.
 */

import { asObject } from './core/json.js';
import type { FleetConfig } from './config/app-config.js';
import type { ServeSandboxConfig } from './config/sandbox-cluster-config.js';

/** The package's name, the specifier both entry points are imported by. */
export const SANDBOX_PACKAGE = '@agent-manager/kube-sandbox';

/** The sandbox cannot be loaded because its package is not installed. */
export class SandboxNotInstalledError extends Error {
  constructor(specifier: string) {
    super(`the sandbox is not installed (package ${specifier} is missing; it ships with a development checkout, not ` +
      `with the production image)`);
    this.name = 'SandboxNotInstalledError';
  }
}

/** What a logger must offer the sandbox. */
export interface SandboxLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A running sandbox, as `serve --sandbox` uses it. */
export interface RunningSandbox {
  readonly url: string;
  readonly serviceAccountToken: string;
  /** kagent's A2A base URL the sandbox serves for its Ready agents, when it does. */
  readonly a2aUrl?: string;
  /** The workload clusters it manages, by name. */
  readonly workloads?: ReadonlyMap<string, { readonly url: string }>;
  kubeconfigYaml(user?: { token?: string; name?: string }): string;
  writeKubeconfig(path: string): Promise<unknown>;
  close(): Promise<void>;
}

/** What the product passes `startSandbox`. */
export interface SandboxStartOptions {
  listen?: string; seed?: 'samples' | false; authorization?: 'rbac' | 'always-allow'; controllers?: boolean;
  /** How long the controllers wait after a change before acting on it (ms). */
  reconcileDelayMs?: number;
  log?: SandboxLog;
  workloadClusters?: readonly string[]; organization?: string;
}

/** The sandbox's muster double, as `serve --sandbox` uses it: its MCP URL and the bearer it accepts. */
export interface RunningMuster {
  readonly url: string;
  readonly token: string;
  stop(): Promise<void>;
}

/** The package's main entry point, as the product calls it. */
export interface SandboxModule {
  /** The muster double the claude-Harness toolset check asks under `serve --sandbox`. */
  startMuster(options?: { host?: string }): Promise<RunningMuster>;
  startSandbox(options: SandboxStartOptions): Promise<RunningSandbox>;
}

/**
 * The fleet `serve --sandbox` runs: the sandbox is the management cluster of organization
 * `acme` with workload clusters `alpha` and `beta`, each with a sample agent placed on it.
 */
export const SANDBOX_FLEET = { organization: 'acme', workloadClusters: ['alpha', 'beta'] } as const;

/**
 * The fleet settings of `serve --sandbox`: what the flags leave empty is the fleet the sandbox starts, so
 * get_info names organization `acme` and a create on `alpha` or `beta` writes the sandbox's muster double's URL
 * as the agents' muster.
 */
export function sandboxFleetConfig(fleet: FleetConfig, musterUrl: string): FleetConfig {
  return {
    organizations: fleet.organizations.length > 0 ? fleet.organizations : [SANDBOX_FLEET.organization],
    targetMusterUrl: fleet.targetMusterUrl !== '' ? fleet.targetMusterUrl : musterUrl,
  };
}

/**
 * The sandbox `serve --sandbox` starts: seeded with the samples and the fleet, RBAC enforced (the
 * service acts as its ServiceAccount, as in a cluster), its controllers on, as slow as
 * `--sandbox-reconcile-delay` asks.
 */
export function serveSandboxOptions(config: ServeSandboxConfig): SandboxStartOptions {
  return {
    listen: config.listen, seed: 'samples', authorization: 'rbac', controllers: true,
    reconcileDelayMs: config.reconcileDelayMs, ...SANDBOX_FLEET,
  };
}

/** The package's `cli` entry point (`agent-manager sandbox`). */
export interface SandboxCliModule {
  runSandbox(config: object, log: SandboxLog): Promise<void>;
}

/** Import `specifier`, turning "that package is not installed" into SandboxNotInstalledError. */
export async function importSandbox<T>(specifier: string): Promise<T> {
  try {
    // safe: the callers name the package's own entry points with the module types declared above.
    return (await import(specifier)) as T;
  } catch (err) {
    const { code, message } = asObject(err);
    const packageName = specifier.split('/').slice(0, 2).join('/');
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(message).includes(packageName)) {
      throw new SandboxNotInstalledError(packageName);
    }
    throw err;
  }
}

/** The sandbox's main entry point. */
export function loadSandbox(specifier = SANDBOX_PACKAGE): Promise<SandboxModule> {
  return importSandbox<SandboxModule>(specifier);
}

/** The sandbox's command entry point. */
export function loadSandboxCli(specifier = `${SANDBOX_PACKAGE}/cli`): Promise<SandboxCliModule> {
  return importSandbox<SandboxCliModule>(specifier);
}
