/**
 * A stand-in for kagent's controller (v0.10) for `kagent.dev/v1alpha2` Agents and ModelConfigs: an
 * Agent is compiled (Declarative needs its ModelConfig) into an owned Deployment selecting
 * `app: kagent, kagent: <name>`; `Accepted` says whether that worked, and `Ready` follows the Deployment
 * exactly as kagent computes it (`DeploymentReady`, `DeploymentNotReady` "a/b pods are ready",
 * `DeploymentNotFound`). Dependents go with the Agent through owner references.
 */
import { asObject, isObject, numberOr, stringOr, type JsonObject } from '../api/json.js';
import { Controller, controllerOf, metadata, ownerReference, type ControllerContext } from './work-loop.js';
import { canonicalJson, conditionsOf, setCondition, sha256Hex, writeStatus } from './status-helpers.js';

const MANAGER = 'kagent-controller';
const KAGENT_VERSION = 'v0.10.0';

/** Why kagent cannot translate the Agent, or undefined. */
function compileError(ctx: ControllerContext, agent: JsonObject): string | undefined {
  const meta = metadata(agent);
  const where = `${String(meta.namespace)}/${String(meta.name)}`;
  const spec = asObject(agent.spec);
  if ((spec.type ?? 'Declarative') === 'BYO') {
    return stringOr(asObject(asObject(spec.byo).deployment).image, '') ? undefined
      : `failed to compile agent ${where}: BYO agent has no deployment image`;
  }
  const modelConfig = stringOr(asObject(spec.declarative).modelConfig, '');
  if (!modelConfig) return `failed to compile agent ${where}: no model config specified`;
  if (!ctx.store.find('modelconfigs', String(meta.namespace), modelConfig)) {
    return `failed to compile agent ${where}: failed to get model config ${String(meta.namespace)}/${modelConfig}: ` +
      `modelconfigs.kagent.dev "${modelConfig}" not found`;
  }
  return undefined;
}

/** The Deployment kagent runs for an Agent. */
export function agentDeployment(agent: JsonObject): JsonObject {
  const meta = metadata(agent);
  const name = String(meta.name);
  const spec = asObject(agent.spec);
  const byo = (spec.type ?? 'Declarative') === 'BYO';
  const shared = asObject(byo ? asObject(spec.byo).deployment : asObject(spec.declarative).deployment);
  const runtime = stringOr(asObject(spec.declarative).runtime, '') || 'go';
  const image = byo ? stringOr(shared.image, '')
    : `cr.kagent.dev/kagent-dev/kagent/${runtime === 'python' ? 'app' : 'golang-adk'}:${KAGENT_VERSION}`;
  const selector = { app: 'kagent', kagent: name };
  const container: JsonObject = {
    name: 'kagent', image, imagePullPolicy: stringOr(shared.imagePullPolicy, '') || 'IfNotPresent',
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [...(Array.isArray(shared.env) ? shared.env : []), { name: 'KAGENT_NAME', value: name },
      { name: 'KAGENT_NAMESPACE', value: String(meta.namespace) }],
  };
  if (isObject(shared.resources)) container.resources = shared.resources;
  const skills = asObject(spec.skills);
  const withSkills =
    (Array.isArray(skills.refs) && skills.refs.length > 0) ||
    (Array.isArray(skills.gitRefs) && skills.gitRefs.length > 0);
  const podSpec: JsonObject = {
    serviceAccountName: stringOr(shared.serviceAccountName, '') || name,
    containers: [container],
    ...(withSkills ? { initContainers: [{ name: 'skills-init',
      image: `cr.kagent.dev/kagent-dev/kagent/skills-init:${KAGENT_VERSION}` }] } : {}),
    ...(isObject(shared.nodeSelector) ? { nodeSelector: shared.nodeSelector } : {}),
    ...(Array.isArray(shared.tolerations) ? { tolerations: shared.tolerations } : {}),
  };
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: {
      name, namespace: meta.namespace, ownerReferences: [ownerReference(agent)],
      labels: { ...selector, 'app.kubernetes.io/managed-by': 'kagent', 'app.kubernetes.io/name': name,
        'app.kubernetes.io/part-of': 'kagent' },
      ...(isObject(shared.deploymentAnnotations) ? { annotations: shared.deploymentAnnotations } : {}),
    },
    spec: {
      replicas: typeof shared.replicas === 'number' ? shared.replicas : 1,
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: { ...asObject(shared.labels), ...selector },
          // The config hash rolls the pods when the Agent's spec changes, as kagent's does.
          annotations: { ...asObject(shared.annotations),
            'kagent.dev/config-hash': sha256Hex(canonicalJson(spec)).slice(0, 16) },
        },
        spec: podSpec,
      },
    },
  };
}

