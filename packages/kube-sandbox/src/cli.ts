/**
 * `agent-manager sandbox`: run the sandbox API server alone until SIGINT or SIGTERM.
 * Prints where it listens and how to point kubectl at it, writes a kubeconfig when asked
 * (`--kubeconfig-out`), seeds the sample platform unless `--no-seed`, enforces RBAC
 * unless `--authorization always-allow`, trusts an OIDC issuer when `--oidc-issuer-url`
 * is set, and runs the simulated controllers unless `--no-controllers`. With
 * `--workload-clusters N` it is a management cluster of N workload clusters of its own.
 */
import { readFile } from 'node:fs/promises';
import type { OidcAuthenticatorConfig } from './auth/oidc-authenticator.js';
import { startSandbox, type Sandbox, type SandboxLogger } from './index.js';

/** OIDC id_token authentication, as kube-apiserver's `--oidc-*` flags. */
export interface SandboxOidcFlags {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** Claim that names the user (kube-apiserver's default is `sub`). */
  readonly usernameClaim: string;
  /** Empty means `<issuer>#` for claims other than `email`; `-` means none. */
  readonly usernamePrefix: string;
  /** Claim that lists the user's groups; empty reads none. */
  readonly groupsClaim: string;
  /** PEM CA bundle to trust for discovery and JWKS besides the public roots; empty means none. */
  readonly caFile: string;
}

/** What the command runs with (the embedding CLI parses its flags into this). */
export interface SandboxCommandConfig {
  /** host:port to listen on; port 0 picks a free port. */
  readonly listen: string;
  /** Where to write a kubeconfig for kubectl; empty writes none. */
  readonly kubeconfigOut: string;
  /** Seed the sample platform (namespaces, CRDs, sample objects). */
  readonly seed: boolean;
  /** RBAC enforcement, or everything allowed. */
  readonly authorization: 'rbac' | 'always-allow';
  /** Run the simulated Flux and kagent controllers. */
  readonly controllers: boolean;
  /** How long the controllers wait after a change before acting on it (ms). */
  readonly reconcileDelayMs: number;
  /** OIDC authentication, when an issuer is trusted. */
  readonly oidc: SandboxOidcFlags | undefined;
  /** Workload clusters `cluster-1`..`cluster-N` to start beside this (management) one; default 0. */
  readonly workloadClusters?: number;
  /** Their organization (namespace `org-<organization>` holds their kubeconfig Secrets); default `acme`. */
  readonly organization?: string;
}

/** The logger the command reports to (pino's, or anything with these methods). */
export interface CommandLogger extends SandboxLogger {
  info(obj: object, msg?: string): void;
}

/** Options for embedding the command (tests): stop on this signal instead of process signals. */
export interface RunSandboxOptions {
  signal?: AbortSignal;
  /** Called once the server listens (and the kubeconfig is written). */
  onReady?: (sandbox: Sandbox) => void;
}

/** The OIDC settings of the flags, with the CA file read; a file that cannot be read names its flag. */
async function oidcConfig(config: SandboxCommandConfig): Promise<OidcAuthenticatorConfig | undefined> {
  const oidc = config.oidc;
  if (!oidc) return undefined;
  let caPem: string | undefined;
  if (oidc.caFile) {
    try {
      caPem = await readFile(oidc.caFile, 'utf8');
    } catch (err) {
      // readFile rejects with a Node system error, an Error.
      throw new Error(`--oidc-ca-file ${oidc.caFile}: cannot read it: ${(err as Error).message}`, { cause: err });
    }
    if (!caPem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new Error(`--oidc-ca-file ${oidc.caFile}: no PEM certificate in it`);
    }
  }
  return {
    issuerUrl: oidc.issuerUrl, clientId: oidc.clientId, usernameClaim: oidc.usernameClaim,
    usernamePrefix: oidc.usernamePrefix, groupsClaim: oidc.groupsClaim, caPem,
  };
}

/** Wait for SIGINT/SIGTERM (or the abort signal). */
function stopRequested(signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) return resolve('abort');
      signal.addEventListener('abort', () => resolve('abort'), { once: true });
      return;
    }
    const onSignal = (name: string) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(name);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** The lines printed at start: where, how to use it, and what runs. */
