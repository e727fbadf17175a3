/**
 * Tool calls in flight on this process, so a `notifications/cancelled` (a POST of its own) reaches the
 * call it names, which stops and frees its watches. A call is keyed by JSON-RPC id and sender (the
 * OAuth subject). Ids are unique only within a client and there are no sessions, so two clients of one
 * sender number requests alike: a cancellation is followed only when one call has the key and no other
 * request had it within RECENT_MS, else (or for another replica's call) ignored, as MCP allows.
 * Correctness never depends on this table; it only frees resources sooner.
 */
import {
  CancelledNotificationSchema, isJSONRPCNotification, type CancelledNotification, type JSONRPCMessage, type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { isJsonObject } from '../../core/json.js';

/** Stops one call: hands its server the cancellation and ends its HTTP response without an answer. */
export type CancelCall = (notification: CancelledNotification) => void;

/** How long another request with the same sender and id makes a cancellation ambiguous. */
export const RECENT_MS = 30_000;
/** The most keys remembered; beyond it the oldest are forgotten first. */
const MAX_REMEMBERED = 100_000;

/** One sighting of a request id: a request arriving, or a tracked call ending. */
interface Sighting { readonly at: number }
/** The last sighting of a key and the time of the one before it. */
interface Seen { last: Sighting; previousAt: number }

/** The calls in flight on this process, by sender and request id. */
export class InFlightCalls {
  private readonly calls = new Map<string, Map<CancelCall, Sighting>>();
  // Insertion order is sighting order (a key is moved to the end when seen), so pruning reads the front.
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A request (of any method) with this sender and id arrived; a tracked call's own arrival is track's. */
  saw(ctx: RequestContext, id: RequestId): void {
    this.sight(callKey(ctx, id));
  }

  /** Track a call until the returned function is called (when it has answered or its response closed). */
  track(ctx: RequestContext, id: RequestId, cancel: CancelCall): () => void {
    const key = callKey(ctx, id);
    const same = this.calls.get(key) ?? new Map<CancelCall, Sighting>();
    same.set(cancel, this.sight(key));
    this.calls.set(key, same);
    let tracked = true;
    return () => {
      if (!tracked) return;
      tracked = false;
      same.delete(cancel);
      if (same.size === 0 && this.calls.get(key) === same) this.calls.delete(key);
      // Its end is a sighting too: a cancellation of it may still be on its way.
      this.sight(key);
    };
  }

  /** Cancel the one call the notification names; false when none matches or the key is ambiguous (ignored). */
  cancel(ctx: RequestContext, notification: CancelledNotification): boolean {
    const id = notification.params.requestId;
    if (id === undefined) return false;
    const key = callKey(ctx, id);
    const same = this.calls.get(key);
    if (!same || same.size !== 1) return false;
    const [[cancel, own]] = same;
    const seen = this.seen.get(key);
    // No entry: nothing with this key was seen for RECENT_MS, this call included.
    if (seen) {
      const otherAt = seen.last === own ? seen.previousAt : seen.last.at;
      if (this.now() - otherAt < RECENT_MS) return false;
    }
    cancel(notification);
    return true;
  }

  /** How many calls are in flight (for tests). */
  get size(): number {
    let n = 0;
    for (const same of this.calls.values()) n += same.size;
    return n;
  }

  private sight(key: string): Sighting {
    const sighting = { at: this.now() };
    const before = this.seen.get(key);
    this.seen.delete(key);
    this.seen.set(key, { last: sighting, previousAt: before ? before.last.at : -Infinity });
    for (const [oldest, seen] of this.seen) {
      if (this.seen.size <= MAX_REMEMBERED && sighting.at - seen.last.at < RECENT_MS) break;
      this.seen.delete(oldest);
    }
    return sighting;
  }
}

/** The sender and the id; a string id and a number id are different ids. */
function callKey(ctx: RequestContext, id: RequestId): string {
  const sender = ctx.caller ? `${ctx.caller.source}:${ctx.caller.subject}` : '';
  return `${sender}\u0000${JSON.stringify(id)}`;
}

/** The message as a `notifications/cancelled` naming a request, or undefined. */
export function asCancellation(message: JSONRPCMessage): CancelledNotification | undefined {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return undefined;
  const parsed = CancelledNotificationSchema.safeParse(message);
  return parsed.success && parsed.data.params.requestId !== undefined ? parsed.data : undefined;
}

/** The ids of the requests in a body (one message or a batch); notifications and responses have none. */
export function requestIds(parsed: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const ids: RequestId[] = [];
  for (const m of messages) {
    if (!isJsonObject(m) || typeof m.method !== 'string') continue;
    if (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id))) ids.push(m.id);
  }
  return ids;
}

/**
 * The id of a body that is exactly one `tools/call` request. Only such calls are tracked:
 * a batch shares one response among its requests, which cannot end for one of them alone.
 */
export function singleToolCallId(parsed: unknown): RequestId | undefined {
  if (!isJsonObject(parsed) || parsed.method !== 'tools/call') return undefined;
  const id = parsed.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
