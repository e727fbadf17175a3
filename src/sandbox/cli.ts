/**
 * `agent-manager sandbox`: run the sandbox API server alone until SIGINT or SIGTERM.
 * Prints where it listens and how to point kubectl at it, writes a kubeconfig when asked
 * (`--kubeconfig-out`), and seeds unless `--no-seed`.
 *
 * Not yet here (issue 4, part 2 of the sandbox): RBAC authorization, OIDC authentication
 * and the simulated controllers. Until then `--authorization rbac` allows everything and
 * says so, and OIDC and controller settings are reported as not yet available.
 */
import type { SandboxCommandConfig } from '../config/sandbox-config.js';
import type { Logger } from '../log/logger.js';
import { alwaysAllow, type Authorizer } from './auth/authorizer.js';
import { startSandbox, type Sandbox } from './index.js';

/** Options for embedding the command (tests): stop on this signal instead of process signals. */
export interface RunSandboxOptions {
  signal?: AbortSignal;
  /** Called once the server listens (and the kubeconfig is written). */
  onReady?: (sandbox: Sandbox) => void;
}

/** The authorizer for `--authorization`. TODO(issue 4): RBAC from the stored roles and bindings. */
function authorizerFor(config: SandboxCommandConfig, log: Logger): Authorizer {
  if (config.authorization === 'rbac') {
    log.warn('RBAC authorization is not available in this build of the sandbox yet; every authenticated request is allowed');
  }
  return alwaysAllow;
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

/** Run the sandbox until asked to stop. Resolves after it has closed. */
export async function runSandbox(config: SandboxCommandConfig, log: Logger, options: RunSandboxOptions = {}): Promise<void> {
  if (config.oidc) log.warn({ issuer: config.oidc.issuerUrl }, 'OIDC authentication is not available in this build of the sandbox yet; only its static tokens are accepted');
  if (config.controllers) log.info('simulated controllers are not available in this build of the sandbox yet; objects will not become Ready on their own');
  const sandbox = await startSandbox({ listen: config.listen || '127.0.0.1:0', seed: config.seed, log });
  sandbox.authorizer = authorizerFor(config, log);
  try {
    if (config.kubeconfigOut) await sandbox.writeKubeconfig(config.kubeconfigOut);
    log.info({ url: sandbox.url, kubeconfig: config.kubeconfigOut || undefined, seeded: config.seed }, 'sandbox Kubernetes API server listening');
    const lines = [`Sandbox Kubernetes API server: ${sandbox.url}`];
    if (config.kubeconfigOut) lines.push(`Use it with: KUBECONFIG=${config.kubeconfigOut} kubectl get helmreleases -A`);
    else lines.push('Write a kubeconfig for kubectl with --kubeconfig-out PATH');
    process.stdout.write(`${lines.join('\n')}\n`);
    options.onReady?.(sandbox);
    const why = await stopRequested(options.signal);
    log.info({ reason: why }, 'sandbox stopping');
  } finally {
    await sandbox.close();
  }
}
