/**
 * Our structural schemas of the two Flux kinds agent-manager writes:
 * `helm.toolkit.fluxcd.io/v2` HelmRelease (helm-controller v1.6) and
 * `source.toolkit.fluxcd.io/v1` OCIRepository (source-controller v1.9). Written by hand
 * for the fields agent-manager, the chart and the simulated controllers use, with the
 * real CRDs' types, required fields, enums, patterns and defaults; detail we do not model
 * is marked summarised. `spec.values` preserves unknown fields, as in the real CRD.
 */
import { objectSchema } from '../builtin-schemas.js';
import {
  anyValue, bool, condition, duration, int, list, localRef, mapOf, obj, oneOf, str, stringMap, summarised,
  type SchemaNode,
} from '../schema.js';

const remediation = (withStrategy: boolean): SchemaNode => obj({
  ignoreTestFailures: bool(), remediateLastFailure: bool(), retries: int(),
  ...(withStrategy ? { strategy: oneOf(['rollback', 'uninstall']) } : {}),
});

const actionStrategy = (): SchemaNode =>
  obj({ name: oneOf(['RemediateOnFailure', 'RetryOnFailure']), retryInterval: duration() }, { required: ['name'] });

const helmActionFlags = {
  disableHooks: bool(), disableOpenAPIValidation: bool(), disableSchemaValidation: bool(), disableTakeOwnership: bool(),
  disableWait: bool(), disableWaitForJobs: bool(), timeout: duration(),
};

const historyEntry = obj({
  action: str(), apiVersion: str(), appVersion: str(), chartName: str(), chartVersion: str(), configDigest: str(),
  deleted: str({ format: 'date-time' }), digest: str(), firstDeployed: str({ format: 'date-time' }),
  lastDeployed: str({ format: 'date-time' }), name: str(), namespace: str(), ociDigest: str(), status: str(),
  testHooks: mapOf(obj({ lastCompleted: str({ format: 'date-time' }), lastStarted: str({ format: 'date-time' }),
    phase: str() })),
  version: int(),
}, { required: ['chartName', 'chartVersion', 'configDigest', 'digest', 'firstDeployed', 'lastDeployed', 'name',
  'namespace', 'status', 'version'] });

