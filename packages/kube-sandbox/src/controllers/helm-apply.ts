/**
 * What the simulated helm-controller does to the cluster a release targets (its own, or a
 * workload cluster through `spec.kubeConfig`): render and apply the chart's objects as Helm's
 * three-way merge leaves them, refuse to adopt an object another release owns, and delete what
 * the release rendered. Every function takes the target cluster's store, so one code path
 * serves both the local and the remote case.
 */
import { asList, asObject, isObject, metaOf, stringOr, type JsonObject } from '../api/json.js';
import { StatusError } from '../api/status.js';
import { FieldSet } from '../fields/field-set.js';
import { readManagedFields } from '../fields/managed-fields.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import type { ResourceDef } from '../resources/resource-def.js';
import type { ChartFailure } from './agent-chart.js';
import { renderRelease } from './chart-lines.js';
import { labelsOf, metadata } from './work-loop.js';

/** The field manager the helm-controller writes under. */
export const MANAGER = 'helm-controller';
const NAME_LABEL = 'helm.toolkit.fluxcd.io/name';
const NAMESPACE_LABEL = 'helm.toolkit.fluxcd.io/namespace';

/** The Helm release name: `spec.releaseName`, else `[targetNamespace-]name`. */
export function releaseNameOf(hr: JsonObject): string {
  const spec = asObject(hr.spec);
  const name = String(metadata(hr).name);
  const targetNamespace = stringOr(spec.targetNamespace, '');
  return stringOr(spec.releaseName, '') || (targetNamespace ? `${targetNamespace}-${name}` : name);
}

/** One object of a release's inventory, as Flux records it (`<namespace>_<name>_<group>_<kind>`, `v`). */
export interface InventoryObject {
  namespace: string;
  name: string;
  group: string;
  kind: string;
  version: string;
}

/** The inventory entry of an object. */
export function inventoryEntry(o: InventoryObject): JsonObject {
  return { id: `${o.namespace}_${o.name}_${o.group}_${o.kind}`, v: o.version };
}

/** The objects recorded in the release's inventory. */
export function inventoryObjects(hr: JsonObject): InventoryObject[] {
  const entries = asList(asObject(asObject(hr.status).inventory).entries);
  return entries.filter(isObject).map((e) => [stringOr(e.id, '').split('_'), stringOr(e.v, '')] as const)
    .filter(([p]) => p.length === 4)
    .map(([p, version]) => ({ namespace: p[0]!, name: p[1]!, group: p[2]!, kind: p[3]!, version }));
}

/** The inventory object of a rendered object. */
function objectOf(rendered: JsonObject): InventoryObject {
  const apiVersion = String(rendered.apiVersion);
  const [group = '', version = ''] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const meta = metadata(rendered);
  return { namespace: String(meta.namespace), name: String(meta.name), group, kind: String(rendered.kind), version };
}

const sameObject = (a: InventoryObject, b: InventoryObject): boolean =>
  a.namespace === b.namespace && a.name === b.name && a.group === b.group && a.kind === b.kind;

/** The served resource of an inventory object, if the cluster serves its kind. */
function resourceOf(store: SandboxStore, o: InventoryObject): ResourceDef | undefined {
  return store.registry.forKind(o.group ? `${o.group}/${o.version}` : o.version, o.kind);
}

