/**
 * The loopback network of this process as the simulated controllers see it: every sandbox
 * API server is reachable at its `host:port` while it listens, and no longer once it has
 * closed (as a closed port refuses connections). A controller holding a kubeconfig "dials"
 * the server address it names and gets that cluster's store, its CA (to check against the
 * kubeconfig's) and its static tokens (to authenticate the kubeconfig's user).
 */
import type { SandboxStore } from '../ops/sandbox-store.js';
import type { UserInfo } from '../ops/op-options.js';

/** What a controller reaches at a listening address. */
export interface ReachableServer {
  readonly caPem: string;
  readonly store: SandboxStore;
  /** The user of a bearer token, as the server's static tokens know it; undefined for any other token. */
  authenticate(token: string): UserInfo | undefined;
}

const listening = new Map<string, ReachableServer>();

/** `127.0.0.1:6443` for `localhost:6443`: the sandbox listens on addresses, names resolve to them. */
function normalise(address: string): string {
  return address.replace(/^localhost:/i, '127.0.0.1:');
}

/** Make `server` reachable at `address` (`host:port`); returns the call that takes it off the network. */
export function announce(address: string, server: ReachableServer): () => void {
  const key = normalise(address);
  listening.set(key, server);
  return () => {
    if (listening.get(key) === server) listening.delete(key);
  };
}

/** The server listening at `address`, or undefined (connection refused). */
export function dial(address: string): ReachableServer | undefined {
  return listening.get(normalise(address));
}
