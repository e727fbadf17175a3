// The operations bench/run.mjs measures, each with the sandbox request that stands for
// its API cost (the request the operation makes most, as the ServiceAccount), or none
// when the operation makes no API request at all.
import { fileURLToPath } from 'node:url';
import { LIST_SIZES, STATUS_AGENT, WRITES_NAMESPACE } from './setup.mjs';

const HR = (ns) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`;
const SPEC = JSON.stringify({ name: 'bench-validate', modelConfig: 'default-model-config', toolset: ['preset:read-only'], description: 'validated by the bench' });
const MCP_GET = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_agent', arguments: { name: STATUS_AGENT } } });
const DRY_RUN_RELEASE = JSON.stringify({
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: { name: 'bench-dry-run', namespace: WRITES_NAMESPACE },
  spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: WRITES_NAMESPACE }, values: { agent: { name: 'bench-dry-run' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] } },
});

/** The cases, in table order. `create` writes: the bench empties its namespace after each run. */
export function benchCases() {
  const lists = LIST_SIZES.map((n) => ({
    id: `list-${n}`, label: `GET /api/v1/agents (${n.toLocaleString('en')} agents)`, path: `/api/v1/agents?namespace=bench-${n}`, status: 200,
    sandbox: { label: `LIST ${n.toLocaleString('en')} HelmReleases`, path: HR(`bench-${n}`) },
  }));
  const getRelease = { label: 'GET HelmRelease', path: `${HR('kagent')}/${STATUS_AGENT}` };
  return [
    { id: 'info', label: 'GET /api/v1/info', path: '/api/v1/info', status: 200 },
    ...lists,
    { id: 'status', label: 'GET /api/v1/agents/kagent/<name>/status', path: `/api/v1/agents/kagent/${STATUS_AGENT}/status`, status: 200, sandbox: getRelease },
    {
      id: 'validate', label: 'POST /api/v1/agents/validate', method: 'POST', path: '/api/v1/agents/validate', body: SPEC, status: 200,
      sandbox: { label: 'LIST ModelConfigs', path: '/apis/kagent.dev/v1alpha2/namespaces/kagent/modelconfigs' },
    },
    {
      id: 'create', label: 'POST /api/v1/agents', method: 'POST', path: '/api/v1/agents', status: 201, writes: true,
      setupRequest: fileURLToPath(new URL('./unique-create.cjs', import.meta.url)),
      probeBody: JSON.stringify({ name: 'bench-probe', namespace: WRITES_NAMESPACE, modelConfig: 'default-model-config', toolset: ['preset:none'] }),
      sandbox: { label: 'CREATE HelmRelease (dry run)', method: 'POST', path: `${HR(WRITES_NAMESPACE)}?dryRun=All`, body: DRY_RUN_RELEASE },
    },
    {
      id: 'mcp-get', label: 'MCP tools/call get_agent', method: 'POST', path: '/mcp', body: MCP_GET, status: 200,
      headers: { accept: 'application/json, text/event-stream' }, sandbox: getRelease,
    },
  ];
}
