/**
 * Structural schemas of the `api.kagent.dev/v1alpha3` kinds (Giant Swarm's kagent line, which the agent
 * chart 2.x renders for): Agent (`spec.template`, `spec.harnessRef`), Harness, RemoteMCPServer; ModelConfig
 * shares kagent.dev's. The platform's CRDs are not public: written from upstream kagent's v1alpha3 CRDs and
 * the chart's values.yaml, typed where someone reads or writes, open where Giant Swarm's line differs (tool
 * bindings, runtime blocks). Skill sources keep upstream's pinning patterns (`\S` for `[:space:]`); the
 * CEL rules on them are checked by hand in kagent-v2-rules.ts.
 */
import { objectSchema } from '../builtin-schemas.js';
import {
  condition, int, list, localRef, obj, oneOf, str, summarised, type SchemaNode,
} from '../schema.js';

/** A skill or plugin source, pinned: a full commit id or a digest (upstream's patterns). */
const source = obj({
  git: obj({
    url: str({ minLength: 1, pattern: '^https?://\\S+$' }),
    commit: str({ pattern: '^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$' }),
    credentialRef: obj({ name: str({ minLength: 1 }), key: str({ minLength: 1 }) }, { required: ['name', 'key'] }),
  }, { required: ['commit', 'url'] }),
  oci: str({ pattern: '^[^\\s@]+@sha256:[0-9a-f]{64}$' }),
  bucket: summarised(),
  path: str({ maxLength: 1024 }),
});

const templateSchema: SchemaNode = obj({
  description: str(),
  systemPrompt: str(),
  systemPromptFrom: obj({ key: str({ minLength: 1 }), name: str({ minLength: 1 }) }, { required: ['key', 'name'] }),
  modelConfig: obj({ name: str({ minLength: 1 }) }, { required: ['name'] }),
  skills: list(obj({ name: str({ minLength: 1 }), source }, { required: ['name', 'source'] }),
    { maxItems: 50, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
  plugins: list(obj({ source, skills: list(str({ minLength: 1 }), { maxItems: 50 }) }, { required: ['source'] }),
    { maxItems: 20 }),
  // Giant Swarm's bindings (`mcp` with `requireApproval`, `subAgent`) differ from upstream's: kept as sent.
  tools: list(summarised(), { maxItems: 50 }),
  promptTemplate: summarised(),
}, { required: ['modelConfig'], open: true });

export const agentV2Schema: SchemaNode = objectSchema({
  spec: obj({
    harnessRef: localRef(),
    egress: list(str({ maxLength: 270 }), { maxItems: 64 }),
    template: templateSchema,
  }, { required: ['harnessRef', 'template'] }),
  status: obj({
    observedGeneration: int({ format: 'int64' }),
    desiredRevision: int({ format: 'int64' }),
    latestSuccessfulRevision: int({ format: 'int64' }),
    conditions: list(condition(), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    warnings: list(str()),
  }),
});

export const harnessSchema: SchemaNode = objectSchema({
  spec: obj({
    allowedAgentTemplates: summarised(),
    // Exactly one runtime block (kagent, claude or codex; `byo` on Giant Swarm's line), kept as sent.
    kagent: summarised(), claude: summarised(), codex: summarised(), byo: summarised(),
    env: list(obj({ name: str({ minLength: 1 }), value: str(), credentialRef: summarised() }, { required: ['name'] }),
      { maxItems: 100 }),
    substrate: summarised(),
    workload: summarised(),
    egress: list(str()),
  }),
  status: obj({
    capabilities: summarised(),
    conditions: list(condition(), { maxItems: 8 }),
    observedGeneration: int({ format: 'int64' }),
  }),
});

const valueRef = obj({
  name: str(), value: str(),
  valueFrom: obj({ key: str(), name: str(), type: oneOf(['ConfigMap', 'Secret']) },
    { required: ['key', 'name', 'type'] }),
}, { required: ['name'] });

export const remoteMcpServerSchema: SchemaNode = objectSchema({
  spec: obj({
    allowedNamespaces: summarised(),
    description: str(),
    headersFrom: list(valueRef),
    protocol: oneOf(['SSE', 'STREAMABLE_HTTP'], { default: 'STREAMABLE_HTTP' }),
    sseReadTimeout: str(),
    terminateOnClose: { type: 'boolean', default: true },
    timeout: str({ default: '30s' }),
    tls: summarised(),
    url: str({ minLength: 1 }),
  }, { required: ['description', 'url'] }),
  status: obj({
    conditions: list(condition()),
    discoveredTools: list(obj({ description: str(), name: str() }, { required: ['description', 'name'] })),
    observedGeneration: int({ format: 'int64' }),
    secretHash: str(),
  }),
});
