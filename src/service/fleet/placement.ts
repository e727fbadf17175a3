/**
 * An agent on a workload cluster seen as one cluster, so every operation reads and writes
 * it as it does an agent of the management cluster. In the agent's namespace, the release
 * side (HelmRelease, shared OCIRepository, revisions) lives on the management cluster in
 * `org-<organization>` (the release as `<cluster>-<agent>`, placed as Flux's
 * `spec.kubeConfig` wants it); the kagent side (Agent, ModelConfigs, Deployment, pods,
 * events) is read on the workload cluster. Objects come back as stored, never renamed.
 */
import {
  CLUSTER_LABEL, organizationNamespace, placeOnCluster, placedReleaseName, type TargetCluster,
} from '../../core/fleet/target-cluster.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import type { RequestContext } from '../../identity/caller.js';
import type {
  Gvr, KubeObject, KubePort, KubeProvider, ListOptions, WatchEventHandlers, WatchPort, WatchSelectors, WriteCallOptions,
} from '../ports.js';
import type { ResourceTypes } from '../resources.js';

/** Where one placed agent's calls go. */
export interface Placement {
  target: TargetCluster;
  /** The agent's namespace on the workload cluster (and the release's target and storage namespace). */
  namespace: string;
  types: ResourceTypes;
}

type Side = 'release' | 'revision' | 'source' | 'workload';

function sideOf(p: Placement, gvr: Gvr): Side {
  const { types } = p;
  const is = (t: Gvr) => gvr.resource === t.resource && gvr.group === t.group;
  if (is(types.helmRelease)) return 'release';
  if (is(types.controllerRevision)) return 'revision';
  if (is(types.ociRepository)) return 'source';
  return 'workload';
}

/** The management namespace of a release-side call made in `namespace`. */
const managementNamespace = (p: Placement, namespace: string): string =>
  (namespace === p.namespace ? organizationNamespace(p.target.organization) : namespace);

/** A release named after the agent, in the agent's namespace, is its placed release. */
const releaseName = (p: Placement, namespace: string, name: string): string =>
  (namespace === p.namespace ? placedReleaseName(p.target, name) : name);

/** Only this cluster's revisions: the organization's namespace holds every cluster's. */
function clusterSelector(p: Placement, options: ListOptions = {}): ListOptions {
  const own = `${CLUSTER_LABEL}=${p.target.cluster}`;
  return { ...options, labelSelector: options.labelSelector ? `${options.labelSelector},${own}` : own };
}

/** A release of this cluster that installs into the agent's namespace. */
const installsHere = (p: Placement, release: KubeObject): boolean =>
  release.metadata.labels?.[CLUSTER_LABEL] === p.target.cluster
  && parseHelmRelease(release).targetNamespace === p.namespace;

/** The placed release of `agent` on this cluster: installed into the agent's namespace under the agent's name. */
const isAgentsRelease = (p: Placement, release: KubeObject, agent: string): boolean =>
  installsHere(p, release) && parseHelmRelease(release).releaseName === agent;

/** The kubernetes port of a placed agent: `management` for the release side, `workload` for the rest. */
export function placedKube(p: Placement, management: KubePort, workload: KubePort): KubePort {
  const org = organizationNamespace(p.target.organization);
  return {
    async get(gvr, namespace, name, options) {
      const side = sideOf(p, gvr);
      if (side === 'workload') return workload.get(gvr, namespace, name, options);
      const where = managementNamespace(p, namespace);
      const found = await management.get(gvr, where, side === 'release' ? releaseName(p, namespace, name) : name);
      // `<cluster>-<agent>` is not unique (cluster alpha-x's agent fa2 and cluster alpha's agent x-fa2 share
      // alpha-x-fa2): the release found is this agent's only when its cluster label and release name say so.
      const placed = side === 'release' && namespace === p.namespace;
      if (found && placed && !isAgentsRelease(p, found, name)) return undefined;
      return found;
    },
    async list(gvr, namespace, options) {
      const side = sideOf(p, gvr);
      if (side === 'workload') return workload.list(gvr, namespace, options);
      const where = managementNamespace(p, namespace);
      if (side === 'revision') return management.list(gvr, where, clusterSelector(p, options));
      if (side === 'release' && namespace === p.namespace) {
        // The agent namespace's releases: those of this cluster that install there.
        const releases = await management.list(gvr, org, clusterSelector(p, options));
        return releases.filter((r) => installsHere(p, r));
      }
      return management.list(gvr, where, options);
    },
    async create(gvr, object, options?: WriteCallOptions) {
      const side = sideOf(p, gvr);
      if (side === 'workload') return workload.create(gvr, object, options);
      return management.create(gvr, placedObject(p, side, object), options);
    },
    async replace(gvr, object, options) {
      const side = sideOf(p, gvr);
      return side === 'workload' ? workload.replace(gvr, object, options) : management.replace(gvr, object, options);
    },
    async remove(gvr, namespace, name, options) {
      const side = sideOf(p, gvr);
      if (side === 'workload') return workload.remove(gvr, namespace, name, options);
      const named = side === 'release' ? releaseName(p, namespace, name) : name;
      return management.remove(gvr, managementNamespace(p, namespace), named, options);
    },
  };
}

