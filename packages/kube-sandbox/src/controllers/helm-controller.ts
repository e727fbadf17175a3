/**
 * A stand-in for Flux's helm-controller, for HelmReleases of the agent chart through a
 * `chartRef` to an OCIRepository. It adds the `finalizers.fluxcd.io` finalizer, waits
 * for the source's artifact (Ready False `ArtifactFailed` or `SourceNotReady` meanwhile),
 * installs or upgrades when the chart revision or the values changed — rendering the
 * Agent with the Flux provenance labels; an upgrade replaces what the chart rendered
 * before (a label or annotation it no longer renders goes) and keeps what others added —
 * and keeps `status.history` (newest first,
 * chart version `0.6.1+<12 hex of the OCI digest>`), `lastAttempted*`, the inventory and
 * the `Ready`/`Released` conditions. Values the chart refuses give `InstallFailed` /
 * `UpgradeFailed` with `Stalled` (no retries configured), and are not retried until the
 * values or the chart change. Nothing happens while `spec.suspend` is true. Deletion
 * uninstalls (deletes the rendered Agent) and then drops the finalizer — except for a
 * suspended release, whose finalizer is dropped without uninstalling, as Flux does.
 * Generations as helm-controller writes them: an action is first recorded
 * (`lastAttemptedGeneration`, Reconciling True, Ready Unknown) and run one reconcile later;
 * `observedGeneration` moves only when a reconcile finished.
 */
