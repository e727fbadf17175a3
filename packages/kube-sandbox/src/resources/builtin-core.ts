/**
 * The core/v1 resources the sandbox serves: namespaces (cluster-scoped), pods, events,
 * secrets, configmaps and serviceaccounts, with the table columns kubectl prints for
 * them, their selectable fields, and the small normalisations the real server performs
 * (Secret stringData folded into base64 data, the namespace name label).
 */
import { Buffer } from 'node:buffer';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { child, isObject, metaOf, type JsonObject } from '../api/json.js';
import {
  configMapSchema, eventSchema, namespaceSchema, podSchema, secretSchema, serviceAccountSchema,
} from './builtin-schemas.js';
import { ageColumn, ageOf, column, nameColumn } from './columns.js';
import { podReady, podStatusReason } from './pod-status.js';
import { STANDARD_VERBS, type ResourceDef } from './resource-def.js';
import { podWideColumns } from './workload-columns.js';
import { defaultPod } from './workload-defaults.js';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. " +
  "'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

function configKeyErrors(obj: JsonObject, fields: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of fields) {
    const map = obj[field];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) {
      if (!CONFIG_KEY.test(key)) errors.push(fieldError.invalid(`${field}[${key}]`, key, CONFIG_KEY_MSG));
    }
  }
  return errors;
}

const count = (value: unknown): number =>
  isObject(value) ? Object.keys(value).length : Array.isArray(value) ? value.length : 0;
const core = (def: Omit<ResourceDef, 'group' | 'version' | 'custom' | 'verbs'
  | 'categories'> & Partial<ResourceDef>): ResourceDef =>
  ({ group: '', version: 'v1', custom: false, verbs: STANDARD_VERBS, categories: [], ...def });

export const namespaces = core({
  resource: 'namespaces', kind: 'Namespace', singular: 'namespace', namespaced: false, shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  statusSubresource: true, nameRule: 'label', schema: namespaceSchema,
  columns: [nameColumn(), column('Status', (o) => (isObject(o.status) ? o.status.phase : '')), ageColumn()],
  fieldLabels: { 'status.phase': (o) => (isObject(o.status) ? o.status.phase : undefined) },
  prepare: (o) => {
    const meta = metaOf(o);
    child(meta, 'labels')['kubernetes.io/metadata.name'] = String(meta.name ?? '');
    const spec = child(o, 'spec');
    if (!Array.isArray(spec.finalizers)) spec.finalizers = ['kubernetes'];
  },
  initialStatus: () => ({ phase: 'Active' }),
});

export const pods = core({
  resource: 'pods', kind: 'Pod', singular: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'],
  statusSubresource: true, nameRule: 'subdomain', schema: podSchema,
  columns: [
    nameColumn(), column('Ready', podReady), column('Status', podStatusReason),
    column('Restarts', (o) => {
      const statuses =
        isObject(o.status) && Array.isArray(o.status.containerStatuses) ? o.status.containerStatuses : [];
      return statuses.reduce((sum: number, s) =>
        sum + (isObject(s) && typeof s.restartCount === 'number' ? s.restartCount : 0), 0);
    }, 'string'),
    ageColumn(),
    column('IP', (o) => (isObject(o.status) ? o.status.podIP ?? '<none>' : '<none>'), 'string', 1),
    column('Node', (o) => (isObject(o.spec) ? o.spec.nodeName ?? '<none>' : '<none>'), 'string', 1),
    ...podWideColumns(),
  ],
  fieldLabels: {
    'spec.nodeName': (o) => (isObject(o.spec) ? o.spec.nodeName ?? '' : ''),
    'spec.serviceAccountName': (o) => (isObject(o.spec) ? o.spec.serviceAccountName ?? '' : ''),
    'spec.restartPolicy': (o) => (isObject(o.spec) ? o.spec.restartPolicy ?? '' : ''),
    'status.phase': (o) => (isObject(o.status) ? o.status.phase ?? '' : ''),
    'status.podIP': (o) => (isObject(o.status) ? o.status.podIP ?? '' : ''),
  },
  validate: (o) => {
    const containers = isObject(o.spec) ? o.spec.containers : undefined;
    if (!Array.isArray(containers) || containers.length === 0) return [fieldError.required('spec.containers')];
    const errors: FieldError[] = [];
    containers.forEach((c, i) => {
      if (!isObject(c) || !c.name) errors.push(fieldError.required(`spec.containers[${i}].name`));
      if (!isObject(c) || !c.image) errors.push(fieldError.required(`spec.containers[${i}].image`));
    });
    return errors;
  },
  prepare: defaultPod,
  initialStatus: () => ({ phase: 'Pending', qosClass: 'BestEffort' }),
});