function banner(sandbox: Sandbox, config: SandboxCommandConfig): string {
  const lines = [`Sandbox Kubernetes API server: ${sandbox.url}`];
  if (config.kubeconfigOut) lines.push(`Use it with: KUBECONFIG=${config.kubeconfigOut} kubectl get ` +
    `helmreleases,agents -A`);
  else lines.push('Write a kubeconfig for kubectl with --kubeconfig-out PATH');
  lines.push(`Authorization: ` +
    `${config.authorization === 'rbac' ? 'RBAC (the kubeconfig user is in system:masters)' : 'everything allowed'}`);
  if (config.oidc) lines.push(`OIDC: id_tokens of ${config.oidc.issuerUrl} for client ${config.oidc.clientId}`);
  lines.push(`Controllers: ${config.controllers ? `running (${sandbox.controllers?.names.join(', ')})` : 'off'}`);
  if (sandbox.a2aUrl) {
    lines.push(`kagent A2A for Ready agents: ${sandbox.a2aUrl}/<namespace>/<name>/ (serve ` +
      `--kagent-a2a-url=${sandbox.a2aUrl})`);
  }
  if (sandbox.workloads.size > 0) {
    lines.push(`Workload clusters of organization ${sandbox.organization} (kubeconfig Secrets <cluster>-kubeconfig ` +
      `in org-${sandbox.organization}):`);
    for (const [name, workload] of sandbox.workloads) {
      const path = workloadKubeconfigPath(config, name);
      lines.push(`  ${name}: ${workload.url}${path ? ` (KUBECONFIG=${path})` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Where a workload cluster's kubeconfig is written: beside the management one, suffixed with the cluster. */
function workloadKubeconfigPath(config: SandboxCommandConfig, cluster: string): string {
  return config.kubeconfigOut ? `${config.kubeconfigOut}-${cluster}` : '';
}

/** Run the sandbox until asked to stop. Resolves after it has closed. */
export async function runSandbox(
  config: SandboxCommandConfig, log: CommandLogger, options: RunSandboxOptions = {},
): Promise<void> {
  const listen = config.listen || '127.0.0.1:0';
  const sandbox = await startSandbox({
    listen,
    seed: config.seed ? 'samples' : false,
    authorization: config.authorization,
    oidc: await oidcConfig(config),
    controllers: config.controllers,
    reconcileDelayMs: config.reconcileDelayMs,
    ...(config.workloadClusters
      ? { workloadClusters: config.workloadClusters, organization: config.organization || undefined }
      : {}),
    log,
  }).catch((err: unknown) => {
    throw listenFailure(err, listen);
  });
  try {
    if (config.kubeconfigOut) await sandbox.writeKubeconfig(config.kubeconfigOut);
    for (const [name, workload] of sandbox.workloads) {
      if (config.kubeconfigOut) await workload.writeKubeconfig(workloadKubeconfigPath(config, name));
    }
    log.info(
      {
        // Not `authorization`: the logger redacts that key everywhere (it is the header's name).
        url: sandbox.url,
        kubeconfig: config.kubeconfigOut || undefined, seeded: config.seed, authorizationMode: config.authorization,
        oidcIssuer: config.oidc?.issuerUrl, controllers: config.controllers, a2aUrl: sandbox.a2aUrl,
        organization: sandbox.organization,
        workloadClusters: Object.fromEntries([...sandbox.workloads].map(([name, w]) => [name, w.url])),
      },
      'sandbox Kubernetes API server listening',
    );
    process.stdout.write(banner(sandbox, config));
    options.onReady?.(sandbox);
    const why = await stopRequested(options.signal);
    log.info({ reason: why }, 'sandbox stopping');
  } finally {
    await sandbox.close();
  }
}

/**
 * A bind failure as one line naming `--listen`, with `exitCode: 2` (the CLI's code for a
 * configuration problem); any other error as it is.
 */
function listenFailure(err: unknown, listen: string): unknown {
  // Read only for its code: a listen failure is a Node system error; anything else has no such code.
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return err;
  return Object.assign(
    new Error(`--listen ${listen}: the address is already in use; stop what holds it or choose another ` +
      `address with --listen`, { cause: err }),
    { exitCode: 2 },
  );
}
