/**
 * The agent chart as the simulated helm-controller installs it: values are checked as Helm does (the
 * chart's own values.schema.json, the 0.5.2 one without `toolset`, then the template's `toolset` guard)
 * and rendered into the chart's one object, a `kagent.dev/v1alpha2` Agent with the chart's labels, the
 * display-name annotation and `extraAgentSpec` deep-merged over the curated spec.
 * Nothing here comes from agent-manager: the sandbox judges values on its own.
 */
import { asList, asObject, isObject, isStringList, stringOr, type JsonObject } from '../api/json.js';
import CHART_SCHEMA from './chart/values.schema.json' with { type: 'json' };
import { TOOLSET_HEADER, toolsetHeader, toolsetRenderFailure } from './chart/toolset-guard.js';
import { helmSchemaError } from './chart/values-check.js';

/** The chart's name. */
export const CHART_NAME = 'agent';
/** The chart's appVersion. */
export const CHART_APP_VERSION = '0.0.1';

/**
 * Why Helm refused to install or upgrade, in Helm's words: values against the schema and
 * template failures stop Helm before it records a release; `apply` (the API server
 * refusing a rendered object) fails a release Helm has recorded.
 */
export type ChartFailure = { kind: 'schema' | 'render' | 'apply'; message: string };

const DEFAULT_SYSTEM_MESSAGE = 'You are a helpful agent.\n';
const DEFAULT_RESOURCES = { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } };
const DEFAULT_MUSTER: JsonObject = {
  enabled: true,
  serverRef: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform' },
  allowedHeaders: ['authorization'], toolNames: [], stsWellKnownUri: '',
};

/** Why the values cannot be installed, or undefined. Schema first (as Helm validates before rendering). */
export function chartFailure(values: JsonObject): ChartFailure | undefined {
  // The 0.5.2 schema does not declare `toolset` (later charts do); the template guards it.
  const { toolset, ...rest } = values;
  const schemaError = helmSchemaError(CHART_NAME, CHART_SCHEMA, rest);
  if (schemaError) return { kind: 'schema', message: schemaError };
  const violation = toolsetRenderFailure(toolset);
  if (violation) {
    return { kind: 'render', message: `execution error at (${CHART_NAME}/templates/agent.yaml:1:1): ${violation}` };
  }
  return undefined;
}

/** The Agent name the chart renders: `agent.name`, else the release name (63 characters, no trailing dash). */
export function agentName(values: JsonObject, releaseName: string): string {
  return stringOr(asObject(values.agent).name, '') || releaseName.slice(0, 63).replace(/-+$/, '');
}

/** `b` deep-merged over `a` (maps merge, everything else is replaced), as Helm's mergeOverwrite. */
export function deepMerge(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const under = out[k];
    out[k] = isObject(v) && isObject(under) ? deepMerge(under, v) : v;
  }
  return out;
}

function musterTool(values: JsonObject): JsonObject | undefined {
  const muster = deepMerge(DEFAULT_MUSTER, asObject(values.muster));
  if (muster.enabled === false) return undefined;
  const toolset = values.toolset;
  if (Array.isArray(toolset) && toolset.length === 1 && toolset[0] === 'preset:none') return undefined;
  const ref = asObject(muster.serverRef);
  const mcpServer: JsonObject = { kind: ref.kind, apiGroup: ref.apiGroup, name: ref.name, namespace: ref.namespace };
  if (asList(muster.allowedHeaders).length > 0) mcpServer.allowedHeaders = asList(muster.allowedHeaders);
  if (asList(muster.toolNames).length > 0) mcpServer.toolNames = asList(muster.toolNames);
  const tool: JsonObject = { type: 'McpServer', mcpServer };
  // Rendered only for values chartFailure let through, whose toolset is a list of strings.
  if (isStringList(toolset) && toolset.length > 0) {
    tool.headersFrom = [{ name: TOOLSET_HEADER, value: toolsetHeader(toolset) }];
  }
  return tool;
}

