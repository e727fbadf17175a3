/**
 * Chart 0.x values → chart 2.x values (docs/chart-lines.md "Migrating a namespace" holds the table). The agent's
 * identity, model, toolset, labels and annotations are kept exactly; skills become the pinned list (they must be
 * pinned already: the service pins them first, and a skill that could not be pinned is a refusal); the runtime
 * becomes a Harness; keys 2.x has no place for are dropped with a note each, or refused where dropping them would
 * change what the agent is (extraAgentSpec outside the template, extraTools, an over-long system prompt). Pure.
 */
import type { Values } from '../writes/compose.js';
import { systemMessageViolation } from '../chart-lines/line-arguments.js';
import { skillsList } from '../chart-lines/values-2x.js';
import { isFullCommit } from '../skills/skill-pins.js';
import type { GitRef } from '../types.js';
import { mapped, present, type Mapped } from './mapped.js';
import { extraAgentSpecRefusal, extraToolsRefusal } from './template-fields.js';
import { asList, asObject, optionalString, stringList } from '../json.js';

/** The Harness agents of runtime `go` (or none) run on after the move. */
export const DEFAULT_HARNESS = 'kagent';

export interface To2xOptions {
  /** `--harness-name` as given on the command line: every runtime maps to it (with a note). */
  harnessName?: string;
  /** `--muster-url`: written as `muster.url`, as a create on 2.x writes it. */
  musterUrl?: string;
}

const PINNED_OCI = /@sha256:[0-9a-f]{64}$/;
/** 0.x-only keys 2.x has no place for: dropped, each with a note saying what the 2.x agent does instead. */
const DROPPED_TOP: Record<string, string> = {
  replicas: 'the agent runs on its Harness, which has no per-agent replicas',
  resources: 'the agent runs on its Harness, which has no per-agent pod resources',
  nodeSelector: 'the agent runs on its Harness, which has no per-agent pods to place',
  tolerations: 'the agent runs on its Harness, which has no per-agent pods to place',
};
const DROPPED_MUSTER: Record<string, string> = {
  toolNames: 'on 2.x the toolset decides the tools (toolset is kept)',
  serverRef: 'on 2.x the chart renders the agent\'s own muster RemoteMCPServer',
  allowedHeaders: 'on 2.x the muster carrier forwards the caller\'s token itself',
  stsWellKnownUri: 'on 2.x the muster carrier forwards the caller\'s token itself',
};

function harnessOf(agent: Record<string, unknown>, options: To2xOptions, notes: string[], refusals: string[]) {
  const runtime = optionalString(agent.runtime);
  if (options.harnessName) {
    notes.push(`runtime ${runtime ?? '(unset)'} → Harness ${options.harnessName} (--harness-name)`);
    return options.harnessName;
  }
  if (runtime === undefined || runtime === 'go') {
    notes.push(`runtime ${runtime ?? '(unset)'} → Harness ${DEFAULT_HARNESS}`);
    return DEFAULT_HARNESS;
  }
  refusals.push(`runtime ${runtime} has no Harness of its own on chart 2.x (the Harness kagent runs the go runtime); ` +
    'give --harness-name <harness> on the command line to run every agent on that Harness, or move the agent to ' +
    'runtime go first');
  return undefined;
}

function skillsOf(skills: Record<string, unknown>, refusals: string[]): Values[] {
  // Cast kept: the refs are user values, unchecked; isFullCommit tests its argument's type, so a field of another
  // type reads as unpinned and the release is refused.
  const gitRefs = asList(skills.gitRefs).map(asObject) as unknown as GitRef[];
  const refs = stringList(skills.refs) ?? [];
  gitRefs.forEach((ref, i) => {
    if (!isFullCommit(ref.commit ?? ref.ref)) {
      refusals.push(`skills.gitRefs[${i}] (${ref.url}) is not pinned to a commit (ref ${ref.ref ?? '(default ' +
        'branch)'}); chart 2.x takes pinned skills only: configure --skills-repositories so migrate can pin it, ` +
        'or pin it with update_agent first');
    }
  });
  refs.forEach((ref, i) => {
    if (!PINNED_OCI.test(ref)) {
      refusals.push(`skills.refs[${i}] (${ref}) is not pinned to a digest; chart 2.x takes pinned skills only: ` +
        'pin it with update_agent (or a digest reference) first');
    }
  });
  return skillsList({ gitRefs, refs });
}

function agentOf(values: Values, options: To2xOptions, notes: string[], refusals: string[]): Values {
  const agent = asObject(values.agent);
  const { runtime: _runtime, ...rest } = agent;
  const tooLong = systemMessageViolation(optionalString(agent.systemMessage));
  if (tooLong) refusals.push(tooLong);
  const harness = harnessOf(agent, options, notes, refusals);
  return { ...rest, ...(harness ? { harness } : {}) };
}

function musterOf(values: Values, options: To2xOptions, notes: string[]): Values | undefined {
  const muster = asObject(values.muster);
  const out: Values = {};
  for (const [key, value] of Object.entries(muster)) {
    const why = DROPPED_MUSTER[key];
    if (why) {
      if (present(value)) notes.push(`muster.${key} dropped: ${why}`);
    } else out[key] = value;
  }
  if (options.musterUrl) out.url = options.musterUrl;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The 2.x values of a release's 0.x values, or the refusals that keep it on 0.x. */
export function mapTo2x(values: Values, options: To2xOptions = {}): Mapped {
  const notes: string[] = [];
  const refusals: string[] = [];
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'agent') out.agent = agentOf(values, options, notes, refusals);
    else if (key === 'skills') {
      const skills = asObject(value);
      const list = skillsOf(skills, refusals);
      if (list.length > 0) out.skills = list;
      const secret = optionalString(asObject(skills.gitAuthSecretRef).name);
      if (secret && list.some((s) => 'git' in s)) out.skillsGitAuthSecretRef = { name: secret };
      else if (secret) notes.push('skills.gitAuthSecretRef dropped: the agent has no git skill to read with it');
    } else if (key === 'muster') {
      const muster = musterOf(values, options, notes);
      if (muster) out.muster = muster;
    } else if (key in DROPPED_TOP) {
      if (present(value)) notes.push(`${key} dropped: ${DROPPED_TOP[key]}`);
    } else if (key === 'extraTools') {
      const refusal = extraToolsRefusal(value, '0.x');
      if (refusal) refusals.push(refusal);
    } else if (key === 'extraAgentSpec') {
      const refusal = extraAgentSpecRefusal(value);
      if (refusal) refusals.push(refusal);
      else if (present(value)) out.extraAgentSpec = structuredClone(value);
    } else out[key] = structuredClone(value);
  }
  if (!('agent' in values)) out.agent = agentOf(values, options, notes, refusals);
  if (!out.muster && options.musterUrl) out.muster = { url: options.musterUrl };
  return mapped(out, notes, refusals);
}