export const helmReleaseSchema: SchemaNode = objectSchema({
  spec: obj({
    chart: obj({
      metadata: obj({ annotations: stringMap(), labels: stringMap() }),
      spec: obj({
        chart: str({ minLength: 1, maxLength: 2048 }),
        ignoreMissingValuesFiles: bool(),
        interval: duration(),
        reconcileStrategy: oneOf(['ChartVersion', 'Revision'], { default: 'ChartVersion' }),
        sourceRef: obj({
          apiVersion: str(), kind: oneOf(['HelmRepository', 'GitRepository', 'Bucket']),
          name: str({ minLength: 1, maxLength: 253 }), namespace: str({ minLength: 1, maxLength: 63 }),
        }, { required: ['kind', 'name'] }),
        valuesFiles: list(str()),
        verify: summarised(),
        version: str({ default: '*' }),
      }, { required: ['chart', 'sourceRef'] }),
    }, { required: ['spec'] }),
    chartRef: obj({
      apiVersion: str(), kind: oneOf(['OCIRepository', 'HelmChart', 'ExternalArtifact']),
      name: str({ minLength: 1, maxLength: 253 }), namespace: str({ minLength: 1, maxLength: 63 }),
    }, { required: ['kind', 'name'] }),
    commonMetadata: obj({ annotations: stringMap(), labels: stringMap() }),
    dependsOn: list(obj({ name: str(), namespace: str(), readyExpr: str() }, { required: ['name'] })),
    driftDetection: obj({ ignore: summarised('array'), mode: oneOf(['enabled', 'warn', 'disabled']) }),
    healthCheckExprs: summarised('array'),
    install: obj({
      ...helmActionFlags, crds: oneOf(['Skip', 'Create', 'CreateReplace']), createNamespace: bool(),
      remediation: remediation(false), replace: bool(), serverSideApply: bool(), skipCRDs: bool(),
      strategy: actionStrategy(),
    }),
    interval: duration(),
    kubeConfig: summarised(),
    maxHistory: int(),
    persistentClient: bool(),
    postRenderStrategy: oneOf(['nohooks', 'combined', 'separate']),
    postRenderers: summarised('array'),
    releaseName: str({ minLength: 1, maxLength: 53 }),
    rollback: obj({
      cleanupOnFail: bool(), disableHooks: bool(), disableWait: bool(), disableWaitForJobs: bool(), force: bool(),
      recreate: bool(), serverSideApply: oneOf(['enabled', 'disabled', 'auto']), timeout: duration(),
    }),
    serviceAccountName: str({ minLength: 1, maxLength: 253 }),
    storageNamespace: str({ minLength: 1, maxLength: 63 }),
    suspend: bool(),
    targetNamespace: str({ minLength: 1, maxLength: 63 }),
    test: obj({ enable: bool(), filters: summarised('array'), ignoreFailures: bool(), timeout: duration() }),
    timeout: duration(),
    uninstall: obj({
      deletionPropagation: oneOf(['background', 'foreground', 'orphan'], { default: 'background' }),
      disableHooks: bool(), disableWait: bool(), keepHistory: bool(), timeout: duration(),
    }),
    upgrade: obj({
      ...helmActionFlags, chartNameChangeStrategy: oneOf(['InPlaceUpdate', 'Reinstall']), cleanupOnFail: bool(),
      crds: oneOf(['Skip', 'Create', 'CreateReplace']), force: bool(), preserveValues: bool(),
      remediation: remediation(true), serverSideApply: oneOf(['enabled', 'disabled', 'auto']),
      strategy: actionStrategy(),
    }),
    values: anyValue(),
    valuesFrom: list(obj({
      kind: oneOf(['Secret', 'ConfigMap']), literal: bool(), name: str({ minLength: 1, maxLength: 253 }),
      optional: bool(),
      targetPath: str({ maxLength: 250, pattern: '^([a-zA-Z0-9_\\-.\\\\\\/]|\\[[0-9]{1,5}\\])+$' }),
      valuesKey: str({ maxLength: 253, pattern: '^[\\-._a-zA-Z0-9]+$' }),
    }, { required: ['kind', 'name'] })),
    waitStrategy: obj({ name: oneOf(['poller', 'legacy']) }, { required: ['name'] }),
  }, { required: ['interval'] }),
  status: obj({
    conditions: list(condition()),
    failures: int({ format: 'int64' }), helmChart: str(), history: list(historyEntry),
    installFailures: int({ format: 'int64' }),
    inventory: obj({ entries: list(obj({ id: str(), v: str() }, { required: ['id', 'v'] })) },
      { required: ['entries'] }),
    lastAttemptedConfigDigest: str(), lastAttemptedGeneration: int({ format: 'int64' }),
    lastAttemptedReleaseAction: oneOf(['install', 'upgrade']), lastAttemptedReleaseActionDuration: str(),
    lastAttemptedRevision: str(), lastAttemptedRevisionDigest: str(), lastAttemptedValuesChecksum: str(),
    lastHandledForceAt: str(), lastHandledReconcileAt: str(), lastHandledResetAt: str(), lastReleaseRevision: int(),
    observedCommonMetadataDigest: str(), observedGeneration: int({ format: 'int64' }),
    observedPostRenderersDigest: str(),
    storageNamespace: str({ minLength: 1, maxLength: 63 }), upgradeFailures: int({ format: 'int64' }),
  }, { default: { observedGeneration: -1 } }),
});

export const ociRepositorySchema: SchemaNode = objectSchema({
  spec: obj({
    certSecretRef: localRef(),
    ignore: str(),
    insecure: bool(),
    interval: duration(),
    layerSelector: obj({ mediaType: str(), operation: oneOf(['extract', 'copy']) }),
    provider: oneOf(['generic', 'aws', 'azure', 'gcp'], { default: 'generic' }),
    proxySecretRef: localRef(),
    ref: obj({ digest: str(), semver: str(), semverFilter: str(), tag: str() }),
    secretRef: localRef(),
    serviceAccountName: str(),
    suspend: bool(),
    timeout: str({ default: '60s', pattern: '^([0-9]+(\\.[0-9]+)?(ms|s|m))+$' }),
    url: str({ pattern: '^oci://.*$' }),
    verify: summarised(),
  }, { required: ['interval', 'url'] }),
  status: obj({
    artifact: obj({
      digest: str({ pattern: '^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$' }),
      lastUpdateTime: str({ format: 'date-time' }), metadata: stringMap(), path: str(), revision: str(),
      size: int({ format: 'int64' }), url: str(),
    }, { required: ['digest', 'lastUpdateTime', 'path', 'revision', 'url'] }),
    conditions: list(condition()),
    lastHandledReconcileAt: str(),
    observedGeneration: int({ format: 'int64' }),
    observedIgnore: str(),
    observedLayerSelector: obj({ mediaType: str(), operation: oneOf(['extract', 'copy']) }),
    url: str(),
  }, { default: { observedGeneration: -1 } }),
});