function renderSpec(values: JsonObject): JsonObject {
  const agent = asObject(values.agent);
  const spec: JsonObject = { type: 'Declarative' };
  if (stringOr(agent.description, '')) spec.description = agent.description;
  if (stringOr(agent.iconUrl, '')) spec.iconUrl = agent.iconUrl;
  const skills = asObject(values.skills);
  if (asList(skills.refs).length > 0 || asList(skills.gitRefs).length > 0) {
    spec.skills = {
      refs: asList(skills.refs), gitRefs: asList(skills.gitRefs),
      gitAuthSecretRef: { name: stringOr(asObject(skills.gitAuthSecretRef).name, '') },
    };
  }
  const muster = deepMerge(DEFAULT_MUSTER, asObject(values.muster));
  const tools = [musterTool(values), ...asList(values.extraTools)].filter((t) => t !== undefined);
  const env: JsonObject[] = [];
  if (muster.enabled !== false) {
    env.push({ name: 'KAGENT_PROPAGATE_TOKEN', value: 'true' });
    if (stringOr(muster.stsWellKnownUri, '')) env.push({ name: 'STS_WELL_KNOWN_URI', value: muster.stsWellKnownUri });
  }
  const deployment: JsonObject = { replicas: typeof values.replicas === 'number' ? values.replicas : 1 };
  if (env.length > 0) deployment.env = env;
  deployment.resources = isObject(values.resources) ? values.resources : DEFAULT_RESOURCES;
  if (Object.keys(asObject(values.nodeSelector)).length > 0) deployment.nodeSelector = values.nodeSelector;
  if (asList(values.tolerations).length > 0) deployment.tolerations = values.tolerations;
  spec.declarative = {
    runtime: stringOr(agent.runtime, 'go') || 'go',
    modelConfig: stringOr(asObject(values.modelConfig).name, 'default-model-config') || 'default-model-config',
    systemMessage: stringOr(agent.systemMessage, DEFAULT_SYSTEM_MESSAGE) || DEFAULT_SYSTEM_MESSAGE,
    ...(tools.length > 0 ? { tools } : {}),
    deployment,
  };
  return deepMerge(spec, asObject(values.extraAgentSpec));
}

/** What a release renders with. */
export interface RenderInput {
  values: JsonObject;
  releaseName: string;
  namespace: string;
  chartVersion: string;
}

/** The chart's standard labels (both lines), with `values.labels` over them. */
export function chartLabels(values: JsonObject, releaseName: string, chartVersion: string): Record<string, string> {
  return {
    app: CHART_NAME,
    'app.kubernetes.io/instance': releaseName,
    'app.kubernetes.io/managed-by': 'Helm',
    'app.kubernetes.io/name': CHART_NAME,
    'app.kubernetes.io/version': chartVersion.replaceAll('+', '_'),
    'application.giantswarm.io/team': 'bumblebee',
    'helm.sh/chart': `${CHART_NAME}-${chartVersion}`.slice(0, 63),
    // safe: the chart's schema (checked before rendering) allows only string labels.
    ...(asObject(values.labels) as Record<string, string>),
  };
}

/** The annotations Helm puts on every object of a release. */
export function releaseAnnotations(releaseName: string, namespace: string): Record<string, string> {
  return { 'meta.helm.sh/release-name': releaseName, 'meta.helm.sh/release-namespace': namespace };
}

/** The Agent the chart renders (without the Flux labels, which the controller's post-renderer adds). */
export function renderAgent({ values, releaseName, namespace, chartVersion }: RenderInput): JsonObject {
  const labels = chartLabels(values, releaseName, chartVersion);
  const annotations = releaseAnnotations(releaseName, namespace);
  const displayName = stringOr(asObject(values.agent).displayName, '');
  if (displayName) annotations['ui.giantswarm.io/display-name'] = displayName;
  Object.assign(annotations, asObject(values.annotations));
  return {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: { name: agentName(values, releaseName), namespace, labels, annotations },
    spec: renderSpec(values),
  };
}
