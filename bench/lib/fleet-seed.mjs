// A fleet of agents as a cluster holds them after Flux, kagent and the kubelet reconciled each: the
// HelmRelease (Flux's status with a Helm history), the kagent Agent, the Deployment kagent runs
// (its template as kagent renders it), its Running pod and the ControllerRevision agent-manager
// recorded at the create. Written straight to the sandbox API (controllers off), for
// bench/memory.mjs: what the read cache holds per agent.
import { api } from './processes.mjs';

const at = '2026-01-05T10:00:00Z';
const cond = (type, reason, message = '') => ({ type, status: 'True', reason, message, lastTransitionTime: at });
const digest = (c) => `sha256:${c.repeat(64)}`;

const values = (name) => ({
  agent: {
    name, displayName: `Agent ${name}`, runtime: 'go',
    description: 'A benchmark agent that answers questions about the platform and its clusters.',
    systemMessage: 'You are a helpful platform assistant. Answer briefly, cite the runbook you used, and ask before ' +
      'changing anything.',
  },
  modelConfig: { name: 'default-model-config' }, muster: { toolset: ['preset:read-only'] },
});

function release(ns, name) {
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' },
      finalizers: ['finalizers.fluxcd.io'] },
    spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: ns }, values: values(name) },
  };
}

const history = (ns, name, version, status) => ({
  name, namespace: ns, version, status, chartName: 'agent', chartVersion: '0.6.0', appVersion: '0.1.0',
  configDigest: digest(String(version)), digest: digest('a'), firstDeployed: at, lastDeployed: at,
  ociDigest: digest('b'),
});

const releaseStatus = (ns, name) => ({
  observedGeneration: 1, lastAttemptedGeneration: 1, lastAttemptedRevision: '0.6.0',
  lastAttemptedRevisionDigest: digest('b'), lastAttemptedConfigDigest: digest('1'), lastAttemptedReleaseAction: 'install',
  storageNamespace: ns, helmChart: `${ns}/${ns}-${name}`,
  conditions: [cond('Ready', 'InstallSucceeded', 'Helm install succeeded for release kagent/agent.v1 with chart agent@0.6.0'),
    cond('Released', 'InstallSucceeded', 'Helm install succeeded for release kagent/agent.v1 with chart agent@0.6.0')],
  history: [history(ns, name, 1, 'deployed')],
});

