export function summaryOf(agent) {
    const release = agent.helmRelease;
    const summary = {
        name: agent.name,
        namespace: agent.namespace,
        // A row whose agent could not be read in full says why, as the full agent does.
        ...(agent.error !== undefined && { error: agent.error }),
        exists: agent.exists,
        ...(agent.displayName !== undefined && { displayName: agent.displayName }),
        ...(agent.description !== undefined && { description: agent.description }),
        ...(agent.modelConfig !== undefined && { modelConfig: agent.modelConfig }),
        ...(agent.toolset !== undefined && { toolset: agent.toolset }),
        ...(agent.implicitFullAccess !== undefined && { implicitFullAccess: agent.implicitFullAccess }),
        ready: agent.ready,
        managed: agent.managed,
    };
    if (release?.suspended)
        summary.suspended = true;
    if (release?.deleting)
        summary.deleting = true;
    if (release && release.ready !== true) {
        if (release.reason !== undefined)
            summary.releaseReason = release.reason;
        if (release.message !== undefined)
            summary.releaseMessage = release.message;
    }
    return summary;
}
//# sourceMappingURL=agent-summary.js.map