/**
 * A stand-in for Flux's helm-controller, for agent-chart HelmReleases with a `chartRef` to an
 * OCIRepository: finalizer, wait for the artifact, install or upgrade when chart or values changed (an
 * upgrade replaces what the chart rendered and keeps what others added), `status.history`, the inventory
 * and `Ready`/`Released`; refused values are `InstallFailed`/`UpgradeFailed` + `Stalled` until they change;
 * a suspended release only observed; deletion uninstalls (not when suspended). Generations as Flux writes them;
 * `spec.kubeConfig` installs into another cluster (remote-cluster.ts) with Helm's records (helm-storage.ts).
 */
import { stringify } from 'yaml';
import { isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { CHART_APP_VERSION, CHART_NAME } from './agent-chart.js';
import { releaseFailure, renderRelease } from './chart-lines.js';
import { Controller, finalizersOf, metadata, type ControllerContext } from './controller.js';
import type { StoreEvent } from '../store/watch-hub.js';
import {
  applyRelease, deleteOwned, inventoryEntry, inventoryObjects, MANAGER, releaseNameOf,
} from './helm-apply.js';
import { deleteRelease, storeRelease } from './helm-storage.js';
import { releaseTarget, type ReleaseTarget } from './remote-cluster.js';
import { FLUX_FINALIZER } from './source-controller.js';
import {
  findCondition, recordEvent, removeConditions, setCondition, sha256Hex, subjectOf, writeStatus, type Condition,
} from './status-helpers.js';

const HR = 'helmreleases';
/** Flux's request for a reconcile now: its value is copied to status.lastHandledReconcileAt once handled. */
const RECONCILE_REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
// `flux reconcile helmrelease --force` and `--reset` set these beside requestedAt, to the same token.
const FORCE_AT = 'reconcile.fluxcd.io/forceAt';
const RESET_AT = 'reconcile.fluxcd.io/resetAt';
/** helm-controller retries a release it could not reach with back-off; the sandbox looks again after this (ms). */
const UNREACHABLE_RETRY_MS = 2_000;

const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Where Helm keeps the release's records: `spec.storageNamespace`, else the release's own namespace. */
function storageNamespaceOf(hr: JsonObject): string {
  return str(obj(hr.spec).storageNamespace) || String(metadata(hr).namespace);
}

/** The target cluster of `hr`, probing its storage as Helm's first request does. */
function targetOf(store: SandboxStore, hr: JsonObject): ReleaseTarget {
  return releaseTarget(store, hr, { storageNamespace: storageNamespaceOf(hr), releaseName: releaseNameOf(hr) });
}

/** The chart the release's source offers, or why it cannot be had. */
type SourceState = { version: string; digestHex: string } | { reason: string; message: string };

function sourceOf(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject): SourceState {
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

/**
 * Uninstall, then let the object go. A suspended release is let go without uninstalling, as
 * Flux does; so is a release on another cluster that was never installed (no storage
 * namespace in its status) or whose kubeconfig Secret is gone (there is no client to
 * uninstall with). Any other failure to reach that cluster keeps the finalizer: Ready
 * False `UninstallFailed`, and the uninstall is tried again.
 */
function finalize(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject): number | void {
  if (!finalizersOf(hr).includes(FLUX_FINALIZER)) return;
  const remote = isObject(obj(hr.spec).kubeConfig);
  const installed = !remote || str(obj(hr.status).storageNamespace) !== '';
  if (obj(hr.spec).suspend !== true && installed) {
    const target = targetOf(ctx.store, hr);
    if (!target.ok && !(target.phase === 'client' && target.secretMissing)) {
      const message = target.phase === 'client'
        ? `failed to build REST client getter to uninstall release: ${target.message}`
        : `Helm uninstall failed for release ${str(obj(hr.spec).targetNamespace) || String(metadata(hr).namespace)}/` +
          `${releaseNameOf(hr)}: ${target.message}`;
      const generation = Number(metadata(hr).generation ?? 1);
      const conditions = setCondition(
        Array.isArray(obj(hr.status).conditions) ? (obj(hr.status).conditions as Condition[]) : [],
        { type: 'Ready', status: 'False', reason: 'UninstallFailed', message, observedGeneration: generation },
      );
      writeStatus(ctx.store, HR, hr, { ...obj(hr.status), conditions }, MANAGER);
      return UNREACHABLE_RETRY_MS;
    }
    if (target.ok) {
      for (const o of inventoryObjects(hr)) deleteOwned(target.store, hr, o);
      if (target.server) {
        deleteRelease(target.store, str(obj(hr.status).storageNamespace) || storageNamespaceOf(hr), releaseNameOf(hr));
      }
    } else {
      ctx.log?.info?.({ controller: MANAGER,
        helmRelease: `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}`, reason: target.message },
      'helm-controller: skipping Helm release uninstallation');
    }
    if (target.ok && inventoryObjects(hr).length > 0) {
      ctx.log?.info?.({ controller: MANAGER,
        helmRelease: `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}` },
      'helm-controller: uninstalled');
      recordEvent(ctx.store, subjectOf(hr), 'Normal', 'UninstallSucceeded',
        `Helm uninstall succeeded for release ${String(metadata(hr).namespace)}/${releaseNameOf(hr)}`, MANAGER);
    }
  }
  const meta = metadata(hr);
  ctx.store.update(
    HR,
    {
      ...structuredClone(hr),
      metadata: { ...structuredClone(meta), finalizers: finalizersOf(hr).filter((f) => f !== FLUX_FINALIZER) },
    },
    { fieldManager: MANAGER },
  );
}

/** Conditions judged again for `generation` (Flux's conditions.Set stamps the generation it reconciled). */
function forGeneration(conditions: readonly Condition[], generation: number): Condition[] {
  return conditions.map((c) => ({ ...c, observedGeneration: generation }));
}

/** One reconcile of a HelmRelease (exported for seeding installed releases synchronously). */
export function reconcileHelmRelease(ctx: Pick<ControllerContext, 'store' | 'log'> & { delayMs?: number },
  namespace: string, name: string): number | void {
  const { store } = ctx;
  const hr = store.find(HR, namespace, name);
  if (!hr) return;
  const meta = metadata(hr);
  const spec = obj(hr.spec);
  if (meta.deletionTimestamp) return finalize(ctx, hr);
  // As helm-controller: the finalizer first (also on a suspended release), then the suspend check.
  if (!finalizersOf(hr).includes(FLUX_FINALIZER)) {
    store.update(
      HR,
      {
        ...structuredClone(hr),
        metadata: { ...structuredClone(meta), finalizers: [...finalizersOf(hr), FLUX_FINALIZER] },
      },
      { fieldManager: MANAGER },
    );
    return;
  }
  const generation = Number(meta.generation ?? 1);
  // observedGeneration is stamped only by a reconcile that finished (installed, upgraded, in
  // sync, suspended, or failed for good), never while it waits for the chart or runs an action.
  // Every reconcile acknowledges the `reconcile.fluxcd.io/requestedAt` it saw (what
  // `flux reconcile` waits for) in status.lastHandledReconcileAt.
  const status: JsonObject = structuredClone(obj(hr.status));
  const requested = str(obj(meta.annotations)[RECONCILE_REQUESTED_AT]);
  if (requested !== '') status.lastHandledReconcileAt = requested;
  // A force or reset counts once, when its token is the reconcile request's and not yet handled.
  const asked = (key: string, handled: string) => {
    const token = str(obj(meta.annotations)[key]);
    return token !== '' && token === requested && status[handled] !== token ? token : undefined;
  };
  const forceAt = asked(FORCE_AT, 'lastHandledForceAt');
  const resetAt = asked(RESET_AT, 'lastHandledResetAt');
  if (resetAt !== undefined) {
    // --reset: the failure counts start again, so a release whose retries ran out is tried anew.
    for (const key of ['failures', 'installFailures', 'upgradeFailures']) delete status[key];
    status.lastHandledResetAt = resetAt;
  }
  if (spec.suspend === true) {
    // A suspended reconcile ends at once without an error: its generation counts as observed.
    return void writeStatus(store, HR, hr, { ...status, observedGeneration: generation }, MANAGER);
  }
  const finished = (): JsonObject => ({ ...status, observedGeneration: generation });
  let conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Condition[];
  const source = sourceOf(ctx, hr);
  if ('reason' in source) {
    // helm-controller leaves Reconciling True (it will retry) beside Ready False while it waits for the chart.
    conditions = setCondition(conditions,
      { type: 'Reconciling', status: 'True', reason: 'Progressing', message: 'Fulfilling prerequisites',
        observedGeneration: generation });
    conditions = setCondition(conditions,
      { type: 'Ready', status: 'False', reason: source.reason, message: source.message,
        observedGeneration: generation });
    return void writeStatus(store, HR, hr, { ...status, conditions }, MANAGER);
  }
  const target = targetOf(store, hr);
  if (!target.ok) {
    // As helm-controller reports it: no client is `RESTClientError`; a failed first request fails
    // the lookup of the release's state. Either is tried again later (a Secret change sooner).
    const [reason, message] = target.phase === 'client' ? ['RESTClientError', target.message]
      : ['StateError', `Could not determine release state: failed to retrieve last release from storage: query: ` +
        `failed to query with labels: ${target.message}`];
    conditions = setCondition(conditions,
      { type: 'Ready', status: 'False', reason, message, observedGeneration: generation });
    // With a client built, helm-controller has recorded the storage namespace before it asks the cluster.
    if (target.phase === 'request') status.storageNamespace = storageNamespaceOf(hr);
    writeStatus(store, HR, hr, { ...status, conditions }, MANAGER);
    return UNREACHABLE_RETRY_MS;
  }
  const chartVersion = `${source.version}+${source.digestHex.slice(0, 12)}`;
  const values = obj(spec.values);
  const configDigest = valuesDigest(values);
  const history = (Array.isArray(status.history) ? status.history : []).filter(isObject);
  const deployed = history.find((h) => h.status === 'deployed');
  const releaseName = releaseNameOf(hr);
  const targetNamespace = str(spec.targetNamespace) || namespace;
  // --force: a Helm upgrade runs even when the release is in sync with what is deployed.
  if (forceAt === undefined && history[0] === deployed && deployed?.chartVersion === chartVersion &&
    deployed.configDigest === configDigest) {
    // In sync with the deployed release (also after values went back to it following a failed upgrade).
    status.lastAttemptedGeneration = generation;
    conditions = forGeneration(removeConditions(conditions, 'Stalled', 'Reconciling'), generation);
    if (conditions.find((c) => c.type === 'Ready')?.status !== 'True') {
      const Done = deployed.action === 'upgrade' ? 'Upgrade' : 'Install';
      const message = `Helm ${Done.toLowerCase()} succeeded for release ` +
        `${targetNamespace}/${releaseName}.v${String(deployed.version)} with chart ${CHART_NAME}@${chartVersion}`;
      for (const type of ['Ready', 'Released']) {
        conditions = setCondition(conditions,
          { type, status: 'True', reason: `${Done}Succeeded`, message, observedGeneration: generation });
      }
    }
    return void writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
  }
  const ready = conditions.find((c) => c.type === 'Ready');
  const sameAttempt =
    status.lastAttemptedConfigDigest === configDigest && status.lastAttemptedRevision === chartVersion;
  if (sameAttempt && resetAt === undefined && forceAt === undefined && ready?.status === 'False' &&
    /^(Install|Upgrade)Failed$/.test(ready.reason)) {
    // Retries exhausted: wait for new values or a new chart; the failure is judged again for this generation.
    status.lastAttemptedGeneration = generation;
    return void writeStatus(
      store, HR, hr, { ...finished(), conditions: forGeneration(conditions, generation) }, MANAGER,
    );
  }
  const action = deployed ? 'upgrade' : 'install';
  const Action = action === 'install' ? 'Install' : 'Upgrade';
  const reconciling = conditions.find((c) => c.type === 'Reconciling');
  if (!(sameAttempt && status.lastAttemptedGeneration === generation && reconciling?.status === 'True' &&
    reconciling.observedGeneration === generation)) {
    // As helm-controller patches the release before it runs a Helm action: the attempt is
    // recorded (lastAttempted*) and Reconciling/Ready say it runs; the action itself follows
    // in the next reconcile, so the generation stays unobserved for a reconcile delay more.
    const message = `Running '${action}' action with timeout of 5m0s`;
    Object.assign(status, {
      lastAttemptedGeneration: generation, lastAttemptedConfigDigest: configDigest, lastAttemptedRevision: chartVersion,
      lastAttemptedRevisionDigest: `sha256:${source.digestHex}`, lastAttemptedReleaseAction: action,
      storageNamespace: storageNamespaceOf(hr),
    });
    conditions = setCondition(conditions,
      { type: 'Reconciling', status: 'True', reason: 'Progressing', message, observedGeneration: generation });
    conditions = setCondition(conditions,
      { type: 'Ready', status: 'Unknown', reason: 'Progressing', message, observedGeneration: generation });
    writeStatus(store, HR, hr, { ...status, conditions }, MANAGER);
    // Its own status write triggers nothing (see helmReleaseChanged): the action is requeued.
    return ctx.delayMs ?? 0;
  }
  Object.assign(status, {
    lastAttemptedGeneration: generation, lastAttemptedConfigDigest: configDigest, lastAttemptedRevision: chartVersion,
    lastAttemptedRevisionDigest: `sha256:${source.digestHex}`, lastAttemptedReleaseAction: action,
    storageNamespace: storageNamespaceOf(hr),
  });
  if (forceAt !== undefined) status.lastHandledForceAt = forceAt;
  const storageNamespace = storageNamespaceOf(hr);
  // Helm on another cluster writes its release records there first; a missing namespace stops it.
  const noStorage = target.server && !target.store.find('namespaces', '', storageNamespace)
    ? { kind: 'render' as const, message: `create: failed to create: namespaces "${storageNamespace}" not found` }
    : undefined;
  const failure = releaseFailure(values, source.version) ?? noStorage;
  const outcome = failure ?? applyRelease(target.store, hr, values, chartVersion, action);
  const version = history.reduce((max, h) => Math.max(max, Number(h.version ?? 0)), 0) + 1;
  const now = nowTimestamp();
  const entry = (state: string): JsonObject => ({
    name: releaseName, namespace: targetNamespace, version, status: state, chartName: CHART_NAME, chartVersion,
    appVersion: CHART_APP_VERSION, configDigest,
    digest: `sha256:${sha256Hex(`${releaseName}.v${version}:${configDigest}:${chartVersion}`)}`,
    firstDeployed: str(history.at(-1)?.firstDeployed) || now, lastDeployed: now,
    ociDigest: `sha256:${source.digestHex}`, action,
  });
  const maxHistory = typeof spec.maxHistory === 'number' ? spec.maxHistory : 5;
  const trim = (entries: JsonObject[]) => (maxHistory > 0 ? entries.slice(0, maxHistory) : entries);
  // On a workload cluster Helm's release records are kept there, beside what the release installed.
  const record = (state: 'deployed' | 'failed') =>
    target.server &&
    storeRelease(target.store, {
      name: releaseName, namespace: targetNamespace, storageNamespace, version, status: state, action, chartVersion,
      values, maxHistory,
      rendered: renderRelease({ values, releaseName, namespace: targetNamespace, chartVersion: source.version }),
    });
  if (!Array.isArray(outcome)) {
    // A release Helm recorded before the API server refused its objects stays in the history as failed.
    if (outcome.kind === 'apply') {
      status.history = trim([entry('failed'), ...history]);
      record('failed');
    }
    const message = `Helm ${action} failed for release ${targetNamespace}/${releaseName} with chart ` +
      `${CHART_NAME}@${chartVersion}: ${outcome.message}`;
    conditions = removeConditions(conditions, 'Reconciling');
    for (const type of ['Ready', 'Released']) {
      conditions = setCondition(conditions,
        { type, status: 'False', reason: `${Action}Failed`, message, observedGeneration: generation });
    }
    conditions = setCondition(conditions,
      { type: 'Stalled', status: 'True', reason: 'RetriesExceeded', message: `Failed to ${action} after 1 attempt(s)`,
        observedGeneration: generation });
    status.failures = Number(status.failures ?? 0) + 1;
    status[`${action}Failures`] = Number(status[`${action}Failures`] ?? 0) + 1;
    writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
    recordEvent(store, subjectOf(hr), 'Warning', `${Action}Failed`, message, MANAGER);
    ctx.log?.info?.({ controller: MANAGER, helmRelease: `${namespace}/${name}`, reason: `${Action}Failed` },
      `helm-controller: ${action} of ${namespace}/${name} failed`);
    return;
  }
  status.history = trim([entry('deployed'),
    ...history.map((h) => (h.status === 'deployed' ? { ...h, status: 'superseded' } : h))]);
  status.inventory = { entries: outcome.map(inventoryEntry) };
  record('deployed');
  for (const key of ['failures', 'installFailures', 'upgradeFailures']) delete status[key];
  const message = `Helm ${action} succeeded for release ${targetNamespace}/${releaseName}.v${version} with chart ` +
    `${CHART_NAME}@${chartVersion}`;
  conditions = removeConditions(conditions, 'Stalled', 'Reconciling');
  for (const type of ['Ready', 'Released']) {
    conditions = setCondition(conditions,
      { type, status: 'True', reason: `${Action}Succeeded`, message, observedGeneration: generation });
  }
  writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
  recordEvent(store, subjectOf(hr), 'Normal', `${Action}Succeeded`, message, MANAGER);
  ctx.log?.info?.({ controller: MANAGER, helmRelease: `${namespace}/${name}`, chartVersion, revision: version },
    `helm-controller: ${action} of ${namespace}/${name} succeeded`);
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
