/**
 * The proto2 messages (k8s.io/api `generated.proto`, field numbers as published) of the
 * built-in kinds kubectl sends as protobuf and the sandbox accepts that way: what
 * `kubectl create namespace|configmap|secret|serviceaccount|role|clusterrole|rolebinding|
 * clusterrolebinding|deployment`, `kubectl run` and `kubectl auth can-i|whoami` post. Only the fields a client
 * sets on create are listed; others are skipped. Any other kind stays JSON-only, and the
 * server says so.
 */
import type { JsonObject } from './json.js';
import { decodeMessage, openEnvelope, ProtobufError, type ProtoField, type ProtoMessage } from './protobuf.js';

const str = (name: string): ProtoField => ({ name, type: 'string' });
const strs = (name: string): ProtoField => ({ name, type: 'string', repeated: true });
const bool = (name: string): ProtoField => ({ name, type: 'bool' });
const msg = (name: string, type: ProtoMessage, repeated = false): ProtoField => ({ name, type, repeated });
const stringMap = (name: string): ProtoField => ({ name, type: { map: 'string' } });
const int = (name: string, pointer = false): ProtoField => ({ name, type: 'int', pointer });

const ownerReference: ProtoMessage = {
  fields: { 1: str('kind'), 3: str('name'), 4: str('uid'), 5: str('apiVersion'), 6: bool('controller'),
    7: bool('blockOwnerDeletion') },
};

const objectMeta: ProtoMessage = {
  fields: {
    1: str('name'), 2: str('generateName'), 3: str('namespace'), 5: str('uid'), 6: str('resourceVersion'),
    7: { name: 'generation', type: 'int' }, 8: { name: 'creationTimestamp', type: 'time' },
    11: stringMap('labels'), 12: stringMap('annotations'), 13: msg('ownerReferences', ownerReference, true),
    14: strs('finalizers'),
  },
};
const metadata = msg('metadata', objectMeta);

const policyRule: ProtoMessage = {
  fields: { 1: strs('verbs'), 2: strs('apiGroups'), 3: strs('resources'), 4: strs('resourceNames'),
    5: strs('nonResourceURLs') },
};
const binding: ProtoMessage = {
  fields: {
    1: metadata,
    2: msg('subjects', { fields: { 1: str('kind'), 2: str('apiGroup'), 3: str('name'), 4: str('namespace') } }, true),
    3: msg('roleRef', { fields: { 1: str('apiGroup'), 2: str('kind'), 3: str('name') } }),
  },
};

const resourceAttributes: ProtoMessage = {
  fields: { 1: str('namespace'), 2: str('verb'), 3: str('group'), 4: str('version'), 5: str('resource'),
    6: str('subresource'), 7: str('name') },
};

const labelSelector: ProtoMessage = {
  fields: { 1: stringMap('matchLabels'),
    2: msg('matchExpressions', { fields: { 1: str('key'), 2: str('operator'), 3: strs('values') } }, true) },
};

// ResourceRequirements' quantities are not read: kubectl create and run send it empty.
const container: ProtoMessage = {
  fields: {
    1: str('name'), 2: str('image'), 3: strs('command'), 4: strs('args'), 5: str('workingDir'),
    6: msg('ports', { fields: { 1: str('name'), 2: int('hostPort'), 3: int('containerPort'), 4: str('protocol'),
      5: str('hostIP') } }, true),
    7: msg('env', { fields: { 1: str('name'), 2: str('value') } }, true),
    8: msg('resources', { fields: {} }), 13: str('terminationMessagePath'), 14: str('imagePullPolicy'),
    20: str('terminationMessagePolicy'),
  },
};

const podSpec: ProtoMessage = {
  fields: {
    2: msg('containers', container, true), 3: str('restartPolicy'), 4: int('terminationGracePeriodSeconds', true),
    6: str('dnsPolicy'),
    7: stringMap('nodeSelector'), 8: str('serviceAccountName'), 10: str('nodeName'),
    20: msg('initContainers', container, true),
  },
};

const deploymentSpec: ProtoMessage = {
  fields: {
    1: int('replicas', true), 2: msg('selector', labelSelector),
    3: msg('template', { fields: { 1: metadata, 2: msg('spec', podSpec) } }),
    4: msg('strategy', { fields: { 1: str('type') } }), 5: int('minReadySeconds'), 6: int('revisionHistoryLimit', true),
    9: int('progressDeadlineSeconds', true),
  },
};

/** Messages by `apiVersion/kind`. */
export const PROTOBUF_KINDS: ReadonlyMap<string, ProtoMessage> = new Map<string, ProtoMessage>([
  ['v1/Namespace', { fields: { 1: metadata, 2: msg('spec', { fields: { 1: strs('finalizers') } }) } }],
  ['v1/ConfigMap', { fields: { 1: metadata, 2: stringMap('data'), 3: { name: 'binaryData', type: { map: 'bytes' } },
    4: bool('immutable') } }],
  ['v1/Secret', { fields: { 1: metadata, 2: { name: 'data', type: { map: 'bytes' } }, 3: str('type'),
    4: stringMap('stringData'), 5: bool('immutable') } }],
  ['v1/ServiceAccount', {
    fields: {
      1: metadata,
      2: msg('secrets', { fields: { 1: str('kind'), 2: str('namespace'), 3: str('name'), 4: str('uid'),
        5: str('apiVersion') } }, true),
      3: msg('imagePullSecrets', { fields: { 1: str('name') } }, true),
      4: bool('automountServiceAccountToken'),
    },
  }],
  ['v1/Pod', { fields: { 1: metadata, 2: msg('spec', podSpec) } }],
  ['apps/v1/Deployment', { fields: { 1: metadata, 2: msg('spec', deploymentSpec) } }],
  ['rbac.authorization.k8s.io/v1/Role', { fields: { 1: metadata, 2: msg('rules', policyRule, true) } }],
  ['rbac.authorization.k8s.io/v1/ClusterRole', { fields: { 1: metadata, 2: msg('rules', policyRule, true) } }],
  ['rbac.authorization.k8s.io/v1/RoleBinding', binding],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', binding],
  ['authorization.k8s.io/v1/SelfSubjectAccessReview', {
    fields: {
      1: metadata,
      2: msg('spec', { fields: { 1: msg('resourceAttributes', resourceAttributes),
        2: msg('nonResourceAttributes', { fields: { 1: str('path'), 2: str('verb') } }) } }),
    },
  }],
  ['authorization.k8s.io/v1/SelfSubjectRulesReview',
    { fields: { 1: metadata, 2: msg('spec', { fields: { 1: str('namespace') } }) } }],
  ['authentication.k8s.io/v1/SelfSubjectReview', { fields: { 1: metadata } }],
]);

/**
 * Decode a protobuf request body into the JSON object it stands for, or return the
 * `apiVersion/kind` it names when the sandbox has no message for that kind.
 */
export function decodeKubeProtobuf(body: Uint8Array): { object: JsonObject } | { unsupported: string } {
  const envelope = openEnvelope(body);
  if (!envelope.kind || !envelope.apiVersion) throw new ProtobufError('the envelope names no apiVersion and kind');
  const key = `${envelope.apiVersion}/${envelope.kind}`;
  const schema = PROTOBUF_KINDS.get(key);
  if (!schema) return { unsupported: key };
  const object = decodeMessage(envelope.raw, schema);
  return { object: { apiVersion: envelope.apiVersion, kind: envelope.kind, ...object } };
}
