/**
 * apps/v1 (deployments, replicasets, controllerrevisions) and rbac.authorization.k8s.io/v1
 * (roles, rolebindings, clusterroles, clusterrolebindings): table columns as kubectl prints
 * them, the workload defaults (workload-defaults.ts), the selector/template agreement the real server insists on, a
 * ControllerRevision's mandatory and immutable `data` and non-negative `revision`, and roleRef checks.
 */
import { fieldError, type FieldError } from '../api/field-errors.js';
import { asObject, deepEqual, isObject, numberOr, type JsonObject } from '../api/json.js';
import {
  bindingSchema, clusterRoleSchema, controllerRevisionSchema, deploymentSchema, replicaSetSchema, roleSchema,
} from './builtin-schemas.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { STANDARD_VERBS, type ResourceDef } from './resource-def.js';
import { bindingWideColumns, workloadWideColumns } from './workload-columns.js';
import { defaultDeployment, defaultReplicaSet } from './workload-defaults.js';

const status = (o: JsonObject, key: string): number =>
  numberOr(asObject(o.status)[key], 0);
const specReplicas = (o: JsonObject): number =>
  (isObject(o.spec) && typeof o.spec.replicas === 'number' ? o.spec.replicas : 0);

/** Selector required, and the template's labels must satisfy its matchLabels. */
function validateWorkload(o: JsonObject): FieldError[] {
  const spec = isObject(o.spec) ? o.spec : {};
  if (!isObject(spec.selector)) return [fieldError.required('spec.selector')];
  const template = isObject(spec.template) ? spec.template : {};
  const labels = isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : {};
  const wanted = isObject(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
  const errors: FieldError[] = [];
  if (Object.keys(wanted).length === 0 && !Array.isArray(spec.selector.matchExpressions)) {
    errors.push(fieldError.invalid('spec.selector', spec.selector, 'empty selector is invalid for deployment'));
  }
  if (Object.entries(wanted).some(([k, v]) => labels[k] !== v)) {
    errors.push(fieldError.invalid('spec.template.metadata.labels', labels,
      '`selector` does not match template `labels`'));
  }
  return errors;
}

const apps = (def: Omit<ResourceDef, 'group' | 'version' | 'custom' | 'verbs' | 'namespaced' | 'statusSubresource'
  | 'nameRule'> & { statusSubresource?: boolean }): ResourceDef =>
  ({ group: 'apps', version: 'v1', custom: false, verbs: STANDARD_VERBS, namespaced: true, statusSubresource: true,
    scaleSubresource: true, nameRule: 'subdomain', ...def });

export const deployments = apps({
  resource: 'deployments', kind: 'Deployment', singular: 'deployment', shortNames: ['deploy'], categories: ['all'],
  generation: true,
  schema: deploymentSchema,
  columns: [
    nameColumn(),
    column('Ready', (o) => `${status(o, 'readyReplicas')}/${specReplicas(o)}`),
    column('Up-to-date', (o) => status(o, 'updatedReplicas'), 'integer'),
    column('Available', (o) => status(o, 'availableReplicas'), 'integer'),
    ageColumn(),
    ...workloadWideColumns(),
  ],
  prepare: defaultDeployment, validate: validateWorkload, initialStatus: () => ({}),
});

export const replicasets = apps({
  resource: 'replicasets', kind: 'ReplicaSet', singular: 'replicaset', shortNames: ['rs'], categories: ['all'],
  generation: true,
  schema: replicaSetSchema,
  columns: [
    nameColumn(),
    column('Desired', specReplicas, 'integer'),
    column('Current', (o) => status(o, 'replicas'), 'integer'),
    column('Ready', (o) => status(o, 'readyReplicas'), 'integer'),
    ageColumn(),
    ...workloadWideColumns(),
  ],
  fieldLabels: { 'status.replicas': (o) => String(status(o, 'replicas')) },
  prepare: defaultReplicaSet, validate: validateWorkload, initialStatus: () => ({ replicas: 0 }),
});

const createdAt = column('Created At', (o) => (isObject(o.metadata) ? o.metadata.creationTimestamp : ''), 'date');
const roleRef = (o: JsonObject): string =>
  (isObject(o.roleRef) ? `${String(o.roleRef.kind)}/${String(o.roleRef.name)}` : '');

function validateBinding(clusterScoped: boolean) {
  return (o: JsonObject): FieldError[] => {
    const ref = isObject(o.roleRef) ? o.roleRef : {};
    const allowed = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
    if (typeof ref.kind === 'string' && !allowed.includes(ref.kind)) {
      return [fieldError.notSupported('roleRef.kind', ref.kind, allowed)];
    }
    if (ref.apiGroup !== undefined && ref.apiGroup !== 'rbac.authorization.k8s.io') {
      return [fieldError.notSupported('roleRef.apiGroup', ref.apiGroup, ['rbac.authorization.k8s.io'])];
    }
    return [];
  };
}

const rbac = (def: Omit<ResourceDef, 'group' | 'version' | 'custom' | 'verbs' | 'statusSubresource' | 'nameRule'
  | 'categories' | 'shortNames'>): ResourceDef =>
  ({ group: 'rbac.authorization.k8s.io', version: 'v1', custom: false, verbs: STANDARD_VERBS, statusSubresource: false,
    nameRule: 'path-segment', categories: [], shortNames: [], ...def });

export const roles = rbac({ resource: 'roles', kind: 'Role', singular: 'role', namespaced: true, schema: roleSchema,
  columns: [nameColumn(), createdAt] });
export const clusterroles = rbac({ resource: 'clusterroles', kind: 'ClusterRole', singular: 'clusterrole',
  namespaced: false, schema: clusterRoleSchema, columns: [nameColumn(), createdAt] });
export const rolebindings = rbac({
  resource: 'rolebindings', kind: 'RoleBinding', singular: 'rolebinding', namespaced: true, schema: bindingSchema,
  columns: [nameColumn(), column('Role', roleRef), ageColumn(), ...bindingWideColumns()],
  validate: validateBinding(false),
});
export const clusterrolebindings = rbac({
  resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', singular: 'clusterrolebinding', namespaced: false,
  schema: bindingSchema,
  columns: [nameColumn(), column('Role', roleRef), ageColumn(), ...bindingWideColumns()],
  validate: validateBinding(true),
});

/** The CONTROLLER column: `<kind>.<group>/<name>` of the controller owner reference, as kubectl prints it. */
function controllerColumn(o: JsonObject): string {
  const refs =
    isObject(o.metadata) && Array.isArray(o.metadata.ownerReferences)
      ? o.metadata.ownerReferences.filter(isObject)
      : [];
  const ref = refs.find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = String(ref.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  return `${String(ref.kind ?? '').toLowerCase()}${group ? `.${group}` : ''}/${String(ref.name ?? '')}`;
}

export const controllerrevisions = apps({
  resource: 'controllerrevisions', kind: 'ControllerRevision', singular: 'controllerrevision', shortNames: [],
  categories: [],
  statusSubresource: false, scaleSubresource: false,
  schema: controllerRevisionSchema,
  columns: [nameColumn(), column('Controller', controllerColumn),
    column('Revision', (o) => (typeof o.revision === 'number' ? o.revision : 0), 'integer'), ageColumn()],
  validate: (o) => {
    const errors: FieldError[] = [];
    if (o.data === undefined || o.data === null) errors.push(fieldError.required('data', 'data is mandatory'));
    if (typeof o.revision === 'number' && o.revision < 0) {
      errors.push(fieldError.invalid('revision', o.revision, 'must be greater than or equal to 0'));
    }
    return errors;
  },
  validateUpdate: (next, old) => (deepEqual(next.data, old.data) ? []
    : [fieldError.invalid('data', next.data, 'field is immutable')]),
});

export const APPS_RESOURCES: readonly ResourceDef[] = [deployments, replicasets, controllerrevisions];
export const RBAC_RESOURCES: readonly ResourceDef[] = [clusterrolebindings, clusterroles, rolebindings, roles];
