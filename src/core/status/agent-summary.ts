/**
 * The row a list page shows for an agent (`list_agents` with `details=false`): its names (and a
 * fleet agent's organization and cluster), model, toolset and readiness, without values, system
 * message or conditions. Flags that are only news when set (`suspended`, `deleting`) appear only
 * then, and the release's reason and message only while it is not Ready, so a healthy row stays small.
 */
import type { Agent, AgentSummary } from '../types.js';

export function summaryOf(agent: Agent): AgentSummary {
  const release = agent.helmRelease;
  const summary: AgentSummary = {
    name: agent.name,
    namespace: agent.namespace,
    // A fleet agent's row names its workload cluster: without them two rows of one name on two
    // clusters are identical, and read as agents on the management cluster.
    ...(agent.organization !== undefined && { organization: agent.organization }),
    ...(agent.cluster !== undefined && { cluster: agent.cluster }),
    // A row whose agent could not be read in full says why, as the full agent does.
    ...(agent.error !== undefined && { error: agent.error }),
    exists: agent.exists,
    ...(agent.displayName !== undefined && { displayName: agent.displayName }),
    ...(agent.description !== undefined && { description: agent.description }),
    ...(agent.modelConfig !== undefined && { modelConfig: agent.modelConfig }),
    ...(agent.harness !== undefined && { harness: agent.harness }),
    ...(agent.toolset !== undefined && { toolset: agent.toolset }),
    ...(agent.implicitFullAccess !== undefined && { implicitFullAccess: agent.implicitFullAccess }),
    ready: agent.ready,
    managed: agent.managed,
  };
  if (release?.suspended) summary.suspended = true;
  if (release?.deleting) summary.deleting = true;
  if (release && release.ready !== true) {
    if (release.reason !== undefined) summary.releaseReason = release.reason;
    if (release.message !== undefined) summary.releaseMessage = release.message;
  }
  return summary;
}