const involved = (key: string) => (o: JsonObject) => (isObject(o.involvedObject) ? o.involvedObject[key] ?? '' : '');

/** The SOURCE cell: `component, host`, or the reporting controller and instance of newer events. */
function eventSource(o: JsonObject): string {
  const source = isObject(o.source) ? o.source : {};
  const component = String(source.component || o.reportingComponent || '');
  const host = String(source.host || o.reportingInstance || '');
  return [component, host].filter((part) => part !== '').join(', ');
}

export const events = core({
  resource: 'events', kind: 'Event', singular: 'event', namespaced: true, shortNames: ['ev'],
  statusSubresource: false, nameRule: 'subdomain', schema: eventSchema,
  columns: [
    column('Last Seen', (o, now) => ageOf(o.lastTimestamp ?? o.eventTime ??
      (isObject(o.metadata) ? o.metadata.creationTimestamp : undefined), now)),
    column('Type', (o) => o.type ?? ''),
    column('Reason', (o) => o.reason ?? ''),
    column('Object', (o) => `${String(involved('kind')(o)).toLowerCase()}/${String(involved('name')(o))}`),
    column('Subobject', involved('fieldPath'), 'string', 1),
    column('Source', eventSource, 'string', 1),
    column('Message', (o) => o.message ?? ''),
    column('First Seen', (o, now) => ageOf(o.firstTimestamp ?? o.eventTime, now), 'string', 1),
    column('Count', (o) => (typeof o.count === 'number' ? o.count : 1), 'integer', 1),
    { ...nameColumn(), priority: 1 },
  ],
  fieldLabels: {
    'involvedObject.kind': involved('kind'), 'involvedObject.name': involved('name'),
    'involvedObject.namespace': involved('namespace'), 'involvedObject.uid': involved('uid'),
    'involvedObject.apiVersion': involved('apiVersion'), 'involvedObject.fieldPath': involved('fieldPath'),
    reason: (o) => o.reason ?? '', type: (o) => o.type ?? '',
    source: (o) => (isObject(o.source) ? o.source.component ?? '' : ''),
  },
});

export const secrets = core({
  resource: 'secrets', kind: 'Secret', singular: 'secret', namespaced: true, shortNames: [],
  statusSubresource: false, nameRule: 'subdomain', schema: secretSchema,
  columns: [nameColumn(), column('Type', (o) => o.type ?? ''), column('Data', (o) => count(o.data), 'integer'),
    ageColumn()],
  fieldLabels: { type: (o) => o.type ?? '' },
  // stringData is write-only: the real server folds it into base64 `data` and drops it.
  prepare: (o) => {
    if (isObject(o.stringData)) {
      const data = child(o, 'data');
      for (const [k, v] of Object.entries(o.stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      delete o.stringData;
    }
    if (typeof o.type !== 'string' || o.type === '') o.type = 'Opaque';
  },
  validate: (o) => {
    const errors = configKeyErrors(o, ['data']);
    if (isObject(o.data)) {
      for (const [k, v] of Object.entries(o.data)) {
        if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
          errors.push(fieldError.invalid(`data[${k}]`, '<secret contents redacted>', 'illegal base64 data'));
        }
      }
    }
    return errors;
  },
});

export const configmaps = core({
  resource: 'configmaps', kind: 'ConfigMap', singular: 'configmap', namespaced: true, shortNames: ['cm'],
  statusSubresource: false, nameRule: 'subdomain', schema: configMapSchema,
  columns: [nameColumn(), column('Data', (o) => count(o.data) + count(o.binaryData), 'integer'), ageColumn()],
  validate: (o) => configKeyErrors(o, ['data', 'binaryData']),
});

export const serviceaccounts = core({
  resource: 'serviceaccounts', kind: 'ServiceAccount', singular: 'serviceaccount', namespaced: true, shortNames: ['sa'],
  statusSubresource: false, nameRule: 'subdomain', schema: serviceAccountSchema,
  columns: [nameColumn(), column('Secrets', (o) => count(o.secrets), 'integer'), ageColumn()],
});

/** core/v1, in discovery order. */
export const CORE_RESOURCES: readonly ResourceDef[] = [configmaps, events, namespaces, pods, secrets, serviceaccounts];
