/**
 * Structural schemas of the two Flux kinds that make an agent GitOps-owned: Kustomization
 * (kustomize.toolkit.fluxcd.io/v1) and GitRepository (source.toolkit.fluxcd.io/v1). The fields
 * agent-manager reads to find where a release lives in git are modelled with the real CRDs' types,
 * required fields, enums, patterns and defaults; subtrees nobody reads are kept as given.
 */
import { objectSchema } from '../builtin-schemas.js';
import {
  bool, condition, duration, int, list, localRef, obj, oneOf, str, stringMap, summarised, type SchemaNode,
} from '../schema.js';

const artifact = (): SchemaNode => obj({
  digest: str({ pattern: '^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$' }),
  lastUpdateTime: str({ format: 'date-time' }), metadata: stringMap(), path: str(), revision: str(),
  size: int({ format: 'int64' }), url: str(),
}, { required: ['digest', 'lastUpdateTime', 'path', 'revision', 'url'] });

const include = (): SchemaNode => obj({ fromPath: str(), repository: localRef(), toPath: str() },
  { required: ['repository'] });

export const kustomizationSchema: SchemaNode = objectSchema({
  spec: obj({
    buildMetadata: list(oneOf(['originAnnotations', 'transformerAnnotations'])),
    commonMetadata: obj({ annotations: stringMap(), labels: stringMap() }),
    components: list(str()),
    decryption: summarised(),
    deletionPolicy: oneOf(['MirrorPrune', 'Delete', 'WaitForTermination', 'Orphan']),
    dependsOn: list(obj({ name: str(), namespace: str(), readyExpr: str() }, { required: ['name'] })),
    force: bool({ default: false }),
    healthCheckExprs: summarised('array'),
    healthChecks: summarised('array'),
    ignore: summarised('array'),
    ignoreMissingComponents: bool(),
    images: summarised('array'),
    interval: duration(),
    kubeConfig: summarised(),
    namePrefix: str({ minLength: 1, maxLength: 200 }),
    nameSuffix: str({ minLength: 1, maxLength: 200 }),
    patches: summarised('array'),
    path: str(),
    postBuild: summarised(),
    prune: bool(),
    retryInterval: duration(),
    serviceAccountName: str(),
    sourceRef: obj({
      apiVersion: str(), kind: oneOf(['OCIRepository', 'GitRepository', 'Bucket', 'ExternalArtifact']), name: str(),
      namespace: str(),
    }, { required: ['kind', 'name'] }),
    suspend: bool(),
    targetNamespace: str({ minLength: 1, maxLength: 63 }),
    timeout: duration(),
    wait: bool(),
  }, { required: ['interval', 'prune', 'sourceRef'] }),
  status: obj({
    conditions: list(condition()),
    history: summarised('array'),
    inventory: obj({ entries: list(obj({ id: str(), v: str() }, { required: ['id', 'v'] })) },
      { required: ['entries'] }),
    lastAppliedOriginRevision: str(), lastAppliedRevision: str(), lastAttemptedRevision: str(),
    lastHandledReconcileAt: str(),
    observedGeneration: int({ format: 'int64' }),
  }, { default: { observedGeneration: -1 } }),
});

export const gitRepositorySchema: SchemaNode = objectSchema({
  spec: obj({
    ignore: str(),
    include: list(include()),
    interval: duration(),
    provider: oneOf(['generic', 'aws', 'azure', 'github']),
    proxySecretRef: localRef(),
    recurseSubmodules: bool(),
    ref: obj({ branch: str(), commit: str(), name: str(), semver: str(), tag: str() }),
    secretRef: localRef(),
    serviceAccountName: str(),
    sparseCheckout: list(str()),
    suspend: bool(),
    timeout: str({ default: '60s', pattern: '^([0-9]+(\\.[0-9]+)?(ms|s|m))+$' }),
    url: str({ pattern: '^(http|https|ssh)://.*$' }),
    verify: obj({ mode: oneOf(['head', 'HEAD', 'Tag', 'TagAndHEAD'], { default: 'HEAD' }), secretRef: localRef() },
      { required: ['secretRef'] }),
  }, { required: ['interval', 'url'] }),
  status: obj({
    artifact: artifact(),
    conditions: list(condition()),
    includedArtifacts: list(artifact()),
    lastHandledReconcileAt: str(),
    observedGeneration: int({ format: 'int64' }),
    observedIgnore: str(),
    observedInclude: list(include()),
    observedRecurseSubmodules: bool(),
    observedSparseCheckout: list(str()),
    sourceVerificationMode: str(),
  }, { default: { observedGeneration: -1 } }),
});
