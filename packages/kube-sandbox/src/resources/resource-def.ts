/**
 * What the sandbox knows about one resource type: the row of the resource table that
 * discovery, routing, validation, server-side tables and field selectors all read. Adding
 * a resource to the sandbox means adding one `ResourceDef`.
 */
import type { FieldError } from '../api/field-errors.js';
import type { JsonObject } from '../api/json.js';
import type { NameRule } from '../api/object-meta.js';
import type { GroupKind, GroupResource } from '../api/status.js';
import type { SchemaNode } from './schema.js';

/** A column of the server-side Table (`kubectl get`). */
export interface ColumnDef {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format?: string;
  readonly description?: string;
  /** 0 shows by default; 1 only with `-o wide`. */
  readonly priority?: number;
  /** The JSONPath of a CRD's additionalPrinterColumn (custom resources). */
  readonly jsonPath?: string;
  readonly cell: (obj: JsonObject, now: number) => unknown;
}

/** One served resource type. */
export interface ResourceDef {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, the URL segment. */
  readonly resource: string;
  readonly kind: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly string[];
  /** Has a `/status` subresource: main writes ignore status, status writes change only status. */
  readonly statusSubresource: boolean;
  /** Has a `/scale` subresource (autoscaling/v1 Scale over spec.replicas). */
  readonly scaleSubresource?: boolean;
  /** Served like a CustomResourceDefinition (merge and JSON patch only, schema pruning). */
  readonly custom: boolean;
  /**
   * Stamps metadata.generation (1 on create, +1 on a change of the desired state or when
   * deletion starts), as custom resources and the built-in kinds with a spec (Deployment,
   * ReplicaSet) do; other built-in kinds (ConfigMap, Secret, Namespace, RBAC, Pod in 1.32)
   * have none.
   */
  readonly generation?: boolean;
  readonly nameRule: NameRule;
  /** The whole object's schema: types, pruning, list semantics for patches and apply. */
  readonly schema: SchemaNode;
  /** Every column of the server-side Table, NAME included (events have none). */
  readonly columns: readonly ColumnDef[];
  /** Selectable fields besides metadata.name and metadata.namespace. */
  readonly fieldLabels?: Readonly<Record<string, (obj: JsonObject) => unknown>>;
  /** Normalises an object on every write (Secret stringData, defaults of built-in kinds). */
  readonly prepare?: (obj: JsonObject) => void;
  /** Kind-specific validation beyond the schema (built-in kinds). */
  readonly validate?: (obj: JsonObject) => FieldError[];
  /** Kind-specific rules of an update (immutable fields), given the new and the stored object. */
  readonly validateUpdate?: (next: JsonObject, old: JsonObject) => FieldError[];
  /** The status a newly created object starts with (resources with a status subresource). */
  readonly initialStatus?: () => JsonObject;
}

/** The standard verbs of a namespaced or cluster-scoped collection. */
export const STANDARD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update',
  'watch'] as const;

/** Whether objects of a resource carry metadata.generation (custom resources always do). */
export function tracksGeneration(def: ResourceDef): boolean {
  return def.custom || def.generation === true;
}

/** `v1` or `apps/v1`. */
export function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** The map key of a resource type in the store: `helmreleases.helm.toolkit.fluxcd.io`, `pods`. */
export function resourceKey(def: Pick<ResourceDef, 'group' | 'resource'>): string {
  return def.group ? `${def.resource}.${def.group}` : def.resource;
}

export function groupResource(def: ResourceDef): GroupResource {
  return { group: def.group, resource: def.resource };
}

export function groupKind(def: ResourceDef): GroupKind {
  return { group: def.group, kind: def.kind };
}
