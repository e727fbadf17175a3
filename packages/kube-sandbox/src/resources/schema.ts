/**
 * Structural schemas: the OpenAPI v3 subset a CRD's `openAPIV3Schema` uses plus the `x-kubernetes-*`
 * extensions that drive pruning, server-side apply and strategic merge patch. One node type serves
 * validation, pruning, field ownership and merging, so a list's or map's semantics are stated once per
 * field; the small constructors below keep the resource tables readable.
 */

/** A node of a structural schema. Extension names are the real ones, so tests can compare. */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, SchemaNode>;
  /** Schema of map values (objects with arbitrary keys). */
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /** Strategic merge patch: `merge`, `replace`, `retainKeys` or `merge,retainKeys`. */
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  /**
   * Sandbox extension: the real CRD models this subtree in detail and we accept it as
   * given (like preserve-unknown-fields). Tests comparing against the real CRDs stop here.
   */
  'x-sandbox-summarised'?: boolean;
}

type Extras = Partial<SchemaNode>;

/** A string, optionally constrained. */
export const str = (extras: Extras = {}): SchemaNode => ({ type: 'string', ...extras });
/** A string restricted to the listed values. */
export const oneOf = (values: string[], extras: Extras = {}): SchemaNode =>
  ({ type: 'string', enum: values, ...extras });
export const int = (extras: Extras = {}): SchemaNode => ({ type: 'integer', ...extras });
export const num = (extras: Extras = {}): SchemaNode => ({ type: 'number', ...extras });
export const bool = (extras: Extras = {}): SchemaNode => ({ type: 'boolean', ...extras });

/** A struct with declared fields; unknown fields are pruned unless `open` is set. */
export function obj(properties: Record<string, SchemaNode>, extras: Extras & { open?: boolean } = {}): SchemaNode {
  const { open, ...rest } = extras;
  const node: SchemaNode = { type: 'object', properties, ...rest };
  if (open) node['x-kubernetes-preserve-unknown-fields'] = true;
  return node;
}

/** A map with arbitrary keys and values of one schema. */
export const mapOf = (values: SchemaNode, extras: Extras = {}): SchemaNode =>
  ({ type: 'object', additionalProperties: values, ...extras });
/** A map of strings (labels, annotations, ConfigMap data). */
export const stringMap = (extras: Extras = {}): SchemaNode => mapOf(str(), extras);

/** An atomic list: replaced as a whole by merges and owned as one field. */
export const list = (items: SchemaNode, extras: Extras = {}): SchemaNode => ({ type: 'array', items, ...extras });

/** A list of objects identified by `keys`, merged item by item (listType map). */
export function keyedList(keys: string | string[], items: SchemaNode, extras: Extras = {}): SchemaNode {
  const keyList = Array.isArray(keys) ? keys : [keys];
  return {
    type: 'array', items,
    'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keyList,
    'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': keyList[0],
    ...extras,
  };
}

/** A list of unique scalars merged as a set (finalizers). */
export const setList = (items: SchemaNode, extras: Extras = {}): SchemaNode =>
  ({ type: 'array', items, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge', ...extras });

/** Anything at all, kept as given (HelmRelease `spec.values`). */
export const anyValue = (extras: Extras = {}): SchemaNode =>
  ({ 'x-kubernetes-preserve-unknown-fields': true, ...extras });

/** An object whose detailed real schema we do not model; kept as given. */
export const summarised = (type: 'object' | 'array' = 'object', extras: Extras = {}): SchemaNode =>
  ({ type, 'x-kubernetes-preserve-unknown-fields': true, 'x-sandbox-summarised': true, ...extras });

/** An int-or-string (resource quantities, ports). */
export const intOrString = (): SchemaNode => ({ 'x-kubernetes-int-or-string': true });

/** A Go duration as Flux validates it (`10m`, `1h30m`). */
export const duration = (extras: Extras = {}): SchemaNode =>
  str({ pattern: '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$', ...extras });

/** A `{name}` reference to an object in the same namespace. */
export const localRef = (): SchemaNode => obj({ name: str() }, { required: ['name'] });

/** metav1.Condition, as Flux and kagent CRDs declare their status conditions. */
export const condition = (): SchemaNode =>
  obj({
    lastTransitionTime: str({ format: 'date-time' }),
    message: str({ maxLength: 32768 }),
    observedGeneration: int({ format: 'int64', minimum: 0 }),
    reason: str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
    status: oneOf(['True', 'False', 'Unknown']),
    type: str({ maxLength: 316,
      pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?' +
        '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }),
  }, { required: ['lastTransitionTime', 'message', 'reason', 'status', 'type'] });

/** True when unknown fields below this node are kept (never pruned, never reported). */
export function keepsUnknown(node: SchemaNode | undefined): boolean {
  return node === undefined || node['x-kubernetes-preserve-unknown-fields'] === true;
}
