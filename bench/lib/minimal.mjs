// The floor of the side-by-side bench, run as its own process: the least a program can do
// to answer our four read operations. It makes the same API requests agent-manager makes
// without its cache (node:https, one keep-alive agent), parses them, merges what the answer
// needs and serializes it as we do (2-space JSON); /info answers fixed bytes, and
// /mem/agents serializes an answer held in memory (the floor of a cached list).
//
//   node bench/lib/minimal.mjs <port> <api-url> <ca-file> <token> <info-file> <list-file>
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';

const [port, api, caFile, token, infoFile, listFile] = process.argv.slice(2);
const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(caFile) });
const info = readFileSync(infoFile);
const remembered = JSON.parse(readFileSync(listFile, 'utf8'));
const base = new URL(api);

function get(path) {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: base.hostname, port: base.port, path, agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve(res.statusCode === 404 ? undefined : JSON.parse(body));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const agents = (ns) => `/apis/kagent.dev/v1alpha2/namespaces/${ns}/agents`;
const releases = (ns) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`;
const sources = (ns) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/ocirepositories`;

function merge(cr, release) {
  const spec = cr?.spec ?? {};
  return {
    name: cr?.metadata.name ?? release.metadata.name,
    namespace: cr?.metadata.namespace ?? release.metadata.namespace,
    exists: Boolean(cr),
    description: spec.description,
    modelConfig: spec.declarative?.modelConfig,
    conditions: cr?.status?.conditions,
    helmRelease: release && {
      name: release.metadata.name, namespace: release.metadata.namespace, conditions: release.status?.conditions,
    },
    values: release?.spec?.values,
  };
}

// The row of a summary list: the same reads, fewer fields.
function summary(agent) {
  const ready = agent.conditions?.find((c) => c.type === 'Ready');
  return {
    name: agent.name, namespace: agent.namespace, exists: agent.exists, description: agent.description,
    modelConfig: agent.modelConfig, ready: ready ? ready.status === 'True' : null, managed: agent.helmRelease ? 'helmrelease' : 'none',
  };
}

const send = (res, value) => {
  const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
};

async function answer(req, res) {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.pathname === '/api/v1/info') return res.writeHead(200, { 'content-type': 'application/json', 'content-length': info.length }).end(info);
  if (url.pathname === '/mem/agents') return send(res, remembered);
  if (url.pathname === '/api/v1/agents') {
    const ns = url.searchParams.get('namespace') ?? 'kagent';
    const [crs, rels] = await Promise.all([get(agents(ns)), get(releases(ns)), get(sources(ns))]);
    const byName = new Map(rels.items.map((r) => [r.metadata.name, r]));
    const merged = crs.items.map((cr) => merge(cr, byName.get(cr.metadata.name)));
    if (url.searchParams.get('details') === 'false') return send(res, { agents: merged.map(summary) });
    return send(res, { agents: merged });
  }
  const [, , , ns, name, sub] = parts;
  if (sub === 'status') {
    const [cr, release, deployment, pods, events] = await Promise.all([
      get(`${agents(ns)}/${name}`), get(`${releases(ns)}/${name}`), get(`/apis/apps/v1/namespaces/${ns}/deployments/${name}`),
      get(`/api/v1/namespaces/${ns}/pods?labelSelector=kagent%3D${name}`), get(`/api/v1/namespaces/${ns}/events?fieldSelector=type%3DWarning`),
    ]);
    return send(res, {
      name, namespace: ns, agent: cr?.status?.conditions, helmRelease: release?.status?.conditions,
      deployment: deployment?.status, pods: pods.items.map((p) => ({ name: p.metadata.name, phase: p.status?.phase })),
      events: events.items.filter((e) => e.involvedObject?.name?.startsWith(name)).map((e) => e.message),
    });
  }
  const [cr, release] = await Promise.all([get(`${agents(ns)}/${name}`), get(`${releases(ns)}/${name}`)]);
  return send(res, merge(cr, release));
}

http.createServer((req, res) => {
  answer(req, res).catch((err) => res.writeHead(500).end(String(err)));
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
