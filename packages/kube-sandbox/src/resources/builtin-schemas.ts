/**
 * Schemas of the built-in kinds, kept to what matters in the sandbox: field types of the
 * parts clients commonly write, and the list semantics strategic merge patch and
 * server-side apply need (containers merged by name, env by name, volumes by name with
 * retainKeys, conditions by type…), mirroring the Go struct tags of k8s.io/api. Everything
 * else is kept as given (open schemas), so no field of a built-in object is ever pruned.
 */
import {
  anyValue, bool, int, keyedList, list, mapOf, obj, setList, str, stringMap, type SchemaNode,
} from './schema.js';

const open = { open: true };

/** metav1.ObjectMeta: shared by every kind, built-in or custom. */
export const objectMetaSchema: SchemaNode = obj({
  name: str(), generateName: str(), namespace: str(), uid: str(), resourceVersion: str(), selfLink: str(),
  generation: int(), creationTimestamp: str(), deletionTimestamp: str(), deletionGracePeriodSeconds: int(),
  labels: stringMap(), annotations: stringMap(),
  finalizers: setList(str()),
  ownerReferences: keyedList('uid', obj({
    apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool(), blockOwnerDeletion: bool(),
  }, { required: ['apiVersion', 'kind', 'name', 'uid'] })),
  managedFields: list(anyValue()),
});

/** The schema of a whole object: apiVersion, kind, metadata and the kind's own fields. */
export function objectSchema(fields: Record<string, SchemaNode>, extras: { open?: boolean } = {}): SchemaNode {
  return obj({ apiVersion: str(), kind: str(), metadata: objectMetaSchema, ...fields }, extras);
}

const labelSelector = obj({
  matchLabels: stringMap(),
  matchExpressions: list(obj({ key: str(), operator: str(), values: list(str()) }, open)),
}, { 'x-kubernetes-map-type': 'atomic' });

const envVar = obj({ name: str(), value: str(), valueFrom: obj({}, open) }, { ...open, required: ['name'] });

/** core/v1 Container. */
export const containerSchema: SchemaNode = obj({
  name: str(), image: str(), imagePullPolicy: str(),
  command: list(str()), args: list(str()), workingDir: str(),
  env: keyedList('name', envVar),
  envFrom: list(obj({}, open)),
  ports: keyedList('containerPort', obj({ containerPort: int(), name: str(), protocol: str(), hostPort: int() }, open)),
  volumeMounts: keyedList('mountPath', obj({ name: str(), mountPath: str(), readOnly: bool(), subPath: str() }, open)),
  volumeDevices: keyedList('devicePath', obj({ name: str(), devicePath: str() }, open)),
  resources: obj({ limits: mapOf(anyValue()), requests: mapOf(anyValue()) }, open),
}, open);

/** core/v1 PodSpec. */
export const podSpecSchema: SchemaNode = obj({
  containers: keyedList('name', containerSchema),
  initContainers: keyedList('name', containerSchema),
  ephemeralContainers: keyedList('name', containerSchema),
  volumes: keyedList('name', obj({ name: str() }, open), { 'x-kubernetes-patch-strategy': 'merge,retainKeys' }),
  imagePullSecrets: keyedList('name', obj({ name: str() }, open)),
  hostAliases: keyedList('ip', obj({ ip: str(), hostnames: list(str()) }, open)),
  tolerations: list(obj({}, open)),
  nodeSelector: stringMap(),
  serviceAccountName: str(), nodeName: str(), restartPolicy: str(), priority: int(),
  terminationGracePeriodSeconds: int(),
}, open);

/** core/v1 PodTemplateSpec. */
export const podTemplateSchema: SchemaNode = obj({
  metadata: obj({ labels: stringMap(), annotations: stringMap() }, open),
  spec: podSpecSchema,
}, open);

/** A status `conditions` list merged by `type`, as the built-in kinds declare it. */
export const typedConditions = (): SchemaNode =>
  keyedList('type', obj({ type: str(), status: str(), reason: str(), message: str() }, open));

export const podSchema = objectSchema({
  spec: podSpecSchema,
  status: obj({
    phase: str(), conditions: typedConditions(), podIP: str(), hostIP: str(),
    containerStatuses: list(obj({ name: str(), ready: bool(), restartCount: int() }, open)),
  }, open),
}, open);

const workloadSpec = (extra: Record<string, SchemaNode> = {}): SchemaNode => obj({
  replicas: int(), minReadySeconds: int(), selector: labelSelector, template: podTemplateSchema, ...extra,
}, open);

const workloadStatus = (): SchemaNode => obj({
  observedGeneration: int(), replicas: int(), readyReplicas: int(), availableReplicas: int(),
  updatedReplicas: int(), unavailableReplicas: int(), fullyLabeledReplicas: int(), conditions: typedConditions(),
}, open);

export const deploymentSchema = objectSchema({
  spec: workloadSpec({
    strategy: obj({ type: str(), rollingUpdate: obj({}, open) },
      { ...open, 'x-kubernetes-patch-strategy': 'retainKeys' }),
    revisionHistoryLimit: int(), progressDeadlineSeconds: int(), paused: bool(),
  }),
  status: workloadStatus(),
}, open);

export const replicaSetSchema = objectSchema({ spec: workloadSpec(), status: workloadStatus() }, open);
/** apps/v1 ControllerRevision: `data` is a RawExtension (any JSON object), `revision` an int64. */
export const controllerRevisionSchema = objectSchema({ data: anyValue(), revision: int() });

export const namespaceSchema = objectSchema({
  spec: obj({ finalizers: list(str()) }, open),
  status: obj({ phase: str(), conditions: typedConditions() }, open),
}, open);

export const configMapSchema = objectSchema({ data: stringMap(), binaryData: stringMap(), immutable: bool() }, open);

export const secretSchema = objectSchema({
  data: stringMap(), stringData: stringMap(), type: str(), immutable: bool(),
}, open);

export const serviceAccountSchema = objectSchema({
  secrets: keyedList('name', obj({ name: str() }, open)),
  imagePullSecrets: keyedList('name', obj({ name: str() }, open)),
  automountServiceAccountToken: bool(),
}, open);

export const eventSchema = objectSchema(
  {
    involvedObject: obj(
      { kind: str(), namespace: str(), name: str(), uid: str(), apiVersion: str(), fieldPath: str() }, open,
    ),
    reason: str(), message: str(), type: str(), count: int(), source: obj({ component: str(), host: str() }, open),
    firstTimestamp: str(), lastTimestamp: str(), eventTime: str(),
  },
  open,
);

const policyRule = obj({
  apiGroups: list(str()), resources: list(str()), resourceNames: list(str()), verbs: list(str()),
  nonResourceURLs: list(str()),
}, { ...open, required: ['verbs'] });

export const roleSchema = objectSchema({ rules: list(policyRule) }, open);

export const clusterRoleSchema = objectSchema({
  rules: list(policyRule),
  aggregationRule: obj({ clusterRoleSelectors: list(labelSelector) }, open),
}, open);

export const bindingSchema = objectSchema({
  subjects: list(obj({ kind: str(), apiGroup: str(), name: str(), namespace: str() },
    { ...open, required: ['kind', 'name'] })),
  roleRef: obj({ apiGroup: str(), kind: str(), name: str() }, { ...open, required: ['apiGroup', 'kind', 'name'] }),
}, open);
