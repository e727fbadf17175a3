/**
 * The `api.kagent.dev/v1alpha3` kinds the sandbox serves beside `kagent.dev/v1alpha2` (Giant Swarm's
 * kagent line, which the agent chart 2.x renders for): Agent, Harness, ModelConfig and
 * RemoteMCPServer, with upstream kagent's names, categories and printer columns (and the Agent's
 * Harness and revisions, which upstream's AgentTemplate has no column for).
 */
import { modelConfigSchema } from './schemas/kagent.js';
import { agentV2Schema, harnessSchema, remoteMcpServerSchema } from './schemas/kagent-v2-schemas.js';
import { jsonPathColumn, nameColumn } from './columns.js';
import { crd, ready } from './crd-def.js';
import { agentV2Rules, harnessRules } from './kagent-v2-rules.js';
import type { ResourceDef } from './resource-def.js';

const GROUP = 'api.kagent.dev';
const VERSION = 'v1alpha3';
const age = () => jsonPathColumn('Age', 'date', '.metadata.creationTimestamp');

export const agentsV2 = crd({
  group: GROUP, version: VERSION, resource: 'agents', kind: 'Agent', singular: 'agent',
  shortNames: [], categories: ['kagent'], schema: agentV2Schema, validate: agentV2Rules,
  columns: [
    nameColumn(),
    jsonPathColumn('Harness', 'string', '.spec.harnessRef.name', 'The Harness that runs the agent.'),
    jsonPathColumn('Ready', 'string', `${ready("'")}.status`, 'Whether the agent is ready to serve requests.'),
    jsonPathColumn('Revision', 'integer', '.status.latestSuccessfulRevision',
      'The latest revision the Harness compiled.'),
    age(),
  ],
});

export const harnesses = crd({
  group: GROUP, version: VERSION, resource: 'harnesses', kind: 'Harness', singular: 'harness',
  shortNames: [], categories: ['kagent'], schema: harnessSchema, validate: harnessRules,
  columns: [nameColumn(), jsonPathColumn('Ready', 'string', `${ready("'")}.status`), age()],
});

export const modelconfigsV2 = crd({
  group: GROUP, version: VERSION, resource: 'modelconfigs', kind: 'ModelConfig', singular: 'modelconfig',
  shortNames: ['mc'], categories: ['kagent'], schema: modelConfigSchema,
  columns: [nameColumn(), jsonPathColumn('Provider', 'string', '.spec.provider'),
    jsonPathColumn('Model', 'string', '.spec.model')],
});

export const remotemcpservers = crd({
  group: GROUP, version: VERSION, resource: 'remotemcpservers', kind: 'RemoteMCPServer', singular: 'remotemcpserver',
  shortNames: ['rmcps'], categories: ['kagent'], schema: remoteMcpServerSchema,
  columns: [
    nameColumn(),
    jsonPathColumn('Protocol', 'string', '.spec.protocol'),
    jsonPathColumn('URL', 'string', '.spec.url'),
    jsonPathColumn('Accepted', 'string', ".status.conditions[?(@.type=='Accepted')].status"),
  ],
});

/** The `api.kagent.dev` resources, in discovery order. */
export const KAGENT_V2_RESOURCES: readonly ResourceDef[] = [agentsV2, harnesses, modelconfigsV2, remotemcpservers];
