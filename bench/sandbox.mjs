// Throughput and latency of the sandbox Kubernetes API server itself, on loopback HTTPS,
// so benchmarks of agent-manager can subtract what the sandbox costs. Starts a sandbox,
// fills a namespace with 2,000 HelmReleases and 20 ConfigMaps, then drives each case with
// autocannon for a fixed time and prints requests/s and p50/p99 latency. Ends by itself.
//
// Run after a build:  npm run build && node bench/sandbox.mjs [--json] [--seconds N] [--connections N]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'packages', 'kube-sandbox', 'dist', 'index.js');
if (!existsSync(entry)) {
  console.error(`bench/sandbox.mjs: ${entry} is missing; build first with: npm run build`);
  process.exit(1);
}
const { startSandbox } = await import('@agent-manager/kube-sandbox');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? Number(args[at + 1]) : fallback;
};
const seconds = option('seconds', 5);
const connections = option('connections', 10);
const asJson = args.includes('--json');
// autocannon's client work (TLS, parsing) runs in worker threads so it does not share the sandbox's event loop.
const workers = option('workers', 2);

const RELEASES = 2000;
const sandbox = await startSandbox({ seed: true });
const store = sandbox.store;
store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
for (let i = 0; i < RELEASES; i++) {
  store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name: `agent-${String(i).padStart(4, '0')}`, namespace: 'bench', labels: { 'app.kubernetes.io/managed-by': 'agent-manager', shard: String(i % 100) } },
    spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'bench' }, values: { agent: { name: `agent-${i}`, description: 'bench' } } },
  });
}
for (let i = 0; i < 20; i++) {
  store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'bench' }, data: { key: 'value' } });
}

const HR = '/apis/helm.toolkit.fluxcd.io/v2/namespaces/bench/helmreleases';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const cases = [
  { name: 'get configmap', path: '/api/v1/namespaces/bench/configmaps/cm-7' },
  { name: 'get helmrelease', path: `${HR}/agent-1234` },
  { name: 'list 20 configmaps', path: '/api/v1/namespaces/bench/configmaps' },
  { name: 'list 2000 helmreleases', path: HR },
  { name: 'list 2000 helmreleases, limit 50', path: `${HR}?limit=50` },
  { name: 'list helmreleases by label (20 of 2000)', path: `${HR}?labelSelector=shard%3D7` },
  { name: 'list 2000 helmreleases as Table', path: HR, accept: TABLE },
];

function run(c) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `${sandbox.url}${c.path}`,
      connections, duration: seconds, workers,
      headers: { authorization: `Bearer ${sandbox.adminToken}`, accept: c.accept ?? 'application/json' },
      tlsOptions: { ca: sandbox.caPem },
    }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

const results = [];
try {
  for (const c of cases) {
    sandbox.counters.reset();
    const r = await run(c);
    results.push({
      case: c.name, requestsPerSecond: Math.round(r.requests.average), p50ms: r.latency.p50, p99ms: r.latency.p99,
      requests: r.requests.total, non2xx: r.non2xx, errors: r.errors, served: sandbox.counters.snapshot().total,
    });
    if (!asJson) console.error(`done: ${c.name}`);
  }
} finally {
  await sandbox.close();
}

if (asJson) {
  console.log(JSON.stringify({ seconds, connections, objects: RELEASES, results }, null, 2));
} else {
  console.log(`sandbox API server on loopback HTTPS: ${connections} connections, ${seconds}s per case, ${RELEASES} HelmReleases`);
  console.table(results.map((r) => ({ case: r.case, 'req/s': r.requestsPerSecond, 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, 'non-2xx': r.non2xx, errors: r.errors })));
}
process.exit(results.some((r) => r.non2xx > 0 || r.errors > 0) ? 1 : 0);
