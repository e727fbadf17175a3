/**
 * Our structural schemas of the two kagent kinds the sandbox serves at
 * `kagent.dev/v1alpha2`: Agent (what the agent chart 0.x renders) and ModelConfig. Typed
 * in detail where the chart, agent-manager or the simulated controllers read or write;
 * the pod-level detail of `declarative.deployment` (affinity, volumes, env sources…) and
 * the provider blocks are summarised. CEL rules are not evaluated.
 */
import { objectSchema } from '../builtin-schemas.js';
import {
  bool, condition, int, list, obj, oneOf, str, stringMap, summarised, type SchemaNode,
} from '../schema.js';

const valueRef = obj({
  name: str(), value: str(),
  valueFrom: obj({ key: str({ maxLength: 253 }), name: str({ maxLength: 253 }), type: oneOf(['ConfigMap', 'Secret']) },
    { required: ['key', 'name', 'type'] }),
}, { required: ['name'] });

const typedRef = obj({ apiGroup: str(), kind: str(), name: str(), namespace: str() }, { required: ['name'] });

const tool = obj({
  agent: typedRef,
  headersFrom: list(valueRef),
  isolateSessions: bool(),
  mcpServer: obj({
    allowedHeaders: list(str()), apiGroup: str(), kind: str(), name: str(), namespace: str(),
    requireApproval: list(str(), { maxItems: 50 }), toolNames: list(str(), { maxItems: 50 }),
  }, { required: ['name'] }),
  type: oneOf(['McpServer', 'Agent']),
});

const envVar = obj({ name: str(), value: str(), valueFrom: summarised() }, { required: ['name'] });

const sharedDeployment = (extra: Record<string, SchemaNode>): SchemaNode => obj({
  affinity: summarised(), annotations: stringMap(), deploymentAnnotations: stringMap(),
  env: list(envVar),
  envFrom: summarised('array'), extraContainers: summarised('array'), imagePullPolicy: str(),
  imagePullSecrets: summarised('array'), labels: stringMap(), nodeSelector: stringMap(),
  podSecurityContext: summarised(),
  replicas: int({ format: 'int32' }), resources: summarised(), securityContext: summarised(),
  serviceAccountConfig: obj({ annotations: stringMap(), labels: stringMap() }), serviceAccountName: str(),
  tolerations: summarised('array'), topologySpreadConstraints: summarised('array'), volumeMounts: summarised('array'),
  volumes: summarised('array'), ...extra,
});

export const agentSchema: SchemaNode = objectSchema({
  spec: obj({
    allowedNamespaces: summarised(),
    byo: obj({
      deployment: sharedDeployment({ args: list(str()), cmd: str(), image: str({ minLength: 1 }), workingDir: str() }),
    }),
    declarative: obj({
      a2aConfig: obj({
        skills: list(obj({
          description: str(), examples: list(str(), { maxItems: 20 }), id: str(), inputModes: list(str()),
          name: str({ minLength: 1 }), outputModes: list(str()), tags: list(str(), { maxItems: 20 }),
        }, { required: ['name'] })),
      }),
      context: summarised(),
      deployment: sharedDeployment({ imageRegistry: str() }),
      memory: obj({ modelConfig: str(), ttlDays: int({ minimum: 1 }) }, { required: ['modelConfig'] }),
      modelConfig: str(),
      promptTemplate: obj({
        dataSources: list(obj({ alias: str(), apiGroup: str(), kind: str(), name: str() }, { required: ['name'] }),
          { maxItems: 20 }),
      }),
      runtime: oneOf(['python', 'go'], { default: 'go' }),
      shareTools: bool(),
      stream: bool(),
      systemMessage: str(),
      systemMessageFrom: obj({
        key: str({ maxLength: 253 }), name: str({ maxLength: 253 }), type: oneOf(['ConfigMap', 'Secret']),
      }, { required: ['key', 'name', 'type'] }),
      tools: list(tool, { maxItems: 20 }),
    }),
    description: str(),
    documentationUrl: str({ format: 'uri' }),
    iconUrl: str({ format: 'uri' }),
    provider: obj({ organization: str({ minLength: 1 }), url: str({ format: 'uri' }) },
      { required: ['organization', 'url'] }),
    sandbox: obj({ network: obj({ allowedDomains: list(str()) }) }),
    skills: obj({
      gitAuthSecretRef: obj({ name: str({ default: '' }) }, { 'x-kubernetes-map-type': 'atomic' }),
      gitRefs: list(obj({ name: str(), path: str(), ref: str({ default: 'main' }), url: str() }, { required: ['url'] }),
        { maxItems: 20 }),
      imagePullSecrets: list(obj({ name: str({ default: '' }) }, { 'x-kubernetes-map-type': 'atomic' }),
        { maxItems: 20 }),
      initContainer: obj({ env: list(envVar), resources: summarised() }),
      insecureSkipVerify: bool(),
      refs: list(str(), { maxItems: 20 }),
      s3Refs: list(obj({ name: str(), region: str(), uri: str({ minLength: 1, pattern: '^s3://.+' }) },
        { required: ['uri'] }), { maxItems: 20 }),
    }),
    type: oneOf(['Declarative', 'BYO'], { default: 'Declarative' }),
    version: str(),
  }),
  status: obj({ conditions: list(condition()), observedGeneration: int({ format: 'int64' }) }),
});

const PROVIDERS = ['Anthropic', 'OpenAI', 'AzureOpenAI', 'Ollama', 'Gemini', 'GeminiVertexAI', 'AnthropicVertexAI',
  'Bedrock', 'SAPAICore', 'Foundry'];

export const modelConfigSchema: SchemaNode = objectSchema({
  spec: obj({
    anthropic: summarised(), anthropicVertexAI: summarised(),
    apiKeyPassthrough: bool(), apiKeySecret: str(), apiKeySecretKey: str(),
    azureOpenAI: summarised(), bedrock: summarised(), defaultHeaders: stringMap(), foundry: summarised(),
    gemini: summarised(), geminiVertexAI: summarised(),
    model: str(),
    ollama: summarised(), openAI: summarised(),
    provider: oneOf(PROVIDERS, { default: 'OpenAI' }),
    sapAICore: summarised(), tls: summarised(),
  }, { required: ['model'] }),
  status: obj({ conditions: list(condition()), observedGeneration: int({ format: 'int64' }), secretHash: str() }),
});
