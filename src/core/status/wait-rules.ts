/**
 * Waiting for a rollout, the pure part: a wait's bounds, when a status ends it (where the caller asked,
 * or early when the agent cannot get there on its own, or at the deadline; docs/safe-change.md "Waiting
 * for the rollout"), and when a status is news: only when its verdict or summary changed, since event
 * counts and timestamps move without changing what the agent is doing.
 */
import { invalid } from '../errors.js';
import { Verdict, type Status } from '../types.js';

/** The longest wait one call may ask for, in seconds (a tool call and an HTTP stream stay bounded). */
export const WAIT_MAX_SECONDS = 600;
/** wait_for_agent's and the status stream's timeout when none is given, in seconds. */
export const WAIT_DEFAULT_SECONDS = 60;

export type WaitUntil = 'ready' | 'deleted';
/** Why a wait ended: the `reason` of the status stream's `end` event. */
export type WaitEnd = 'ready' | 'failed' | 'deleted' | 'timeout';

/** A refused value as the refusal quotes it (a string quoted, at most 32 characters of it). */
const given = (value: unknown): string =>
  (typeof value === 'string' ? JSON.stringify(value.slice(0, 32)) : String(value));

/**
 * A timeout in whole seconds within `[min, WAIT_MAX_SECONDS]`, or the 400 that says the
 * range. `min` is 1 for a wait (a zero-second wait is a plain status read) and 0 for a
 * write's `wait` (0: answer at once, without waiting).
 */
export function waitSeconds(field: string, value: unknown, min: 0 | 1, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > WAIT_MAX_SECONDS) {
    const zero = min === 0 ? ' (0: answer at once, without waiting)' : '';
    throw invalid(`${field} must be a whole number of seconds from ${min} to ${WAIT_MAX_SECONDS}${zero}, ` +
      `got ${given(value)}`);
  }
  return value;
}

/** A `generation` to wait for: a whole number of at least 1, or the 400 that says so. */
export function waitGeneration(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw invalid(`generation must be a whole number of at least 1 (a write's generation), got ${given(value)}`);
}

/**
 * A write's `wait` in seconds (0: answer at once), or the 400 that says why not. A dry run
 * stores nothing and a commit-mode write reaches the cluster only once its pull request is
 * merged, so neither has a rollout to wait for: asking for one is refused rather than
 * ignored, so a caller never takes an unwaited answer for a rolled-out agent.
 */
export function writeWaitSeconds(request: { wait?: unknown; dryRun?: boolean; mode?: string }): number {
  const seconds = waitSeconds('wait', request.wait, 0, 0);
  if (seconds === 0) return 0;
  if (request.dryRun === true) {
    throw invalid('wait cannot be combined with dryRun: a dry run stores nothing, so there is no rollout to wait for');
  }
  if (request.mode === 'commit') {
    throw invalid('wait needs mode apply: in commit mode nothing reaches the cluster until the pull request is ' +
      'merged; call wait_for_agent once Flux applies it');
  }
  return seconds;
}

/** How a wait for `until` ends with this status (`gone`: neither the Agent nor its HelmRelease exists), if it does. */
export function waitEnd(status: Status, gone: boolean, until: WaitUntil): Exclude<WaitEnd, 'timeout'> | undefined {
  if (gone) return 'deleted';
  if (until === 'deleted') return undefined;
  if (status.verdict === Verdict.Ready) return 'ready';
  if (status.verdict === Verdict.Failed) return 'failed';
  return undefined;
}

/** True when `next` tells the client something `previous` did not: another verdict or summary. */
export function isNews(previous: Status | undefined, next: Status): boolean {
  return previous === undefined || previous.verdict !== next.verdict || previous.summary !== next.summary;
}

/** The status of an agent whose Agent and HelmRelease are both gone. */
export function goneStatus(namespace: string, name: string): Status {
  return {
    name,
    namespace,
    verdict: Verdict.Unknown,
    summary: `agent ${namespace}/${name} is deleted: neither its Agent nor its HelmRelease exists`,
    agent: { exists: false, ready: null, accepted: null },
    helmRelease: { exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: false },
  };
}

/** Seconds between two instants (ms) to a tenth, never negative. */
export function elapsedSeconds(startMs: number, endMs: number): number {
  return Math.max(0, Math.round((endMs - startMs) / 100) / 10);
}
