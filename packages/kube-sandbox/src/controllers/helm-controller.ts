/**
 * A stand-in for Flux's helm-controller, for agent-chart HelmReleases with a `chartRef` to an
 * OCIRepository: finalizer, wait for the artifact, install or upgrade when chart or values changed (an
 * upgrade replaces what the chart rendered and keeps what others added), `status.history`, the inventory
 * and `Ready`/`Released`; refused values are `InstallFailed`/`UpgradeFailed` + `Stalled` until they change;
 * a suspended release only observed; deletion uninstalls (not when suspended). Generations as Flux writes them;
 * `spec.kubeConfig` installs into another cluster (remote-cluster.ts) with Helm's records (helm-storage.ts).
 */
import { stringify } from 'yaml';
import type { JsonObject } from '../api/json.js';
import { Controller, finalizersOf, metadata, type ControllerContext } from './work-loop.js';
import type { StoreEvent } from '../store/watch-hub.js';
import { MANAGER } from './helm-apply.js';
import { attemptOf } from './helm-actions/attempt.js';
import { HR, obj, str, targetOf, type ActionContext, type Reconcile } from './helm-actions/common.js';
import { failureStands } from './helm-actions/failure.js';
import { addFinalizer } from './helm-actions/finalizer.js';
import { holdSuspended, holdUnreachable, waitForSource } from './helm-actions/hold.js';
import { inSync } from './helm-actions/in-sync.js';
import { prepareAttempt } from './helm-actions/prepare.js';
import { runRelease } from './helm-actions/release.js';
import { uninstall } from './helm-actions/uninstall.js';
import {
  classifyRelease, handledRequests, RECONCILE_REQUESTED_AT, type ReleaseState, type SourceState,
} from './helm-release-state.js';
import type { ReleaseTarget } from './remote-cluster.js';
import { FLUX_FINALIZER } from './source-controller.js';
import { findCondition, sha256Hex } from './status-helpers.js';

/** The chart the release's source offers, or why it cannot be had. */
function sourceOf(ctx: ActionContext, hr: JsonObject): SourceState {
  const meta = metadata(hr);
  const ref = obj(obj(hr.spec).chartRef);
  if (ref.kind !== 'OCIRepository') {
    return { reason: 'ArtifactFailed', message: `could not get Source object: the sandbox simulates chartRef kind ` +
      `OCIRepository only, not ${JSON.stringify(ref.kind ?? '')}` };
  }
  const namespace = str(ref.namespace) || String(meta.namespace);
  const source = ctx.store.find('ocirepositories', namespace, str(ref.name));
  if (!source) {
    return { reason: 'ArtifactFailed', message: `could not get Source object: ` +
      `OCIRepository.source.toolkit.fluxcd.io ${JSON.stringify(str(ref.name))} not found` };
  }
  const artifact = obj(obj(source.status).artifact);
  const ready = findCondition(source, 'Ready');
  if (ready?.status !== 'True' || !artifact.revision) {
    return { reason: 'SourceNotReady',
      message: `OCIRepository '${namespace}/${str(ref.name)}' is not ` +
        `ready${ready?.message ? `: ${ready.message}` : ''}` };
  }
  const revision = str(artifact.revision);
  const version = str(obj(artifact.metadata)['org.opencontainers.image.version']) || revision.split('@')[0]!;
  const digestHex = revision.includes('@sha256:') ? revision.split('@sha256:')[1]! : sha256Hex(revision);
  return { version, digestHex };
}

/**
 * Flux's `configDigest`: sha256 over the values as sigs.k8s.io/yaml writes them (keys
 * sorted, block style), and over nothing for empty values (helm-controller digests nil
 * rather than `{}`), so a client can match a history entry to the values it wrote.
 */
export function valuesDigest(values: JsonObject): string {
  const text = Object.keys(values).length === 0 ? ''
    : stringify(values, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0,
        aliasDuplicateObjects: false });
  return `sha256:${sha256Hex(text)}`;
}

/** The release's state as `classifyRelease` needs it: the source read only when it counts, the target after it. */
function readRelease(ctx: ActionContext, hr: JsonObject): { state: ReleaseState; target?: ReleaseTarget } {
  const meta = metadata(hr);
  const state: ReleaseState = {
    ...handledRequests(hr), generation: Number(meta.generation ?? 1), deleting: Boolean(meta.deletionTimestamp),
    hasFinalizer: finalizersOf(hr).includes(FLUX_FINALIZER), suspended: obj(hr.spec).suspend === true,
    configDigest: valuesDigest(obj(obj(hr.spec).values)),
  };
  if (state.deleting || !state.hasFinalizer || state.suspended) return { state };
  state.source = sourceOf(ctx, hr);
  if ('reason' in state.source) return { state };
  const target = targetOf(ctx.store, hr);
  state.target = target;
  return { state, target };
}

