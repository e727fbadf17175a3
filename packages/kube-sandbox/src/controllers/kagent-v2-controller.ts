/**
 * A stand-in for kagent's controller of `api.kagent.dev/v1alpha3` (Giant Swarm's line): an Agent runs on the
 * Harness its `spec.harnessRef` names, so no pods. A generation whose template or Harness changed is a new
 * `desiredRevision`; once its Harness and ModelConfig resolve, it compiles one reconcile later into
 * `latestSuccessfulRevision`. Conditions Accepted, ResolvedRefs (False `HarnessNotFound`/`ModelConfigNotFound`),
 * Ready (True only resolved and compiled), and `warnings` (a muster binding narrowed while discovery is off).
 * Harnesses report Ready, ModelConfigs and RemoteMCPServers Accepted; every reconcile waits the delay.
 */
import { asObject, stringOr, type JsonObject } from '../api/json.js';
import { DISCOVERY_LABEL } from './agent-chart-v2.js';
import { Controller, labelsOf, metadata, type ControllerContext } from './work-loop.js';
import { canonicalJson, conditionsOf, setCondition, sha256Hex, writeStatus, type Condition } from './status-helpers.js';

const MANAGER = 'kagent-controller';
const AGENTS = 'agents.api.kagent.dev';
const HARNESSES = 'harnesses.api.kagent.dev';
const MODEL_CONFIGS = 'modelconfigs.api.kagent.dev';
const SERVERS = 'remotemcpservers.api.kagent.dev';

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The revision an Agent's compiled input had last, by uid (adopted from its status after a restart). */
type Revisions = Map<string, { digest: string; revision: number }>;

const harnessOf = (agent: JsonObject): string => stringOr(asObject(asObject(agent.spec).harnessRef).name, '');
const modelConfigOf = (agent: JsonObject): string =>
  stringOr(asObject(asObject(asObject(agent.spec).template).modelConfig).name, '');

/** Why the Agent's references do not resolve, or undefined. */
function unresolved(ctx: ControllerContext, agent: JsonObject): { reason: string; message: string } | undefined {
  const namespace = String(metadata(agent).namespace);
  const harness = harnessOf(agent);
  if (!ctx.store.find(HARNESSES, namespace, harness)) {
    return { reason: 'HarnessNotFound', message: `Harness "${harness}" not found in namespace ${namespace}` };
  }
  const modelConfig = modelConfigOf(agent);
  if (!ctx.store.find(MODEL_CONFIGS, namespace, modelConfig)) {
    return { reason: 'ModelConfigNotFound',
      message: `ModelConfig "${modelConfig}" not found in namespace ${namespace}` };
  }
  return undefined;
}

/** What the Harness cannot do as the Agent asks: a partial tool selection on a server without discovery. */
function warningsOf(ctx: ControllerContext, agent: JsonObject): string[] {
  const namespace = String(metadata(agent).namespace);
  const tools = asObject(asObject(agent.spec).template).tools;
  return (Array.isArray(tools) ? tools : []).map((t) => asObject(asObject(t).mcp)).flatMap((mcp) => {
    const selected = Array.isArray(mcp.tools) ? mcp.tools.length : 0;
    const name = stringOr(asObject(mcp.server).name, '');
    const server = ctx.store.find(SERVERS, namespace, name);
    if (selected === 0 || (server && labelsOf(server)[DISCOVERY_LABEL] !== 'disabled')) return [];
    return [`the binding of RemoteMCPServer "${name}" selects ${selected} tool(s), but tool discovery is off for ` +
      `that server: the Harness cannot enforce the selection and may expose every tool the server offers`];
  });
}

/** The revision of the Agent's compiled input (template and Harness) at this generation. */
function desiredRevision(revisions: Revisions, agent: JsonObject): number {
  const uid = String(metadata(agent).uid);
  const spec = asObject(agent.spec);
  const digest = sha256Hex(canonicalJson({ template: spec.template ?? null, harnessRef: spec.harnessRef ?? null }));
  const before = count(asObject(agent.status).desiredRevision);
  const known = revisions.get(uid) ?? (before === undefined ? undefined : { digest, revision: before });
  const revision = !known ? 1 : known.digest === digest ? known.revision : known.revision + 1;
  revisions.set(uid, { digest, revision });
  return revision;
}

