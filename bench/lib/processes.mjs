// Processes of the side-by-side bench: the standalone sandbox, `serve --kubeconfig`
// against it (with and without the read cache), the minimal program; their CPU time and
// RSS read from /proc; a keep-alive HTTP client; seeding agents through the API.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'dist', 'main.js');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Start `node <args>` and resolve once a stdout line matches `ready`. */
export function start(args, ready, what) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], cwd: root });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    });
  });
}

export async function startSandbox(kubeconfigPath) {
  const port = await freePort();
  const { child } = await start([main, 'sandbox', `--listen=127.0.0.1:${port}`, `--kubeconfig-out=${kubeconfigPath}`, '--no-controllers'],
    /Sandbox Kubernetes API server: (\S+)/, 'the sandbox');
  const kc = parse(readFileSync(kubeconfigPath, 'utf8'));
  const ca = Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8');
  return { child, url: `https://127.0.0.1:${port}`, ca, token: kc.users[0].user.token };
}

/**
 * `serve --kubeconfig` as production runs it: info logging and the metrics listener on. `entry`: another
 * build's main.js (bench/cpu.mjs compares two), by default this one's.
 */
export async function startServe(kubeconfigPath, {
  readCache, namespaces, defaultNamespace, nodeArgs = [], entry = main,
}) {
  const port = await freePort();
  const metricsPort = await freePort();
  const args = [...nodeArgs, entry, 'serve', `--kubeconfig=${kubeconfigPath}`, `--listen=127.0.0.1:${port}`, `--metrics-listen=127.0.0.1:${metricsPort}`,
    `--managed-namespaces=${namespaces.join(',')}`, `--read-cache=${readCache}`, '--shutdown-delay=0s',
    ...(defaultNamespace ? [`--kagent-namespace=${defaultNamespace}`] : []),
    '--agent-chart-oci-url=oci://127.0.0.1:9/charts/agent',
    // Extra flags for a diagnostic run (e.g. BENCH_SERVE_ARGS=--log-level=warn), split on spaces.
    ...(process.env.BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'], cwd: root });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const r = await request(url, '/readyz');
      if (r.status === 200) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('serve did not become ready');
}

export async function startMinimal(sandbox, caFile, infoFile, listFile) {
  const port = await freePort();
  const { child } = await start([join(root, 'bench', 'lib', 'minimal.mjs'), String(port), sandbox.url, caFile, sandbox.token, infoFile, listFile],
    /ready/, 'the minimal program');
  return { child, url: `http://127.0.0.1:${port}` };
}

/** user+system CPU of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMiB(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return kb / 1024;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on a keep-alive connection; resolves with status, body and elapsed ms. */
export function request(base, path) {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), ms: Number(process.hrtime.bigint() - started) / 1e6,
      }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A call to the sandbox API as the administrator. */
export function api(sandbox, method, path, body) {
  const url = new URL(path, sandbox.url);
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method, ca: sandbox.ca,
      agent: apiAgent, headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json', ...(data ? { 'content-length': data.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`));
        else resolve(text ? JSON.parse(text) : undefined);
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}
const apiAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const cond = (type, reason) => ({ type, status: 'True', reason, message: '', lastTransitionTime: now() });

/** One agent as the cluster has it after Flux and kagent reconciled: a Ready release and its Ready Agent. */
async function seedOne(sandbox, ns, name) {
  const rel = await api(sandbox, 'POST', `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`, {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: {
      interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: ns },
      values: {
        agent: { name, displayName: `Agent ${name}`, description: 'A benchmark agent that answers questions about the platform.', systemMessage: 'You are helpful.' },
        modelConfig: { name: 'default-model-config' }, muster: { toolset: ['preset:read-only'] },
      },
    },
  });
  rel.status = { conditions: [cond('Ready', 'InstallSucceeded')], lastAttemptedRevision: '0.6.0', history: [{
    name, namespace: ns, version: 1, status: 'deployed', chartName: 'agent', chartVersion: '0.6.0', appVersion: '0.1.0',
    configDigest: 'sha256:'.padEnd(71, '0'), digest: 'sha256:'.padEnd(71, '1'), firstDeployed: now(), lastDeployed: now(),
  }] };
  await api(sandbox, 'PUT', `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}/status`, rel);
  const cr = await api(sandbox, 'POST', `/apis/kagent.dev/v1alpha2/namespaces/${ns}/agents`, {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: { name, namespace: ns, labels: { 'helm.toolkit.fluxcd.io/name': name, 'helm.toolkit.fluxcd.io/namespace': ns }, annotations: { 'ui.giantswarm.io/display-name': `Agent ${name}` } },
    spec: {
      type: 'Declarative', description: 'A benchmark agent that answers questions about the platform.',
      declarative: {
        modelConfig: 'default-model-config', runtime: 'go', systemMessage: 'You are helpful.',
        tools: [{ type: 'McpServer', mcpServer: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', toolNames: ['x_a_b'] }, headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only' }] }],
      },
    },
  });
  cr.status = { observedGeneration: 1, conditions: [cond('Accepted', 'Reconciled'), cond('Ready', 'DeploymentReady')] };
  await api(sandbox, 'PUT', `/apis/kagent.dev/v1alpha2/namespaces/${ns}/agents/${name}/status`, cr);
}

export async function seedAgents(sandbox, ns, count, prefix) {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
  for (let i = 0; i < names.length; i += 16) {
    await Promise.all(names.slice(i, i + 16).map((n) => seedOne(sandbox, ns, n)));
  }
  return names;
}

/** The Deployment, a pod and a Warning event of one agent (what its status reads). */
export async function seedWorkload(sandbox, ns, name) {
  const labels = { app: 'kagent', kagent: name };
  const dep = await api(sandbox, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'kagent', image: 'kagent:bench' }] } } },
  });
  dep.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1, observedGeneration: 1 };
  await api(sandbox, 'PUT', `/apis/apps/v1/namespaces/${ns}/deployments/${name}/status`, dep);
  await api(sandbox, 'POST', `/api/v1/namespaces/${ns}/pods`, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-0`, namespace: ns, labels }, spec: { containers: [{ name: 'kagent', image: 'kagent:bench' }] },
  });
  await api(sandbox, 'POST', `/api/v1/namespaces/${ns}/events`, {
    apiVersion: 'v1', kind: 'Event', metadata: { name: `${name}-0.backoff`, namespace: ns },
    involvedObject: { kind: 'Pod', name: `${name}-0`, namespace: ns }, type: 'Warning', reason: 'BackOff', message: 'Back-off pulling image', count: 1,
  });
}
