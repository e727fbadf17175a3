/**
 * What the simulated helm-controller does to the cluster a release targets (its own, or a
 * workload cluster through `spec.kubeConfig`): render and apply the chart's Agent as Helm's
 * three-way merge leaves it, refuse to adopt an Agent another release owns, and delete what
 * the release rendered. Every function takes the target cluster's store, so one code path
 * serves both the local and the remote case.
 */
import { isObject, type JsonObject } from '../api/json.js';
import { StatusError } from '../api/status.js';
import { FieldSet } from '../fields/field-set.js';
import { readManagedFields } from '../fields/managed-fields.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { renderAgent, type ChartFailure } from './agent-chart.js';
import { labelsOf, metadata } from './controller.js';

/** The field manager the helm-controller writes under. */
export const MANAGER = 'helm-controller';
const NAME_LABEL = 'helm.toolkit.fluxcd.io/name';
const NAMESPACE_LABEL = 'helm.toolkit.fluxcd.io/namespace';

const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The Helm release name: `spec.releaseName`, else `[targetNamespace-]name`. */
export function releaseNameOf(hr: JsonObject): string {
  const spec = obj(hr.spec);
  const name = String(metadata(hr).name);
  return str(spec.releaseName) || (str(spec.targetNamespace) ? `${str(spec.targetNamespace)}-${name}` : name);
}

/** Agents recorded in the release's inventory (`<ns>_<name>_kagent.dev_Agent`). */
export function inventoryAgents(hr: JsonObject): Array<[string, string]> {
  const entries = Array.isArray(obj(obj(hr.status).inventory).entries)
    ? (obj(obj(hr.status).inventory).entries as unknown[])
    : [];
  return entries.filter(isObject).map((e) => str(e.id).split('_')).filter((p) => p.length === 4 && p[3] === 'Agent')
    .map((p) => [p[0]!, p[1]!]);
}

/** Helm's refusal to adopt an object another release (or nobody) owns. */
function ownershipConflict(
  existing: JsonObject, releaseName: string, namespace: string, action: string,
): ChartFailure | undefined {
  const annotations = obj(metadata(existing).annotations);
  const problems: string[] = [];
  if (labelsOf(existing)['app.kubernetes.io/managed-by'] !== 'Helm') {
    problems.push('label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"');
  }
  for (const [key, want] of [['meta.helm.sh/release-name', releaseName],
    ['meta.helm.sh/release-namespace', namespace]] as const) {
    const have = str(annotations[key]);
    if (have === want) continue;
    problems.push(have ? `annotation validation error: key ${JSON.stringify(key)} must equal ` +
      `${JSON.stringify(want)}: current value is ${JSON.stringify(have)}`
      : `annotation validation error: missing key ${JSON.stringify(key)}: must be set to ${JSON.stringify(want)}`);
  }
  if (problems.length === 0) return undefined;
  return {
    kind: 'render',
    message: `rendered manifests contain a resource that already exists. Unable to continue with ${action}: Agent ` +
      `${JSON.stringify(String(metadata(existing).name))} in namespace ${JSON.stringify(namespace)} exists and ` +
      `cannot be imported into the current release: invalid ownership metadata; ${problems.join('; ')}`,
  };
}

/** The fields of an object this controller wrote (its managedFields entries). */
function ownedByHelm(object: JsonObject): FieldSet {
  return readManagedFields(object)
    .filter((e) => e.manager === MANAGER)
    .reduce((all, e) => all.union(e.set), new FieldSet());
}

/**
 * A label or annotation map after an upgrade, as Helm's three-way merge leaves it: what the
 * chart renders now, plus the live keys nobody rendered (added by hand or by another
 * controller). A key the previous release rendered (this controller wrote it) and the
 * new one does not is removed, so a display name taken out of the values goes away.
 */
function upgradedMap(live: JsonObject, rendered: JsonObject, owned: FieldSet,
  field: 'labels' | 'annotations'): JsonObject {
  const kept = Object.entries(live).filter(([key]) =>
    !(key in rendered) && !owned.has(['f:metadata', `f:${field}`, `f:${key}`]));
  return { ...Object.fromEntries(kept), ...rendered };
}

/** Render and apply the Agent; returns a failure instead of throwing for what Helm would report. */
export function applyAgent(
  store: SandboxStore, hr: JsonObject, values: JsonObject, chartVersion: string, action: string,
): ChartFailure | string {
  const meta = metadata(hr);
  const spec = obj(hr.spec);
  const releaseName = releaseNameOf(hr);
  const namespace = str(spec.targetNamespace) || String(meta.namespace);
  const desired = renderAgent({ values, releaseName, namespace, chartVersion: chartVersion.split('+')[0]! });
  const common = obj(spec.commonMetadata);
  const dmeta = desired.metadata as JsonObject;
  dmeta.labels = {
    ...obj(common.labels), ...obj(dmeta.labels), [NAME_LABEL]: String(meta.name),
    [NAMESPACE_LABEL]: String(meta.namespace),
  };
  dmeta.annotations = { ...obj(common.annotations), ...obj(dmeta.annotations) };
  const name = String(dmeta.name);
  const existing = store.find('agents', namespace, name);
  try {
    if (existing) {
      const conflict = ownershipConflict(existing, releaseName, namespace, action);
      if (conflict) return conflict;
      const emeta = metadata(existing);
      const owned = ownedByHelm(existing);
      store.update('agents', {
        ...structuredClone(existing),
        metadata: {
          ...structuredClone(emeta),
          labels: upgradedMap(obj(emeta.labels), obj(dmeta.labels), owned, 'labels'),
          annotations: upgradedMap(obj(emeta.annotations), obj(dmeta.annotations), owned, 'annotations'),
        },
        spec: desired.spec,
      }, { fieldManager: MANAGER });
    } else {
      store.create('agents', desired, { fieldManager: MANAGER });
    }
  } catch (err) {
    if (err instanceof StatusError && err.code !== 409) {
      return { kind: 'apply', message: `failed to create resource: ${err.message}` };
    }
    throw err;
  }
  // An Agent the previous revision rendered under another name is removed, as Helm deletes what left the manifest.
  for (const [ns, old] of inventoryAgents(hr)) {
    if (ns !== namespace || old !== name) deleteOwnedAgent(store, hr, ns, old);
  }
  return name;
}

export function deleteOwnedAgent(store: SandboxStore, hr: JsonObject, namespace: string, name: string): void {
  const agent = store.find('agents', namespace, name);
  const labels = agent ? labelsOf(agent) : {};
  if (agent && labels[NAME_LABEL] === metadata(hr).name && labels[NAMESPACE_LABEL] === metadata(hr).namespace) {
    store.delete('agents', namespace, name, { fieldManager: MANAGER });
  }
}