import { stringify } from 'yaml';
import { isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import { StatusError } from '../api/status.js';
import { FieldSet } from '../fields/field-set.js';
import { readManagedFields } from '../fields/managed-fields.js';
import { CHART_APP_VERSION, CHART_NAME, chartFailure, renderAgent, type ChartFailure } from './agent-chart.js';
import { Controller, finalizersOf, labelsOf, metadata, type ControllerContext } from './controller.js';
import { FLUX_FINALIZER } from './source-controller.js';
import {
  findCondition, recordEvent, removeConditions, setCondition, sha256Hex, subjectOf, writeStatus, type Condition,
} from './status-helpers.js';

const MANAGER = 'helm-controller';
const HR = 'helmreleases';
const NAME_LABEL = 'helm.toolkit.fluxcd.io/name';
const NAMESPACE_LABEL = 'helm.toolkit.fluxcd.io/namespace';

const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The chart the release's source offers, or why it cannot be had. */
type SourceState = { version: string; digestHex: string } | { reason: string; message: string };

function sourceOf(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject): SourceState {
  const meta = metadata(hr);
  const ref = obj(obj(hr.spec).chartRef);
  if (ref.kind !== 'OCIRepository') {
    return { reason: 'ArtifactFailed', message: `could not get Source object: the sandbox simulates chartRef kind OCIRepository only, not ${JSON.stringify(ref.kind ?? '')}` };
  }
  const namespace = str(ref.namespace) || String(meta.namespace);
  const source = ctx.store.find('ocirepositories', namespace, str(ref.name));
  if (!source) {
    return { reason: 'ArtifactFailed', message: `could not get Source object: ocirepositories.source.toolkit.fluxcd.io ${JSON.stringify(str(ref.name))} not found` };
  }
  const artifact = obj(obj(source.status).artifact);
  const ready = findCondition(source, 'Ready');
  if (ready?.status !== 'True' || !artifact.revision) {
    return { reason: 'SourceNotReady', message: `OCIRepository '${namespace}/${str(ref.name)}' is not ready${ready?.message ? `: ${ready.message}` : ''}` };
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
  const text = Object.keys(values).length === 0 ? '' : stringify(values, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0, aliasDuplicateObjects: false });
  return `sha256:${sha256Hex(text)}`;
}

/** The Helm release name: `spec.releaseName`, else `[targetNamespace-]name`. */
function releaseNameOf(hr: JsonObject): string {
  const spec = obj(hr.spec);
  const name = String(metadata(hr).name);
  return str(spec.releaseName) || (str(spec.targetNamespace) ? `${str(spec.targetNamespace)}-${name}` : name);
}

/** Agents recorded in the release's inventory (`<ns>_<name>_kagent.dev_Agent`). */
function inventoryAgents(hr: JsonObject): Array<[string, string]> {
  const entries = Array.isArray(obj(obj(hr.status).inventory).entries) ? obj(obj(hr.status).inventory).entries as unknown[] : [];
  return entries.filter(isObject).map((e) => str(e.id).split('_')).filter((p) => p.length === 4 && p[3] === 'Agent').map((p) => [p[0]!, p[1]!]);
}

/** Helm's refusal to adopt an object another release (or nobody) owns. */
function ownershipConflict(existing: JsonObject, releaseName: string, namespace: string, action: string): ChartFailure | undefined {
  const annotations = obj(metadata(existing).annotations);
  const problems: string[] = [];
  if (labelsOf(existing)['app.kubernetes.io/managed-by'] !== 'Helm') problems.push('label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"');
  for (const [key, want] of [['meta.helm.sh/release-name', releaseName], ['meta.helm.sh/release-namespace', namespace]] as const) {
    const have = str(annotations[key]);
    if (have === want) continue;
    problems.push(have ? `annotation validation error: key ${JSON.stringify(key)} must equal ${JSON.stringify(want)}: current value is ${JSON.stringify(have)}`
      : `annotation validation error: missing key ${JSON.stringify(key)}: must be set to ${JSON.stringify(want)}`);
  }
  if (problems.length === 0) return undefined;
  return {
    kind: 'render',
    message: `rendered manifests contain a resource that already exists. Unable to continue with ${action}: Agent ${JSON.stringify(String(metadata(existing).name))} in namespace ${JSON.stringify(namespace)} exists and cannot be imported into the current release: invalid ownership metadata; ${problems.join('; ')}`,
  };
}

/** The fields of an object this controller wrote (its managedFields entries). */
function ownedByHelm(object: JsonObject): FieldSet {
  return readManagedFields(object).filter((e) => e.manager === MANAGER).reduce((all, e) => all.union(e.set), new FieldSet());
}

/**
 * A label or annotation map after an upgrade, as Helm's three-way merge leaves it: what the
 * chart renders now, plus the live keys nobody rendered (added by hand or by another
 * controller). A key the previous release rendered (this controller wrote it) and the
 * new one does not is removed, so a display name taken out of the values goes away.
 */
function upgradedMap(live: JsonObject, rendered: JsonObject, owned: FieldSet, field: 'labels' | 'annotations'): JsonObject {
  const kept = Object.entries(live).filter(([key]) => !(key in rendered) && !owned.has(['f:metadata', `f:${field}`, `f:${key}`]));
  return { ...Object.fromEntries(kept), ...rendered };
}

/** Render and apply the Agent; returns a failure instead of throwing for what Helm would report. */
function applyAgent(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject, values: JsonObject, chartVersion: string, action: string): ChartFailure | string {
  const meta = metadata(hr);
  const spec = obj(hr.spec);
  const releaseName = releaseNameOf(hr);
  const namespace = str(spec.targetNamespace) || String(meta.namespace);
  const desired = renderAgent({ values, releaseName, namespace, chartVersion: chartVersion.split('+')[0]! });
  const common = obj(spec.commonMetadata);
  const dmeta = desired.metadata as JsonObject;
  dmeta.labels = { ...obj(common.labels), ...obj(dmeta.labels), [NAME_LABEL]: String(meta.name), [NAMESPACE_LABEL]: String(meta.namespace) };
  dmeta.annotations = { ...obj(common.annotations), ...obj(dmeta.annotations) };
  const name = String(dmeta.name);
  const existing = ctx.store.find('agents', namespace, name);
  try {
    if (existing) {
      const conflict = ownershipConflict(existing, releaseName, namespace, action);
      if (conflict) return conflict;
      const emeta = metadata(existing);
      const owned = ownedByHelm(existing);
      ctx.store.update('agents', {
        ...structuredClone(existing),
        metadata: {
          ...structuredClone(emeta),
          labels: upgradedMap(obj(emeta.labels), obj(dmeta.labels), owned, 'labels'),
          annotations: upgradedMap(obj(emeta.annotations), obj(dmeta.annotations), owned, 'annotations'),
        },
        spec: desired.spec,
      }, { fieldManager: MANAGER });
    } else {
      ctx.store.create('agents', desired, { fieldManager: MANAGER });
    }
  } catch (err) {
    if (err instanceof StatusError && err.code !== 409) return { kind: 'apply', message: `failed to create resource: ${err.message}` };
    throw err;
  }
  // An Agent the previous revision rendered under another name is removed, as Helm deletes what left the manifest.
  for (const [ns, old] of inventoryAgents(hr)) if (ns !== namespace || old !== name) deleteOwnedAgent(ctx, hr, ns, old);
  return name;
}

function deleteOwnedAgent(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject, namespace: string, name: string): void {
  const agent = ctx.store.find('agents', namespace, name);
  const labels = agent ? labelsOf(agent) : {};
  if (agent && labels[NAME_LABEL] === metadata(hr).name && labels[NAMESPACE_LABEL] === metadata(hr).namespace) {
    ctx.store.delete('agents', namespace, name, { fieldManager: MANAGER });
  }
}

function finalize(ctx: Pick<ControllerContext, 'store' | 'log'>, hr: JsonObject): void {
  if (!finalizersOf(hr).includes(FLUX_FINALIZER)) return;
  // Flux skips the uninstall of a suspended release and only lets the object go.
  if (obj(hr.spec).suspend !== true) {
    for (const [ns, name] of inventoryAgents(hr)) deleteOwnedAgent(ctx, hr, ns, name);
    if (inventoryAgents(hr).length > 0) {
      ctx.log?.info?.({ controller: MANAGER, helmRelease: `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}` }, 'helm-controller: uninstalled');
      recordEvent(ctx.store, subjectOf(hr), 'Normal', 'UninstallSucceeded', `Helm uninstall succeeded for release ${String(metadata(hr).namespace)}/${releaseNameOf(hr)}`, MANAGER);
    }
  }
  const meta = metadata(hr);
  ctx.store.update(HR, { ...structuredClone(hr), metadata: { ...structuredClone(meta), finalizers: finalizersOf(hr).filter((f) => f !== FLUX_FINALIZER) } }, { fieldManager: MANAGER });
}

/** Conditions judged again for `generation` (Flux's conditions.Set stamps the generation it reconciled). */
function forGeneration(conditions: readonly Condition[], generation: number): Condition[] {
  return conditions.map((c) => ({ ...c, observedGeneration: generation }));
}

/** One reconcile of a HelmRelease (exported for seeding installed releases synchronously). */
export function reconcileHelmRelease(ctx: Pick<ControllerContext, 'store' | 'log'>, namespace: string, name: string): void {
  const { store } = ctx;
  const hr = store.find(HR, namespace, name);
  if (!hr) return;
  const meta = metadata(hr);
  const spec = obj(hr.spec);
  if (meta.deletionTimestamp) return finalize(ctx, hr);
  if (spec.suspend === true) return;
  if (!finalizersOf(hr).includes(FLUX_FINALIZER)) {
    store.update(HR, { ...structuredClone(hr), metadata: { ...structuredClone(meta), finalizers: [...finalizersOf(hr), FLUX_FINALIZER] } }, { fieldManager: MANAGER });
    return;
  }
  const generation = Number(meta.generation ?? 1);
  // observedGeneration is stamped only by a reconcile that finished (installed, upgraded, in
  // sync, or failed for good), never while it waits for the chart or runs an action.
  const status: JsonObject = structuredClone(obj(hr.status));
  const finished = (): JsonObject => ({ ...status, observedGeneration: generation });
  let conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Condition[];
  const source = sourceOf(ctx, hr);
  if ('reason' in source) {
    conditions = setCondition(conditions, { type: 'Ready', status: 'False', reason: source.reason, message: source.message, observedGeneration: generation });
    return void writeStatus(store, HR, hr, { ...status, conditions }, MANAGER);
  }
  const chartVersion = `${source.version}+${source.digestHex.slice(0, 12)}`;
  const values = obj(spec.values);
  const configDigest = valuesDigest(values);
  const history = (Array.isArray(status.history) ? status.history : []).filter(isObject);
  const deployed = history.find((h) => h.status === 'deployed');
  const releaseName = releaseNameOf(hr);
  const targetNamespace = str(spec.targetNamespace) || namespace;
  if (history[0] === deployed && deployed?.chartVersion === chartVersion && deployed.configDigest === configDigest) {
    // In sync with the deployed release (also after values went back to it following a failed upgrade).
    status.lastAttemptedGeneration = generation;
    conditions = forGeneration(removeConditions(conditions, 'Stalled', 'Reconciling'), generation);
    if (conditions.find((c) => c.type === 'Ready')?.status !== 'True') {
      const Done = deployed.action === 'upgrade' ? 'Upgrade' : 'Install';
      const message = `Helm ${Done.toLowerCase()} succeeded for release ${targetNamespace}/${releaseName}.v${String(deployed.version)} with chart ${CHART_NAME}@${chartVersion}`;
      for (const type of ['Ready', 'Released']) conditions = setCondition(conditions, { type, status: 'True', reason: `${Done}Succeeded`, message, observedGeneration: generation });
    }
    return void writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
  }
  const ready = conditions.find((c) => c.type === 'Ready');
  const sameAttempt = status.lastAttemptedConfigDigest === configDigest && status.lastAttemptedRevision === chartVersion;
  if (sameAttempt && ready?.status === 'False' && /^(Install|Upgrade)Failed$/.test(ready.reason)) {
    // Retries exhausted: wait for new values or a new chart; the failure is judged again for this generation.
    status.lastAttemptedGeneration = generation;
    return void writeStatus(store, HR, hr, { ...finished(), conditions: forGeneration(conditions, generation) }, MANAGER);
  }
  const action = deployed ? 'upgrade' : 'install';
  const Action = action === 'install' ? 'Install' : 'Upgrade';
  const reconciling = conditions.find((c) => c.type === 'Reconciling');
  if (!(sameAttempt && status.lastAttemptedGeneration === generation && reconciling?.status === 'True' && reconciling.observedGeneration === generation)) {
    // As helm-controller patches the release before it runs a Helm action: the attempt is
    // recorded (lastAttempted*) and Reconciling/Ready say it runs; the action itself follows
    // in the next reconcile, so the generation stays unobserved for a reconcile delay more.
    const message = `Running '${action}' action with timeout of 5m0s`;
    Object.assign(status, {
      lastAttemptedGeneration: generation, lastAttemptedConfigDigest: configDigest, lastAttemptedRevision: chartVersion,
      lastAttemptedRevisionDigest: `sha256:${source.digestHex}`, lastAttemptedReleaseAction: action, storageNamespace: namespace,
    });
    conditions = setCondition(conditions, { type: 'Reconciling', status: 'True', reason: 'Progressing', message, observedGeneration: generation });
    conditions = setCondition(conditions, { type: 'Ready', status: 'Unknown', reason: 'Progressing', message, observedGeneration: generation });
    return void writeStatus(store, HR, hr, { ...status, conditions }, MANAGER);
  }
  Object.assign(status, {
    lastAttemptedGeneration: generation, lastAttemptedConfigDigest: configDigest, lastAttemptedRevision: chartVersion,
    lastAttemptedRevisionDigest: `sha256:${source.digestHex}`, lastAttemptedReleaseAction: action, storageNamespace: namespace,
  });
  const failure = chartFailure(values);
  const outcome = failure ?? applyAgent(ctx, hr, values, chartVersion, action);
  const version = history.reduce((max, h) => Math.max(max, Number(h.version ?? 0)), 0) + 1;
  const now = nowTimestamp();
  const entry = (state: string): JsonObject => ({
    name: releaseName, namespace: targetNamespace, version, status: state, chartName: CHART_NAME, chartVersion,
    appVersion: CHART_APP_VERSION, configDigest, digest: `sha256:${sha256Hex(`${releaseName}.v${version}:${configDigest}:${chartVersion}`)}`,
    firstDeployed: str(history.at(-1)?.firstDeployed) || now, lastDeployed: now, ociDigest: `sha256:${source.digestHex}`, action,
  });
  const maxHistory = typeof spec.maxHistory === 'number' ? spec.maxHistory : 5;
  const trim = (entries: JsonObject[]) => (maxHistory > 0 ? entries.slice(0, maxHistory) : entries);
  if (typeof outcome !== 'string') {
    // A release Helm recorded before the API server refused its objects stays in the history as failed.
    if (outcome.kind === 'apply') status.history = trim([entry('failed'), ...history]);
    const message = `Helm ${action} failed for release ${targetNamespace}/${releaseName} with chart ${CHART_NAME}@${chartVersion}: ${outcome.message}`;
    conditions = removeConditions(conditions, 'Reconciling');
    for (const type of ['Ready', 'Released']) conditions = setCondition(conditions, { type, status: 'False', reason: `${Action}Failed`, message, observedGeneration: generation });
    conditions = setCondition(conditions, { type: 'Stalled', status: 'True', reason: 'RetriesExceeded', message: `Failed to ${action} after 1 attempt(s)`, observedGeneration: generation });
    status.failures = Number(status.failures ?? 0) + 1;
    status[`${action}Failures`] = Number(status[`${action}Failures`] ?? 0) + 1;
    writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
    recordEvent(store, subjectOf(hr), 'Warning', `${Action}Failed`, message, MANAGER);
    ctx.log?.info?.({ controller: MANAGER, helmRelease: `${namespace}/${name}`, reason: `${Action}Failed` }, `helm-controller: ${action} of ${namespace}/${name} failed`);
    return;
  }
  status.history = trim([entry('deployed'), ...history.map((h) => (h.status === 'deployed' ? { ...h, status: 'superseded' } : h))]);
  status.inventory = { entries: [{ id: `${targetNamespace}_${outcome}_kagent.dev_Agent`, v: 'v1alpha2' }] };
  for (const key of ['failures', 'installFailures', 'upgradeFailures']) delete status[key];
  const message = `Helm ${action} succeeded for release ${targetNamespace}/${releaseName}.v${version} with chart ${CHART_NAME}@${chartVersion}`;
  conditions = removeConditions(conditions, 'Stalled', 'Reconciling');
  for (const type of ['Ready', 'Released']) conditions = setCondition(conditions, { type, status: 'True', reason: `${Action}Succeeded`, message, observedGeneration: generation });
  writeStatus(store, HR, hr, { ...finished(), conditions }, MANAGER);
  recordEvent(store, subjectOf(hr), 'Normal', `${Action}Succeeded`, message, MANAGER);
  ctx.log?.info?.({ controller: MANAGER, helmRelease: `${namespace}/${name}`, chartVersion, revision: version }, `helm-controller: ${action} of ${namespace}/${name} succeeded`);
}

/** Start the helm-controller: HelmReleases, and the releases of an OCIRepository when it changes. */
export function startHelmController(ctx: ControllerContext): Controller {
  const controller = new Controller(MANAGER, ctx, (ns, name) => reconcileHelmRelease(ctx, ns, name));
  controller.watch(HR).watch('ocirepositories', (event) => {
    const source = metadata(event.object);
    return ctx.store.list(HR).items.filter((hr) => {
      const ref = obj(obj(hr.spec).chartRef);
      return ref.kind === 'OCIRepository' && ref.name === source.name && (str(ref.namespace) || metadata(hr).namespace) === source.namespace;
    }).map((hr) => [String(metadata(hr).namespace), String(metadata(hr).name)] as const);
  });
  return controller.resync(HR);
}