/** Helm's refusal to adopt an object another release (or nobody) owns. */
function ownershipConflict(
  existing: JsonObject, releaseName: string, namespace: string, action: string,
): ChartFailure | undefined {
  const kind = String(existing.kind);
  const annotations = asObject(metadata(existing).annotations);
  const problems: string[] = [];
  if (labelsOf(existing)['app.kubernetes.io/managed-by'] !== 'Helm') {
    problems.push('label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"');
  }
  for (const [key, want] of [['meta.helm.sh/release-name', releaseName],
    ['meta.helm.sh/release-namespace', namespace]] as const) {
    const have = stringOr(annotations[key], '');
    if (have === want) continue;
    problems.push(have ? `annotation validation error: key ${JSON.stringify(key)} must equal ` +
      `${JSON.stringify(want)}: current value is ${JSON.stringify(have)}`
      : `annotation validation error: missing key ${JSON.stringify(key)}: must be set to ${JSON.stringify(want)}`);
  }
  if (problems.length === 0) return undefined;
  return {
    kind: 'render',
    message: `rendered manifests contain a resource that already exists. Unable to continue with ${action}: ${kind} ` +
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

/** Apply one rendered object as Helm's three-way merge leaves it; a failure Helm would report, else nothing. */
function applyObject(store: SandboxStore, def: ResourceDef, desired: JsonObject): ChartFailure | undefined {
  const dmeta = metadata(desired);
  const existing = store.find(def, String(dmeta.namespace), String(dmeta.name));
  try {
    if (!existing) {
      store.create(def, desired, { fieldManager: MANAGER });
      return undefined;
    }
    const emeta = metadata(existing);
    const owned = ownedByHelm(existing);
    store.update(def, {
      ...structuredClone(existing),
      metadata: {
        ...structuredClone(emeta),
        labels: upgradedMap(asObject(emeta.labels), asObject(dmeta.labels), owned, 'labels'),
        annotations: upgradedMap(asObject(emeta.annotations), asObject(dmeta.annotations), owned, 'annotations'),
      },
      spec: desired.spec,
    }, { fieldManager: MANAGER });
    return undefined;
  } catch (err) {
    if (err instanceof StatusError && err.code !== 409) {
      return { kind: 'apply', message: `failed to create resource: ${err.message}` };
    }
    throw err;
  }
}

/**
 * Render the release's chart and apply every object; returns a failure instead of throwing for what
 * Helm would report, else the new inventory. As Helm does on an upgrade, an object the previous
 * release rendered and this one does not is deleted: a RemoteMCPServer the agent no longer needs,
 * an Agent renamed, and the `kagent.dev/v1alpha2` Agent of a release whose chart moved from 0.x to
 * 2.x (Helm diffs the manifests, not the kinds, so the old line's Agent goes with the upgrade).
 */
export function applyRelease(
  store: SandboxStore, hr: JsonObject, values: JsonObject, chartVersion: string, action: string,
): ChartFailure | InventoryObject[] {
  const meta = metadata(hr);
  const spec = asObject(hr.spec);
  const releaseName = releaseNameOf(hr);
  const namespace = stringOr(spec.targetNamespace, '') || String(meta.namespace);
  const rendered = renderRelease({ values, releaseName, namespace, chartVersion: chartVersion.split('+')[0]! });
  const common = asObject(spec.commonMetadata);
  const defs: ResourceDef[] = [];
  // Helm checks that it may own every rendered object before it writes any.
  for (const desired of rendered) {
    const dmeta = metaOf(desired);
    dmeta.labels = {
      ...asObject(common.labels), ...asObject(dmeta.labels), [NAME_LABEL]: String(meta.name),
      [NAMESPACE_LABEL]: String(meta.namespace),
    };
    dmeta.annotations = { ...asObject(common.annotations), ...asObject(dmeta.annotations) };
    const def = store.registry.forKind(String(desired.apiVersion), String(desired.kind));
    if (!def) {
      return { kind: 'apply', message: `resource mapping not found for name: "${String(dmeta.name)}" namespace: ` +
        `"${namespace}" from "": no matches for kind "${String(desired.kind)}" in version ` +
        `"${String(desired.apiVersion)}"` };
    }
    const existing = store.find(def, namespace, String(dmeta.name));
    const conflict = existing && ownershipConflict(existing, releaseName, namespace, action);
    if (conflict) return conflict;
    defs.push(def);
  }
  const applied: InventoryObject[] = [];
  for (const [i, desired] of rendered.entries()) {
    const failure = applyObject(store, defs[i]!, desired);
    if (failure) return failure;
    applied.push(objectOf(desired));
  }
  for (const old of inventoryObjects(hr)) {
    if (!applied.some((o) => sameObject(o, old))) deleteOwned(store, hr, old);
  }
  return applied;
}

/** Delete an object the release rendered (one its Flux labels name), as an uninstall or upgrade does. */
export function deleteOwned(store: SandboxStore, hr: JsonObject, o: InventoryObject): void {
  const def = resourceOf(store, o);
  const found = def && store.find(def, o.namespace, o.name);
  const labels = found ? labelsOf(found) : {};
  if (def && found && labels[NAME_LABEL] === metadata(hr).name && labels[NAMESPACE_LABEL] === metadata(hr).namespace) {
    store.delete(def, o.namespace, o.name, { fieldManager: MANAGER });
  }
}
