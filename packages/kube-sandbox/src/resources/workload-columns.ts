/**
 * The `-o wide` cells kubectl's printers add for workloads and bindings: a Deployment's or
 * ReplicaSet's CONTAINERS, IMAGES and SELECTOR (the selector as metav1.FormatLabelSelector
 * writes it: requirements sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`,
 * `<none>` when empty), a pod's NOMINATED NODE and READINESS GATES, and a binding's USERS,
 * GROUPS and SERVICEACCOUNTS.
 */
import { asList, isObject, type JsonObject } from '../api/json.js';
import { column } from './columns.js';
import type { ColumnDef } from './resource-def.js';

const templateContainers = (o: JsonObject): JsonObject[] => {
  const template = isObject(o.spec) && isObject(o.spec.template) ? o.spec.template : {};
  return isObject(template.spec) && Array.isArray(template.spec.containers)
    ? template.spec.containers.filter(isObject)
    : [];
};

/** A LabelSelector as a selector string, `<none>` when it selects by nothing. */
export function formatLabelSelector(selector: unknown): string {
  if (!isObject(selector)) return '<none>';
  const parts: Array<[string, string]> = [];
  if (isObject(selector.matchLabels)) {
    for (const [key, value] of Object.entries(selector.matchLabels)) parts.push([key, `${key}=${String(value)}`]);
  }
  for (const req of Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObject) : []) {
    const key = String(req.key ?? '');
    const values = (Array.isArray(req.values) ? req.values.map(String) : []).sort();
    if (req.operator === 'In') parts.push([key, `${key} in (${values.join(',')})`]);
    else if (req.operator === 'NotIn') parts.push([key, `${key} notin (${values.join(',')})`]);
    else if (req.operator === 'Exists') parts.push([key, key]);
    else if (req.operator === 'DoesNotExist') parts.push([key, `!${key}`]);
  }
  if (parts.length === 0) return '<none>';
  return parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, text]) => text).join(',');
}

/** CONTAINERS, IMAGES and SELECTOR, shown with `-o wide`. */
export function workloadWideColumns(): ColumnDef[] {
  return [
    column('Containers', (o) => templateContainers(o).map((c) => String(c.name ?? '')).join(','), 'string', 1),
    column('Images', (o) => templateContainers(o).map((c) => String(c.image ?? '')).join(','), 'string', 1),
    column('Selector', (o) => formatLabelSelector(isObject(o.spec) ? o.spec.selector : undefined), 'string', 1),
  ];
}

/** NOMINATED NODE and READINESS GATES of a pod (`ready/total` gates whose condition is True). */
export function podWideColumns(): ColumnDef[] {
  return [
    column('Nominated Node', (o) => (isObject(o.status) && typeof o.status.nominatedNodeName === 'string' &&
      o.status.nominatedNodeName
      ? o.status.nominatedNodeName : '<none>'), 'string', 1),
    column('Readiness Gates', (o) => {
      const gates =
        isObject(o.spec) && Array.isArray(o.spec.readinessGates) ? o.spec.readinessGates.filter(isObject) : [];
      if (gates.length === 0) return '<none>';
      const conditions =
        isObject(o.status) && Array.isArray(o.status.conditions) ? o.status.conditions.filter(isObject) : [];
      const ready = gates.filter((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True'))
        .length;
      return `${ready}/${gates.length}`;
    }, 'string', 1),
  ];
}

const subjects = (o: JsonObject, kind: string): JsonObject[] =>
  asList(o.subjects).filter((s): s is JsonObject => isObject(s) && s.kind === kind);

/** USERS, GROUPS and SERVICEACCOUNTS (`namespace/name`) of a RoleBinding or ClusterRoleBinding. */
export function bindingWideColumns(): ColumnDef[] {
  return [
    column('Users', (o) => subjects(o, 'User').map((s) => String(s.name ?? '')).join(', '), 'string', 1),
    column('Groups', (o) => subjects(o, 'Group').map((s) => String(s.name ?? '')).join(', '), 'string', 1),
    column('ServiceAccounts', (o) => subjects(o, 'ServiceAccount').map((s) =>
      `${String(s.namespace ?? '')}/${String(s.name ?? '')}`).join(', '), 'string', 1),
  ];
}