/** A new release-side object as it is stored on the management cluster. */
function placedObject(p: Placement, side: Exclude<Side, 'workload'>, object: KubeObject): KubeObject {
  const namespace = object.metadata.namespace ?? p.namespace;
  if (side === 'release' && namespace === p.namespace) {
    return placeOnCluster(object, p.target, object.metadata.name, p.namespace);
  }
  const metadata = { ...object.metadata, namespace: managementNamespace(p, namespace) };
  if (side === 'revision') {
    // Revisions of every cluster share the organization's namespace: the name and a label say whose.
    metadata.name = `${p.target.cluster}-${object.metadata.name}`;
    metadata.labels = { ...object.metadata.labels, [CLUSTER_LABEL]: p.target.cluster };
  }
  return { ...object, metadata };
}

/** The name a `metadata.name=<name>` field selector selects, or undefined. */
const selectedName = (selectors: WatchSelectors): string | undefined =>
  /^metadata\.name=(.+)$/.exec(selectors.fieldSelector ?? '')?.[1];

/** `metadata.name=<agent>` in the agent's namespace names the placed release. */
function releaseSelectors(p: Placement, namespace: string, selectors: WatchSelectors): WatchSelectors {
  if (namespace !== p.namespace) return selectors;
  const name = selectedName(selectors);
  return name ? { ...selectors, fieldSelector: `metadata.name=${placedReleaseName(p.target, name)}` } : selectors;
}

/** The watches of a placed agent, routed as placedKube routes its calls. */
export function placedWatches(p: Placement, management: WatchPort, workload: WatchPort): WatchPort {
  const route = (gvr: Gvr, namespace: string, selectors: WatchSelectors) => {
    const side = sideOf(p, gvr);
    if (side === 'workload') return { port: workload, namespace, selectors };
    const where = managementNamespace(p, namespace);
    if (side === 'release') {
      return { port: management, namespace: where, selectors: releaseSelectors(p, namespace, selectors) };
    }
    return { port: management, namespace: where, selectors };
  };
  // A watch of one agent's release sees only that agent's: another pair's release of the same name is none of it.
  const foreign = (gvr: Gvr, namespace: string, selectors: WatchSelectors) => {
    const agent = selectedName(selectors);
    if (agent === undefined || namespace !== p.namespace || sideOf(p, gvr) !== 'release') return undefined;
    return (release: KubeObject) => !isAgentsRelease(p, release, agent);
  };
  return {
    async list(gvr, namespace, selectors) {
      const r = route(gvr, namespace, selectors);
      const listed = await r.port.list(gvr, r.namespace, r.selectors);
      const isForeign = foreign(gvr, namespace, selectors);
      return isForeign ? { ...listed, items: listed.items.filter((item) => !isForeign(item)) } : listed;
    },
    watch(gvr, namespace, selectors, resourceVersion, handlers: WatchEventHandlers) {
      const r = route(gvr, namespace, selectors);
      const isForeign = foreign(gvr, namespace, selectors);
      const seen: WatchEventHandlers = isForeign ? {
        onEvent: (type, object) => {
          if (type === 'BOOKMARK' || !isForeign(object)) handlers.onEvent(type, object);
        },
        onEnd: (failure) => handlers.onEnd(failure),
      } : handlers;
      return r.port.watch(gvr, r.namespace, r.selectors, resourceVersion, seen);
    },
  };
}

/**
 * The provider of a placed agent's request: the management cluster's identity for the
 * release side, the workload cluster's for the rest. Its pure reads (`forReads`) take the
 * workload side from that cluster's read cache when it has one; the release side is read
 * directly (the management cache covers the managed namespaces, not `org-<organization>`).
 * No access review: commit mode does not place agents.
 */
export function placedProvider(p: Placement, management: KubeProvider, workload: KubeProvider): KubeProvider {
  return {
    identity: management.identity,
    forRequest: (ctx: RequestContext) => placedKube(p, management.forRequest(ctx), workload.forRequest(ctx)),
    forReads: (ctx: RequestContext) =>
      placedKube(p, management.forRequest(ctx), workload.forReads?.(ctx) ?? workload.forRequest(ctx)),
    ...(management.forWatches && workload.forWatches
      ? {
          forWatches: (ctx: RequestContext) => placedWatches(p, management.forWatches!(ctx), workload.forWatches!(ctx)),
        }
      : {}),
  };
}
