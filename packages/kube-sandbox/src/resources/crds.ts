/**
 * CustomResourceDefinitions as a cluster with the sandbox's custom kinds lists them: one per custom
 * resource with names, scope, versions, schema, status subresource, printer columns and the
 * `NamesAccepted`/`Established` conditions `kubectl wait` waits for. Read-only: the kinds are compiled
 * in, so a CRD write could not change what is served, and it says so with 405.
 */
import { isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import { column, nameColumn } from './columns.js';
import { objectSchema } from './builtin-schemas.js';
import { obj } from './schema.js';
import type { ResourceDef } from './resource-def.js';

export const customresourcedefinitions: ResourceDef = {
  group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition',
  singular: 'customresourcedefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'],
  verbs: ['get', 'list', 'watch'], statusSubresource: false, custom: false, nameRule: 'subdomain',
  schema: objectSchema({ spec: obj({}, { open: true }), status: obj({}, { open: true }) }, { open: true }),
  columns: [nameColumn(), column('Created At', (o) => (isObject(o.metadata) ? o.metadata.creationTimestamp : ''),
    'date')],
};

/** Keys of the sandbox's schemas that a CRD's structural schema does not carry. */
const SANDBOX_ONLY = new Set(['x-sandbox-summarised', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key']);

function crdSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(crdSchema);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !SANDBOX_ONLY.has(key))
      .map(([key, value]) => [key, crdSchema(value)]),
  );
}

/** The CustomResourceDefinition object of a served custom resource. */
export function crdObjectFor(def: ResourceDef, uid: string): JsonObject {
  const now = nowTimestamp();
  const names = {
    kind: def.kind, listKind: `${def.kind}List`, plural: def.resource, singular: def.singular,
    ...(def.shortNames.length > 0 ? { shortNames: [...def.shortNames] } : {}),
    ...(def.categories.length > 0 ? { categories: [...def.categories] } : {}),
  };
  const printerColumns = def.columns
    .filter((c) => c.jsonPath)
    .map((c) => ({
      name: c.name, type: c.type, jsonPath: c.jsonPath, ...(c.description ? { description: c.description } : {}),
      ...(c.priority ? { priority: c.priority } : {}),
    }));
  const condition = (type: string, reason: string, message: string) =>
    ({ type, status: 'True', lastTransitionTime: now, reason, message });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `${def.resource}.${def.group}`, uid, creationTimestamp: now, generation: 1 },
    spec: {
      group: def.group, names, scope: def.namespaced ? 'Namespaced' : 'Cluster',
      versions: [{
        name: def.version, served: true, storage: true,
        schema: { openAPIV3Schema: crdSchema(def.schema) },
        ...(def.statusSubresource ? { subresources: { status: {} } } : {}),
        ...(printerColumns.length > 0 ? { additionalPrinterColumns: printerColumns } : {}),
      }],
      conversion: { strategy: 'None' },
    },
    status: {
      acceptedNames: names, storedVersions: [def.version],
      conditions: [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
    },
  };
}
