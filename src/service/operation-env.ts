/**
 * What every operation body receives: the ports, the settings, the resolved resource
 * types and a way to get the request's Kubernetes client. Built once by AgentService.
 */
import type { ComposeConfig } from '../core/writes/compose.js';
import type { TargetCluster } from '../core/fleet/target-cluster.js';
import type { RequestContext } from '../identity/caller.js';
import type { KubePort } from './ports.js';
import type { ResourceTypes } from './resources.js';
import type { ServiceDeps, ServiceSettings } from './settings.js';

export interface OperationEnv {
  deps: ServiceDeps;
  settings: ServiceSettings;
  types: ResourceTypes;
  compose: ComposeConfig;
  /** The request's client: the caller's with downstream OAuth, else the ServiceAccount's. */
  kube(ctx: RequestContext): KubePort;
  /** The client of the pure reads: the read cache when it is on, else `kube(ctx)`. */
  reads(ctx: RequestContext): KubePort;
  /** Set when the request's agent runs on a workload cluster (targeting.ts). */
  placement?: { target: TargetCluster; musterUrl: string };
}
