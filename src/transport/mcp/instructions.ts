/**
 * The MCP server instructions: what a model reads once, at `initialize`, before it sees
 * any tool. They say what an agent is here, in which order to call the tools, and the
 * rules a model would otherwise get wrong (names, toolsets, GitOps ownership), and once, the fleet
 * arguments every agent tool shares.
 */
import { SHIPPED_PRESETS } from '../../core/toolset/toolset-grammar.js';

const presets = SHIPPED_PRESETS.map((p) => `preset:${p}`).join(', ');

/** The instructions text of the agent-manager MCP server. */
export const MCP_INSTRUCTIONS = [
  'agent-manager creates, changes and removes AI agents on a Kubernetes agent platform.',
  'An agent here is a Flux HelmRelease of the generic agent Helm chart; every HelmRelease of a namespace renders ' +
  'from one ' +
    'shared OCIRepository of that chart, created with the first agent. Flux installs the release, and kagent runs ' +
    'the Agent it renders: as a Deployment on chart 0.x, on a Harness on chart 2.x.',
  '',
  'How to work with it:',
  '1. Call get_info first: it names the default and managed namespaces, the chart and schema version, which ' +
  'capabilities ' +
    'are on (skills, writes as the caller) and the identity the writes run as.',
  '2. Before create_agent, call list_model_configs: modelConfig must name an existing ModelConfig of the namespace. ' +
    'get_info\'s chartLines says which agent chart line each namespace follows: on 2.x an agent runs on a ' +
    'Harness (list_harnesses; harness on create and update) and takes plugins and requireApproval; on 0.x it ' +
    'takes runtime instead.',
  '3. For skills, call list_skills; each skill it reports becomes the skills gitRef {url: repoUrl, path, ref} (its ' +
  'repoUrl ' +
    'is the gitRef\'s url). Every skill is pinned when written (a branch or tag to its commit, an OCI tag to its ' +
    'digest); ' +
    'an update without skills keeps the pins, refreshSkills: true moves them to the heads of what they asked for.',
  '4. The technical name is a DNS-1123 label (lowercase letters, digits and "-", at most 63 characters). The user ' +
  'chooses it ' +
    'and confirms it; never derive it from the display name yourself.',
  `5. Every agent declares a toolset: selectors bounding which of the gateway's tools it may use. Shipped ` +
    `presets: ${presets}. ` +
    'Use ["preset:none"] for an agent without tools; preset:full is the deliberate choice of every tool.',
  '6. validate_agent is the dry run of create_agent (or of update_agent with update: true): it reports every ' +
  'problem and the ' +
    'composed manifests and writes nothing. Use it before a write when in doubt.',
  '7. After a write, wait_for_agent (or wait on the write itself) answers once the agent is ready or failed, ' +
  'instead of ' +
    'polling get_agent_status; both report one sentence on what to do when it is not ready.',
  '8. After wait_for_agent says ready, try the agent with start_session (a first message; it answers the agent\'s ' +
  'turn), ' +
    'continue with send_message, and read back with list_sessions and get_session (get_info capabilities.sessions ' +
    'says ' +
    'whether this installation offers them). Pass a requestId so a retried start answers the same session.',
  '',
  'Guards: agents whose HelmRelease is applied by GitOps (a Flux Kustomization) or is suspended are read-only here; ' +
    'update_agent and delete_agent refuse them unless force is set, and force should follow an explicit decision by ' +
    'the user, ' +
    'since GitOps will reapply its own version. Prefer mode "commit" for them: create_agent, update_agent, ' +
    'rollback_agent and ' +
    'delete_agent then propose the change as a pull request where the agent is defined in git, after the same ' +
    'checks, and ' +
    'return the pull request (get_info capabilities.commit says whether this installation can). An Agent CR without ' +
    'a ' +
    'HelmRelease (managed: none) was not made here and is deleted only with force.',
  '',
  'Fleet: the agent tools take organization and cluster (both or neither) to address an agent placed on that ' +
    'workload cluster: its HelmRelease <cluster>-<name> lives in org-<organization> on the management cluster and ' +
    "installs through the cluster's kubeconfig Secret <cluster>-kubeconfig; the Agent, its ModelConfigs, " +
    'Deployment, pods and events are read on the workload cluster. list_agents with organization alone lists ' +
    'every cluster of it.',
  '',
  'Results are JSON. A failed call is a tool error whose text starts with its code (invalid_request, not_found, ' +
  'conflict, ' +
    'forbidden, unauthenticated, unsupported, backend_error) followed by a message that says what to do next; a ' +
    'write refused ' +
    'by the guards above (GitOps-owned, suspended, a bare CR) is a conflict.',
].join('\n');
