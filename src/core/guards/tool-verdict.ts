/**
 * What a claude Harness agent's toolset may reach: only tools muster reports read-only for the caller (the
 * agent reads untrusted text with a shell at hand; its writes are git and the forge's CLI). muster resolves
 * the toolset again on every request, so a selector that selects nothing today, or a server whose tools are
 * unknown until the caller signs in, would let unchecked tools in later: both are refused. Pure.
 */

/** The preset of the platform's own tools (agent lifecycle and invocation). */
export const AGENT_PLATFORM_PRESET = 'preset:agent-platform';

/** Tool names a claude Harness agent never reaches, under any server prefix muster gives them. */
export const DENIED_TOOLS: readonly string[] = ['invoke_agent_instance'];

/** One tool as muster reports it for the caller: read-only only when its readOnlyHint is explicitly true. */
export interface ResolvedTool {
  readonly name: string;
  readonly readOnly: boolean;
  /** The MCPServer it comes from; absent for muster's core tools and workflows. */
  readonly server?: string;
}

/** What muster's filter_tools answered, as the caller, for an agent's toolset. */
export interface ToolsetResolution {
  /** The tools the toolset resolves to. */
  readonly tools: readonly ResolvedTool[];
  /** Servers the toolset's server:/tool:/workflow: selectors name whose tools are unknown until the caller signs in. */
  readonly signInRequired: readonly string[];
  /** Selectors of the toolset that selected no tool (muster's toolset_unmatched). */
  readonly unmatched: readonly string[];
  /** The tools of preset:agent-platform, resolved in the same session. */
  readonly agentPlatformTools: readonly ResolvedTool[];
}

const isPreset = (selector: string): boolean => selector.startsWith('preset:');

/**
 * The selectors that are not presets. muster reports the servers awaiting sign-in per toolset, and a preset
 * (read-only's readOnly rule) could select any server's tools once listed, so the servers a toolset names
 * are learnt by resolving these on their own; a preset is the platform's and admits only its own tools.
 */
export function explicitSelectors(toolset: readonly string[]): string[] {
  return toolset.filter((s) => !isPreset(s));
}

/** A denied name, bare or under any server prefix (`x_kagent_invoke_agent_instance`). */
export function isDeniedTool(name: string): boolean {
  return DENIED_TOOLS.some((denied) => name === denied || name.endsWith(`_${denied}`));
}

/**
 * Why a claude Harness agent may not have this toolset, in the original's words and order: servers awaiting
 * sign-in, selectors that select nothing, denied tools (`invoke_agent_instance`, and the agent-platform tools
 * that are not read-only: a read-only one is harmless in both presets), then tools without readOnlyHint.
 * Empty when every tool is read-only and allowed.
 */
export function toolsetViolations(resolution: ToolsetResolution): string[] {
  const out: string[] = [];
  const signIn = resolution.signInRequired.filter((s) => s !== '');
  if (signIn.length > 0) {
    out.push(`toolset names servers whose tools are unknown until you sign in to them (${signIn.join(', ')}): sign ` +
      'in through muster, then write the agent again');
  }
  const unknown = resolution.unmatched.filter((sel) =>
    !isPreset(sel) && !(sel.startsWith('server:') && signIn.includes(sel.slice('server:'.length)))).sort();
  if (unknown.length > 0) {
    out.push(`toolset selectors resolve to no tool for you: ${unknown.join(', ')}; name existing read-only tools, ` +
      'servers or workflows, or a preset such as preset:read-only');
  }
  const platformWrites = new Set(resolution.agentPlatformTools.filter((t) => !t.readOnly).map((t) => t.name));
  const denied: string[] = [];
  const writes: string[] = [];
  for (const tool of resolution.tools) {
    if (platformWrites.has(tool.name) || isDeniedTool(tool.name)) denied.push(tool.name);
    else if (!tool.readOnly) writes.push(tool.name);
  }
  if (denied.length > 0) {
    out.push('toolset reaches tools a claude Harness agent may not use (invoke_agent_instance and the ' +
      `${AGENT_PLATFORM_PRESET} tools that are not read-only): ${denied.sort().join(', ')}`);
  }
  if (writes.length > 0) {
    out.push(`toolset reaches tools that are not marked read-only (no readOnlyHint): ${writes.sort().join(', ')}; ` +
      "a claude Harness agent's writes are git and the forge's CLI from its workspace, so its muster tools are " +
      'read-only (preset:read-only)');
  }
  return out;
}
