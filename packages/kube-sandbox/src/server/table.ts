/**
 * Server-side tables (`meta.k8s.io/v1 Table`), what `kubectl get` asks for so that it
 * prints the same columns against any server: column definitions from the resource
 * table, one row of cells per object, and by default each row's object as
 * PartialObjectMetadata (kubectl reads namespaces and names from it).
 */
import { isObject, type JsonObject } from '../api/json.js';
import type { ResourceDef } from '../resources/resource-def.js';

/** `includeObject`: what each row carries besides its cells. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The list metadata a table carries. */
export interface TableListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** An object reduced to its metadata (PartialObjectMetadata). */
export function partialObject(obj: JsonObject, version: string): JsonObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`,
    metadata: isObject(obj.metadata) ? obj.metadata : {} };
}

/** Render objects as a Table. */
export function toTable(
  def: ResourceDef, items: readonly JsonObject[], meta: TableListMeta, include: IncludeObject, version: string,
): JsonObject {
  const now = Date.now();
  const metadata: JsonObject = { resourceVersion: meta.resourceVersion };
  if (meta.continue) metadata.continue = meta.continue;
  if (meta.remainingItemCount !== undefined) metadata.remainingItemCount = meta.remainingItemCount;
  return {
    kind: 'Table', apiVersion: `meta.k8s.io/${version}`, metadata,
    columnDefinitions: def.columns.map((c) => ({
      name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0,
    })),
    rows: items.map((obj) => {
      const row: JsonObject = { cells: def.columns.map((c) => c.cell(obj, now) ?? null) };
      if (include === 'Object') row.object = obj;
      else if (include === 'Metadata') row.object = partialObject(obj, version);
      return row;
    }),
  };
}
