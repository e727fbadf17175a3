/**
 * The port the claude-Harness guard resolves a toolset through: muster's `filter_tools`, asked as the
 * caller (their token is the bearer), so the answer is what the agent will reach when it runs as that
 * person. A resolution either answers in full or fails with a ToolsetCheckError that says why, and the
 * guard fails closed on every failure (core/guards/claude-guard.ts): a partial answer is never a verdict.
 */
import { AppError } from '../../core/errors.js';
import type { ToolsetCheckFailure } from '../../core/guards/claude-guard.js';
import type { ToolsetResolution } from '../../core/guards/tool-verdict.js';

export interface ToolsetResolveRequest {
  /** muster's MCP endpoint (`--muster-url`). */
  readonly url: string;
  /** The bearer: the caller's IdP token (or `--muster-token-file`'s without OAuth). */
  readonly token: string;
  /** The agent's toolset, as it will be written. */
  readonly toolset: readonly string[];
  /** Ends the resolution early (the request went away). */
  readonly signal?: AbortSignal;
}

/** Resolves an agent's toolset as the caller, with preset:agent-platform in the same session. */
export interface ToolsetResolver {
  resolve(request: ToolsetResolveRequest): Promise<ToolsetResolution>;
}

/**
 * Why muster gave no resolution: unreachable (or no answer in time) and answering an error are the
 * gateway's failure (502 `backend_error`); refusing the token is the caller's (401 `unauthenticated`).
 * `failure` is what the guard's decision takes.
 */
export class ToolsetCheckError extends AppError {
  constructor(readonly failure: Extract<ToolsetCheckFailure, { detail: string }>, options?: { cause?: unknown }) {
    super(failure.kind === 'unauthorized' ? 'unauthenticated' : 'backend_error', failure.detail, options);
  }
}