function reconcileAgent(ctx: ControllerContext, revisions: Revisions, namespace: string, name: string): number | void {
  const agent = ctx.store.find(AGENTS, namespace, name);
  if (!agent || metadata(agent).deletionTimestamp) return;
  const generation = Number(metadata(agent).generation ?? 1);
  const status = asObject(agent.status);
  const desired = desiredRevision(revisions, agent);
  let latest = count(status.latestSuccessfulRevision);
  const refs = unresolved(ctx, agent);
  const harness = harnessOf(agent);
  let conditions = setCondition(conditionsOf(agent), { type: 'Accepted', status: 'True', reason: 'Accepted',
    message: 'Agent accepted', observedGeneration: generation });
  conditions = setCondition(conditions, refs
    ? { type: 'ResolvedRefs', status: 'False', ...refs, observedGeneration: generation }
    : { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: 'All references resolved',
        observedGeneration: generation });
  let again: number | undefined;
  let ready: Condition;
  if (refs) {
    ready = { type: 'Ready', status: 'False', ...refs, observedGeneration: generation };
  } else if (latest !== desired && !(status.observedGeneration === generation && status.desiredRevision === desired)) {
    // A new revision: the Harness compiles it, which takes a reconcile of its own.
    ready = { type: 'Ready', status: 'False', reason: 'ActorTemplatePending',
      message: `Harness "${harness}" is compiling revision ${desired}`, observedGeneration: generation };
    again = ctx.delayMs;
  } else {
    latest = desired;
    ready = { type: 'Ready', status: 'True', reason: 'Ready',
      message: `Agent is ready on Harness "${harness}" (revision ${desired})`, observedGeneration: generation };
  }
  conditions = setCondition(conditions, ready);
  if (ready.status !== conditionsOf(agent).find((c) => c.type === 'Ready')?.status) {
    ctx.log?.info?.({ controller: MANAGER, agent: `${namespace}/${name}`, ready: ready.status, reason: ready.reason },
      `kagent: Agent ${namespace}/${name} Ready=${ready.status} (${ready.reason})`);
  }
  writeStatus(ctx.store, AGENTS, agent, {
    ...status, observedGeneration: generation, desiredRevision: desired,
    ...(latest === undefined ? {} : { latestSuccessfulRevision: latest }),
    conditions, warnings: warningsOf(ctx, agent),
  }, MANAGER);
  return again;
}

/** Harnesses report Ready, ModelConfigs and RemoteMCPServers Accepted, each at its generation. */
function reconcilePlatformObject(ctx: ControllerContext, resource: string, condition: Omit<Condition, 'status'>,
  namespace: string, name: string): void {
  const object = ctx.store.find(resource, namespace, name);
  if (!object || metadata(object).deletionTimestamp) return;
  const generation = Number(metadata(object).generation ?? 1);
  const conditions = setCondition(conditionsOf(object),
    { ...condition, status: 'True', observedGeneration: generation });
  writeStatus(ctx.store, resource, object, { ...asObject(object.status), observedGeneration: generation, conditions },
    MANAGER);
}

/** The Agents of an event's namespace that `refers` says depend on the changed object. */
const dependents = (ctx: ControllerContext, refers: (agent: JsonObject, name: string) => boolean) =>
  (event: { namespace: string; object: JsonObject }) =>
    ctx.store.list(AGENTS, { namespace: event.namespace }).items
      .filter((a) => refers(a, String(metadata(event.object).name)))
      .map((a) => [event.namespace, String(metadata(a).name)] as const);

/** Start the kagent controller of `api.kagent.dev`: Agents (watching their Harnesses, ModelConfigs, servers). */
export function startKagentV2Controller(ctx: ControllerContext): Controller[] {
  const revisions: Revisions = new Map();
  const agents = new Controller('kagent-v2-agents', ctx, (ns, name) => reconcileAgent(ctx, revisions, ns, name))
    .watch(AGENTS)
    .watch(HARNESSES, dependents(ctx, (a, name) => harnessOf(a) === name))
    .watch(MODEL_CONFIGS, dependents(ctx, (a, name) => modelConfigOf(a) === name))
    .watch(SERVERS, dependents(ctx, () => true))
    .listen((event) => {
      if (event.resource === AGENTS && event.type === 'DELETED') revisions.delete(String(metadata(event.object).uid));
    })
    .resync(AGENTS);
  const platform = ([
    [HARNESSES, 'kagent-v2-harnesses', { type: 'Ready', reason: 'Ready', message: 'Harness is ready' }],
    [MODEL_CONFIGS, 'kagent-v2-modelconfigs',
      { type: 'Accepted', reason: 'ModelConfigReconciled', message: 'Model configuration accepted' }],
    [SERVERS, 'kagent-v2-remotemcpservers',
      { type: 'Accepted', reason: 'Reconciled', message: 'RemoteMCPServer accepted' }],
  ] as const).map(([resource, controllerName, condition]) =>
    new Controller(controllerName, ctx, (ns, name) => reconcilePlatformObject(ctx, resource, condition, ns, name))
      .watch(resource).resync(resource));
  return [agents, ...platform];
}
