/**
 * Asks muster about a claude Harness agent's toolset with the right bearer, and turns every way that can
 * fail into the guard's failure: the caller's token under `--enable-oauth`, else `--muster-token-file`'s.
 * No resolver or URL, no token, an unreadable token file and muster failing each become a failure the
 * guard (core/guards/claude-guard.ts) refuses on, so a write is never allowed on a partial answer.
 */
import type { ClaudeGuardInput } from '../../core/guards/claude-guard.js';
import type { RequestContext } from '../../identity/caller.js';
import { ToolsetCheckError, type ToolsetResolver } from './toolset-port.js';

/** What the check needs from the composition root. */
export interface ClaudeToolsetCheckDeps {
  readonly resolver?: ToolsetResolver;
  /** `--muster-url` (or its default); empty: no muster to ask. */
  readonly musterUrl: string;
  /** `--enable-oauth`: the caller's own token is the bearer. */
  readonly oauth: boolean;
  /** Without OAuth: `--muster-token-file`'s token (src/muster/token-file.ts); absent when none is configured. */
  readonly serviceToken?: () => Promise<{ token: string } | { problem: string }>;
}

/** What the guard's decision takes as `toolsetCheck`. */
export type ToolsetCheck = NonNullable<ClaudeGuardInput['toolsetCheck']>;

/** muster's answer for `toolset` or why there is none; undefined when there is no toolset to ask about. */
export async function checkClaudeToolset(
  deps: ClaudeToolsetCheckDeps, ctx: Pick<RequestContext, 'token' | 'signal'>, toolset: readonly string[] | undefined,
): Promise<ToolsetCheck | undefined> {
  if (toolset === undefined || toolset.length === 0) return undefined;
  if (!deps.resolver || deps.musterUrl === '') return { failure: { kind: 'unconfigured' } };
  let token = deps.oauth ? ctx.token : undefined;
  if (!deps.oauth && deps.serviceToken) {
    const read = await deps.serviceToken();
    if ('problem' in read) return { failure: { kind: 'error', detail: read.problem } };
    token = read.token;
  }
  if (!token) return { failure: { kind: 'no-token' } };
  try {
    return { resolution: await deps.resolver.resolve({ url: deps.musterUrl, token, toolset, signal: ctx.signal }) };
  } catch (err) {
    if (err instanceof ToolsetCheckError) return { failure: err.failure };
    return { failure: { kind: 'error', detail: err instanceof Error ? err.message : String(err) } };
  }
}