/** Create the Deployment, or bring its spec back to what the Agent says. */
function ensureDeployment(ctx: ControllerContext, agent: JsonObject): void {
  const desired = agentDeployment(agent);
  const meta = metadata(agent);
  const existing = ctx.store.find('deployments', String(meta.namespace), String(meta.name));
  if (!existing) {
    ctx.store.create('deployments', desired, { fieldManager: MANAGER });
    return;
  }
  if (controllerOf(existing)?.uid !== meta.uid) return; // someone else's Deployment: leave it alone
  const want = asObject(desired.spec);
  const have = asObject(existing.spec);
  if (canonicalJson([want.replicas, want.template]) === canonicalJson([have.replicas, have.template])) return;
  ctx.store.update('deployments', { ...structuredClone(existing),
    spec: { ...structuredClone(have), replicas: want.replicas, template: want.template } }, { fieldManager: MANAGER });
}

function reconcileAgent(ctx: ControllerContext, namespace: string, name: string): void {
  const agent = ctx.store.find('agents', namespace, name);
  if (!agent || metadata(agent).deletionTimestamp) return;
  const generation = Number(metadata(agent).generation ?? 1);
  const error = compileError(ctx, agent);
  if (!error) ensureDeployment(ctx, agent);
  let conditions = setCondition(conditionsOf(agent), error
    ? { type: 'Accepted', status: 'False', reason: 'ReconcileFailed', message: error, observedGeneration: generation }
    : { type: 'Accepted', status: 'True', reason: 'Reconciled', message: 'Agent configuration accepted',
        observedGeneration: generation });
  const deployment = ctx.store.find('deployments', namespace, name);
  if (!deployment) {
    conditions = setCondition(conditions,
      { type: 'Ready', status: 'Unknown', reason: 'DeploymentNotFound', message: `deployments.apps "${name}" not found`,
        observedGeneration: generation });
  } else {
    const replicas = numberOr(asObject(deployment.spec).replicas, 1);
    const available = Number(asObject(deployment.status).availableReplicas ?? 0);
    conditions = setCondition(conditions, available >= replicas
      ? { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'Deployment is ready',
          observedGeneration: generation }
      : { type: 'Ready', status: 'False', reason: 'DeploymentNotReady',
          message: `Deployment is not ready, ${available}/` +
            `${replicas} pods are ready`, observedGeneration: generation });
  }
  const readyNow = conditions.find((c) => c.type === 'Ready');
  if (readyNow && readyNow.status !== conditionsOf(agent).find((c) => c.type === 'Ready')?.status) {
    ctx.log?.info?.({ controller: MANAGER, agent: `${namespace}/${name}`, ready: readyNow.status,
      reason: readyNow.reason }, `kagent: Agent ${namespace}/${name} Ready=${readyNow.status} (${readyNow.reason})`);
  }
  writeStatus(ctx.store, 'agents', agent, { ...asObject(agent.status), observedGeneration: generation, conditions },
    MANAGER);
}

function reconcileModelConfig(ctx: ControllerContext, namespace: string, name: string): void {
  const mc = ctx.store.find('modelconfigs', namespace, name);
  if (!mc || metadata(mc).deletionTimestamp) return;
  const conditions = setCondition(conditionsOf(mc),
    { type: 'Accepted', status: 'True', reason: 'ModelConfigReconciled', message: 'Model configuration accepted' });
  writeStatus(ctx.store, 'modelconfigs', mc,
    { ...asObject(mc.status), observedGeneration: Number(metadata(mc).generation ?? 1), conditions }, MANAGER);
}

/** Start kagent's controller: Agents (and their Deployments and ModelConfigs), ModelConfigs. */
export function startKagentController(ctx: ControllerContext): Controller[] {
  const agents = new Controller('kagent-agents', ctx, (ns, name) => reconcileAgent(ctx, ns, name))
    .watch('agents')
    .watch('deployments', (event) => {
      const owner = controllerOf(event.object);
      return owner?.kind === 'Agent' ? [[event.namespace, owner.name] as const] : [];
    })
    .watch('modelconfigs', (event) => ctx.store.list('agents', { namespace: event.namespace }).items
      .filter((a) => stringOr(asObject(asObject(a.spec).declarative).modelConfig, '') === metadata(event.object).name)
      .map((a) => [event.namespace, String(metadata(a).name)] as const))
    .resync('agents');
  const modelConfigs = new Controller('kagent-modelconfigs', ctx, (ns, name) => reconcileModelConfig(ctx, ns, name))
    .watch('modelconfigs').resync('modelconfigs');
  return [agents, modelConfigs];
}