/** One reconcile of a HelmRelease: read, classify, act (exported for seeding installed releases synchronously). */
export function reconcileHelmRelease(ctx: ActionContext, namespace: string, name: string): number | void {
  const hr = ctx.store.find(HR, namespace, name);
  if (!hr) return;
  const { state, target } = readRelease(ctx, hr);
  const decision = classifyRelease(state);
  // observedGeneration is stamped only by a reconcile that finished (installed, upgraded, in
  // sync, suspended, or failed for good), never while it waits for the chart or runs an action.
  const run: Reconcile = { ctx, hr, status: state.status, generation: state.generation };
  switch (decision.kind) {
    case 'uninstall': return uninstall(ctx, hr);
    case 'add-finalizer': return addFinalizer(ctx, hr);
    case 'suspended': return holdSuspended(run);
    case 'wait-for-source': return waitForSource(run, decision.reason, decision.message);
    case 'unreachable': return holdUnreachable(run, decision.phase, decision.message);
    case 'in-sync': return inSync(run, decision.deployed, decision.chartVersion);
    case 'failure': return failureStands(run);
    default: break;
  }
  // classifyRelease attempts only with a ready source and a reachable target: this guard narrows the types.
  if (!target?.ok) return;
  const action = decision.kind === 'prepare' ? decision.action : decision.kind;
  const attempt = attemptOf(run, action, decision.chartVersion, decision.source, state.configDigest);
  if (decision.kind === 'prepare') return prepareAttempt(run, attempt);
  return runRelease(run, target, attempt, state.forceAt);
}

/**
 * The HelmRelease events helm-controller reconciles, as its watch predicates choose them
 * (`GenerationChangedPredicate` or `ReconcileRequestedPredicate`): a new or deleted release, a spec
 * change (a new generation; deletion sets one too), a new `reconcile.fluxcd.io/requestedAt`, and the
 * finalizers changing (its own finalizer is followed by the reconcile that acts). A write to status
 * alone, by helm-controller or by anyone else, is no reason: a status patched by hand stays.
 */
function helmReleaseChanged(event: StoreEvent): Iterable<readonly [string, string]> {
  const after = metadata(event.object);
  const target = [[String(after.namespace ?? ''), String(after.name ?? '')] as const];
  if (event.type !== 'MODIFIED' || !event.previous) return target;
  const before = metadata(event.previous);
  const requested = (m: JsonObject) => str(obj(m.annotations)[RECONCILE_REQUESTED_AT]);
  const changed = before.generation !== after.generation || requested(before) !== requested(after)
    || Boolean(before.deletionTimestamp) !== Boolean(after.deletionTimestamp)
    || JSON.stringify(before.finalizers ?? []) !== JSON.stringify(after.finalizers ?? []);
  return changed ? target : [];
}

/** Start the helm-controller: HelmReleases, and the releases of an OCIRepository when it changes. */
export function startHelmController(ctx: ControllerContext): Controller {
  const controller = new Controller(MANAGER, ctx, (ns, name) => reconcileHelmRelease(ctx, ns, name));
  controller.watch(HR, helmReleaseChanged).watch('ocirepositories', (event) => {
    const source = metadata(event.object);
    return ctx.store.list(HR).items.filter((hr) => {
      const ref = obj(obj(hr.spec).chartRef);
      return ref.kind === 'OCIRepository' && ref.name === source.name &&
        (str(ref.namespace) || metadata(hr).namespace) === source.namespace;
    }).map((hr) => [String(metadata(hr).namespace), String(metadata(hr).name)] as const);
  }).watch('secrets', (event) => {
    // A release on another cluster is looked at again when its kubeconfig Secret changes.
    const secret = metadata(event.object);
    return ctx.store.list(HR, { namespace: String(secret.namespace) }).items
      .filter((hr) => obj(obj(obj(hr.spec).kubeConfig).secretRef).name === secret.name)
      .map((hr) => [String(metadata(hr).namespace), String(metadata(hr).name)] as const);
  });
  return controller.resync(HR);
}
