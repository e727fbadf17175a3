/**
 * Starting the workload clusters of a management sandbox: one sandbox each, in parallel,
 * on the management's loopback host, with its options (authorization, OIDC, controllers,
 * delays, watch settings) and the seed without sample agents; never its fixed tokens,
 * listen port or own authorizer, so every cluster has its own credentials and state. If
 * one fails to start, the others are closed again.
 */
import type { Sandbox, SandboxOptions } from './index.js';
import { clusterLog, workloadSeed } from './fleet.js';

/** The options of workload cluster `name` of a management sandbox started with `options`. */
export function workloadOptions(options: SandboxOptions, host: string, name: string): SandboxOptions {
  return {
    listen: `${host.includes(':') ? `[${host}]` : host}:0`,
    seed: workloadSeed(options.seed),
    authorization: options.authorization,
    authenticators: options.authenticators,
    oidc: options.oidc,
    controllers: options.controllers,
    reconcileDelayMs: options.reconcileDelayMs,
    a2a: options.a2a,
    log: clusterLog(options.log, name),
    historyCapacity: options.historyCapacity,
    watchTimeoutSeconds: options.watchTimeoutSeconds,
    bookmarkIntervalMs: options.bookmarkIntervalMs,
  };
}

/** Start the named workload clusters together; all or none. */
export async function startWorkloads(
  start: (options: SandboxOptions) => Promise<Sandbox>, options: SandboxOptions, host: string, names: readonly string[],
): Promise<Map<string, Sandbox>> {
  const results = await Promise.allSettled(names.map((name) => start(workloadOptions(options, host, name))));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => s.close()));
    throw failed.reason;
  }
  return new Map(names.map((name, i) => [name, started[i]!]));
}
