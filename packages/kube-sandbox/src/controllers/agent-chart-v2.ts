/**
 * The agent chart 2.x as the simulated helm-controller installs it (values.yaml of the chart's current
 * line): values checked as Helm does (the sandbox's own copy of the 2.x contract, then the templates'
 * guards), rendered into an `api.kagent.dev/v1alpha3` Agent (inline `spec.template`, `spec.harnessRef`)
 * and, unless the agent is chat-only or muster is off, the agent's muster RemoteMCPServer carrying its
 * toolset. The chart renders no ModelConfig, Secret or Harness. Nothing here comes from agent-manager.
 */
import { asList, asObject, isObject, isStringList, nonEmptyStringOr, type JsonObject } from '../api/json.js';
import {
  agentName, CHART_NAME, chartLabels, deepMerge, releaseAnnotations, type ChartFailure, type RenderInput,
} from './agent-chart.js';
import { TOOLSET_HEADER, toolsetHeader, toolsetRenderFailure } from './chart/toolset-guard.js';
import { helmSchemaError } from './chart/values-check.js';
import { valuesSchemaV2 } from './chart/values-v2.js';

/** The API group and version the 2.x chart renders. */
export const KAGENT_V2_API = 'api.kagent.dev/v1alpha3';
/** The label that keeps the kagent controller from listing muster's tools (muster wants a user's token). */
export const DISCOVERY_LABEL = 'kagent.dev/discovery';

const DEFAULT_SYSTEM_MESSAGE = 'You are a helpful agent.\n';
const DEFAULT_HARNESS = 'kagent';
const DEFAULT_MODEL_CONFIG = 'default-model-config';
const DEFAULT_MUSTER_URL = 'http://muster.agent-platform.svc.cluster.local:8090/mcp';
const DEFAULT_MUSTER_TIMEOUT = '180s';

/** The templates' own checks beyond the schema, in the order the templates run them. */
function templateFailure(values: JsonObject): string | undefined {
  const toolset = toolsetRenderFailure(values.toolset);
  if (toolset) return `execution error at (${CHART_NAME}/templates/remotemcpserver.yaml:1:1): ${toolset}`;
  const skills = asList(values.skills).map(asObject);
  for (const [i, skill] of skills.entries()) {
    const first = skills.findIndex((s) => s.name === skill.name);
    if (first < i) {
      return `execution error at (${CHART_NAME}/templates/agent.yaml:1:1): skills[${i}].name ` +
        `${JSON.stringify(skill.name)} is already used by skills[${first}]; skill names are unique within an agent`;
    }
  }
  if (!nonEmptyStringOr(asObject(values.skillsGitAuthSecretRef).name, '')) return undefined;
  const sources: Array<[string, JsonObject]> = [
    ...skills.map((s, i): [string, JsonObject] => [`skills[${i}] ${JSON.stringify(s.name)}`, s]),
    ...asList(values.plugins).map((p, i): [string, JsonObject] => [`plugins[${i}]`, asObject(p)]),
  ];
  for (const [where, entry] of sources) {
    if (isObject(entry.git) && !nonEmptyStringOr(entry.git.url, '').startsWith('https://')) {
      return `execution error at (${CHART_NAME}/templates/agent.yaml:1:1): ${where}: skillsGitAuthSecretRef.name ` +
        `is set, so every git source needs an https:// URL`;
    }
  }
  return undefined;
}

/** Why a 2.x chart of `chartVersion` refuses the values, or undefined. Schema first, as Helm validates first. */
export function chartFailureV2(values: JsonObject, chartVersion: string): ChartFailure | undefined {
  const schemaError = helmSchemaError(CHART_NAME, valuesSchemaV2(chartVersion), values);
  if (schemaError) return { kind: 'schema', message: schemaError };
  const failure = templateFailure(values);
  return failure ? { kind: 'render', message: failure } : undefined;
}

/** A skill's or plugin's `source`: git (with the credential when one is set) or oci, and its path. */
function sourceOf(entry: JsonObject, credential: string): JsonObject {
  const source: JsonObject = {};
  if (isObject(entry.git)) {
    const git: JsonObject = { url: entry.git.url, commit: entry.git.commit };
    if (credential) git.credentialRef = { name: credential, key: 'token' };
    source.git = git;
  } else {
    source.oci = entry.oci;
  }
  if (nonEmptyStringOr(entry.path, '')) source.path = entry.path;
  return source;
}

/** True when the chart renders the agent's RemoteMCPServer and binds it. */
export function rendersMusterServer(values: JsonObject): boolean {
  if (asObject(values.muster).enabled === false) return false;
  const toolset = values.toolset;
  return !(Array.isArray(toolset) && toolset.length === 1 && toolset[0] === 'preset:none');
}

