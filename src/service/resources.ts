/**
 * The Kubernetes resource types the agent service reads and writes. The kagent and
 * Flux API versions are discovered at startup (or pinned by flags), so the types of
 * those groups are built from the resolved `ApiVersions`; Deployments, pods, events and
 * ControllerRevisions (an agent's history) are fixed built-in types.
 */
import type { Gvr } from './ports.js';

/** The discovered group/version strings, e.g. `kagent.dev/v1alpha2`. */
export interface ApiVersions {
  /** The kagent.dev Agent of chart 0.x. */
  agent: string;
  modelConfig: string;
  /**
   * The api.kagent.dev version of chart 2.x's objects (Agent, Harness, ModelConfig, RemoteMCPServer); undefined when
   * the cluster does not serve the group, which leaves the 2.x reads empty rather than failing.
   */
  agentV2?: string;
  helmRelease: string;
  ociRepository: string;
}

/** The API versions used when discovery is off or fails: kagent.dev/v1alpha2, helm.toolkit.fluxcd.io/v2,
 * source.toolkit.fluxcd.io/v1. */
export const DEFAULT_API_VERSIONS: ApiVersions = {
  agent: 'kagent.dev/v1alpha2',
  agentV2: 'api.kagent.dev/v1alpha3',
  modelConfig: 'kagent.dev/v1alpha2',
  helmRelease: 'helm.toolkit.fluxcd.io/v2',
  ociRepository: 'source.toolkit.fluxcd.io/v1',
};

/** Every resource type the service touches. */
export interface ResourceTypes {
  agent: Gvr;
  modelConfig: Gvr;
  /** Chart 2.x's objects, when the cluster serves api.kagent.dev. */
  agentV2?: Gvr;
  harness?: Gvr;
  modelConfigV2?: Gvr;
  helmRelease: Gvr;
  ociRepository: Gvr;
  deployment: Gvr;
  pod: Gvr;
  event: Gvr;
  controllerRevision: Gvr;
  /** Flux's Kustomization and GitRepository (commit mode reads where a release is defined). */
  kustomization: Gvr;
  gitRepository: Gvr;
  /** Cluster API's kubeconfig Secrets of workload clusters, read on the management cluster. */
  secret: Gvr;
}

/** Split `group/version` (or a bare core `version`). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The apiVersion string of a type. */
export function apiVersionOf(gvr: Gvr): string {
  return gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
}

function gvr(apiVersion: string, resource: string, kind: string): Gvr {
  return { ...splitApiVersion(apiVersion), resource, kind };
}

/** The resource types for the resolved API versions. */
export function resourceTypes(versions: ApiVersions): ResourceTypes {
  return {
    agent: gvr(versions.agent, 'agents', 'Agent'),
    modelConfig: gvr(versions.modelConfig, 'modelconfigs', 'ModelConfig'),
    ...(versions.agentV2 ? {
      agentV2: gvr(versions.agentV2, 'agents', 'Agent'),
      harness: gvr(versions.agentV2, 'harnesses', 'Harness'),
      modelConfigV2: gvr(versions.agentV2, 'modelconfigs', 'ModelConfig'),
    } : {}),
    helmRelease: gvr(versions.helmRelease, 'helmreleases', 'HelmRelease'),
    ociRepository: gvr(versions.ociRepository, 'ocirepositories', 'OCIRepository'),
    deployment: gvr('apps/v1', 'deployments', 'Deployment'),
    pod: gvr('v1', 'pods', 'Pod'),
    event: gvr('v1', 'events', 'Event'),
    controllerRevision: gvr('apps/v1', 'controllerrevisions', 'ControllerRevision'),
    kustomization: gvr('kustomize.toolkit.fluxcd.io/v1', 'kustomizations', 'Kustomization'),
    gitRepository: gvr('source.toolkit.fluxcd.io/v1', 'gitrepositories', 'GitRepository'),
    secret: gvr('v1', 'secrets', 'Secret'),
  };
}
