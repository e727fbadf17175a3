/**
 * The phrases of chart 2.x's own arguments (the Harness, plugins, approval, the skills credential), kept beside the
 * shared ones of tool-descriptions.ts and spread into ARG; api/openapi.yaml words the same fields alike, which
 * argument-descriptions.test.ts holds.
 */
export const LINE2_ARGUMENTS = {
  harness: 'Chart 2.x only: the Harness that runs the agent, in its namespace (list_harnesses); default the ' +
    "installation's (--harness-name). On update the Harness must exist and be Ready.",
  plugins: 'Chart 2.x only: Agent Plugins bundles, each pinned (git commit or OCI digest) with the skills to enable; ' +
    'at most 20; on update [] clears them.',
  pluginGitUrl: 'http(s) URL of the repository.',
  pluginGitCommit: 'Full commit id, 40 or 64 hex characters.',
  pluginOci: 'Digest-pinned image reference, <registry>/<repository>@sha256:<digest>.',
  pluginPath: 'Directory of the bundle within the source.',
  pluginSkills: "Names of the bundle's skills to enable: at least one, at most 50, unique.",
  requireApproval: 'Chart 2.x only: pause before every tool call through muster until a person approves it ' +
    '(muster.requireApproval).',
  egress: "Chart 2.1 and later: the HTTP(S) origins the agent's sandbox may reach (agent.egress), at most 64; on a " +
    "claude Harness only the platform's origins for that Harness. On update the list replaces the whole egress " +
    'and [] removes it.',
  agentGitAuthSecretName: 'Chart 2.x: Secret in the namespace with the read credential for private git skills and ' +
    "plugins (key token); default the installation's.",
} as const;