function musterBinding(values: JsonObject, name: string): JsonObject {
  const muster = asObject(values.muster);
  const mcp: JsonObject = { server: { kind: 'RemoteMCPServer', name } };
  if (asList(muster.tools).length > 0) mcp.tools = asList(muster.tools);
  if (muster.requireApproval === true) mcp.requireApproval = true;
  return { mcp };
}

function renderTemplate(values: JsonObject, name: string): JsonObject {
  const agent = asObject(values.agent);
  const credential = nonEmptyStringOr(asObject(values.skillsGitAuthSecretRef).name, '');
  const template: JsonObject = {};
  if (nonEmptyStringOr(agent.description, '')) template.description = agent.description;
  template.systemPrompt = nonEmptyStringOr(agent.systemMessage, DEFAULT_SYSTEM_MESSAGE);
  template.modelConfig = { name: nonEmptyStringOr(asObject(values.modelConfig).name, DEFAULT_MODEL_CONFIG) };
  const skills = asList(values.skills).map(asObject)
    .map((s) => ({ name: s.name, source: sourceOf(s, credential) }));
  if (skills.length > 0) template.skills = skills;
  const plugins = asList(values.plugins).map(asObject)
    .map((p) => ({ source: sourceOf(p, credential), skills: asList(p.skills) }));
  if (plugins.length > 0) template.plugins = plugins;
  const tools = [...(rendersMusterServer(values) ? [musterBinding(values, name)] : []), ...asList(values.extraTools)];
  if (tools.length > 0) template.tools = tools;
  return deepMerge(template, asObject(values.extraAgentSpec));
}

/** The Agent the 2.x chart renders (without the Flux labels, which the controller's post-renderer adds). */
export function renderAgentV2({ values, releaseName, namespace, chartVersion }: RenderInput): JsonObject {
  const agent = asObject(values.agent);
  const name = agentName(values, releaseName);
  const annotations = releaseAnnotations(releaseName, namespace);
  const displayName = nonEmptyStringOr(agent.displayName, '');
  const iconUrl = nonEmptyStringOr(agent.iconUrl, '');
  if (displayName) annotations['ui.giantswarm.io/display-name'] = displayName;
  if (iconUrl) annotations['ui.giantswarm.io/icon-url'] = iconUrl;
  Object.assign(annotations, asObject(values.annotations));
  const spec: JsonObject = { harnessRef: { name: nonEmptyStringOr(agent.harness, DEFAULT_HARNESS) } };
  if (asList(agent.egress).length > 0) spec.egress = asList(agent.egress);
  spec.template = renderTemplate(values, name);
  return {
    apiVersion: KAGENT_V2_API, kind: 'Agent',
    metadata: { name, namespace, labels: chartLabels(values, releaseName, chartVersion), annotations },
    spec,
  };
}

/** The agent's muster RemoteMCPServer, or undefined for a chat-only agent or with muster off. */
export function renderMusterServer({ values, releaseName, namespace, chartVersion }: RenderInput):
  JsonObject | undefined {
  if (!rendersMusterServer(values)) return undefined;
  const muster = asObject(values.muster);
  const name = agentName(values, releaseName);
  const labels = chartLabels(values, releaseName, chartVersion);
  // The chart's discovery label wins over an extra label of the same key.
  if (asObject(muster.discovery).enabled !== true) labels[DISCOVERY_LABEL] = 'disabled';
  const spec: JsonObject = {
    description: `muster gateway for agent ${name}`, protocol: 'STREAMABLE_HTTP',
    url: nonEmptyStringOr(muster.url, DEFAULT_MUSTER_URL),
    timeout: nonEmptyStringOr(muster.timeout, DEFAULT_MUSTER_TIMEOUT),
  };
  // Rendered only for values chartFailureV2 let through, whose toolset is a list of strings.
  if (isStringList(values.toolset) && values.toolset.length > 0) {
    spec.headersFrom = [{ name: TOOLSET_HEADER, value: toolsetHeader(values.toolset) }];
  }
  return {
    apiVersion: KAGENT_V2_API, kind: 'RemoteMCPServer',
    metadata: { name, namespace, labels, annotations: releaseAnnotations(releaseName, namespace) },
    spec,
  };
}

/** Every object a 2.x release renders, the Agent first. */
export function renderReleaseV2(input: RenderInput): JsonObject[] {
  const server = renderMusterServer(input);
  return server ? [renderAgentV2(input), server] : [renderAgentV2(input)];
}