function agentCr(ns, name) {
  const v = values(name).agent;
  return {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: { name, namespace: ns,
      labels: { 'helm.toolkit.fluxcd.io/name': name, 'helm.toolkit.fluxcd.io/namespace': ns, 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'ui.giantswarm.io/display-name': v.displayName, 'meta.helm.sh/release-name': name, 'meta.helm.sh/release-namespace': ns } },
    spec: {
      type: 'Declarative', description: v.description,
      declarative: {
        modelConfig: 'default-model-config', runtime: 'go', systemMessage: v.systemMessage,
        tools: [{ type: 'McpServer', mcpServer: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform',
          toolNames: ['x_kubernetes_get', 'x_kubernetes_list', 'x_flux_get'] },
        headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only' }] }],
      },
    },
  };
}

const labels = (name) => ({ app: 'kagent', kagent: name });

function podSpec(ns, name) {
  return {
    serviceAccountName: name, restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst',
    schedulerName: 'default-scheduler', securityContext: {},
    containers: [{
      name: 'kagent', image: 'cr.kagent.dev/kagent-dev/kagent/golang-adk:v0.10.0', imagePullPolicy: 'IfNotPresent',
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      env: [{ name: 'KAGENT_NAME', value: name }, { name: 'KAGENT_NAMESPACE', value: ns },
        { name: 'KAGENT_URL', value: 'http://kagent-controller.kagent:8083' }],
      readinessProbe: { httpGet: { path: '/.well-known/agent-card.json', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 15,
        timeoutSeconds: 15, periodSeconds: 15, successThreshold: 1, failureThreshold: 3 },
      resources: { requests: { cpu: '100m', memory: '384Mi' }, limits: { cpu: '1', memory: '1Gi' } },
      volumeMounts: [{ name: 'config', mountPath: '/config' }, { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
    }],
    volumes: [{ name: 'config', secret: { secretName: name, defaultMode: 420 } }],
  };
}

function deployment(ns, name) {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { ...labels(name), 'app.kubernetes.io/managed-by': 'kagent', 'app.kubernetes.io/name': name,
      'app.kubernetes.io/part-of': 'kagent' }, annotations: { 'deployment.kubernetes.io/revision': '1' } },
    spec: {
      replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, selector: { matchLabels: labels(name) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      template: { metadata: { labels: labels(name), annotations: { 'kagent.dev/config-hash': '0123456789abcdef' } }, spec: podSpec(ns, name) },
    },
  };
}

const deploymentStatus = {
  observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1,
  conditions: [{ ...cond('Available', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'), lastUpdateTime: at },
    { ...cond('Progressing', 'NewReplicaSetAvailable', 'ReplicaSet has successfully progressed.'), lastUpdateTime: at }],
};

function pod(ns, name) {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `${name}-7d9c5b8f4-x2k9q`, namespace: ns, generateName: `${name}-7d9c5b8f4-`,
      labels: { ...labels(name), 'pod-template-hash': '7d9c5b8f4' },
      annotations: { 'kagent.dev/config-hash': '0123456789abcdef' } },
    spec: { ...podSpec(ns, name), nodeName: 'worker-1', tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] },
  };
}

const podStatus = {
  phase: 'Running', qosClass: 'Burstable', hostIP: '10.0.1.17', podIP: '10.244.3.41', startTime: at,
  hostIPs: [{ ip: '10.0.1.17' }], podIPs: [{ ip: '10.244.3.41' }],
  conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']
    .map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at })),
  containerStatuses: [{ name: 'kagent', ready: true, started: true, restartCount: 0, image: 'cr.kagent.dev/kagent-dev/kagent/golang-adk:v0.10.0',
    imageID: `cr.kagent.dev/kagent-dev/kagent/golang-adk@${digest('c')}`, containerID: `containerd://${'d'.repeat(64)}`,
    state: { running: { startedAt: at } }, lastState: {} }],
};

function revision(ns, name, uid) {
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: { name: `${name}-1`, namespace: ns,
      labels: { 'agent-manager.giantswarm.io/agent': name, 'app.kubernetes.io/managed-by': 'agent-manager' },
      annotations: { 'kubernetes.io/change-cause': 'create by bench@example.com' },
      ownerReferences: [{ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name, uid }] },
    revision: 1,
    data: { operation: 'create', requestedBy: 'bench@example.com', changed: [], spec: { fromValues: true }, values: values(name) },
  };
}

async function seedOne(sandbox, ns, name) {
  const rel = await api(sandbox, 'POST', `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`, release(ns, name));
  await api(sandbox, 'PUT', `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}/status`,
    { ...rel, status: releaseStatus(ns, name) });
  const cr = await api(sandbox, 'POST', `/apis/kagent.dev/v1alpha2/namespaces/${ns}/agents`, agentCr(ns, name));
  await api(sandbox, 'PUT', `/apis/kagent.dev/v1alpha2/namespaces/${ns}/agents/${name}/status`, { ...cr, status: {
    observedGeneration: 1, conditions: [cond('Accepted', 'AgentReconciled', 'Agent reconciled'), cond('Ready', 'DeploymentReady', 'Deployment is ready')] } });
  const dep = await api(sandbox, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, name));
  await api(sandbox, 'PUT', `/apis/apps/v1/namespaces/${ns}/deployments/${name}/status`, { ...dep, status: deploymentStatus });
  const p = await api(sandbox, 'POST', `/api/v1/namespaces/${ns}/pods`, pod(ns, name));
  await api(sandbox, 'PUT', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}/status`, { ...p, status: podStatus });
  await api(sandbox, 'POST', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, revision(ns, name, rel.metadata.uid));
}

/** Agents `<prefix>-<from>` … `<prefix>-<to - 1>` (five digits) in `ns`, sixteen at a time. */
export async function seedFleet(sandbox, ns, from, to, prefix = 'a') {
  const names = [];
  for (let i = from; i < to; i++) names.push(`${prefix}-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < names.length; i += 16) {
    await Promise.all(names.slice(i, i + 16).map((n) => seedOne(sandbox, ns, n)));
  }
}
