/**
 * The claude-Harness guard's one decision, for create, update, validate and their dry runs: the egress
 * becomes the platform's list for the Harness (an origin asked for outside it is refused), the prompt
 * carries the network note within the cap, no approval or extra tool binding, and the toolset, resolved
 * through muster as the caller, reaches only read-only tools outside the deny list. It fails closed: no
 * answer from muster refuses the write. Pure: the caller reads first and passes plain data.
 */
import { bindingViolations } from './bindings.js';
import { egressViolation, harnessEgressViolations } from './egress.js';
import { notedPromptViolation, withNetworkNote } from './system-prompt.js';
import { toolsetViolations, type ToolsetResolution } from './tool-verdict.js';
import { asObject } from '../json.js';

type Values = Readonly<Record<string, unknown>>;

/** Why muster's answer is missing: no URL configured, no token to ask with, or muster failed or refused. */
export type ToolsetCheckFailure =
  | { readonly kind: 'unconfigured' }
  | { readonly kind: 'no-token' }
  | { readonly kind: 'unreachable' | 'error' | 'unauthorized'; readonly detail: string };

/** The recorded verdict of an allowed write: who was checked, when, and what the agent reaches. */
export interface GuardVerdict {
  readonly harness: string;
  readonly caller: string;
  readonly checkedAt: string;
  readonly tools: ReadonlyArray<{ readonly name: string; readonly readOnly: boolean }>;
}

export interface ClaudeGuardInput {
  /** The Harness's name (its object has `spec.claude`). */
  readonly harness: string;
  /** The platform's origins for this Harness (`--harness-egress`). */
  readonly harnessEgress: readonly string[];
  /** The values the write would write (for an update: merged with the release's, so carried bindings count). */
  readonly values: Values;
  /** The egress the caller asked for; undefined when the request leaves it alone. */
  readonly requestedEgress?: readonly string[];
  /** Who the toolset was resolved as (the caller's name, as revisions record it). */
  readonly caller: string;
  /** When (RFC 3339). */
  readonly checkedAt: string;
  /** muster's resolution of `values.toolset`, or why there is none; absent when the toolset is missing. */
  readonly toolsetCheck?: { readonly resolution: ToolsetResolution } | { readonly failure: ToolsetCheckFailure };
}

/** A refusal: the error code to answer with and every reason, the first being the one a write reports. */
export interface GuardRefusal {
  readonly code: 'invalid_request' | 'backend_error' | 'unauthenticated';
  readonly reasons: readonly string[];
}

export type ClaudeGuardDecision =
  | { readonly refuse: GuardRefusal }
  | { readonly allow: { readonly values: Record<string, unknown>; readonly guard: GuardVerdict } };

/** The toolset muster must resolve (the values' `toolset`), or undefined when there is none to ask about. */
export function claudeToolset(values: Values): string[] | undefined {
  const toolset = values.toolset;
  if (!Array.isArray(toolset) || toolset.length === 0) return undefined;
  return toolset.filter((s): s is string => typeof s === 'string');
}

const KNOWN_READ_ONLY = 'a claude Harness agent is written only once its toolset is known to be read-only';

/** The refusal for a toolset muster could not check, in the original's words, and its code. */
export function uncheckedToolset(failure: ToolsetCheckFailure): { code: GuardRefusal['code']; reason: string } {
  switch (failure.kind) {
    case 'unconfigured':
      return { code: 'backend_error',
        reason: `toolset could not be checked: this agent-manager has no muster client, and ${KNOWN_READ_ONLY}` };
    case 'no-token':
      return { code: 'unauthenticated', reason: "toolset could not be checked with muster's filter_tools (no caller " +
        `token: under --enable-oauth the caller's, else --muster-token-file's); ${KNOWN_READ_ONLY}` };
    default:
      return { code: failure.kind === 'unauthorized' ? 'unauthenticated' : 'backend_error',
        reason: `toolset could not be checked with muster's filter_tools (${failure.detail}); ${KNOWN_READ_ONLY}` };
  }
}

/** The guard's decision for one write of an agent on a claude Harness. */
export function claudeGuardDecision(input: ClaudeGuardInput): ClaudeGuardDecision {
  const reasons: string[] = [];
  const requested = input.requestedEgress ?? [];
  const requestedProblem = egressViolation(requested);
  if (requestedProblem) reasons.push(requestedProblem);
  else reasons.push(...harnessEgressViolations(requested, input.harness, input.harnessEgress));

  const agent = { ...asObject(input.values.agent) };
  const given = typeof agent.systemMessage === 'string' ? agent.systemMessage : '';
  const prompt = withNetworkNote(given, input.harnessEgress);
  const promptProblem = notedPromptViolation(prompt);
  if (promptProblem) reasons.push(promptProblem);
  reasons.push(...bindingViolations(input.values));

  let code: GuardRefusal['code'] = 'invalid_request';
  const check = input.toolsetCheck;
  if (claudeToolset(input.values) === undefined || check === undefined) {
    reasons.push(`toolset is required on a claude Harness agent (Harness ${input.harness}): name its read-only ` +
      'tools, e.g. toolset: ["preset:read-only"]');
  } else if ('failure' in check) {
    const unchecked = uncheckedToolset(check.failure);
    code = unchecked.code;
    reasons.unshift(unchecked.reason);
  } else {
    reasons.push(...toolsetViolations(check.resolution));
  }
  if (reasons.length > 0 || check === undefined || 'failure' in check) return { refuse: { code, reasons } };

  agent.systemMessage = prompt;
  if (input.harnessEgress.length > 0) agent.egress = [...input.harnessEgress];
  else delete agent.egress;
  const tools = [...check.resolution.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => ({ name: t.name, readOnly: t.readOnly }));
  return {
    allow: {
      values: { ...input.values, agent },
      guard: { harness: input.harness, caller: input.caller, checkedAt: input.checkedAt, tools },
    },
  };
}
