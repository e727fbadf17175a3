/**
 * The muster double's fixed catalogue: the MCPServers behind the gateway, their tools as muster exposes
 * them (`x_<server>_<tool>`), muster's own core tools and a workflow, and which servers need a per-person
 * sign-in. The tools carry the annotations their servers declare, some with `readOnlyHint: true`, some
 * marked as writes, some with no annotations at all (muster then reports none), so a toolset check sees
 * every case muster reports. Servers carry the platform's tool-group label, which the `infrastructure` and
 * `agent-platform` presets select by.
 */

/** The label platform-shipped MCPServers carry; the platform presets select by it. */
export const TOOL_GROUP_LABEL = 'agent-platform.giantswarm.io/tool-group';

/** muster's prefix before every server's tools. */
export const MUSTER_PREFIX = 'x';

/** MCP tool hints as a server declares them. */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
}

/** A tool of the catalogue, named as muster exposes it. */
export interface CatalogueTool {
  readonly name: string;
  readonly description: string;
  /** `tool` (an MCPServer's), `workflow` or `core` (muster's own). */
  readonly kind: 'tool' | 'workflow' | 'core';
  /** The owning MCPServer; absent for core tools and workflows. */
  readonly server?: string;
  /** Absent when the tool declares none. */
  readonly annotations?: ToolAnnotations;
}

/** An MCPServer behind muster. */
export interface CatalogueServer {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Its tools are listed only for a person who signed in to it (an OAuth server without token forwarding). */
  readonly signIn?: boolean;
  /** Tool names without the prefix. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly annotations?: ToolAnnotations }>;
}

export interface Catalogue {
  readonly servers: readonly CatalogueServer[];
  /** muster's core tools and workflows. */
  readonly own: readonly CatalogueTool[];
}

const RO: ToolAnnotations = { readOnlyHint: true, destructiveHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false };
const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true };

/** The catalogue the double serves unless told otherwise. */
export const DEFAULT_CATALOGUE: Catalogue = {
  servers: [
    { name: 'kubernetes', labels: { [TOOL_GROUP_LABEL]: 'infrastructure' }, tools: [
      { name: 'get', annotations: RO }, { name: 'list', annotations: RO }, { name: 'logs', annotations: RO },
      { name: 'apply', annotations: WRITE }, { name: 'delete', annotations: DESTRUCTIVE },
    ] },
    { name: 'prometheus', labels: { [TOOL_GROUP_LABEL]: 'infrastructure' }, tools: [
      { name: 'query', annotations: RO },
      // A server that declares no hints: muster reports none, and the tool is not read-only.
      { name: 'query_range' },
    ] },
    { name: 'agent-manager', labels: { [TOOL_GROUP_LABEL]: 'agent-platform' }, tools: [
      { name: 'list_agents', annotations: RO }, { name: 'get_agent', annotations: RO },
      { name: 'create_agent', annotations: WRITE }, { name: 'delete_agent', annotations: DESTRUCTIVE },
    ] },
    { name: 'kagent', labels: { [TOOL_GROUP_LABEL]: 'agent-platform' }, tools: [
      { name: 'list_agent_instances', annotations: RO },
      { name: 'invoke_agent_instance', annotations: WRITE },
    ] },
    { name: 'github', labels: {}, signIn: true, tools: [
      { name: 'get_issue', annotations: RO }, { name: 'create_issue', annotations: WRITE },
    ] },
  ],
  own: [
    { name: 'core_service_list', kind: 'core', description: 'List the MCP servers', annotations: RO },
    { name: 'core_workflow_list', kind: 'core', description: 'List the workflows', annotations: RO },
    { name: 'core_workflow_delete', kind: 'core', description: 'Delete a workflow', annotations: DESTRUCTIVE },
    { name: 'core_auth_login', kind: 'core', description: 'Sign in to a server', annotations: WRITE },
    { name: 'workflow_incident-triage', kind: 'workflow', description: 'Triage an incident (read-only steps)',
      annotations: { readOnlyHint: true } },
  ],
};

/** A server's tool prefix (`x_<server>_`). */
export const toolPrefix = (server: string): string => `${MUSTER_PREFIX}_${server}_`;

/** A server's tools as muster exposes them. */
export function serverTools(server: CatalogueServer): CatalogueTool[] {
  return server.tools.map((t) => ({
    name: `${toolPrefix(server.name)}${t.name}`, description: `${server.name}: ${t.name}`, kind: 'tool',
    server: server.name, ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
}

/** What one person sees: every server's tools but those of sign-in servers they have not signed in to. */
export function callerView(catalogue: Catalogue, signedIn: readonly string[]): {
  tools: CatalogueTool[]; pending: CatalogueServer[];
} {
  const listed = catalogue.servers.filter((s) => !s.signIn || signedIn.includes(s.name));
  const pending = catalogue.servers.filter((s) => s.signIn && !signedIn.includes(s.name));
  const tools = [...listed.flatMap(serverTools), ...catalogue.own].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { tools, pending };
}
